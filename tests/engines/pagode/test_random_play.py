"""Random play: whole games end, in every variant, with the same result for the same seed."""

import pytest

from engines.bots import RandomBot
from engines.core import OpenTable, play_out
from engines.pagode import GAME


@pytest.mark.parametrize("variant", ["standard", "quick", "beginner"])
def test_random_games_end_in_every_variant(variant):
    for seed in range(5):
        final, record = play_out(GAME, GAME.setup(variant=variant), OpenTable(seed),
                                 [RandomBot(f"{seed}/0"), RandomBot(f"{seed}/1")])
        assert GAME.is_over(final)
        assert GAME.complete_pagodas(final) >= 3
        assert final.turn % 2 == 0, "both players play the same number of turns"
