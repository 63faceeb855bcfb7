"""Pueblo for 2 to 4 players: the engine (rules, geometry, notation, positions, previews).

Modules in import order (each imports only those before it): ``data``
(rulebook numbers and house data), ``geometry`` (orientations, support,
sight), ``state`` (with its save/load), ``actions`` (typed records),
``rules`` (legal actions, apply),
``preview`` (helpers for the screen), ``notation``, ``game`` (the contract).
``bench`` measures the package from above.
"""

from .game import PuebloGame

GAME = PuebloGame()

__all__ = ["GAME", "PuebloGame"]
