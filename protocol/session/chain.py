"""Where an entry that arrives belongs in the chain, before anything in it is read.

One chain, one total order: an entry is the next one (same game id,
sequence number = the chain's length, previous hash = the last entry's), a
copy of one we hold (harmless), or out of place. Out of place names a seat
only on evidence that stands on its own (SSB's rule): a *fork*, two
different entries signed by one author with the same game id, the same
sequence number and the same previous hash. Anything else out of place (an
entry of another game or from before the game had an id, an old or skipped
sequence number, a broken previous-hash) is dropped as noise
(:class:`~.events.OutOfPlace`): a signature proves its author signed those
bytes once, not that the author sent them here, so it is never blamed on
the author.
"""

from __future__ import annotations

from typing import Protocol, Sequence, overload

from lanterne.protocol.log import FIRST_PREV, Entry, open_entry
from lanterne.protocol.wire import ProtocolError, check

from .events import OutOfPlace
from .kinds import ABORT, AGREE, CLAIM, REFUSE, REPLACE
from .roster import Roster


class Chain(Sequence[Entry]):
    """The game's entries in their one order, the game's id, and the claims against our seat held aside.

    A claim against our seat at a place our own entry holds is not in the
    chain: it is *held* (by its hash, with the agreements built on it so
    far) until the others took it or our entry voided it (:mod:`.claims`).
    ``replaced_at`` is the place of the replace under way or done: from there
    on, the entries of the replaced seat's old key are dropped.
    """

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.game_id = b""
        self.held: dict[bytes, tuple[Entry, int]] = {}
        self.replaced_at = 0
        self.genesis_start = 0
        """The place of the first genesis entry."""

    def __len__(self) -> int:
        return len(self.entries)

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> list[Entry]: ...

    def __getitem__(self, index: int | slice) -> Entry | list[Entry]:
        return self.entries[index]

    def __eq__(self, other: object) -> bool:
        """Equal to a chain or a list of the same entries (``session.chain == []``: nothing is logged)."""
        if isinstance(other, Chain):
            return self.entries == other.entries
        return isinstance(other, list) and self.entries == other

    @property
    def last_hash(self) -> bytes:
        """What the next entry's previous-hash must be."""
        return self.entries[-1].hash if self.entries else FIRST_PREV

    def append(self, entry: Entry) -> None:
        self.entries.append(entry)

    def take_back(self, seq: int) -> list[Entry]:
        """Remove the entries from place ``seq`` on (a voided claim and its answers); returns them."""
        gone = self.entries[seq:]
        del self.entries[seq:]
        return gone

    def last_claim(self) -> Entry | None:
        """The claim or replace the chain ends with, followed only by answers to it (None: it ends otherwise)."""
        at = len(self.entries)
        while at > 0 and self.entries[at - 1].kind in (AGREE, REFUSE):
            at -= 1
        if at == 0 or self.entries[at - 1].kind not in (CLAIM, REPLACE):
            return None
        claim = self.entries[at - 1]
        if any(e.body.get("replace", e.body.get("claim")) != claim.hash for e in self.entries[at:]):
            return None
        return claim

    def hold(self, root: Entry, entry: Entry, agreed: int) -> None:
        """Hold ``entry`` aside on the branch of the claim ``root`` against our seat, ``agreed`` answers in."""
        self.held[entry.hash] = (root, agreed)

    def replacing(self, key: bytes) -> bool:
        """Whether ``key`` is the computer named by a replace against our seat that is held aside."""
        return any(root.kind == REPLACE and root.body["key"] == key for root, _ in self.held.values())

    def copy(self) -> "Chain":
        twin = Chain()
        twin.entries, twin.game_id, twin.held, twin.replaced_at = (list(self.entries), self.game_id, dict(self.held),
                                                                   self.replaced_at)
        twin.genesis_start = self.genesis_start
        return twin


class Placing(Protocol):
    """What placement needs of a session: the chain (with its held claims), who is who, the schemas."""

    chain: Chain
    roster: Roster
    schemas: dict[str, dict]

    @property
    def seats(self) -> list[bytes]: ...


