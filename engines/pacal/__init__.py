"""Pacal's Rocket (Günter Burkhardt, Piatnik 2015) for 2 to 5 players.

Ships fly over the city of Palenque dropping divine stones; a player's visible
stones in a constellation build a pyramid; pyramids win districts. Chance is
the die (a table roll); nothing is hidden. Rules as implemented:
``docs/rules/pacal.md``.

For the screen: :func:`reachable` (the destinations of the ship with the
current roll) and :func:`build_choices` (each build or upgrade with the points
it scores at once); :func:`picture` draws the board as text.

Modules in import order (each imports only those before it): ``data``,
``board``, ``state`` (with its save/load), ``actions`` (typed records), ``movement``, ``constellations``,
``scoring``, ``picture``, ``rules``, ``notation``, ``game`` (the contract), ``search`` (what the
search player needs); ``GAME_TYPE`` declares the game to the registry.
"""

from __future__ import annotations

from lanterne.engines.game_type import GameType

from .board import board_for, cell_name, parse_cell
from .game import PacalGame
from .picture import picture
from .rules import build_choices, build_points, reachable
from .search import SEARCH
from .state import PacalState

__all__ = ["GAME", "GAME_TYPE", "PacalGame", "PacalState", "reachable", "build_choices", "build_points", "picture",
           "cell_name", "parse_cell", "board_for"]

GAME = PacalGame()
GAME_TYPE = GameType(GAME, SEARCH, aliases=("pacals-rocket", "pacal's rocket"))
