"""The position before the first table operation: the reserves dealt face up, the rest the draw pile."""

from __future__ import annotations

from lanterne.engines.core import ROLL, Cards, TableOp

from ..data import CARDS_PER_COLOUR, DECK_SIZE, SITES
from ..state import PagodeState
from .queries import ALL_TILES, NO_USES


def new_state(variant: str) -> PagodeState:
    s = PagodeState.__new__(PagodeState)
    s.variant = variant
    s.cards = Cards.new(range(DECK_SIZE), 2)
    # Each reserve takes one card of each colour; the other 45 form the draw pile.
    reserves = [tuple(c * CARDS_PER_COLOUR + seat for c in range(5)) for seat in range(2)]
    s.reserves = tuple(reserves)
    in_reserves = set(reserves[0]) | set(reserves[1])
    s.draw = tuple(i for i in range(DECK_SIZE) if i not in in_reserves)
    s.hands = ((), ())
    s.discard = ()
    s.played = ()
    s.pending = TableOp(ROLL, faces=2, why="first player")
    s.phase = "setup"
    s.first = None
    s.current = 0
    s.turn = 0
    s.scores = (0, 0)
    s.uses = (NO_USES, NO_USES)
    s.site_tiles = ((),) * SITES
    s.site_cols = (0,) * SITES
    s.site_colour = (None,) * SITES
    s.tiles_left = ALL_TILES
    s.columns = 0
    s.acted = False
    s.used = 0
    s.mod_left = 0
    s.mark = (0, 0)
    s.refill = ()
    s.after = "start"
    s.masks = None
    return s
