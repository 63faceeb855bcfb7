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

from typing import Protocol

from lanterne.protocol.log import FIRST_PREV, Entry, open_entry
from lanterne.protocol.wire import ProtocolError, check

from .events import OutOfPlace
from .kinds import ABORT, CLAIM, REPLACE
from .roster import Roster


class Placing(Protocol):
    """What placement needs of a session: the chain, the game id, who is who, the schemas, and the held claims
    against our seat (:mod:`.claims`)."""

    chain: list[Entry]
    game_id: bytes
    roster: Roster
    _schemas: dict[str, dict]
    _held: dict[bytes, tuple[Entry, int]]

    @property
    def seats(self) -> list[bytes]: ...

    def _claim_voided(self, entry: Entry) -> bool: ...

    def _claimed_while_gone(self, entry: Entry) -> bool: ...

    def _built_on_held(self, entry: Entry) -> bool: ...

NEXT, HELD = "next", "held"


def place(s: Placing, entry: Entry, blame: int | None) -> str:
    """``NEXT`` if ``entry`` extends the chain, ``HELD`` if it needs nothing more (a claim against our seat
    at a place our own entry holds, or an entry built on it: :mod:`.claims`); ProtocolError naming the
    author for a fork; else :class:`OutOfPlace` (dropped)."""
    index = len(s.chain)
    if entry.seq < index and entry.kind not in (ABORT, CLAIM, REPLACE) and s._claim_voided(entry):
        index = len(s.chain)      # the claim and its answers taken back: the claimed seat's own entry takes its place
    who = f"entry {entry.seq} ({entry.kind}) signed by {s.roster.seat_label(entry.author)}"
    if entry.game != s.game_id:
        if not s.game_id:
            raise OutOfPlace(f"{who} carries a game id before the game has one", hostile=True)
        raise OutOfPlace(f"{who} belongs to another game", hostile=True)
    if entry.kind in (CLAIM, REPLACE) and entry.seq < index and s._claimed_while_gone(entry):
        return HELD
    if s._held and s._built_on_held(entry):
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
    expected_prev = s.chain[-1].hash if s.chain else FIRST_PREV
    if entry.prev != expected_prev:
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
        check(s._schemas[ABORT], entry.body, ABORT)      # its shape first: nothing is read before
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
