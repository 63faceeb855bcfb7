"""How long the search player thinks per move, in CPU seconds.

The app promises a computer move within 1 s. This measures the search
player at a level (``normal`` by default, by iterations, with NO time cap,
so the figure says what the cap would have to cut) in 2-player games
against greedy, seats and seeds as in ``engines/bots/arena.py``: match
``index`` seats the search player in ``index % 2``, so successive matches
swap seats.

Only the moves it had to think about count (more than one legal action).
The clock is CPU time of this thread (``time.thread_time``): a loaded
machine makes the wall clock longer, not the CPU time, so the figure stays
comparable between runs. Positions depend on the seed alone: the same call
times the same moves.

    .venv/bin/python -m bench.search [GAME ...]           # time moves
    .venv/bin/python -m bench.search --throughput [GAME ...]  # the games/s a 1 s move needs

The second form derives the random-games-per-second targets of
docs/benchmarks.md: :func:`turns_per_random_game` and :func:`games_per_second_needed`.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

from lanterne.engines.bots.arena import Match, opponent_player
from lanterne.engines.bots.ismcts import IsmctsBot
from lanterne.engines.bots.simple import RandomBot
from lanterne.engines.core import TABLE, Action, OpenTable, RulesError, State, play_out
from lanterne.engines.registry import GAMES, game_type, get_game

DECISIONS = 15
"""Moves timed per figure: the first 15 the search player has to think about."""


def search_move_seconds(game_id: str, decisions: int = DECISIONS, level: str = "normal",
                        iterations: int | None = None, opponent: str = "greedy",
                        clock: Callable[[], float] = time.thread_time,
                        on_move: Callable[[State, int, Action], None] | None = None,
                        players: int = 2) -> list[float]:
    """CPU seconds of each of the search player's first ``decisions`` real decisions.

    Plays matches 0, 1, 2... (seats turning each time; ``players`` at the
    table, the others the opponent) until that many moves with more than one
    legal action are timed. ``iterations`` overrides the
    level's (tests time cheap moves with it); ``on_move(view, seat, action)`` sees
    each timed move.
    """
    if decisions < 1:
        raise RulesError(f"decisions must be at least 1, not {decisions}")
    game = get_game(game_id)
    times: list[float] = []
    index = idle = 0
    while len(times) < decisions:
        # the positions every figure so far was timed on (a table of more: its own seeds)
        match = Match(game_id, opponent, index, level, seeds="tune", players=players)
        search = IsmctsBot.at_level(level, f"{match.seed}/search")
        if iterations is not None:
            search.iterations, search.level = iterations, None
        bots = [opponent_player(match, iterations, seat) for seat in range(players)]
        bots[match.search_seat] = search
        table = OpenTable(match.seed)
        state = game.setup(players=players)
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
                    action = bots[actor].choose(game, view, actor)
            state, _ = game.apply(state, action)
        idle = 0 if moved else idle + 1
        if idle == 2:
            raise RulesError(f"{game.name}: the search player had no choice to make in two games running")
        index += 1
    return times


def median_search_move_s(game_id: str, decisions: int = DECISIONS, level: str = "normal", players: int = 2) -> float:
    """Median CPU seconds per move of the search player at ``level`` (a `lanterne bench` figure)."""
    return statistics.median(search_move_seconds(game_id, decisions, level, players=players))


def turns_per_random_game(game_id: str, players: int, games: int = 40) -> float:
    """Median turns of a complete random game, a turn being one seat's run of actions (as the search's rollouts count).

    40 games by default: a Pacal's Rocket game's length varies a lot (the median of 10 games moved from 290 to 448).
    """
    game = get_game(game_id)
    counts = []
    for g in range(games):
        bots = [RandomBot(f"turns/{g}/{i}") for i in range(players)]
        _, record = play_out(game, game.setup(players=players), OpenTable(f"turns/{g}"), bots)
        seats = [actor for actor, _ in record if actor != TABLE]
        counts.append(sum(1 for i, actor in enumerate(seats) if i == 0 or actor != seats[i - 1]))
    return statistics.median(counts)


def games_per_second_needed(game_id: str, players: int, iterations: int = IsmctsBot.LEVELS["normal"],
                            seconds: float = 1.0, rollout_turns: int = 2) -> float:
    """Random games a second the engine must play for ``iterations`` rollouts to fit in ``seconds``.

    A rollout plays ``rollout_turns`` turns a seat, so ``rollout_turns * players``
    of the game's R turns: ``iterations * rollout_turns * players / R`` games' worth of play.
    """
    return iterations * rollout_turns * players / turns_per_random_game(game_id, players) / seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--throughput", action="store_true",
                        help="print the random games/s a 1 s move at the normal level needs, per table size")
    args = parser.parse_args(argv)
    for game_id in args.games:
        if args.throughput:
            for players in game_type(game_id).search.bench_tables:
                turns = turns_per_random_game(game_id, players)
                print(f"{game_id} {players}p: {turns:g} turns a random game, so at least "
                      f"{games_per_second_needed(game_id, players):.1f} random games/s for 600 rollouts a second")
            continue
        times = sorted(search_move_seconds(game_id))
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{game_id}: median {statistics.median(times):.3f} s CPU per move, p95 {p95:.3f} s, "
              f"over {len(times)} moves (ismcts normal vs greedy, 2 players)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
