"""The OpenSpiel wrapper (engines/bots/openspiel.py, the optional extra ``bench``) agrees with the engines.

Skipped when open-spiel is not installed; `.ci/run` installs the extra, so CI runs it.
"""

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install -e '.[bench]')")

import numpy as np  # noqa: E402  (after the skip: numpy comes with open-spiel)
from open_spiel.python.algorithms import ismcts as os_ismcts  # noqa: E402
from open_spiel.python.algorithms import mcts as os_mcts  # noqa: E402

from lanterne.engines.bots.arena import Match  # noqa: E402
from lanterne.engines.bots.openspiel import SpielGame, extend, observe, play_openspiel_match  # noqa: E402
from lanterne.engines.bots.simple import RandomBot  # noqa: E402
from lanterne.engines import registry  # noqa: E402
from lanterne.engines.core import TABLE, OpenTable  # noqa: E402

GAMES = ("pagode", "pueblo", "pacal", "pandoria")


def mirror(game_id: str, players: int, seed: str):
    """A seeded random game on the engine, replayed step by step through the wrapper.

    Yields (engine state, wrapper state) at every seat's decision and once at the end.
    """
    spiel = SpielGame(game_id, {"players": players})
    engine = spiel.engine
    table = OpenTable(seed)
    bots = [RandomBot(f"{seed}/{i}") for i in range(players)]
    state = engine.setup(players=players)
    wrapped = spiel.new_initial_state()
    history = 0
    while not engine.is_over(state):
        actor = engine.next_actor(state)
        if actor == TABLE:
            op = engine.table_op(state)
            action = table.resolve(state, op)
            # the wrapper applied shuffles and deals of known cards at once: it waits on the real game's next deal
            if wrapped.is_chance_node() and wrapped.g.engine.table_op(wrapped.core.state) == op:
                if op.kind == "roll":
                    wrapped.apply_action(action[1])
                else:
                    unknown = [i for s, i in zip(op.slots, action[1]) if wrapped.core.state.cards.ids[s] is None]
                    for ident in unknown:
                        assert ident in [o for o, _ in wrapped.chance_outcomes()]
                        wrapped.apply_action(ident)
        else:
            assert wrapped.current_player() == actor
            yield state, wrapped
            action = bots[actor].choose(engine, engine.view(state, actor), actor)
            wrapped.apply_action(spiel.action_id(action))
        history = extend(history, observe(engine, state, actor, action))
        state, _ = engine.apply(state, action)
        if not wrapped.is_chance_node():
            assert wrapped.core.history == history, "the wrapper's public history is the one observe() builds"
    assert wrapped.is_terminal()
    yield state, wrapped


@pytest.mark.parametrize("game_id, players", [(g, 2) for g in GAMES] + [("pueblo", 4), ("pandoria", 3)])
def test_the_wrapper_offers_the_engines_moves_and_ends_with_its_scores(game_id, players):
    steps = 0
    for state, wrapped in mirror(game_id, players, f"spiel/{game_id}/{players}"):
        engine = wrapped.g.engine
        if engine.is_over(state):
            assert engine.scores(wrapped.core.state) == engine.scores(state)
            winners = engine.winners(state)
            assert [r > -1.0 for r in wrapped.returns()] == [s in winners for s in range(players)]
            assert wrapped.returns()[winners[0]] == 2.0 / len(winners) - 1.0
            break
        seat = engine.next_actor(state)
        legal = engine.legal_actions(state, seat)
        ids = wrapped.legal_actions()
        assert Counter(wrapped.g.actions[i] for i in ids) == Counter(legal)
        assert len(set(ids)) == len(ids) and wrapped.returns() == [0.0] * players
        steps += 1
    assert steps > 10


