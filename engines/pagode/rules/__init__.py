"""Pagode's rules: setup, legal actions, apply.

Actions (tuples; a card is ``(slot, ident)``, reserve or hand alike):

* ``("column", site, colour, cards)``: one card of ``colour``; two cards of one
  colour (Rice bowl); no card in a modified turn (its 4 discards paid).
* ``("tile", site, spots, cards)``: a tile on a full floor; its background is
  the floor's colour, ``spots`` picks which tile. One card of the background
  colour, or two of one colour (Buddha).
* ``("roof", site, spots, tile_cards, summit_cards)``: the last tile and its
  summit in one action. Summit: two cards of the summit colour, or one of it
  plus two of one colour (Rice bowl).
* ``("lantern",)``, ``("dragon",)`` then ``("discard", slot, ident)``... and
  ``("draw",)``; ``("modified",)`` then 4 discards and a cardless column;
  ``("end", fan)``: the draw phase, with the Fan or not.
* House rule: a seat that can build nothing at all (no column, tile, roof or
  modified turn) may discard cards and end its turn without a column.

By concern, lowest first: ``masks`` (the views' masked registries),
``payments`` (which cards can pay), ``queries`` (small questions, tuple
helpers), ``setup``, ``choices`` (legal actions), ``paying`` (checking and
taking the cards named, the abilities), ``building`` (column, tile, roof),
``table`` (the table's steps), ``turns`` (the other actions); this module
applies an action or a table outcome.

Speed: the paths a game runs most (play-phase legal actions, a one-card
column, a deal's outcome, views) are written out by hand with the same checks
in the same order as the general code. tests/engines/pagode/test_same_games.py
pins 100 random games byte for byte, so such rewrites cannot change a game.
"""

from __future__ import annotations

from lanterne.engines.core import DEAL, IllegalAction

from ..state import PagodeState
from .building import do_column, do_roof, do_tile
from .choices import discard_actions, is_stuck, legal_actions
from .masks import view_cards
from .queries import column_limit, complete_mask, complete_pagodas, is_complete, tile_spots_left, winners
from .setup import new_state
from .table import apply_deal, apply_outcome
from .turns import do_discard, do_dragon, do_draw, do_end, do_lantern, do_modified

__all__ = ["apply", "column_limit", "complete_mask", "complete_pagodas", "discard_actions", "is_complete", "is_stuck",
           "legal_actions", "new_state", "tile_spots_left", "view_cards", "winners"]

HANDLERS = {
    "column": do_column, "tile": do_tile, "roof": do_roof, "lantern": do_lantern, "dragon": do_dragon,
    "discard": do_discard, "draw": do_draw, "modified": do_modified, "end": do_end,
}
"""The function that applies each kind of action to a copy of the state."""


def apply(state: PagodeState, action: tuple) -> tuple[PagodeState, list[tuple]]:
    op = state.pending
    if op is not None:
        if op.kind == DEAL and type(action) is tuple and action and action[0] == DEAL:
            return apply_deal(state, op, action)  # what apply_outcome would do, one call less
        return apply_outcome(state, action)
    if state.phase == "over":
        raise IllegalAction("the game is over")
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        raise IllegalAction(f"not an action: {action!r}")
    handler = HANDLERS.get(action[0])
    if handler is None:
        raise IllegalAction(f"unknown action {action[0]!r}")
    s = state.clone()
    events: list[tuple] = []
    handler(s, action, events)
    return s, events
