"""The template game (High card): a small complete game to copy when adding one.

See docs/adding-a-game.md. ``GAME`` is the Game and ``GAME_TYPE`` its
declaration, as in every game package; it is not in the registry
(engines/registry.py), so players never see it.
"""

from lanterne.engines.game_type import GameType, SearchHints

from .game import ACTIONS, HighCard, HighCardState, Keep, Swap

GAME = HighCard()

SEARCH = SearchHints(tuning={}, level_tuning={}, estimate=None, plan_key=None,
                     openspiel_overhead=0.0, move_seconds=0.01, bench_tables=(2, 3))
"""Nothing measured for High card: the search's defaults and nominal figures, said here rather than left
out (a real game measures ``openspiel_overhead`` with ``python -m lanterne.engines.bots.openspiel`` and
``move_seconds`` with ``lanterne bench --only search.move``)."""

GAME_TYPE = GameType(GAME, SEARCH)

__all__ = ["ACTIONS", "GAME", "GAME_TYPE", "HighCard", "HighCardState", "Keep", "Swap"]
