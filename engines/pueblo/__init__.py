"""Pueblo for 2 to 4 players: the engine (rules, geometry, notation, positions, previews).

Modules in import order (each imports only those before it): ``data``
(rulebook numbers and house data), ``board`` (the stones' orientations,
support, sight), ``state`` (with its save/load), ``actions`` (typed records),
``rules`` (legal actions, apply), ``notation``, ``game`` (the contract),
``search`` (what the search player needs), ``view`` (what the screens read,
the previews included); ``GAME_TYPE`` declares the game.
``bench`` measures the package from above.
"""

from lanterne.engines.game_type import GameType

from .game import PuebloGame
from .search import SEARCH
from .state import PuebloState

GAME = PuebloGame()
GAME_TYPE = GameType(GAME, SEARCH)

__all__ = ["GAME", "GAME_TYPE", "PuebloGame", "PuebloState"]
