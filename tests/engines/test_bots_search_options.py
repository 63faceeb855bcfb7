"""The search player's optional settings: leaf estimates, progressive bias, greedy root pruning,
relative rewards, whole-turn plans (distinct ones too), greedy rollouts (of every seat or the searching one).

Each is deterministic (same seed and view, same move), legal, and reads only the view.
"""

import re

import pytest

from lanterne.engines.bots import IsmctsBot
from lanterne.engines.pacal.search import FINAL as PACAL_FINAL
from lanterne.engines.pagode.search import WEIGHTS as PAGODE_WEIGHTS
from lanterne.engines.pagode.search import features as pagode_features
from lanterne.engines.pagode.search import plan_key
from lanterne.engines.pandoria.search import open_yield
from lanterne.engines.pueblo.search import FINAL as PUEBLO_FINAL
from lanterne.engines.bots.simple import GreedyBot
from lanterne.engines.core import TABLE, OpenTable, play_out
from lanterne.engines.registry import get_game, search_hints


def position(game_id, seed="options", moves=12):
    """A decision after ``moves`` greedy actions: (game, full state, seat to act)."""
    game = get_game(game_id)
    state, table, greedy = game.setup(2), OpenTable(seed), GreedyBot(seed)
    done = 0
    while True:
        actor = game.next_actor(state)
        if actor == TABLE:
            state, _ = game.apply(state, table.resolve(state, game.table_op(state)))
            continue
        if done >= moves and len(game.legal_actions(state, actor)) > 1:
            return game, state, actor
        state, _ = game.apply(state, greedy.choose(game, state, actor))
        done += 1


SETTINGS = [{"estimate": True}, {"bias": 0.1}, {"root_top": 3}, {"estimate": True, "bias": 0.1, "root_top": 3},
            {"relative": True}, {"plans": 4}, {"plans": 4, "estimate": True}, {"plans": 3, "greedy_plans": True},
            {"rollout_greedy": 20}, {"plans": 3, "rollout_greedy": 20}, {"plans": 4, "distinct_plans": True},
            {"plans": 3, "own_greedy": 20}, {"own_greedy": 20}]


@pytest.mark.parametrize("game_id", ["pagode", "pueblo", "pandoria", "pacal"])
@pytest.mark.parametrize("settings", SETTINGS)
def test_each_setting_plays_a_legal_move_the_same_every_time(game_id, settings):
    game, state, seat = position(game_id)
    view = game.view(state, seat)
    moves = {IsmctsBot("s", iterations=25, **settings).choose(game, view, seat) for _ in range(2)}
    (move,) = moves
    assert move in game.legal_actions(state, seat)


def test_the_estimates_count_what_the_end_or_the_next_turns_pay():
    game, state, seat = position("pandoria")
    res = state.resources[seat]
    est = search_hints("pandoria").estimate(game, state, seat)
    assert est >= game.points(state, seat) + len(state.piles[f"hand{seat}"]) + sum(res) / 3 - 1e-9
    game, state, seat = position("pagode")
    assert search_hints("pagode").estimate(game, state, seat) == pytest.approx(
        game.points(state, seat) + sum(w * f for w, f in zip(PAGODE_WEIGHTS, pagode_features(state, seat))))


def test_the_pagode_features_read_the_uses_and_what_the_cards_build_on_the_board_as_it_stands():
    from lanterne.engines.pagode.data import CARDS_PER_COLOUR

    game, state, seat = position("pagode", moves=0)
    s = state.copy()
    red, blue = 0, 1
    mine = state.reserves[seat][:2]
    s.cards = state.cards.copy()
    s.cards.ids[mine[0]], s.cards.ids[mine[1]] = red * CARDS_PER_COLOUR, blue * CARDS_PER_COLOUR
    s.reserves = tuple(mine if i == seat else r for i, r in enumerate(state.reserves))
    s.hands = tuple(() if i == seat else h for i, h in enumerate(state.hands))
    s.uses = tuple((2, 0, 1, 0, 0) if i == seat else u for i, u in enumerate(state.uses))
    s.site_tiles = ((0, 1), (2,), (), (), (), ())       # site 1 on its 3rd floor, site 2 on its 2nd
    s.site_cols = (1, 4, 0, 0, 0, 0)                  # site 2's floor is full: it takes a tile
    s.site_colour = (red, blue, None, None, None, None)
    assert pagode_features(s, seat) == [2, 0, 1, 0, 0, 1, 3 + 1]     # blue: a tile; red: a 3rd-floor column
    s.site_colour = (red, blue, red, red, red, red)
    s.site_tiles, s.site_cols = ((0, 1), (2,), (3,), (4,), (5,), (6,)), (1, 4, 1, 1, 1, 1)
    assert pagode_features(s, seat)[5:] == [1, 3]       # no empty site: the blue card builds no column
    s.site_cols = (4, 4, 4, 4, 4, 4)
    assert pagode_features(s, seat)[5:] == [2, 0]       # full floors of both colours: two tile colours


