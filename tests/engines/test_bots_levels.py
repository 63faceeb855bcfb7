"""The search player's levels: iterations by default (deterministic), a wall-clock cap for the app."""

import itertools

import pytest

from lanterne.engines.bots import IsmctsBot, make_bot
from lanterne.engines.core import TABLE, OpenTable, RulesError, play_out
from lanterne.engines.registry import get_game


def first_decision(game_id="pueblo", seed="levels"):
    """A state where seat to play has a real choice, with that seat's view."""
    game = get_game(game_id)
    state, table = game.setup(2), OpenTable(seed)
    while game.next_actor(state) == TABLE:
        state, _ = game.apply(state, table.resolve(state, game.table_op(state)))
    seat = game.next_actor(state)
    assert len(game.legal_actions(state, seat)) > 1
    return game, game.view(state, seat), seat


def test_levels_are_iteration_counts():
    game, view, seat = first_decision()
    for level, iterations in (("easy", 150), ("normal", 600)):
        bot = make_bot(f"ismcts:{level}", "s")
        bot.choose(game, view, seat)
        assert bot.last_iterations == iterations


def test_the_same_seed_makes_the_same_moves_whatever_the_machine_speed():
    game = get_game("pagode")
    finals = []
    for _ in range(2):
        final, record = play_out(game, game.setup(2), OpenTable("det"),
                                 [IsmctsBot("det/0", iterations=12), IsmctsBot("det/1", iterations=12)])
        finals.append((record, game.scores(final)))
    assert finals[0] == finals[1]


def test_a_capped_level_stops_at_its_wall_clock_budget():
    game, view, seat = first_decision()
    ticks = itertools.count()
    clock = lambda: next(ticks) * 0.1  # noqa: E731 - each reading is 0.1 s later
    bot = make_bot("ismcts:normal", "s", max_seconds=0.9)
    bot.clock = clock
    action = bot.choose(game, view, seat)
    assert action in game.legal_actions(view, seat)
    assert bot.last_iterations == 9  # 0.9 s of budget, one clock reading per iteration after the first


def test_whole_turn_plans_stop_at_the_wall_clock_budget_too():
    game, view, seat = first_decision("pagode")      # Pagode plays whole-turn plans (its tuning)
    ticks = itertools.count()
    bot = make_bot("ismcts:normal", "s", max_seconds=0.9)
    bot.clock = lambda: next(ticks) * 0.1
    assert bot.choose(game, view, seat) in game.legal_actions(view, seat)
    assert bot.last_iterations == 9  # as the tree: the clock read before the lines, then per iteration after the first


def test_a_cap_never_adds_iterations_beyond_the_level():
    game, view, seat = first_decision()
    bot = IsmctsBot.at_level("easy", "s", max_seconds=3600.0, clock=lambda: 0.0)
    bot.choose(game, view, seat)
    assert bot.last_iterations == 150


def test_a_forced_move_is_no_search():
    game, view, seat = first_decision()
    bot = IsmctsBot("s", iterations=5)
    bot.choose(game, view, seat)
    assert bot.last_iterations == 5

    class OneMove:  # the real game's view, with one legal action
        def __getattr__(self, name):
            return getattr(game, name)

        def legal_actions(self, state, s):
            return game.legal_actions(state, s)[:1]

    bot.choose(OneMove(), view, seat)
    assert bot.last_iterations == 0


def test_a_level_can_be_a_number_of_iterations():
    game, view, seat = first_decision()
    bot = make_bot("ismcts:40", "s")
    bot.choose(game, view, seat)
    assert bot.last_iterations == 40


def test_an_iterations_level_is_capped_like_a_preset():
    game, view, seat = first_decision()
    ticks = itertools.count()
    bot = make_bot("ismcts:5000", "s", max_seconds=0.5)
    bot.clock = lambda: next(ticks) * 0.1
    bot.choose(game, view, seat)
    assert bot.last_iterations == 5


def test_a_level_can_be_a_thinking_time_which_the_app_cap_does_not_cut():
    game, view, seat = first_decision()
    ticks = itertools.count()
    bot = make_bot("ismcts:1.5s", "s", max_seconds=0.9)  # the user asked for 1.5 s: it is kept
    bot.clock = lambda: next(ticks) * 0.1
    action = bot.choose(game, view, seat)
    assert action in game.legal_actions(view, seat)
    assert bot.last_iterations == 15


