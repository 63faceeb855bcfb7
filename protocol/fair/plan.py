"""What a table operation shuffles or opens, checked against the view, and which seat must send which keys.

Shared by the live table (:mod:`.table`) and the verifier's revealed table (:mod:`.reveal`), so both
check the same piles and schedule the same steps.
"""

from __future__ import annotations

from typing import Any, Container, Protocol, Sequence

from lanterne.engines.core import DEAL, State, TableOp

from . import group as g
from .errors import FairError


def check_slots(op: TableOp, view: State) -> None:
    size = len(view.cards.ids)
    bad = [s for s in op.slots if not (isinstance(s, int) and 0 <= s < size)]
    if bad:
        raise FairError(f"{op.kind} names slot {bad[0]!r}, but the game has slots 0..{size - 1}")


def check_pile(op: TableOp, view: State, where: Container[int]) -> tuple[list[int], list[int]]:
    """A pile about to be shuffled: the indexes of its hidden slots and its public cards, checked.

    Which slots every peer knows is public (the seen masks): all peers agree on it.
    Shared by the live table and the verifier's revealed table.
    """
    slots = list(op.slots)
    check_slots(op, view)
    if len(set(slots)) != len(slots):
        raise FairError(f"cannot shuffle pile {op.pile!r}: a slot appears twice")
    hidden = [j for j, s in enumerate(slots) if not view.cards.is_public(s)]
    known = [view.cards.ids[s] for j, s in enumerate(slots) if j not in hidden]
    cards = [c for c in known if c is not None]
    if len(cards) != len(known) or not all(g.is_ident(c) for c in cards) or len(set(cards)) != len(cards):
        raise FairError(f"cannot shuffle pile {op.pile!r}: its public cards are not distinct 64-bit numbers")
    lost = [slots[j] for j in hidden if slots[j] not in where]
    if lost:
        raise FairError(f"cannot shuffle pile {op.pile!r}: slot {lost[0]} is hidden but in no fair deck")
    return hidden, cards


class OpenedDeck(Protocol):
    """What :func:`plan_open` reads of a deck: per position, the seats whose key is out."""

    @property
    def opened(self) -> Sequence[Container[int]]: ...


OpenSlot = tuple[int, "tuple[int, int] | None", "int | None"]
"""A slot a deal or reveal opens: (slot, (deck, position) or None, its public identity or None)."""
Step = tuple[int, str, Any]
"""A fair step still to come: (author seat, message kind, what the step works on)."""


def plan_open(op: TableOp, view: State, where: dict[int, tuple[int, int]], decks: Sequence[OpenedDeck],
              players: int) -> tuple[list[OpenSlot], list[Step]]:
    """A deal or reveal: the slots it opens and which seat must send which keys, in seat order.

    Returns ``(open, steps)``: ``open`` holds ``(slot, (deck, pos) or None, public id)``;
    ``steps`` holds ``(seat, "fair_keys", [(deck, pos), ...])`` for every seat that still has
    keys to publish (a face-down deal's receiver sends none). Shared by the live table and the
    verifier's revealed table, so both schedule the same steps.
    """
    if op.kind == DEAL and op.to is not None and not 0 <= op.to < players:
        raise FairError(f"cannot deal to seat {op.to + 1}: there are {players} seats")
    check_slots(op, view)
    opened: list[OpenSlot] = []
    for slot in op.slots:
        ref = where.get(slot)
        public = None
        if ref is None:
            public = view.cards.ids[slot]
            if public is None:
                raise FairError(f"slot {slot} is in no fair deck and its card is unknown")
        opened.append((slot, ref, public))
    refs = [ref for _, ref, _ in opened if ref is not None]
    steps: list[Step] = []
    for seat in range(players):
        if op.face_down and seat == op.to:
            continue
        need = [r for r in refs if seat not in decks[r[0]].opened[r[1]]]
        if need:
            steps.append((seat, "fair_keys", need))
    return opened, steps
