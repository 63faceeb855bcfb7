"""Pagode (Arve D. Fühler): build pagodas with cards, 2 players.

``GAME`` is the rules engine; see docs/rules/pagode.md for the rules as
implemented, the house rules and house data, and the move notation.

Modules in import order (each imports only those before it): ``data``,
``state`` (with its save/load), ``actions`` (typed records), ``views`` (what
a seat may see), ``payments`` (ways to pay), ``rules`` (setup, legal actions,
apply), ``notation``, ``game`` (the contract: rules plus name and notation), ``search``
(what the search player needs of the game); ``GAME_TYPE`` declares the game
to the registry.
"""

from lanterne.engines.game_type import GameType

from .data import COLOURS, LETTERS, TILES, VARIANTS
from .game import Pagode
from .search import SEARCH
from .state import PagodeState

GAME = Pagode()
GAME_TYPE = GameType(GAME, SEARCH)

__all__ = ["GAME", "GAME_TYPE", "Pagode", "PagodeState", "COLOURS", "LETTERS", "TILES", "VARIANTS"]
