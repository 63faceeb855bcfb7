"""How long the search player thinks per move, in CPU seconds.

The app promises a computer move within 1 s. This measures the search
player at a level (``normal`` by default, by iterations, with NO time cap,
so the figure says what the cap would have to cut) in 2-player games
against greedy, seats and seeds as in :mod:`engines.bots.arena`: match
``index`` seats the search player in ``index % 2``, so successive matches
swap seats.

Only the moves it had to think about count (more than one legal action).
The clock is CPU time of this thread (``time.thread_time``): a loaded
machine makes the wall clock longer, not the CPU time, so the figure stays
comparable between runs. Positions depend on the seed alone: the same call
times the same moves.

    .venv/bin/python -m engines.bots.bench [GAME ...]
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Callable

from engines.bots.arena import Match
from engines.bots.ismcts import IsmctsBot
from engines.bots.simple import make_bot
from engines.core import TABLE, Action, OpenTable, RulesError, State
from engines.registry import get_game

DECISIONS = 15
"""Moves timed per figure: the first 15 the search player has to think about."""


def search_move_seconds(game_id: str, decisions: int = DECISIONS, level: str = "normal",
                        iterations: int | None = None, opponent: str = "greedy",
                        clock: Callable[[], float] = time.thread_time,
                        on_move: Callable[[State, int, Action], None] | None = None) -> list[float]:
    """CPU seconds of each of the search player's first ``decisions`` real decisions.

    Plays matches 0, 1, 2... (seats swapped each time) until that many moves
    with more than one legal action are timed. ``iterations`` overrides the
    level's (tests time cheap moves with it); ``on_move(view, seat, action)`` sees
    each timed move.
    """
    if decisions < 1:
        raise RulesError(f"decisions must be at least 1, not {decisions}")
    game = get_game(game_id)
    times: list[float] = []
    index = idle = 0
    while len(times) < decisions:
        match = Match(game_id, opponent, index, level)
        search = IsmctsBot.at_level(level, f"{match.seed}/search")
        if iterations is not None:
            search.iterations = iterations
        players = [make_bot(opponent, f"{match.seed}/{opponent}")] * 2
        players[match.search_seat] = search
        table = OpenTable(match.seed)
        state = game.setup(players=2)
        moved = False
        while not game.is_over(state) and len(times) < decisions:
            actor = game.next_actor(state)
            if actor == TABLE:
                action = table.resolve(state, game.table_op(state))
            else:
                view = game.view(state, actor)
                if actor == match.search_seat and len(game.legal_actions(view, actor)) > 1:
                    started = clock()
                    action = search.choose(game, view, actor)
                    times.append(clock() - started)
                    if on_move is not None:
                        on_move(view, actor, action)
                    moved = True
                else:
                    action = players[actor].choose(game, view, actor)
            state, _ = game.apply(state, action)
        idle = 0 if moved else idle + 1
        if idle == 2:
            raise RulesError(f"{game.name}: the search player had no choice to make in two games running")
        index += 1
    return times


def median_search_move_s(game_id: str, decisions: int = DECISIONS, level: str = "normal") -> float:
    """Median CPU seconds per move of the search player at ``level`` (a `lanterne bench` figure)."""
    return statistics.median(search_move_seconds(game_id, decisions, level))


def main(argv: list[str] | None = None) -> int:
    games = (argv if argv is not None else sys.argv[1:]) or ["pagode", "pueblo", "pacal", "pandoria"]
    for game_id in games:
        times = sorted(search_move_seconds(game_id))
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{game_id}: median {statistics.median(times):.3f} s CPU per move, p95 {p95:.3f} s, "
              f"over {len(times)} moves (ismcts normal vs greedy, 2 players)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
