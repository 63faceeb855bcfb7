"""Pandoria (Allers and Eisenstein, Irongames 2018) for 2 to 4 players.

``GAME`` is the engines.core.Game; see docs/rules/pandoria.md for the rules as
implemented, the house data of the Lanterne edition and the move notation.

Modules in import order (each imports only those before it): ``data``,
``board``, ``state`` (with its save/load, and views' masked card registries),
``actions`` (typed records), ``rules``, ``notation``, ``game`` (the contract),
``search`` (what the search player needs); ``GAME_TYPE`` declares the game.
"""

from lanterne.engines.game_type import GameType

from .game import Pandoria
from .search import SEARCH
from .state import PandoriaState

GAME = Pandoria()
GAME_TYPE = GameType(GAME, SEARCH)

__all__ = ["GAME", "GAME_TYPE", "Pandoria", "PandoriaState"]
