"""Pagode (Arve D. Fühler): build pagodas with cards, 2 players.

``GAME`` is the rules engine; see docs/rules/pagode.md for the rules as
implemented, the house rules and house data, and the move notation.
"""

from .data import COLOURS, LETTERS, TILES, VARIANTS
from .rules import Pagode
from .state import PagodeState

GAME = Pagode()

__all__ = ["GAME", "Pagode", "PagodeState", "COLOURS", "LETTERS", "TILES", "VARIANTS"]
