"""Which cards can pay: the payment choices ``legal_actions`` offers.

For cards of one colour from one place (0 reserve, 1 hand) only the lowest
slots are offered: the other choices are equivalent, and the notation's
short card letters name exactly these (see ..notation).
"""

from __future__ import annotations

from ..data import CARDS_PER_COLOUR, COLOUR_OF_IDENT, DECK_SIZE
from ..state import PagodeState

CARD: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((slot, ident) for ident in range(DECK_SIZE)) for slot in range(DECK_SIZE))
"""``CARD[slot][ident]`` is the card ``(slot, ident)``, built once: legal actions share them."""

ONE_CARD: tuple[tuple[tuple[tuple[int, int]], ...], ...] = tuple(
    tuple((CARD[slot][ident],) for ident in range(DECK_SIZE)) for slot in range(DECK_SIZE))
"""``ONE_CARD[slot][ident]`` is the one-card payment ``((slot, ident),)``."""


def by_colour(state: PagodeState, seat: int) -> tuple[list[list[int]], list[list[int]]]:
    """Per place (0 reserve, 1 hand) and colour, the seat's known slots, lowest first."""
    ids = state.cards.ids
    pool: tuple[list[list[int]], list[list[int]]] = ([[], [], [], [], []], [[], [], [], [], []])
    for src, place in ((0, state.reserves[seat]), (1, state.hands[seat])):
        by = pool[src]
        for slot in place:  # places are kept sorted
            ident = ids[slot]
            if ident is not None:
                by[ident // CARDS_PER_COLOUR].append(slot)
    return pool


def free_options(ids: list, reserve: tuple[int, ...], hand: tuple[int, ...]) -> tuple[list[list[tuple]], list[tuple]]:
    """With no card used yet: per colour the single-card payments, and every same-colour pair.

    Same choices and order as ``singles`` and ``pairs`` with nothing used
    (places are sorted, so the first cards seen are the lowest slots).
    """
    rf: list = [None] * 5
    rs: list = [None] * 5
    hf: list = [None] * 5
    hs: list = [None] * 5
    for first, second, place in ((rf, rs, reserve), (hf, hs, hand)):
        for slot in place:
            ident = ids[slot]
            if ident is None:
                continue
            c = COLOUR_OF_IDENT[ident]
            if first[c] is None:
                first[c] = CARD[slot][ident]
            elif second[c] is None:
                second[c] = CARD[slot][ident]
    singles: list[list[tuple]] = []
    pairs: list[tuple] = []
    for c in range(5):
        a, b = rf[c], hf[c]
        if a is not None:
            if rs[c] is not None:
                pairs.append((a, rs[c]))
            if b is not None:
                singles.append([(a,), (b,)])
                pairs.append((a, b))
                if hs[c] is not None:
                    pairs.append((b, hs[c]))
            else:
                singles.append([(a,)])
        elif b is not None:
            singles.append([(b,)])
            if hs[c] is not None:
                pairs.append((b, hs[c]))
        else:
            singles.append([])
    return singles, pairs


def free_singles(ids: list, reserve: tuple[int, ...], hand: tuple[int, ...]) -> list[list[tuple]]:
    """``free_options`` without the pairs (no Rice bowl or Buddha to use): the common case, cheaper."""
    singles: list[list[tuple]] = [[], [], [], [], []]
    for slot in reserve:
        ident = ids[slot]
        if ident is not None:
            same = singles[COLOUR_OF_IDENT[ident]]
            if not same:  # nothing from the hand yet: empty means no reserve card of this colour yet
                same.append(ONE_CARD[slot][ident])
    seen = 0
    for slot in hand:
        ident = ids[slot]
        if ident is not None:
            bit = 1 << COLOUR_OF_IDENT[ident]
            if not seen & bit:
                seen |= bit
                singles[COLOUR_OF_IDENT[ident]].append(ONE_CARD[slot][ident])
    return singles


def first_free(slots: list[int], used: tuple[int, ...], skip: int = 0) -> int | None:
    for slot in slots:
        if slot not in used:
            if skip == 0:
                return slot
            skip -= 1
    return None


def singles(pool, ids, c: int, used: tuple[int, ...]) -> list[tuple]:
    out = []
    for src in (0, 1):
        slot = first_free(pool[src][c], used)
        if slot is not None:
            out.append(((slot, ids[slot]),))
    return out


def pairs(pool, ids, p: int, used: tuple[int, ...]) -> list[tuple]:
    """Two cards of colour ``p``: reserve+reserve, reserve+hand, hand+hand (lowest slots)."""
    out = []
    r, h = pool[0][p], pool[1][p]
    if len(r) + len(h) < 2:
        return out  # not two cards of the colour: no pair (the rice bowl's summit asks every colour)
    r0 = first_free(r, used)
    if r0 is not None:
        r1 = first_free(r, used, 1)
        if r1 is not None:
            out.append(((r0, ids[r0]), (r1, ids[r1])))
    h0 = first_free(h, used)
    if r0 is not None and h0 is not None:
        out.append(((r0, ids[r0]), (h0, ids[h0])))
    if h0 is not None:
        h1 = first_free(h, used, 1)
        if h1 is not None:
            out.append(((h0, ids[h0]), (h1, ids[h1])))
    return out


def summits(pool, ids, summit: int, used: tuple[int, ...], rice: bool) -> list[tuple]:
    out = pairs(pool, ids, summit, used)
    if rice:
        for single in singles(pool, ids, summit, used):
            used2 = used + (single[0][0],)
            for p in range(5):
                for pair in pairs(pool, ids, p, used2):
                    out.append(single + pair)
    return out
