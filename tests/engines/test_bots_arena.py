"""The strength arena: seeded matches, seats swapped, ties as halves, Wilson intervals."""

import pytest

from lanterne.engines.bots.arena import (Gap, Match, Row, check_opponent, level_iterations, opponent_player, play_match,
                                         record_key, schedule, search_player, summarize, table, wilson)
from lanterne.engines.bots.ismcts import IsmctsBot
from lanterne.engines.core import TABLE, OpenTable, RulesError
from lanterne.engines.registry import get_game


def record(game="pueblo", against="greedy", index=0, score=1.0, move_ms=(100.0,), level="normal", seeds=None):
    r = {"game": game, "against": against, "level": level, "index": index, "score": score, "move_ms": list(move_ms)}
    if seeds is not None:
        r["seeds"] = seeds
    return r


def test_seats_swap_from_one_game_to_the_next():
    assert [Match("pueblo", "greedy", i).search_seat for i in range(4)] == [0, 1, 0, 1]


def test_a_match_plays_the_search_player_in_its_seat_and_says_who_won():
    for index in (0, 1):
        r = play_match(Match("pueblo", "random", index), iterations=6)
        assert r["search_seat"] == index
        assert r["winners"] and set(r["winners"]) <= {0, 1}
        expected = 1.0 / len(r["winners"]) if index in r["winners"] else 0.0
        assert r["score"] == expected
        assert r["move_ms"] and all(ms >= 0 for ms in r["move_ms"]) and r["move_clock"] == "cpu"
        assert record_key(r) == ("pueblo", "random", "normal", "measure", 2, index)
        assert r["seeds"] == "measure" and r["seed"] == f"measure/pueblo/random/{index}"


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
    with pytest.raises(RulesError, match="no opponent 'ismcts:genius'"):
        play_match(Match("pueblo", "ismcts:genius", 0))


def test_a_shared_win_counts_half():
    rows = summarize([record(score=1.0, index=0), record(score=0.5, index=1), record(score=0.0, index=2),
                      record(score=0.5, index=3)])
    (row,) = rows
    assert (row.games, row.wins, row.draws, row.losses) == (4, 1, 2, 1)
    assert row.score == 2.0 and row.rate == 0.5


def test_rows_are_kept_apart_by_game_opponent_level_and_seed_set():
    rows = summarize([record(), record(against="random"), record(game="pacal"), record(level="easy"), record(),
                      record(seeds="measure"), record(seeds="tune")])
    assert [(r.game, r.against, r.level, r.seeds, r.games) for r in rows] == [
        ("pueblo", "greedy", "normal", "tune", 3), ("pueblo", "random", "normal", "tune", 1),
        ("pacal", "greedy", "normal", "tune", 1), ("pueblo", "greedy", "easy", "tune", 1),
        ("pueblo", "greedy", "normal", "measure", 1)]


def test_a_record_from_before_seed_sets_is_from_the_tune_seeds():
    old = record(index=7)
    assert record_key(old) == ("pueblo", "greedy", "normal", "tune", 2, 7)
    assert Match("pueblo", "greedy", 7, seeds="tune").key == record_key(old)
    # the tune set is exactly the seeds of before: the records in docs/strength.jsonl replay as they were
    assert Match("pagode", "greedy", 3, "normal", "tune").seed == "strength/pagode/greedy/normal/3"


def test_the_seed_sets_are_apart_and_a_measure_seed_leaves_the_level_out():
    tune = {Match("pagode", "greedy", i, seeds="tune").seed for i in range(50)}
    measure = {Match("pagode", "greedy", i).seed for i in range(50)}
    assert len(tune) == len(measure) == 50 and not tune & measure
    assert Match("pagode", "greedy", 3, "ceiling").seed == Match("pagode", "greedy", 3, "normal").seed
    assert Match("pagode", "greedy", 3, "ceiling", "tune").seed != Match("pagode", "greedy", 3, "normal", "tune").seed
    with pytest.raises(RulesError, match="no seed set 'lucky'"):
        Match("pagode", "greedy", 3, seeds="lucky").seed


def test_levels_are_presets_the_ceiling_or_iterations():
    assert [level_iterations(x) for x in ("easy", "normal", "hard", "ceiling", "12000")] == [150, 600, 2500, 12000,
                                                                                          12000]
    for bad in ("genius", "0", "012", "-5", "1.5", "99999999"):
        with pytest.raises(RulesError, match="no level"):
            level_iterations(bad)
    assert search_player(Match("pagode", "greedy", 0, "ceiling")).iterations == 12000
    assert search_player(Match("pagode", "greedy", 0, "hard"), iterations=7).iterations == 7


