"""Every game's typed actions (its actions.py) describe every action its rules offer.

A legal action's kind has a record, and the legal action passes the check a
peer's action goes through (``core.read_action``: length, numbers, flags), so
the records cannot drift from the rules: a new action kind, a field added or a
flag sent as a number fails here.
"""

import importlib

import pytest

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import TABLE, OpenTable, read_action
from lanterne.engines.registry import GAMES, get_game


@pytest.mark.parametrize("game_id", sorted(GAMES) + ["example"])
def test_every_legal_action_is_one_of_the_games_records(game_id):
    if game_id == "example":
        module = importlib.import_module("lanterne.engines.example.game")
        game = importlib.import_module("lanterne.engines.example").GAME
    else:
        module = importlib.import_module(f"engines.{game_id}.actions")
        game = get_game(game_id)
    records = module.ACTIONS
    seen = set()
    for seed in range(3):
        state = game.setup(players=2)
        table = OpenTable(f"actions/{seed}")
        bots = [RandomBot(f"actions/{seed}/{i}") for i in range(2)]
        for _ in range(5000):
            if game.is_over(state):
                break
            actor = game.next_actor(state)
            if actor == TABLE:
                state, _ = game.apply(state, table.resolve(state, game.table_op(state)))
                continue
            for action in game.legal_actions(state, actor):
                record = records.get(action[0])
                assert record is not None, f"{game_id}: no record for {action!r}"
                head = action[:len(record._fields)] if len(action) > len(record._fields) else action
                assert head == read_action(record, head), action
                assert len(action) == len(record._fields) or action[0] == "spell", action
                seen.add(action[0])
            state, _ = game.apply(state, bots[actor].choose(game, game.view(state, actor), actor))
    assert seen, game_id
