"""A tiny in-memory driver: how a session runs fair tables, for tests and benchmarks.

:func:`run_op` passes every message through canonical msgpack and back, as
the wire would, and keeps the log of steps that :func:`audit_transcript` reads.
"""

from __future__ import annotations

import hashlib
from typing import Callable, Sequence

import msgpack

from lanterne.engines.core import Cards, State, TableOp, apply_outcome_to_cards, canonical_pack

from .group import Entropy
from .errors import FairError
from .table import FairTable

Tamper = Callable[[int, str, dict], dict]


def seeded_entropy(seed: object) -> Entropy:
    """A deterministic entropy source (SHA-256 in counter mode over ``repr(seed)``) for tests and selfplay."""
    key = hashlib.sha256(repr(seed).encode()).digest()
    counter, buffer = 0, b""

    def entropy(n: int) -> bytes:
        nonlocal counter, buffer
        while len(buffer) < n:
            buffer += hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
            counter += 1
        out, buffer = buffer[:n], buffer[n:]
        return out

    return entropy


def wire(body: dict) -> dict:
    """A body as a peer receives it: canonical msgpack, decoded again."""
    return msgpack.unpackb(canonical_pack(body), raw=False)


def run_op(tables: list[FairTable], op: TableOp, views: Sequence[State],
           log: list[tuple[int, str, dict]] | None = None, tamper: Tamper | None = None) -> list[tuple]:
    """Resolve ``op`` on every table (one per seat, in seat order); each table's outcome.

    ``views[i]`` is seat i's view. Messages go from their author to every other
    table; ``log`` (if given) receives each (seat, kind, body) step;
    ``tamper(seat, kind, body)`` may replace a body on its way (cheat tests).
    """
    for table, view in zip(tables, views):
        table.begin(op, view)
    while (author := tables[0].expected()) is not None:
        kind, body = tables[author].produce()
        if tamper is not None:
            body = tamper(author, kind, body)
        received = wire(body)
        if log is not None:
            log.append((author, kind, received))
        for seat, table in enumerate(tables):
            if seat != author:
                if table.expected() != author:
                    raise AssertionError(f"seat {seat + 1} expects seat {table.expected()}, not {author}")
                table.consume(author, kind, received)
    for seat, table in enumerate(tables):
        if table.expected() is not None:
            raise AssertionError(f"seat {seat + 1} still expects a step")
    return [table.outcome() for table in tables]


class Tabletop(State):
    """The least state a fair table reads: a card registry (tests and benchmarks)."""

    def __init__(self, cards):
        self.cards = cards
        self.pending = None

    def copy(self) -> "Tabletop":
        return Tabletop(self.cards.copy())

    def to_data(self) -> dict:
        return {"cards": self.cards.to_data()}


class LocalTables:
    """N peers' fair tables and views in one process, kept in step like a session would.

    ``views[s]`` is seat s's view; ``log`` the fair steps in chain order (with
    claims), ready for :func:`audit_transcript`.
    """

    def __init__(self, game_id: bytes, players: int, identities: Sequence[int], seed: object = 0):
        self.game_id = game_id
        self.players = players
        public = Cards.new(list(identities), players)
        self.views = [Tabletop(public.copy()) for _ in range(players)]
        self.tables = [FairTable(game_id, s, players, seeded_entropy((seed, s))) for s in range(players)]
        self.log: list[tuple[int, str, dict]] = []

    def run(self, op: TableOp, tamper: Tamper | None = None) -> list[tuple]:
        """Resolve ``op`` everywhere and apply each outcome to its seat's view."""
        outcomes = run_op(self.tables, op, self.views, self.log, tamper)
        for view, outcome in zip(self.views, outcomes):
            apply_outcome_to_cards(view.cards, op, outcome)
        return outcomes

    def play(self, seat: int, slots: Sequence[int], ids: Sequence[int] | None = None) -> None:
        """``seat`` plays hidden cards, claiming ``ids`` (default: the truth), with its proof."""
        if ids is None:
            ids = [self._known(seat, s) for s in slots]
        proof = wire(self.tables[seat].prove(slots))
        self.log.append((seat, "fair_claim", {"slots": list(slots), "ids": ids, "proof": proof}))
        for table in self.tables:
            if table.seat != seat:
                table.check_claims(seat, slots, ids, proof)
        for view in self.views:
            for slot, ident in zip(slots, ids):
                view.cards.claim(slot, ident, seat)

    def _known(self, seat: int, slot: int) -> int:
        ident = self.views[seat].cards.ids[slot]
        if ident is None:
            raise FairError(f"seat {seat + 1} does not know the card in slot {slot}")
        return ident

    def finish(self) -> dict[int, dict]:
        """Every seat's final reveal, consumed by every other seat; the finals by seat."""
        finals = {seat: wire(table.final_reveal()[1]) for seat, table in enumerate(self.tables)}
        for me, table in enumerate(self.tables):
            for seat, body in finals.items():
                if seat != me:
                    table.consume_final(seat, body)
        return finals
