"""Small questions about a position (which sites are complete, what a site takes) and the tuple helpers.

Everything here reads a state and changes nothing, except :func:`pair` and
:func:`put`, which build the new tuples a step stores.
"""

from __future__ import annotations

from lanterne.engines.core import Words

from ..data import (BUDDHA, COLOURS, COLUMN_LIMIT, FLOOR_COLUMNS, LANTERN, LANTERN_COLUMN_LIMIT, RICE_BOWL, TILES,
                    VARIANTS)
from ..state import PagodeState

NO_USES = (0, 0, 0, 0, 0)
ALL_TILES = (1 << len(TILES)) - 1
EVERYONE = 0b11
"""The ``seen`` mask of a public slot: Pagode's registry always has two seats."""
FLOORS = {name: variant.floors for name, variant in VARIANTS.items()}
"""``VARIANTS[name].floors`` by the variant's name, one look-up (the hot paths ask it every step)."""
LANTERN_BIT, BUDDHA_BIT, RICE_BOWL_BIT = 1 << LANTERN, 1 << BUDDHA, 1 << RICE_BOWL
"""Bits of ``state.used`` (abilities used this turn)."""
SPOTS = tuple(tuple(f for f in range(5) if bits >> f & 1) for bits in range(32))
"""The spot colours of the tiles left of one background, by its 5 bits of ``tiles_left``."""


def colour_words(colour: int) -> Words:
    """A colour in a refusal: a term a client says in its language (French agrees it with its noun)."""
    return Words.term("pagode colour", COLOURS[colour])


def floors(state: PagodeState) -> int:
    return VARIANTS[state.variant].floors


def column_limit(state: PagodeState) -> int:
    return LANTERN_COLUMN_LIMIT if state.used >> LANTERN & 1 else COLUMN_LIMIT


def can_use(state: PagodeState, seat: int, ability: int) -> bool:
    """The seat has a use of ``ability`` left and has not used it this turn."""
    return state.uses[seat][ability] > 0 and not state.used >> ability & 1


def is_complete(state: PagodeState, site: int) -> bool:
    """Roofed, or its full floor needs a tile colour that is exhausted (counts as complete)."""
    tiles = state.site_tiles[site]
    if len(tiles) == VARIANTS[state.variant].floors:
        return True
    if state.site_cols[site] < FLOOR_COLUMNS:
        return False
    return not (state.tiles_left >> (state.site_colour[site] * 5)) & 0b11111


def complete_pagodas(state: PagodeState) -> int:
    """How many sites count as complete (the bits of ``complete_mask``, counted directly)."""
    floors = VARIANTS[state.variant].floors
    left = state.tiles_left
    n = 0
    for tiles, cols, colour in zip(state.site_tiles, state.site_cols, state.site_colour):
        if len(tiles) == floors or (cols == FLOOR_COLUMNS and not (left >> (colour * 5)) & 0b11111):
            n += 1
    return n


def complete_mask(state: PagodeState) -> int:
    """Bit i set: site i counts as complete (roofed, or stopped by an exhausted tile colour)."""
    floors = VARIANTS[state.variant].floors
    left = state.tiles_left
    mask = 0
    for i, (tiles, cols, colour) in enumerate(zip(state.site_tiles, state.site_cols, state.site_colour)):
        if len(tiles) == floors or (cols == FLOOR_COLUMNS and not (left >> (colour * 5)) & 0b11111):
            mask |= 1 << i
    return mask


def column_colours(state: PagodeState, site: int) -> tuple[int, ...]:
    """Colours a column on ``site`` may have now (empty if the site takes no column)."""
    if state.site_cols[site] >= FLOOR_COLUMNS or len(state.site_tiles[site]) == floors(state):
        return ()
    colour = state.site_colour[site]
    return (0, 1, 2, 3, 4) if colour is None else (colour,)


def floor_of(state: PagodeState, site: int) -> int:
    """The floor (1..) where the next column on ``site`` goes: also its points."""
    return len(state.site_tiles[site]) + 1


def tile_spots_left(state: PagodeState, background: int) -> list[int]:
    bits = state.tiles_left >> (background * 5)
    return [f for f in range(5) if bits >> f & 1]


def winners(state: PagodeState) -> list[int]:
    """The seats sharing the best score (``Game.winners``; the end's event names them)."""
    best = max(state.scores)
    return [i for i, v in enumerate(state.scores) if v == best]


def pair(values: tuple, seat: int, value) -> tuple:
    """:func:`put` for the per-seat pairs (reserves, hands, uses, scores): Pagode has two seats."""
    return (value, values[1]) if seat == 0 else (values[0], value)


def put(values: tuple, index: int, value) -> tuple:
    """``values`` with one item replaced (states hold tuples: copies share them safely).

    Through a list: for Pagode's short tuples (sites, uses) faster than joining two slices.
    """
    items = list(values)
    items[index] = value
    return tuple(items)
