"""Who puts our entries into the chain: a live writer signs them; a replay writer takes them from our log.

A session runs the same code live and when it is rebuilt from a log (a
restart, ``lanterne verify``); only its writer differs. Entries the seat
*must* write (a fair step, a reveal, a result) go through :meth:`write`:
live, they are signed; in a replay, the log must hold exactly them.
Entries that are the seat's free *choice* (a hello, the table, an abort)
go through :meth:`choose`: live, they are signed; in a replay nothing is
written, and the log's own entry arrives as any other.
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Protocol

from lanterne.protocol import identity as ids
from lanterne.protocol.log import Entry, seal
from lanterne.protocol.wire import ProtocolError, pack

from .chain import Chain
from .events import ReplayEnd, ReplayMismatch
from .kinds import ABORT
from .roster import Roster


class Chained(Protocol):
    """What a writer needs of a session: who signs, the chain and the game it extends, who is who."""

    identity: ids.Identity | None
    public: bytes
    chain: Chain
    roster: Roster

    def append(self, entry: Entry) -> None: ...


class LiveWriter:
    """Signs our entries with our identity; every accepted entry goes to ``store`` (the log file)."""

    live = True
    checks_evidence = False

    def __init__(self, store: Callable[[bytes], None] | None = None):
        self.store = store

    def write(self, s: Chained, kind: str, body: dict) -> Entry:
        if s.identity is None:
            raise ReplayEnd()     # a watcher writes nothing
        entry = seal(s.identity, game=s.chain.game_id, seq=len(s.chain), prev=s.chain.last_hash, kind=kind, body=body)
        s.append(entry)
        return entry

    def choose(self, s: Chained, kind: str, body: dict) -> Entry | None:
        return self.write(s, kind, body) if s.identity is not None else None

    def may_write(self, s: Chained) -> bool:
        return s.identity is not None

    def keep(self, s: Chained, entry: Entry) -> None:
        if self.store is not None:
            self.store(entry.raw)

    def retract(self, s: Chained, entry: Entry) -> None:
        """Take back our last entry (a claim that lost its race) from the store, if it can."""
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

    def keep(self, s: Chained, entry: Entry) -> None:
        pass

    def retract(self, s: Chained, entry: Entry) -> None:
        pass
