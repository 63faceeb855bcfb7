"""Pagode as an engines.core.Game: its name and variants, the rules (``rules/``) and the notation (notation.py)."""

from __future__ import annotations

from typing import Any

from lanterne.engines.core import TABLE, Game, RulesError

from . import notation, rules
from .data import VARIANTS
from .state import PagodeState


class Pagode(Game):
    id = "pagode"
    name = "Pagode"
    min_players = 2
    max_players = 2
    variants = tuple(VARIANTS)

    def setup(self, players: int = 2, variant: str = "standard", **options: Any) -> PagodeState:
        self.check_options(players, variant)
        if options:
            raise RulesError(f"Pagode has no option {', '.join(sorted(options))}")
        return rules.new_state(variant)

    def load(self, data: dict) -> PagodeState:
        return PagodeState.from_data(data)

    def next_actor(self, state: PagodeState) -> int:
        return TABLE if state.pending is not None else state.current

    # The rules' functions themselves, not methods that call them: a random game asks
    # for both at every step, and the extra call was a measurable share.
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)

    def is_over(self, state: PagodeState) -> bool:
        return state.phase == "over"

    def scores(self, state: PagodeState) -> list[int]:
        return list(state.scores)

    winners = staticmethod(rules.winners)

    def view(self, state: PagodeState, seat: int | None) -> PagodeState:
        v = state.clone()
        v.cards, memo = rules.view_cards(state.masks, state.cards, seat)
        if memo is not state.masks:
            state.masks = v.masks = memo  # a memo only: the position is unchanged
        return v

    # What the board screen and the tests ask beyond the contract.
    column_limit = staticmethod(rules.column_limit)
    complete_mask = staticmethod(rules.complete_mask)
    complete_pagodas = staticmethod(rules.complete_pagodas)
    is_complete = staticmethod(rules.is_complete)
    is_stuck = staticmethod(rules.is_stuck)
    tile_spots_left = staticmethod(rules.tile_spots_left)

    def format_action(self, state: PagodeState, action: tuple) -> str:
        return notation.format_action(self, state, action)

    def parse_action(self, state: PagodeState, text: str, seat: int | None = None) -> tuple:
        return notation.parse_action(self, state, text, seat)

    def describe_event(self, event: tuple) -> str:
        return notation.describe_event(event)
