"""Pueblo for 2 to 4 players: the engine (rules, geometry, notation, positions, previews).

Modules by idea: ``data`` (rulebook numbers and house data), ``geometry``
(orientations, support, sight), ``state``, ``rules`` (legal actions, apply),
``notation``, ``position`` (save/load), ``preview`` (helpers for the screen).
"""

from .game import PuebloGame

GAME = PuebloGame()

__all__ = ["GAME", "PuebloGame"]
