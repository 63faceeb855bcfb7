"""The strength arena: seeded matches, seats swapped, ties as halves, Wilson intervals."""

import pytest

from engines.bots.arena import Match, Row, play_match, record_key, schedule, summarize, table, wilson
from engines.core import RulesError


def record(game="pueblo", against="greedy", index=0, score=1.0, move_ms=(100.0,), level="normal"):
    return {"game": game, "against": against, "level": level, "index": index, "score": score,
            "move_ms": list(move_ms)}


def test_seats_swap_from_one_game_to_the_next():
    assert [Match("pueblo", "greedy", i).search_seat for i in range(4)] == [0, 1, 0, 1]


def test_a_match_plays_the_search_player_in_its_seat_and_says_who_won():
    for index in (0, 1):
        r = play_match(Match("pueblo", "random", index), iterations=6)
        assert r["search_seat"] == index
        assert r["winners"] and set(r["winners"]) <= {0, 1}
        expected = 1.0 / len(r["winners"]) if index in r["winners"] else 0.0
        assert r["score"] == expected
        assert r["move_ms"] and all(ms >= 0 for ms in r["move_ms"])
        assert record_key(r) == ("pueblo", "random", "normal", index)


def test_the_same_match_plays_the_same_game():
    a = play_match(Match("pagode", "greedy", 3), iterations=5)
    b = play_match(Match("pagode", "greedy", 3), iterations=5)
    other = play_match(Match("pagode", "greedy", 4), iterations=5)
    timing = ("seconds", "move_ms")
    same = {k: v for k, v in a.items() if k not in timing}
    assert same == {k: v for k, v in b.items() if k not in timing}
    assert (a["scores"], a["steps"]) != (other["scores"], other["steps"])


def test_only_known_opponents_play():
    with pytest.raises(RulesError, match="no opponent 'chess'"):
        play_match(Match("pueblo", "chess", 0))


def test_a_shared_win_counts_half():
    rows = summarize([record(score=1.0, index=0), record(score=0.5, index=1), record(score=0.0, index=2),
                      record(score=0.5, index=3)])
    (row,) = rows
    assert (row.games, row.wins, row.draws, row.losses) == (4, 1, 2, 1)
    assert row.score == 2.0 and row.rate == 0.5


def test_rows_are_kept_apart_by_game_opponent_and_level():
    rows = summarize([record(), record(against="random"), record(game="pacal"), record(level="easy"), record()])
    assert [(r.game, r.against, r.level, r.games) for r in rows] == [
        ("pueblo", "greedy", "normal", 2), ("pueblo", "random", "normal", 1), ("pacal", "greedy", "normal", 1),
        ("pueblo", "greedy", "easy", 1)]


@pytest.mark.parametrize("score, n, low, high", [
    (7, 10, 0.3968, 0.8922),     # textbook example (Newcombe 1998, method 3)
    (0, 10, 0.0, 0.2775),        # upper bound z^2 / (n + z^2)
    (10, 10, 0.7225, 1.0),
    (140, 200, 0.6332, 0.7593),  # 70 % of 200 games: the interval straddles the target (by hand)
])
def test_wilson_interval_matches_known_values(score, n, low, high):
    lo, hi = wilson(score, n)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


def test_wilson_of_no_games_is_everything():
    assert wilson(0, 0) == (0.0, 1.0)


def test_verdict_against_the_70_percent_target():
    def row(score, games=100, against="greedy"):
        return Row("pueblo", against, "normal", games=games, score=score)

    assert row(85).verdict == "met"
    assert row(74).verdict == "met (rate)"  # above 70 % but the interval reaches below
    assert row(70).verdict == "**not met** (rate)"  # the target is *more* than 70 %
    assert row(55).verdict == "**not met**"
    assert row(10, against="random").verdict == "—"


def test_schedule_plays_every_game_against_the_first_opponent_first():
    matches = schedule(["pagode", "pueblo"], ["greedy", "random"], 2)
    assert [(m.opponent, m.index, m.game) for m in matches] == [
        ("greedy", 0, "pagode"), ("greedy", 0, "pueblo"), ("greedy", 1, "pagode"), ("greedy", 1, "pueblo"),
        ("random", 0, "pagode"), ("random", 0, "pueblo"), ("random", 1, "pagode"), ("random", 1, "pueblo")]
    assert len({m.seed for m in matches}) == len(matches)


def test_table_says_how_far_a_partial_run_is_and_the_move_times():
    rows = summarize([record(index=i, move_ms=(100.0 * (i + 1), 2000.0 if i == 2 else 50.0)) for i in range(3)])
    text = table(rows, planned=200)
    line = text.splitlines()[2]
    assert "| 3 of 200 |" in line
    assert "| 3 / 0 / 0 |" in line
    assert "100.0 % (43.9 % – 100.0 %)" in line
    assert "| met (rate) |" in line
    assert line.endswith("| 0.15 / 2.00 |")  # median of 50, 50, 100, 200, 300, 2000 ms; p95 the slowest