@pytest.mark.parametrize("game_id", GAMES)
def test_a_resampled_state_has_the_same_information_state_and_moves(game_id):
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    for n, (state, wrapped) in enumerate(mirror(game_id, 2, f"resample/{game_id}")):
        if wrapped.is_terminal() or n % 9:
            continue
        seat = wrapped.current_player()
        other = wrapped.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == wrapped.information_state_string(seat)
        assert other.legal_actions() == wrapped.legal_actions()
        view, again = wrapped.g.engine.view(state, seat), wrapped.g.engine.view(other.core.state, seat)
        assert view.cards.ids == again.cards.ids, "only the cards the seat cannot see are redealt"
        checked += 1
        if checked == 5:
            break
    assert checked == 5


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_ismcts_plays_a_whole_game_through_the_wrapper(game_id):
    game = SpielGame(game_id, {"players": 2})
    rng = np.random.RandomState(7)
    bots = [os_ismcts.ISMCTSBot(game, os_mcts.RandomRolloutEvaluator(1, rng, max_length=15), 2.0, 3,
                                random_state=np.random.RandomState(i)) for i in range(2)]
    state = game.new_initial_state()
    picker = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[picker.randrange(len(outcomes))][0])
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sorted(state.returns())[-1] >= 0.0


def test_the_harness_plays_the_search_player_against_openspiel():
    record = play_openspiel_match(Match("pueblo", "openspiel", 1), iterations=20, move_seconds=0.01)
    assert record["against"] == "openspiel" and record["search_seat"] == 1
    assert record["openspiel"]["open_spiel"] and record["openspiel"]["simulations"]
    assert all(s >= 1 for s in record["openspiel"]["simulations"])


def test_lanterne_strength_against_openspiel_writes_its_own_table(tmp_path, monkeypatch):
    from lanterne.client.cli import main
    from lanterne.engines.bots import openspiel
    from lanterne.engines.bots.ismcts import IsmctsBot

    monkeypatch.setitem(IsmctsBot.LEVELS, "easy", 10)
    pueblo = registry.game_type("pueblo")
    monkeypatch.setitem(registry._loaded, "pueblo",
                        replace(pueblo, search=replace(pueblo.search, move_seconds=0.01)))
    out, doc = tmp_path / "s.jsonl", tmp_path / "b.md"
    assert main(["strength", "--games", "1", "--games-of", "pueblo", "--against", "openspiel", "--level", "easy",
                 "--out", str(out)]) == 0
    doc.write_text("before\n<!-- strength:begin -->\n<!-- strength:end -->\nafter\n")
    assert main(["strength", "--write-docs", "--games", "200", "--out", str(out), "--docs", str(doc)]) == 0
    text = doc.read_text()
    assert "## Against OpenSpiel's ISMCTS" in text and "open_spiel 2.0.2" in text
    assert "| pueblo | easy | measure | 1 (a sample) |" in text


def test_the_openspiel_rows_reproduce_line_names_each_game_once():
    """A game with rows on both seed sets is named once, and only games of the first row's level and seeds."""
    from lanterne.client.commands.strength import openspiel_section

    spiel = {"open_spiel": "2.0.2", "numpy": "2", "overhead_fraction": 0.1, "budget_ms": [1.0], "cpu_ms": [1.0],
             "simulations": [3]}
    def record(game, seeds, index):
        return {"game": game, "against": "openspiel", "level": "normal", "seeds": seeds, "index": index,
                "players": 2, "search_seat": index % 2, "score": 1.0, "move_cpu_ms": [1.0], "openspiel": spiel}
    records = [record("pagode", "measure", 0), record("pacal", "measure", 0), record("pacal", "tune", 0),
               record("pacal", "tune", 1), record("pueblo", "tune", 0)]
    reproduce = [line for line in openspiel_section(records, 200) if line.startswith("Reproduce")][0]
    assert "--games-of pagode,pacal --against openspiel --level normal --seeds measure" in reproduce


def test_a_trial_against_openspiel_plays_its_settings_and_says_so(capsys):
    """``trial --against openspiel``: the search player is built with the trial's settings, not the game's tuning."""
    from lanterne.engines.bots import trial
    from lanterne.engines.bots.arena import search_player

    bot = search_player(Match("pueblo", "openspiel", 3), 20, {"exploration": 0.123, "estimate": False})
    assert (bot.exploration, bot.estimate, bot.iterations) == (0.123, False, 20)
    assert trial.main(["pueblo", "--against", "openspiel", "--idx", "3-3", "--iterations", "20",
                       "--kw", '{"estimate": false}', "--name", "t"]) == 0
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert line["against"] == "openspiel" and line["settings"] == {"estimate": False} and line["seat"] == 1
    assert line["iterations"] == 20 and line["openspiel_simulations"] >= 1 and line["score"] in (0.0, 0.5, 1.0)
