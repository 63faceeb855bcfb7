"""Rematch from the game-over dialog: a local game is dealt again with the same seats and options."""

from __future__ import annotations

import random

from textual.widgets import Button

from lanterne.client.local_play import VS_COMPUTER, make_local_game
from lanterne.client.screens.dialogs import GameOverScreen
from lanterne.client.screens.game import GameScreen, game_screen_for
from lanterne.engines.registry import get_game
from tests.support.apps import make_app
from tests.support.waiting import until


def finished(seed: int = 3):
    """You against a random computer at Pacal's Rocket, played to its end (random moves)."""
    controller = make_local_game(get_game("pacal"), mode=VS_COMPUTER, bot="random", seed=seed, you="Ann")
    rng = random.Random(seed)
    while not controller.is_over():
        w = controller.waiting
        if w.kind == "human":
            controller.submit(w.seat, rng.choice(controller.legal_actions(w.seat)))
        else:
            controller.play_computer_now()
    return controller


async def test_rematch_deals_a_new_game_with_the_same_seats_and_options():
    old = finished()
    app = make_app(lambda: game_screen_for(old))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: isinstance(app.screen, GameOverScreen), pilot, what="the game-over dialog")
        assert app.screen.query_one("#game-over-rematch", Button)
        await pilot.press("m")
        await until(lambda: isinstance(app.screen, GameScreen) and app.screen.controller is not old, pilot,
                    what="the new game's board")
        new = app.screen.controller
        assert [s.name for s in new.seats] == [s.name for s in old.seats] and new.variant == old.variant
        assert new.seed != old.seed and not new.is_over() and new.rematch is not None
        boards = [s for s in app.screen_stack if isinstance(s, GameScreen)]
        assert boards == [app.screen]                 # the board replaced, not stacked on the old one


async def test_a_network_or_resumed_game_offers_no_rematch():
    old = finished()
    old.rematch = None                                # as a resumed game: its options are not all known
    app = make_app(lambda: game_screen_for(old))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: isinstance(app.screen, GameOverScreen), pilot, what="the game-over dialog")
        assert not app.screen.query("#game-over-rematch")
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
