"""Legal actions: what the seat to move may do, one action per set of equivalent ones.

For cards of one colour from one place (reserve or hand), only the lowest
slots are offered (``payments``); ``apply`` accepts any card that fits.
"""

from __future__ import annotations

from ..data import (BUDDHA, COLOUR_OF_IDENT, COLUMN_LIMIT, DRAGON, FAN, FLOOR_COLUMNS, LANTERN, LANTERN_COLUMN_LIMIT,
                    MODIFIED_DISCARDS, RICE_BOWL, SITES, TILES, VARIANTS)
from ..state import PagodeState
from .payments import by_colour, free_options, free_singles, summits
from .queries import BUDDHA_BIT, LANTERN_BIT, RICE_BOWL_BIT, SPOTS, can_use, column_colours


def legal_actions(state: PagodeState, seat: int) -> list[tuple]:
    if state.pending is not None or seat != state.current:
        return []
    phase = state.phase
    if phase == "play":
        return play_actions(state, seat)
    if phase == "dragon":
        return discard_actions(state, seat) + [("draw",)]
    if phase == "modified":
        return discard_actions(state, seat)
    if phase == "modified column":
        return [("column", site, colour, ()) for site in range(SITES)
                for colour in column_colours(state, site)]
    if phase == "modified end":
        return end_actions(state, seat)
    return []


def end_actions(state: PagodeState, seat: int) -> list[tuple]:
    out = [("end", False)]
    if VARIANTS[state.variant].abilities and can_use(state, seat, FAN):
        out.append(("end", True))
    return out


def discard_actions(state: PagodeState, seat: int) -> list[tuple]:
    """Per place (reserve, then hand) and colour, the lowest known card (places are sorted)."""
    ids = state.cards.ids
    out: list[tuple] = []
    for place in (state.reserves[seat], state.hands[seat]):
        firsts: list = [None] * 5
        for slot in place:
            ident = ids[slot]
            if ident is not None and firsts[COLOUR_OF_IDENT[ident]] is None:
                firsts[COLOUR_OF_IDENT[ident]] = ("discard", slot, ident)
        out += filter(None, firsts)  # the colours this place holds
    return out


def play_actions(state: PagodeState, seat: int) -> list[tuple]:
    ids = state.cards.ids
    variant = VARIANTS[state.variant]
    abilities = variant.abilities
    floors = variant.floors
    uses = state.uses[seat]
    used = state.used
    reserve, hand = state.reserves[seat], state.hands[seat]
    rice = abilities and uses[RICE_BOWL] > 0 and not used & RICE_BOWL_BIT
    buddha = abilities and uses[BUDDHA] > 0 and not used & BUDDHA_BIT
    if rice or buddha:
        singles, pairs = free_options(ids, reserve, hand)
    else:
        singles, pairs = free_singles(ids, reserve, hand), []
    room = state.columns < (LANTERN_COLUMN_LIMIT if used & LANTERN_BIT else COLUMN_LIMIT)
    pool = None
    out: list[tuple] = []
    append = out.append
    any_spot = False
    tiles_left = state.tiles_left
    flat = None  # (colour, cards) of every column an empty site takes, in colour order
    site_cols, site_colour = state.site_cols, state.site_colour
    site = -1
    for tiles in state.site_tiles:
        site += 1
        height = len(tiles)
        if height == floors:
            continue
        colour = site_colour[site]
        if site_cols[site] < FLOOR_COLUMNS:
            any_spot = True
            if not room:
                continue
            if colour is None:
                if flat is None:
                    if rice:
                        flat = [(c, cards) for c in range(5) for cards in singles[c] + pairs]
                    else:
                        flat = [(c, cards) for c in range(5) for cards in singles[c]]
                out += [("column", site, c, cards) for c, cards in flat]
            else:
                for cards in singles[colour]:
                    append(("column", site, colour, cards))
                if rice:
                    for cards in pairs:
                        append(("column", site, colour, cards))
            continue
        bits = tiles_left >> (colour * 5) & 0b11111
        if not bits:
            continue
        spots = SPOTS[bits]
        payments = singles[colour] + pairs if buddha else singles[colour]
        if height < floors - 1:
            for f in spots:
                for cards in payments:
                    append(("tile", site, f, cards))
        elif room:
            rice_after = abilities and not used >> RICE_BOWL & 1 and (colour == RICE_BOWL or uses[RICE_BOWL] > 0)
            if pool is None:
                pool = by_colour(state, seat)
            for cards in payments:
                taken = tuple(slot for slot, _ in cards)
                for f in spots:
                    summit = TILES[colour * 5 + f][2]
                    for scards in summits(pool, ids, summit, taken, rice_after):
                        append(("roof", site, f, cards, scards))
    can_build = bool(out)
    if abilities:
        if uses[LANTERN] > 0 and not used >> LANTERN & 1:
            append(("lantern",))
        if not state.acted and uses[DRAGON] > 0 and not used >> DRAGON & 1:
            append(("dragon",))
    can_modify = (not state.acted and any_spot and not used & LANTERN_BIT
                  and len(reserve) + len(hand) >= MODIFIED_DISCARDS)
    if can_modify:
        append(("modified",))
    if state.columns:
        append(("end", False))  # end_actions, inlined
        if abilities and uses[FAN] > 0 and not used >> FAN & 1:
            append(("end", True))
    elif not can_modify and not can_build:
        # House rule: nothing can be built at all, so the seat may discard and pass.
        out += discard_actions(state, seat)
        out += end_actions(state, seat)
    return out


def is_stuck(state: PagodeState, seat: int) -> bool:
    """House rule: no column, tile, roof or modified turn can be built now (and none yet this turn)."""
    if state.phase != "play" or state.columns:
        return False
    return not any(a[0] in ("column", "tile", "roof", "modified") for a in play_actions(state, seat))
