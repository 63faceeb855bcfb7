"""Pacal's Rocket (Günter Burkhardt, Piatnik 2015) for 2 to 5 players.

Ships fly over the city of Palenque dropping divine stones; a player's visible
stones in a constellation build a pyramid; pyramids win districts. Chance is
the die (a table roll); nothing is hidden. Rules as implemented:
``docs/rules/pacal.md``.

Modules in import order (each imports only those before it): ``data``,
``board``, ``state`` (with its save/load), ``actions`` (typed records),
``rules`` (a sub-package: movement, constellations, scoring, legal actions,
apply), ``notation``, ``game`` (the contract), ``search`` (what the search
player needs), ``view`` (what the screens read: the destinations of the ship,
the builds with their points); ``GAME_TYPE`` declares the game to the registry.
"""

from __future__ import annotations

from lanterne.engines.game_type import GameType

from .game import PacalGame
from .search import SEARCH
from .state import PacalState

GAME = PacalGame()
GAME_TYPE = GameType(GAME, SEARCH, aliases=("pacals-rocket", "pacal's rocket"))

__all__ = ["GAME", "GAME_TYPE", "PacalGame", "PacalState"]
