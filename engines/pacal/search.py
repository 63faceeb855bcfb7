"""What the search player needs of Pacal's Rocket: an estimate for trials (``GAME_TYPE.search``).

The search beats greedy with its defaults, which cost less time. The
estimate (:func:`estimate`: the final scoring on the board as it stands) lost
to the shipped player: 4 of 18 tune matches against ``ismcts:normal``, 9 of
19 with a reward scale of 24 (docs/benchmarks.md); it stays off, for trials.
"""

from __future__ import annotations

from lanterne.engines.core import Game, State
from lanterne.engines.game_type import PerSeatMemo, SearchHints

from .board import board_for
from .rules.scoring import final_awards

FINAL = 1.0
"""Share of the final scoring, on the board as it stands, counted now."""
_final_points = PerSeatMemo()


def estimate(game: Game, state: State, seat: int) -> float:
    """Points, plus what the final scoring would pay on the board as it stands: river and lake places,
    district majorities and seconds, unused energy pieces (``scoring.final_awards``). They are a good
    part of a game's points, and a rollout of two turns a seat reaches the end only near it."""
    if game.is_over(state):
        return float(game.points(state, seat))

    def final_points() -> list[int]:
        final = [0] * state.players
        for who, pts, _ in final_awards(state, board_for(state.players)):
            final[who] += pts
        return final

    return game.points(state, seat) + FINAL * _final_points.get(state, final_points)[seat]


SEARCH = SearchHints(tuning={}, level_tuning={}, estimate=estimate, plan_key=None,
                     openspiel_overhead=0.102, move_seconds=0.156, bench_tables=(2, 5))
"""``openspiel_overhead`` measured by ``python -m lanterne.engines.bots.openspiel`` (2026-11-27,
docs/benchmarks.md); ``move_seconds`` is the ``search.move.pacal`` row."""
