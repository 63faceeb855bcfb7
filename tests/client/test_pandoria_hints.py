"""Pandoria's panel says what a player can do now, and nothing once the game is over."""

from __future__ import annotations

import asyncio

from lanterne.client.local_play import WATCH, make_local_game
from lanterne.client.screens.game import game_screen_for
from lanterne.engines.registry import get_game
from tests.support.apps import make_app


async def test_after_the_game_the_panel_says_it_is_over_not_wait_for_your_turn():
    controller = make_local_game(get_game("pandoria"), mode=WATCH, bot="random", seed="over")
    await asyncio.wait_for(controller.run(), 120)
    assert controller.is_over()
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = next(s for s in app.screen_stack if hasattr(s, "info"))     # the board, under the end dialog
        text = screen.info(controller.view(None), [], [s.label for s in controller.seats]).plain
        assert "the game is over" in text and "wait for your turn" not in text
    controller.close()