def test_a_level_follows_the_games_scale_in_the_arena_and_in_the_app():
    """Pandoria's ``level_scale`` is 2 (its tuning): its presets and its ceiling are twice the others', for the strength
    runs and for the app's player alike (``IsmctsBot.at_level`` learns the game at its first move)."""
    assert [level_iterations(x, "pandoria") for x in ("easy", "normal", "hard", "ceiling")] == [300, 1200, 5000,
                                                                                                 24000]
    assert [level_iterations(x, "pagode") for x in ("easy", "normal", "hard")] == [150, 600, 2500]
    assert opponent_player(Match("pandoria", "ismcts:hard", 0, "normal")).iterations == 5000
    assert [level_iterations(x, "pueblo") for x in ("normal", "ceiling")] == [600, 12000]
    assert search_player(Match("pandoria", "greedy", 0, "normal")).iterations == 1200
    assert search_player(Match("pueblo", "greedy", 0, "normal")).iterations == 600
    assert opponent_player(Match("pandoria", "ismcts:normal", 0, "hard")).iterations == 1200
    game = get_game("pandoria")
    state = game.setup(players=2)
    bot = IsmctsBot.at_level("easy", "scale")
    while game.next_actor(state) == TABLE or len(game.legal_actions(state, game.next_actor(state))) < 2:
        actor = game.next_actor(state)
        state, _ = game.apply(state, OpenTable("scale").resolve(state, game.table_op(state)) if actor == TABLE
                              else game.legal_actions(state, actor)[0])
    actor = game.next_actor(state)
    bot.choose(game, game.view(state, actor), actor)
    assert bot.last_iterations == 300
    literal = IsmctsBot("scale", iterations=150)      # iterations given as a number are taken as they are
    literal.choose(game, game.view(state, actor), actor)
    assert literal.last_iterations == 150


def test_the_search_player_can_be_the_opponent_at_another_level():
    assert check_opponent("ismcts:normal") == "ismcts:normal" and check_opponent("ismcts:300") == "ismcts:300"
    for bad in ("ismcts", "ismcts:genius", "greedy:hard", "ismcts:LEVEL"):
        with pytest.raises(RulesError, match="no opponent"):
            check_opponent(bad)
    match = Match("pueblo", "ismcts:normal", 1, "hard")
    other = opponent_player(match)
    assert isinstance(other, IsmctsBot) and other.iterations == 600
    assert opponent_player(match, iterations=25).iterations == 6     # scaled as the search player's: 2500 -> 25
    r = play_match(match, iterations=12)
    assert r["against"] == "ismcts:normal" and r["level"] == "hard" and r["search_seat"] == 1
    assert r == {**play_match(match, iterations=12), "seconds": r["seconds"], "move_ms": r["move_ms"]}


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


def test_verdict_against_the_90_percent_target():
    def row(score, games=100, against="greedy", level="normal"):
        return Row("pueblo", against, level, games=games, score=score)

    assert row(97).verdict == "met"
    assert row(93).verdict == "met (rate)"  # above 90 % but the interval reaches below
    assert row(90).verdict == "**not met** (rate)"  # the target is *more* than 90 %
    assert row(80).verdict == "**not met**"
    assert row(10, against="random").verdict == "—"
    assert row(50, level="ceiling").verdict == "—"      # the ceiling is a reference, not a player to judge


def test_hard_against_normal_has_the_65_percent_target():
    assert Row("pagode", "ismcts:normal", "hard", games=100, score=75).verdict == "met"
    assert Row("pagode", "ismcts:normal", "hard", games=100, score=60).verdict == "**not met** (rate)"
    assert Row("pagode", "ismcts:normal", "hard").target == 0.65