class Holding(Protocol):
    """What placement asks of the claims: whether an entry voids the claim the chain ends with, or is a claim
    against our seat to hold aside, or is built on one held (:mod:`.claims`)."""

    def claim_voided(self, entry: Entry) -> bool: ...

    def claimed_while_gone(self, entry: Entry) -> bool: ...

    def built_on_held(self, entry: Entry) -> bool: ...

NEXT, HELD = "next", "held"


def place(s: Placing, claims: Holding, entry: Entry, blame: int | None) -> str:
    """``NEXT`` if ``entry`` extends the chain, ``HELD`` if it needs nothing more (a claim against our seat
    at a place our own entry holds, or an entry built on it: :mod:`.claims`); ProtocolError naming the
    author for a fork; else :class:`OutOfPlace` (dropped)."""
    index = len(s.chain)
    if entry.seq < index and entry.kind not in (ABORT, CLAIM, REPLACE) and claims.claim_voided(entry):
        index = len(s.chain)      # the claim and its answers taken back: the claimed seat's own entry takes its place
    who = f"entry {entry.seq} ({entry.kind}) signed by {s.roster.seat_label(entry.author)}"
    if entry.game != s.chain.game_id:
        if not s.chain.game_id:
            raise OutOfPlace(f"{who} carries a game id before the game has one", hostile=True)
        raise OutOfPlace(f"{who} belongs to another game", hostile=True)
    if entry.kind in (CLAIM, REPLACE) and entry.seq < index and claims.claimed_while_gone(entry):
        return HELD
    if s.chain.held and claims.built_on_held(entry):
        return HELD
    if entry.seq < index:
        old = s.chain[entry.seq]
        if old.author == entry.author and old.prev == entry.prev:
            raise ProtocolError(f"seat {s.roster.seat_name(entry.author)} signed two different entries for "
                                f"sequence number {entry.seq}", blame)
        before = s.chain[entry.seq - 1].hash if entry.seq else FIRST_PREV
        if entry.kind == ABORT and entry.author in (s.seats or s.roster.keys()) and entry.prev == before:
            conflicting_abort(s, entry)
        raise OutOfPlace(f"{who}: that place is already taken (next is {index})")
    if entry.seq > index:
        raise OutOfPlace(f"{who} skips {index} (missing or reordered entries)")
    if entry.prev != s.chain.last_hash:
        raise OutOfPlace(f"{who} does not link to the previous entry (broken previous-hash)")
    return NEXT


def conflicting_abort(s: Placing, entry: Entry) -> None:
    """Another member ended the game at a place our log already fills with another author's entry (a race:
    its abort and that entry were written at once), so the game is over for it, and for us.

    If its evidence holds an entry signed by the same author as ours at
    the same number but different, that author forked the chain: blame it.
    Otherwise nobody can be blamed from here.
    """
    try:
        check(s.schemas[ABORT], entry.body, ABORT)      # its shape first: nothing is read before
    except ProtocolError as e:
        raise ProtocolError(f"{s.roster.seat_label(entry.author)} sent an abort at entry {entry.seq}, which our log "
                            f"fills otherwise, and it is malformed ({e})", None) from None
    for raw in entry.body["evidence"]:
        try:
            shown = open_entry(raw)
        except ProtocolError:
            continue
        if shown.seq < len(s.chain):
            ours = s.chain[shown.seq]
            if (ours.author == shown.author and ours.raw != shown.raw and shown.game == ours.game
                    and shown.prev == ours.prev):
                raise ProtocolError(f"seat {s.roster.seat_name(shown.author)} signed two different entries for "
                                    f"sequence number {shown.seq} (one shown by {s.roster.seat_label(entry.author)}"
                                    f"'s abort)", s.roster.seat_of(shown.author))
    reason = entry.body["reason"]
    raise ProtocolError(f"{s.roster.seat_label(entry.author)} ended the game at entry {entry.seq}, which our log "
                        f"fills otherwise ({str(reason)[:200]})", None)
