"""Pagode as an engines.core.Game: its name and variants, the rules (rules.py) and the notation (notation.py)."""

from __future__ import annotations

from . import notation
from .data import VARIANTS
from .rules import PagodeRules
from .state import PagodeState


class Pagode(PagodeRules):
    id = "pagode"
    name = "Pagode"
    min_players = 2
    max_players = 2
    variants = tuple(VARIANTS)

    def format_action(self, state: PagodeState, action: tuple) -> str:
        return notation.format_action(self, state, action)

    def parse_action(self, state: PagodeState, text: str, seat: int | None = None) -> tuple:
        return notation.parse_action(self, state, text, seat)

    def describe_event(self, event: tuple) -> str:
        return notation.describe_event(event)