@pytest.mark.parametrize("kind", ["ismcts:genius", "greedy:hard", "alphazero", "ismcts:0", "ismcts:-3",
                                  "ismcts:0s", "ismcts:1e9s", "ismcts:2.5", "ismcts:99999999"])
def test_unknown_players_and_levels_are_one_line_errors(kind):
    with pytest.raises(RulesError) as e:
        make_bot(kind)
    assert "\n" not in str(e.value)


def test_best_of_k_rollouts_pick_the_action_worth_most_points():
    game, view, seat = first_decision("pagode")
    state = view  # the seat's own view: its hand is known, the rest is irrelevant to a column's points
    legal = game.legal_actions(state, seat)
    bot = IsmctsBot("k", rollout_sample=len(legal) * 8)
    bot._settle(game)
    best = bot._best_of_sample(game, state, seat, legal)
    top = max(game.points(game.apply(state, a)[0], seat) for a in legal)
    assert game.points(best, seat) == top  # with this many draws every action is all but surely sampled


def test_pagode_takes_its_tuned_settings_and_the_other_games_the_defaults():
    from lanterne.engines.bots.ismcts import DEFAULTS
    from lanterne.engines.registry import search_hints

    game, view, seat = first_decision("pagode")
    bot = IsmctsBot("k", iterations=3)
    bot.choose(game, view, seat)
    settings = ("rollout_sample", "expand", "exploration")
    tuned = {**DEFAULTS, **search_hints("pagode").tuning}
    assert (bot._sample, bot._expand, bot.c) == (3, 4, 0.4) == tuple(tuned[k] for k in settings)
    assert (bot._turns, bot._bias, bot._top, bot._value) == (tuned["rollout_turns"], 0.0, 0, None)
    bot.choose(*first_decision("pueblo"))
    assert (bot._sample, bot._expand, bot.c, bot._turns) == (1, 1, 0.7, 2) == tuple(
        DEFAULTS[k] for k in (*settings, "rollout_turns"))
    own = IsmctsBot("k", iterations=3, rollout_sample=2, expand=5, exploration=1.0)
    own.choose(game, view, seat)
    assert (own._sample, own._expand, own.c) == (2, 5, 1.0)


def test_expansion_takes_the_best_by_points_of_the_untried_actions():
    game, view, seat = first_decision("pagode")
    legal = game.legal_actions(view, seat)
    bot = IsmctsBot("k", expand=len(legal))
    bot._settle(game)
    action, after = bot._best_untried(game, view, seat, legal)
    assert after.to_data() == game.apply(view, action)[0].to_data()
    assert game.points(after, seat) == max(game.points(game.apply(view, a)[0], seat) for a in legal)


def test_pagodes_hard_level_reads_the_fitted_estimate_and_no_other_level_or_game_changes():
    """``level_tuning``: ``hard`` in Pagode scores its leaves and plans with ``pagode.search.estimate``; ``normal``
    does not, nor ``hard`` elsewhere, nor a bot made by iterations (a trial's: its settings are the game's ``tuning``)."""
    from lanterne.engines.bots.arena import Match, opponent_player, search_player
    from lanterne.engines.pagode.search import estimate

    pagode = get_game("pagode")
    values = {}
    for level in ("easy", "normal", "hard"):
        bot = IsmctsBot.at_level(level, "k")
        bot._settle(pagode)
        values[level] = bot._value
    assert values == {"easy": None, "normal": None, "hard": estimate}
    plain = IsmctsBot("k", iterations=IsmctsBot.level_iterations("hard", "pagode"))
    plain._settle(pagode)
    assert plain._value is None
    pandoria = get_game("pandoria")
    hard, normal = IsmctsBot.at_level("hard", "k"), IsmctsBot.at_level("normal", "k")
    for bot in (hard, normal):
        bot._settle(pandoria)
    assert (hard._value, hard._sample, hard.c) == (normal._value, normal._sample, normal.c)
    match = Match("pagode", "ismcts:hard", 0, "hard", "measure")
    assert search_player(match).tuned_level == "hard" and opponent_player(match).tuned_level == "hard"
    assert search_player(match, settings={}).tuned_level is None       # a trial's player: its own settings
    assert search_player(Match("pagode", "greedy", 0, "ceiling", "measure")).tuned_level is None
