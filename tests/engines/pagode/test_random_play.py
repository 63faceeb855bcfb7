"""Random play: whole games end, in every variant, with the same result for the same seed."""

import pytest

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import OpenTable, play_out
from lanterne.engines.pagode import GAME


@pytest.mark.parametrize("variant", ["standard", "quick", "beginner"])
def test_random_games_end_in_every_variant(variant):
    for seed in range(5):
        final, record = play_out(GAME, GAME.setup(variant=variant), OpenTable(seed),
                                 [RandomBot(f"{seed}/0"), RandomBot(f"{seed}/1")])
        assert GAME.is_over(final)
        assert GAME.complete_pagodas(final) >= 3
        assert final.turn % 2 == 0, "both players play the same number of turns"


def test_a_greedy_bot_plays_a_whole_game_against_a_random_one():
    from lanterne.engines.bots import GreedyBot
    final, record = play_out(GAME, GAME.setup(variant="quick"), OpenTable(3),
                             [GreedyBot(1, budget=60), RandomBot(2)])
    assert GAME.is_over(final) and GAME.winners(final)
    assert sum(1 for actor, _ in record if actor == 0) > 0
