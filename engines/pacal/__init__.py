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
``scoring``, ``picture``, ``rules``, ``notation``, ``game`` (the contract).
"""

from __future__ import annotations

from lanterne.engines.pacal.board import board_for, cell_name, parse_cell
from lanterne.engines.pacal.game import PacalGame
from lanterne.engines.pacal.picture import picture
from lanterne.engines.pacal.rules import build_choices, build_points, reachable
from lanterne.engines.pacal.state import PacalState

__all__ = ["GAME", "PacalGame", "PacalState", "reachable", "build_choices", "build_points", "picture",
           "cell_name", "parse_cell", "board_for"]

GAME = PacalGame()
