"""Who puts our entries into the chain: a live writer signs them; a replay writer takes them from our log.

A session runs the same code live and when it is rebuilt from a log (a
restart, ``lanterne verify``); only its writer differs. Entries the seat
*must* write (a fair step, a reveal, a result) go through :meth:`write`:
live, they are signed; in a replay, the log must hold exactly them.
Entries that are the seat's free *choice* (a hello, the table, an abort)
go through :meth:`choose`: live, they are signed; in a replay nothing is
written, and the log's own entry arrives as any other.

A live writer resumed from a log that lost entries it had signed (its
``signed`` mark, kept in the game's ``.signed`` file, is past the log's end) signs
nothing at those places: Ed25519 signs the same bytes the same way, but a
choice (a move, a claim) may come out differently, and two entries of one
author for one place are a fork that names it. Until the chain reaches the
mark it reads its own entries back from the others, exactly as a replay
reads them from a log (:meth:`LiveWriter.learn`). An entry that never left
this peer before its disk lost it cannot come back: once every other seat has
been linked for the claim time without sending it, the hold is given up
(:meth:`LiveWriter.wait`).
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Protocol

from lanterne.protocol import identity as ids
from lanterne.protocol.log import Entry, seal
from lanterne.protocol.wire import ProtocolError, pack

from .chain import Chain
from .events import HoldGivenUp, LogRepaired, ReplayEnd, ReplayMismatch
from .kinds import ABORT
from .roster import Roster


class Chained(Protocol):
    """What a writer needs of a session: who signs, the chain and the game it extends, who is who."""

    identity: ids.Identity | None
    public: bytes
    chain: Chain
    roster: Roster
    events: list

    def append(self, entry: Entry) -> None: ...


class LiveWriter:
    """Signs our entries with our identity; every accepted entry goes to ``store`` (the log file).

    ``signed``: how many places of the chain we may have signed before (a resume's mark); below it we sign
    nothing and take our own entries from :attr:`learned`, as a replay does from its log. None: the mark was
    damaged, we may have signed any place past our log, and we hold until :meth:`wait` gives up.
    """

    live = True
    checks_evidence = False

    def __init__(self, store: Callable[[bytes], None] | None = None, signed: int | None = 0, have: int = 0):
        self.store = store
        self.damaged = signed is None
        """How far we signed is unknown (a damaged mark): every place past our log is held."""
        self.signed = have if signed is None else signed
        self.lost = max(0, self.signed - have)
        """Entries past our log's end that we may have signed (0: the log reaches the mark, or nobody knows)."""
        self.learned: deque[Entry] = deque()
        self._since: tuple[int, float] | None = None

    def holding(self, s: Chained) -> bool:
        """Whether the next place is one we may have signed before: we wait for our own entry from the others."""
        return self.damaged or len(s.chain) < self.signed

    def learn(self, entry: Entry) -> None:
        """Our own entry for a place we hold, sent back by another seat; :meth:`write` takes it (one per place:
        a seat that sends it again and again makes us hold no more)."""
        if all(known.seq != entry.seq for known in self.learned):
            self.learned.append(entry)

    def wait(self, s: Chained, now: float, linked: bool, timeout: float | None) -> bool:
        """Time passes while we hold: True once every other seat was ``linked`` for ``timeout`` seconds with
        no entry coming (none of them has what we lost: it never left us), and the hold is given up."""
        if not self.holding(s) or not linked or timeout is None:
            self._since = None
            return False
        if self._since is None or self._since[0] != len(s.chain):
            self._since = (len(s.chain), now)
        if now - self._since[1] < timeout:
            return False
        s.events.append(HoldGivenUp(None if self.damaged else self.signed - len(s.chain), timeout))
        self.signed, self.lost, self.damaged, self._since = len(s.chain), 0, False, None
        return True

    def write(self, s: Chained, kind: str, body: dict) -> Entry:
        if s.identity is None:
            raise ReplayEnd()     # a watcher writes nothing
        if self.holding(s):
            return ReplayWriter(self.learned).write(s, kind, body)
        entry = seal(s.identity, game=s.chain.game_id, seq=len(s.chain), prev=s.chain.last_hash, kind=kind, body=body)
        s.append(entry)
        return entry

    def choose(self, s: Chained, kind: str, body: dict) -> Entry | None:
        if s.identity is None or self.holding(s):
            return None     # held: our own choice, if we made one here, comes back as any other entry
        return self.write(s, kind, body)

    def may_write(self, s: Chained) -> bool:
        return s.identity is not None and (not self.holding(s) or bool(self.learned))

    def keep(self, s: Chained, entry: Entry) -> None:
        if self.store is not None:
            self.store(entry.raw)
            mark = getattr(self.store, "signed", None)
            if mark is not None and entry.author == s.public:
                mark(entry.seq + 1)      # after the log has it, before any link can send it
        if self.lost and not self.holding(s):
            s.events.append(LogRepaired(self.lost))
            self.lost = 0

    def retract(self, s: Chained, entry: Entry) -> None:
        """Take back our last entry (a claim that lost its race) from the store, if it can (the mark stays:
        we did sign it)."""
        retract = getattr(self.store, "retract", None)
        if retract is not None:
            retract(entry.raw)


class ReplayWriter:
    """Takes our entries from the log being replayed and checks they are what we would have written."""

    live = False

    def __init__(self, entries: deque[Entry], checks_evidence: bool = False):
        self.entries = entries
        self.checks_evidence = checks_evidence
        """verify: an abort of ours must carry evidence that blames the seat it names."""

    def write(self, s: Chained, kind: str, body: dict) -> Entry:
        if not self.entries:
            raise ReplayEnd()
        logged = self.entries[0]
        seat = s.roster.seat_of(s.public)
        if logged.author != s.public and logged.kind != ABORT:
            err = ProtocolError(f"entry {len(s.chain)} ({logged.kind}) is {s.roster.seat_label(s.public)}'s to write, not "
                                f"{s.roster.seat_label(logged.author)}'s (wrong author)", s.roster.seat_of(logged.author))
            err.entry = len(s.chain)
            raise err
        if logged.kind == ABORT:
            raise ReplayEnd()
        if logged.author != s.public or logged.kind != kind or pack(logged.body) != pack(body):
            err = ReplayMismatch(f"seat {seat + 1 if seat is not None else '?'} should have written {kind} here, "
                                 f"and its log entry {len(s.chain)} differs", seat)
            err.entry = len(s.chain)
            raise err
        self.entries.popleft()
        if logged.seq != len(s.chain) or logged.prev != s.chain.last_hash or logged.game != s.chain.game_id:
            raise ReplayMismatch(f"entry {len(s.chain)} is out of place in the chain", s.roster.seat_of(logged.author))
        s.append(logged)
        return logged

    def choose(self, s: Chained, kind: str, body: dict) -> Entry | None:
        """Nothing: the log's own entry comes as received. An abort ends what we write here
        (:class:`ReplayEnd`): the log's abort follows, naming the same seat, or the replay fails."""
        if kind == ABORT:
            raise ReplayEnd()
        return None

    def may_write(self, s: Chained) -> bool:
        return bool(self.entries)

    def holding(self, s: Chained) -> bool:
        return False

    def keep(self, s: Chained, entry: Entry) -> None:
        pass

    def retract(self, s: Chained, entry: Entry) -> None:
        pass
