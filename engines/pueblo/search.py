"""What the search player needs of Pueblo: its leaf estimate (``GAME_TYPE.search``).

The search beats greedy with its defaults. The leaf is an estimate
(:func:`estimate`): the penalties so far plus the final round's walk on the
pueblo as it stands. That walk is most of a game's penalties and a rollout of
two turns a seat never reaches it; OpenSpiel's ISMCTS, whose random rollouts
play to the end, won a quarter of its games against the search without it.
On tune matches 10-29 against OpenSpiel's ISMCTS at the same CPU time the
search won 19 with the estimate against 16 without (and 2,400 iterations
without it: 8.5 of 11); against greedy, tune 0-41, 42 of 42 both ways,
margin +3.5 +- 6.1 points (docs/benchmarks.md).
"""

from __future__ import annotations

from lanterne.engines.core import Game, State
from lanterne.engines.game_type import PerSeatMemo, SearchHints

from .data import TRACK
from .board import penalties_at
from .state import BUILD_1, BUILD_2

TUNING = {"estimate": 1}

FINAL = 1.0
"""Share of the final round's penalties, on the pueblo as it stands, counted now (stones still to come
cover some squares and show others)."""
_final_walks = PerSeatMemo()


def estimate(game: Game, state: State, seat: int) -> float:
    """Points (minus the penalties so far), minus what the final round would cost the seat on the pueblo as it
    stands: the chieftain's walk of all 36 spaces is most of a game's penalties, and a rollout of a few turns
    never reaches it."""
    if state.phase == "over" or state.stage not in (BUILD_1, BUILD_2):
        return float(game.points(state, seat))

    def final_walk() -> list[int]:
        walk = [0] * state.players
        heights, stacks, owners, players = state.heights, state.stacks, state.owners, state.players
        for space in range(TRACK):
            for p, n in enumerate(penalties_at(heights, stacks, owners, space, players)):
                walk[p] += n
        return walk

    return game.points(state, seat) - FINAL * _final_walks.get(state, final_walk)[seat]


SEARCH = SearchHints(tuning=TUNING, level_tuning={}, estimate=estimate, plan_key=None,
                     openspiel_overhead=0.176, move_seconds=0.0945, bench_tables=(2, 4))
"""``openspiel_overhead`` measured by ``python -m lanterne.engines.bots.openspiel`` (2026-11-27,
docs/benchmarks.md); ``move_seconds`` is the ``search.move.pueblo`` row."""