def test_the_ceiling_is_judged_against_normal_on_the_same_deals():
    normal = [1.0, 1.0, 0.0, 1.0, 0.5, 1.0]
    ceiling = [1.0, 0.0, 1.0, 1.0, 1.0]  # deal 5 not played yet: left out of the pairs
    rows = summarize([record(game="pagode", index=i, score=x, seeds="measure") for i, x in enumerate(normal)]
                     + [record(game="pagode", index=i, score=x, seeds="measure", level="ceiling")
                        for i, x in enumerate(ceiling)]
                     + [record(game="pagode", index=9, score=0.0, seeds="tune", level="ceiling"),  # other deals
                        record(game="pagode", index=0, score=0.0, seeds="measure", level="ceiling", against="random")])
    by_level = {(r.level, r.seeds, r.against): r for r in rows}
    assert by_level["normal", "measure", "greedy"].gap is None
    assert by_level["ceiling", "tune", "greedy"].gap is None  # a tune seed names its level: not the same deal
    assert by_level["ceiling", "measure", "random"].gap is None  # no normal row to pair with
    gap = by_level["ceiling", "measure", "greedy"].gap
    assert gap.differences == [0.0, -1.0, 1.0, 0.0, 0.5]
    assert gap.mean == pytest.approx(0.1)
    low, high = gap.interval  # 0.1 +- 1.96 * stdev 0.742 / sqrt 5
    assert (low, high) == (pytest.approx(0.1 - 0.6504, abs=1e-3), pytest.approx(0.1 + 0.6504, abs=1e-3))
    assert gap.verdict == "**not met** (rate)"  # the ceiling 10 points above normal, the interval wide
    line = table(rows).splitlines()[3]
    assert "| `normal` within 3 points: **not met** (rate); ceiling minus normal +10.0 (-55.0 – +75.0) points on 5 same deals |" in line


def test_normal_within_3_points_of_the_ceiling_is_met_by_the_whole_interval():
    assert Gap([0.0] * 49 + [1.0]).verdict == "met (rate)"  # +2 points, but the interval reaches +5.9
    assert Gap([0.0] * 1000 + [-1.0] * 10).verdict == "met"
    assert Gap([1.0] * 50 + [0.0] * 50).verdict == "**not met**"
    assert Gap([0.0] * 90 + [1.0] * 4).verdict == "**not met** (rate)"
    assert Gap([1.0]).interval == (-1.0, 1.0)


def test_a_table_of_more_seats_the_search_player_among_opponents_each_seeded_apart():
    matches = [Match("pueblo", "greedy", i, players=4) for i in range(5)]
    assert [m.search_seat for m in matches] == [0, 1, 2, 3, 0]
    assert matches[3].seed == "measure/pueblo/greedy/4p/3" and matches[3].key[4] == 4
    assert Match("pueblo", "greedy", 3).seed == "measure/pueblo/greedy/3"      # 2 players: the seeds of before
    seeds = [opponent_player(matches[2], seat=s).rng.random() for s in range(4)]
    assert len(set(seeds)) == 4, "every opponent has its own seed"
    r = play_match(matches[2], iterations=6)
    assert r["players"] == 4 and r["search_seat"] == 2 and len(r["scores"]) == 4
    assert record_key(r) == ("pueblo", "greedy", "normal", "measure", 4, 2)
    assert r["score"] == (1.0 / len(r["winners"]) if 2 in r["winners"] else 0.0)
    assert schedule(["pueblo"], ["greedy"], 2, players=3)[1] == Match("pueblo", "greedy", 1, players=3)


def test_a_table_of_more_has_the_fair_share_target_and_its_own_row():
    four = {**record(), "players": 4}
    rows = summarize([record(), four, {**four, "index": 1, "score": 0.0}])
    assert [(r.players, r.games) for r in rows] == [(2, 1), (4, 2)]
    assert rows[1].target == 0.25 and Row("pueblo", "random", "normal", players=4).target is None
    assert rows[1].rate == 0.5
    assert "| pueblo | 4 | greedy | normal | tune | 2 |" in table(rows)
    assert "| > 25 %: " in table(rows).splitlines()[3]


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
    assert "| > 90 %: met (rate) |" in line
    assert line.startswith("| pueblo | 2 | greedy | normal | tune | 3 of 200 |")
    assert line.endswith("| 0.15 / 2.00 wall |")  # median of 50, 50, 100, 200, 300, 2000 ms; p95 the slowest


def test_cpu_move_times_are_shown_before_older_wall_clock_ones():
    cpu = {"move_clock": "cpu"}
    rows = summarize([{**record(index=0, move_ms=(100.0, 300.0)), **cpu}, {**record(index=1, move_ms=(200.0,)), **cpu},
                      record(index=2, move_ms=(9000.0,))])
    assert rows[0].timed_games == 2 and rows[0].move_ms == [100.0, 300.0, 200.0] and rows[0].wall_ms == [9000.0]
    assert table(rows).splitlines()[2].endswith("| 0.20 / 0.30 CPU (2 games) |")  # the wall time left out
    rows = summarize([{**record(index=i, move_ms=(100.0,)), **cpu} for i in range(2)])
    assert table(rows).splitlines()[2].endswith("| 0.10 / 0.10 CPU |")
    assert table(summarize([record(move_ms=())])).splitlines()[2].endswith("| — |")
