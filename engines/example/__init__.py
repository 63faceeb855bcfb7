"""The template game (High card): a small complete game to copy when adding one.

See docs/adding-a-game.md. ``GAME`` is the Game, as in every game package; it
is not in the registry (engines/registry.py), so players never see it.
"""

from .game import ACTIONS, HighCard, HighCardState, Keep, Swap

GAME = HighCard()

__all__ = ["ACTIONS", "GAME", "HighCard", "HighCardState", "Keep", "Swap"]
