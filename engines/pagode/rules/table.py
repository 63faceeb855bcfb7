"""The table's steps: the first-player roll, the shuffles, the deals that refill a seat's reserve and hand.

A refill is a list of ``(seat, place, count)``; :func:`next_deal` turns its
head into the next ``TableOp`` (a reshuffle first when the draw pile is
empty) and, once it is dealt, starts the next step (``state.after``).
"""

from __future__ import annotations

from typing import Any

from lanterne.engines.core import DEAL, ROLL, SHUFFLE, Cards, IllegalAction, TableOp, apply_outcome_to_cards

from ..data import DECK_SIZE, HAND_SIZE
from ..state import PagodeState
from .masks import remask
from .queries import EVERYONE, pair


def next_deal(s: PagodeState, events: list) -> None:
    """Set the next table operation of the refill, or go on with play."""
    refill = s.refill
    while refill:
        seat, place, count = refill[0]
        if count <= 0:
            s.refill = refill = refill[1:]
            continue
        draw = s.draw
        if not draw:
            if s.discard:
                s.pending = TableOp(SHUFFLE, "discard", s.discard, None, 0, "reshuffle")
                return
            events.append(("no cards", seat, place, count))
            s.refill = ()
            break
        # Positional arguments: a dataclass is slower to build with keywords (a quarter of the steps are deals).
        if place == "reserve":
            s.pending = TableOp(DEAL, "draw", draw[:count], None, 0, RESERVE_WHY[seat])
        else:
            s.pending = TableOp(DEAL, "draw", draw[:count], seat, 0, HAND_WHY[seat])
        return
    s.pending = None
    after = s.after
    if after == "play":
        s.phase = "play"
        return
    if after == "next":
        s.current = 1 - s.current
    # the start of a turn
    s.phase = "play"
    s.columns = 0
    s.acted = False
    s.used = 0
    s.mod_left = 0
    s.mark = (0, 0)
    events.append(("turn", s.current))


def apply_outcome(state: PagodeState, outcome: Any) -> tuple[PagodeState, list[tuple]]:
    op = state.pending
    if not isinstance(outcome, tuple) or not outcome or outcome[0] != op.kind:
        got = outcome[0] if isinstance(outcome, tuple) and outcome else outcome
        raise IllegalAction(f"the table must {op.kind}, got {got!r}")
    if op.kind == DEAL:
        return apply_deal(state, op, outcome)
    s = state.clone()
    if op.kind != ROLL:
        if len(outcome) != 2 or not isinstance(outcome[1], tuple):
            raise IllegalAction(f"a {op.kind} outcome is ({op.kind}, identities)")
        for ident in outcome[1]:
            if ident is not None and (type(ident) is not int or not 0 <= ident < DECK_SIZE):
                raise IllegalAction(f"there is no card {ident!r}")
        s.cards = state.cards.copy()
    apply_outcome_to_cards(s.cards, op, outcome)
    if op.kind != ROLL:
        s.masks = remask(state.masks, state.cards, s.cards, op.slots)
    s.pending = None
    events: list[tuple] = []
    if op.kind == ROLL:
        if isinstance(outcome[1], bool):
            raise IllegalAction("a roll is a number")
        s.first = s.current = outcome[1]
        events.append(("first", s.first))
        s.pending = TableOp(SHUFFLE, "draw", s.draw, None, 0, "draw pile")
        return s, events
    if op.kind == SHUFFLE:
        if op.pile == "discard":
            s.draw = op.slots
            s.discard = ()
            events.append(("reshuffle", len(op.slots)))
        else:
            s.draw = op.slots
            first = s.first
            s.refill = ((first, "hand", HAND_SIZE), (1 - first, "hand", HAND_SIZE))
            s.after = "start"
        next_deal(s, events)
        return s, events
    raise IllegalAction(f"unknown table operation {op.kind}")


def apply_deal(state: PagodeState, op: TableOp, outcome: tuple) -> tuple[PagodeState, list[tuple]]:
    """A deal's outcome: the commonest table step, so written out in one piece.

    The checks and their messages are those of ``_apply_outcome`` and
    ``apply_outcome_to_cards`` (Cards.show), in the same order.
    """
    s = state.clone()
    if len(outcome) != 2 or not isinstance(outcome[1], tuple):
        raise IllegalAction(f"a {op.kind} outcome is ({op.kind}, identities)")
    dealt = outcome[1]
    for ident in dealt:
        if ident is not None and (type(ident) is not int or not 0 <= ident < DECK_SIZE):
            raise IllegalAction(f"there is no card {ident!r}")
    slots = op.slots
    k = len(slots)
    if len(dealt) != k:
        raise IllegalAction(f"{op.kind} of {k} cards got {len(dealt)} identities")
    old = state.cards
    ids = old.ids  # copied only if an identity is learnt: the full state already knows every dealt card
    seen = old.seen[:]
    mask = EVERYONE if op.to is None else 1 << op.to
    for slot, ident in zip(slots, dealt):
        if ident is not None:
            known = ids[slot]
            if known != ident:
                if known is not None:
                    raise IllegalAction(f"slot {slot} is card {known}, not card {ident}")
                if ids is old.ids:
                    ids = ids[:]
                ids[slot] = ident
        seen[slot] |= mask
    s.cards = registry = Cards(ids, seen, old.players)
    s.masks = remask(state.masks, old, registry, slots)
    s.pending = None
    refill = s.refill
    seat, place, count = refill[0]
    s.draw = s.draw[k:]
    if place == "reserve":
        s.reserves = pair(s.reserves, seat, tuple(sorted(s.reserves[seat] + slots)))
    else:
        s.hands = pair(s.hands, seat, tuple(sorted(s.hands[seat] + slots)))
    # a refill entry dealt in full is dropped here rather than by _next_deal
    s.refill = refill[1:] if count == k else ((seat, place, count - k),) + refill[1:]
    events = [("drew", seat, place, k)]
    next_deal(s, events)
    return s, events


RESERVE_WHY = ("reserve 0", "reserve 1")
HAND_WHY = ("hand 0", "hand 1")
"""The ``why`` of a deal to a seat's reserve (face up) or hand (face down)."""
