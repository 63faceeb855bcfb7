"""Pagode (Arve D. Fühler): build pagodas with cards, 2 players.

``GAME`` is the rules engine; see docs/rules/pagode.md for the rules as
implemented, the house rules and house data, and the move notation.

Modules in import order (each imports only those before it): ``data``,
``state`` (with its save/load), ``actions`` (typed records), ``rules`` (a
sub-package: the views' masks, payments, legal actions, apply), ``notation``,
``game`` (the contract), ``search`` (what the search player needs of the game),
``view`` (what the screens read); ``GAME_TYPE`` declares the game to the registry.
"""

from lanterne.engines.game_type import GameType

from .game import Pagode
from .search import SEARCH
from .state import PagodeState

GAME = Pagode()
GAME_TYPE = GameType(GAME, SEARCH)

__all__ = ["GAME", "GAME_TYPE", "Pagode", "PagodeState"]