def test_the_pagode_fit_solves_least_squares_and_reads_every_turn_start():
    from lanterne.engines.bots.fit import NAMES, least_squares, samples

    rows = [[1, 0, 2], [0, 1, 1], [1, 1, 0], [2, 1, 1]]
    assert least_squares(rows, [1 * r[0] - 2 * r[1] + 0.5 * r[2] for r in rows]) == pytest.approx([1, -2, 0.5])
    with pytest.raises(ValueError, match="never varies"):
        least_squares([[1, 0], [2, 0]], [1, 2])
    rows, gains = samples(2)
    assert len(rows) == len(gains) > 20 and all(len(r) == len(NAMES) for r in rows)
    assert {r[-1] for r in rows} == {1.0, -1.0}       # the seat to move, seat 1's minus seat 2's


def test_the_pagode_fit_prints_each_weight_and_refuses_no_games_in_one_line(capsys):
    from lanterne.engines.bots.fit import NAMES, main

    assert main(["--games", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"[0-9]+ turn starts of 3 greedy games; R\^2 -?[0-9]\.[0-9]{3}", out[0])
    assert [line.split()[0] for line in out[1:]] == [name.split()[0] for name in NAMES]
    with pytest.raises(SystemExit) as stop:
        main(["--games", "0"])
    assert stop.value.code == 2 and "--games must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("moves", [0, 6, 14, 24])
def test_the_pueblo_estimate_is_the_points_less_the_final_round_on_the_pueblo_as_it_stands(moves):
    """Checked against the engine's own final round, played on a copy of the position."""
    from lanterne.engines.pueblo import rules

    game, state, seat = position("pueblo", moves=moves)
    ended = state.copy()
    rules.final_round(ended, [])
    for s in (0, 1):
        charged = ended.penalties[s] - state.penalties[s]
        assert search_hints("pueblo").estimate(game, state, s) == game.points(state, s) - PUEBLO_FINAL * charged
    assert moves == 0 or search_hints("pueblo").estimate(game, state, seat) < game.points(state, seat)


@pytest.mark.parametrize("moves", [0, 20, 60])
def test_the_pacal_estimate_is_the_points_plus_the_final_scoring_on_the_board_as_it_stands(moves):
    """Checked against the engine's own end of the game, on a copy of the position."""
    from lanterne.engines.pacal import rules

    game, state, seat = position("pacal", moves=moves)
    ended = state.copy()
    rules.game_over(ended, [], "a test")
    for s in (0, 1):
        assert search_hints("pacal").estimate(game, state, s) == game.points(state, s) + PACAL_FINAL * (
            ended.score[s] - state.score[s])
    assert search_hints("pacal").estimate(game, state, seat) >= game.points(state, seat) + sum(state.energy[seat])
    assert moves < 60 or search_hints("pacal").estimate(game, state, seat) > game.points(state, seat) + sum(state.energy[seat])


def test_a_finished_game_is_worth_its_points():
    game = get_game("pagode")
    final, _ = play_out(game, game.setup(2), OpenTable("end"), [GreedyBot("a"), GreedyBot("b")])
    assert [search_hints("pagode").estimate(game, final, s) for s in (0, 1)] == [game.points(final, s) for s in (0, 1)]


def test_root_pruning_keeps_the_greedy_best_and_its_ties():
    game, state, seat = position("pagode", moves=20)
    view = game.view(state, seat)
    bot = IsmctsBot("s", iterations=10, root_top=2)
    move = bot.choose(game, view, seat)
    kept = bot._root_actions
    legal = game.legal_actions(view, seat)
    if kept is not None:
        assert 2 <= len(kept) <= len(legal) and set(kept) <= set(legal) and move in kept


def test_a_trial_with_no_settings_replays_the_arena_match_of_its_seed():
    from lanterne.engines.bots.arena import Match, play_match
    from lanterne.engines.bots.trial import play

    for seeds in ("tune", "measure"):
        trial = play("pueblo", 1, {}, iterations=5, seeds=seeds)
        arena = play_match(Match("pueblo", "greedy", 1, "normal", seeds), iterations=5)
        assert (trial["scores"], trial["score"], trial["seat"]) == (arena["scores"], arena["score"], 1)


def test_a_trial_against_a_search_level_plays_the_arenas_opponent_the_same_every_time():
    from lanterne.engines.bots.trial import play

    first, again = ({k: v for k, v in play("pueblo", 3, {}, iterations=5, against="ismcts:easy").items()
                     if k != "cpu_median"} for _ in range(2))      # CPU time is measured, the game is not
    assert first == again and first["against"] == "ismcts:easy" and first["seat"] == 1
    assert first["score"] in (0.0, 0.5, 1.0) and len(first["scores"]) == 2


def test_a_trial_that_sees_all_gives_the_search_player_the_whole_state_and_the_others_their_views(monkeypatch):
    from lanterne.engines.bots.trial import play

    seen = []
    choose = IsmctsBot.choose

    def spy(self, game, view, seat):
        seen.append(all(ident is not None for ident in view.cards.ids))
        return choose(self, game, view, seat)

    monkeypatch.setattr(IsmctsBot, "choose", spy)
    record = play("pagode", 1, {}, iterations=5, against="ismcts:easy", sees_all=True)
    assert record["sees_all"] is True and record["seat"] == 1 and len(record["scores"]) == 2
    assert True in seen and False in seen        # the trial's player sees every card; its opponent does not
    seen.clear()
    assert "sees_all" not in play("pagode", 1, {}, iterations=5, against="ismcts:easy")
    assert True not in seen


@pytest.mark.parametrize("args, says", [(["--against", "ismcts:genius"], "no opponent 'ismcts:genius'"),
                                        (["--kw", "{root_top: 4}"], "Expecting property name"),
                                        (["--kw", "[4]"], "--kw is not a JSON object"),
                                        (["--idx", "3"], "--idx is not FIRST-LAST: 3"),
                                        (["--probe", "3"], "--probe is not INDEX:DECISION: 3"),
                                        (["--sees-all", "--against", "openspiel"], "--sees-all plays against")])
def test_a_trial_refuses_a_wrong_argument_in_one_line_before_playing(args, says, capsys):
    from lanterne.engines.bots.trial import main

    with pytest.raises(SystemExit) as stop:
        main(["pueblo", "--idx", "0-0", *args])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and says in err and "Traceback" not in err


def test_a_probe_shows_the_roots_children_at_a_decision():
    from lanterne.engines.bots.trial import probe

    lines = probe("pueblo", 0, 2, {}, iterations=(8,), top=3)
    assert lines[0].startswith("match 0, decision 2: scores ") and lines[1].startswith("8 iterations: ")
    assert 1 <= len(lines) - 2 <= 3 and all("visits" in line for line in lines[2:])


@pytest.mark.parametrize("game_id", ["pagode", "pandoria"])
def test_turn_plans_are_distinct_whole_turns_best_first(game_id):
    game, state, seat = position(game_id, moves=20)
    view = game.view(state, seat)
    bot = IsmctsBot("s", iterations=10, plans=5, greedy_plans=False)
    bot._settle(game)
    lines = bot._turn_lines(game, view, seat)
    assert 1 <= len(lines) <= 5 and len(set(lines)) == len(lines)
    gains = []
    for line in lines:
        after = view
        for i, action in enumerate(line):
            assert game.next_actor(after) == seat and action in game.legal_actions(after, seat)
            after, _ = game.apply(after, action)
        assert game.is_over(after) or game.next_actor(after) != seat or len(line) == IsmctsBot.PLAN_DEPTH
        gains.append(game.points(after, seat) - game.points(view, seat))
    assert gains == sorted(gains, reverse=True)
    same = IsmctsBot("s", iterations=10, plans=5, greedy_plans=False)   # the same seed: the same lines
    assert same.choose(game, view, seat) in {line[0] for line in lines}


@pytest.mark.parametrize("moves", [12, 18, 26])
def test_distinct_plans_reach_distinct_positions_where_plain_ones_repeat_one(moves):
    """Pagode's plans were mostly one turn in several orders; with ``distinct_plans`` each reaches its own
    position (``pagode.search.plan_key``), still legal whole turns, best first."""
    game, state, seat = position("pagode", moves=moves)
    view = game.view(state, seat)
    key = search_hints("pagode").plan_key

    def reached(bot):
        bot._settle(game)
        out = []
        for line in bot._turn_lines(game, view, seat):
            after = view
            for action in line:
                assert game.next_actor(after) == seat and action in game.legal_actions(after, seat)
                after, _ = game.apply(after, action)
            out.append((game.points(after, seat), key(game, after, seat)))
        return out

    plain = reached(IsmctsBot("s", plans=6))
    distinct = reached(IsmctsBot("s", plans=6, distinct_plans=True))
    assert len({k for _, k in plain}) < len(plain), "the plain beam repeats a position here"
    assert len({k for _, k in distinct}) == len(distinct) == 6
    assert [p for p, _ in distinct] == sorted((p for p, _ in distinct), reverse=True)
    assert distinct[0][0] >= plain[0][0]          # the best line is still found (or a better one)


@pytest.mark.parametrize("settings", [{"plans": 3}, {"plans": 0}])
def test_own_greedy_rollouts_play_the_searching_seats_turns_as_greedy_would_and_only_those(settings, monkeypatch):
    game, state, seat = position("pagode", moves=20)
    view = game.view(state, seat)
    asked = []
    turn_line = GreedyBot.turn_line

    def spy(self, game, state, actor, actions):
        asked.append(actor)
        return turn_line(self, game, state, actor, actions)

    monkeypatch.setattr(GreedyBot, "turn_line", spy)
    IsmctsBot("s", iterations=30, **settings).choose(game, view, seat)
    assert asked == []                                    # off: rollouts are random
    IsmctsBot("s", iterations=30, own_greedy=20, **settings).choose(game, view, seat)
    assert asked and set(asked) == {seat}                 # on: the seat's own turns, and no other seat's


def test_the_pagode_plan_key_ignores_order_and_which_card_of_a_colour():
    key = plan_key
    game, state, seat = position("pagode", moves=20)
    view = game.view(state, seat)
    assert key(game, view, seat) == key(game, game.view(state, seat), seat)
    swapped = view.copy()
    swapped.played, swapped.discard = tuple(reversed(view.played)), tuple(reversed(view.discard))
    assert key(game, swapped, seat) == key(game, view, seat)
    scored = view.copy()
    scored.scores = tuple(s + 1 for s in view.scores)
    assert key(game, scored, seat) != key(game, view, seat)


def test_the_pandoria_estimate_counts_the_open_regions_next_to_a_seats_figures():
    game, state, seat = position("pandoria", moves=30)
    mine = [h for h, occ in enumerate(state.occupant) if occ >= 0 and occ >> 1 == seat]
    assert mine, "a figure of the seat on the board after 30 greedy moves"
    def figures(as_leader):
        other = state.copy()
        other.occupant = [occ if occ < 0 or occ >> 1 != seat else seat * 2 + as_leader for occ in state.occupant]
        return other

    plain = open_yield(figures(False), seat)
    assert plain > 0, "the seat's figures stand next to open regions"
    assert open_yield(figures(True), seat) == pytest.approx(2 * plain)      # a leader counts twice
    alone = state.copy()
    alone.occupant = [occ if occ < 0 or occ >> 1 != seat else -1 for occ in state.occupant]
    assert open_yield(alone, seat) == 0.0                                 # only the seat's own figures count
    shut = state.copy()
    shut.closed = [1] * len(state.closed)
    assert open_yield(shut, seat) == 0.0                              # a closed region pays no more


def test_the_greedy_players_best_line_is_legal_and_gains_what_it_says():
    game, state, seat = position("pagode", moves=20)
    view = game.view(state, seat)
    for action in game.legal_actions(view, seat)[:6]:
        value, line = GreedyBot().best_line(game, view, seat, action, 40)
        assert line[0] == action and value == GreedyBot().line_value(game, view, seat, action, 40)
        after = view
        for step in line:
            assert game.next_actor(after) == seat and step in game.legal_actions(after, seat)
            after, _ = game.apply(after, step)
        assert game.points(after, seat) - game.points(view, seat) == value


def test_greedy_plans_add_the_look_aheads_best_lines_to_the_beams():
    game, state, seat = position("pagode", moves=20)
    view = game.view(state, seat)
    beam = IsmctsBot("s", plans=3, greedy_plans=False)
    both = IsmctsBot("s", plans=3, greedy_plans=True)
    for bot in (beam, both):
        bot._settle(game)
    lines, more = beam._turn_lines(game, view, seat), both._turn_lines(game, view, seat)
    assert more[: len(lines)] == lines and len(set(more)) == len(more) <= 6
    found = [GreedyBot().best_line(game, view, seat, a, IsmctsBot.ROOT_LOOKAHEAD)
             for a in game.legal_actions(view, seat)]
    best = max(value for value, _ in found)
    assert next(line for value, line in found if value == best) in more      # the first of the best


@pytest.mark.parametrize("players, settings, turns", [
    (2, {"rollout_table_turns": 4}, 4), (4, {"rollout_table_turns": 4}, 4), (3, {"rollout_table_turns": 4}, 3),
    (4, {}, 8), (4, {"rollout_table_turns": 4, "rollout_turns": 2}, 8)])
def test_a_rollout_stops_after_whole_rounds_of_the_table(players, settings, turns):
    """``rollout_table_turns``: about that many turns in all, whole rounds, at least one a seat (Pandoria: 4)."""
    game = get_game("pueblo")
    seen = []

    class Counting:
        def __getattr__(self, name):
            return getattr(game, name)

        def apply(self, state, action):
            seen.append(game.next_actor(state))
            return game.apply(state, action)

    bot = IsmctsBot("s", **settings)
    bot._settle(game)
    bot._root_lead = [0.0] * players      # what choose() sets before its iterations
    state, table = game.setup(players), OpenTable("rounds")
    while game.next_actor(state) == TABLE:
        state, _ = game.apply(state, table.resolve(state, game.table_op(state)))
    bot._rollout(Counting(), state, table, players)
    actors = [a for a in seen if a != TABLE]
    played = sum(1 for i, a in enumerate(actors) if i == 0 or a != actors[i - 1])
    assert played == turns


def test_greedy_rollouts_play_each_turn_as_the_greedy_look_ahead_would():
    """``rollout_greedy``: a rollout's turn is the greedy player's best line within that budget, drawn from
    the search's own RNG (so the same seed plays the same rollout)."""
    import copy

    game, state, seat = position("pagode")
    played = []

    class Recording:
        def __getattr__(self, name):
            return getattr(game, name)

        def apply(self, state, action):
            if game.next_actor(state) != TABLE:
                played.append((game.next_actor(state), action))
            return game.apply(state, action)

    bot = IsmctsBot("s", rollout_greedy=30, rollout_turns=1)
    bot._settle(game)
    bot._root_lead = [0.0, 0.0]
    expected = GreedyBot(budget=30)
    expected.rng = copy.deepcopy(bot.rng)
    line = expected.turn_line(game, state, seat, game.legal_actions(state, seat))
    bot._rollout(Recording(), state, OpenTable("greedy"), 2)
    mine = [action for actor, action in played if actor == seat]
    assert tuple(mine[: len(line)]) == line and len(line) > 1
    chooser, planner = GreedyBot("t"), GreedyBot("t")      # the greedy player plays its line's first action
    assert chooser.choose(game, state, seat) == planner.turn_line(game, state, seat,
                                                                  game.legal_actions(state, seat))[0]
