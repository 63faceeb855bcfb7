"""The search player's time per move: the positions it is timed on and the clock it reads."""

import itertools

import pytest

from bench.search import search_move_seconds
from lanterne.engines.core import RulesError


def test_each_real_decision_is_timed_once_and_is_positive():
    times = search_move_seconds("pueblo", decisions=2, iterations=5)
    assert len(times) == 2 and all(t > 0 for t in times)


def test_it_reads_the_given_clock_around_each_decision_only():
    ticks = itertools.count()
    times = search_move_seconds("pagode", decisions=3, iterations=3, clock=lambda: float(next(ticks)))
    assert times == [1.0, 1.0, 1.0]  # one read before and one after each move, nothing in between


def test_the_positions_come_from_the_seed_alone():
    """Same seed, same moves: two runs time the search player on the same positions, choosing the same."""
    from lanterne.engines.registry import get_game

    game = get_game("pandoria")
    runs = [[], []]
    for moves in runs:
        search_move_seconds("pandoria", decisions=3, iterations=4,
                            on_move=lambda view, seat, action, moves=moves: moves.append((game.digest(view), action)))
    assert len(runs[0]) == 3 and runs[0] == runs[1]
    assert len({digest for digest, _ in runs[0]}) == 3  # three different positions, not one timed thrice


def test_more_decisions_than_one_game_gives_go_on_into_the_next_match_with_seats_swapped():
    seats = []
    times = search_move_seconds("pueblo", decisions=40, iterations=2,  # ~30 choices a seat in a 2-player game
                                on_move=lambda view, seat, action: seats.append(seat))
    assert len(times) == 40
    assert seats[0] == 0 and seats[-1] == 1  # match 0 seats it first, match 1 second (as in the arena)


def test_a_level_that_does_not_exist_is_one_line():
    with pytest.raises(RulesError, match="no level 'genius'"):
        search_move_seconds("pacal", decisions=1, level="genius")


def test_at_least_one_decision():
    with pytest.raises(RulesError, match="at least 1"):
        search_move_seconds("pacal", decisions=0)


def test_turns_are_runs_of_one_seat_and_the_bound_follows_from_them():
    from bench.search import games_per_second_needed, turns_per_random_game

    turns = turns_per_random_game("pueblo", 2, games=3)
    assert 2 <= turns < 1000
    assert games_per_second_needed("pueblo", 2) == pytest.approx(600 * 2 * 2 / turns_per_random_game("pueblo", 2))
    assert games_per_second_needed("pueblo", 2, seconds=0.5) == pytest.approx(2 * games_per_second_needed("pueblo", 2))
