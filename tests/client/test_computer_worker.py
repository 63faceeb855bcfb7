"""The search player thinks on a worker thread: the app keeps answering until its move lands."""

from __future__ import annotations

import asyncio
import threading

import pytest
from textual.widgets import Select

from lanterne.client.controller import COMPUTER, LocalGame
from lanterne.client.local_play import DEFAULT_BOT, VS_COMPUTER, WATCH, make_local_game
from lanterne.client.net_controller import replacement_players
from lanterne.client.screens.game import game_screen_for
from lanterne.client.screens.help import HelpScreen
from lanterne.client.screens.local_setup import LocalSetupScreen
from lanterne.client.widgets.status_line import StatusLine
from lanterne.engines.bots import IsmctsBot
from lanterne.engines.registry import get_game
from tests.support.apps import make_app


class HeldClock:
    """The search's clock, held by the test: time stands still until ``release``.

    The bot reads it once per iteration, so ``searching`` says the real search is
    under way, and its move cannot land before the test lets the time run out.
    """

    def __init__(self, iterations_seen: int = 25):
        self.calls = 0
        self.iterations_seen = iterations_seen
        self.searching = threading.Event()
        self.released = threading.Event()

    def __call__(self) -> float:
        self.calls += 1
        if self.calls >= self.iterations_seen:
            self.searching.set()
        return float("inf") if self.released.is_set() else 0.0

    def release(self) -> None:
        self.released.set()


@pytest.mark.slow
async def test_the_app_answers_keys_while_the_search_player_thinks():
    game = get_game("pueblo")
    clock = HeldClock()
    bot = IsmctsBot("worker", seconds=1.0, clock=clock)
    controller = LocalGame(game, [None, bot], names=["Ann", "search bot"], seed="worker")
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        if controller.waiting.seat == 0:  # Ann starts: she plays her first legal placement
            controller.submit(0, controller.legal_actions(0)[0])
        await asyncio.to_thread(clock.searching.wait, 60)
        moves_before = len(controller.log)
        await pilot.pause()
        assert "(computer) is thinking" in str(app.screen.query_one(StatusLine).render())
        await pilot.press("f1")  # handled while the search runs on its worker
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert controller.waiting.kind == COMPUTER and len(controller.log) == moves_before  # no move has landed
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        moved = asyncio.Event()
        searched: list[int] = []

        def landed(change) -> None:
            searched.append(bot.last_iterations)
            moved.set()

        controller.subscribe(landed)
        clock.release()
        await asyncio.wait_for(moved.wait(), 60)
        assert controller.log[moves_before].actor == 1
        assert searched[0] >= clock.iterations_seen - 1  # the move that landed came from a real search


def test_the_default_computer_player_is_the_search_player_at_normal():
    assert DEFAULT_BOT == "ismcts:normal"
    controller = make_local_game(get_game("pagode"), mode=VS_COMPUTER, seed=1)
    bot = controller.players[1]
    assert isinstance(bot, IsmctsBot) and bot.iterations == IsmctsBot.LEVELS["normal"]
    assert bot.seconds == 0.9  # in the app a move never takes much over a second, whatever the machine


def test_the_app_gives_hard_three_seconds_a_move_and_every_other_level_one():
    """``hard`` is 4 x normal's iterations (Pandoria 5,000: up to 2.5 s of CPU); capped at 0.9 s it won only about
    half its games against normal. The cap follows the level, in a game against computers and among them."""
    for mode in (VS_COMPUTER, WATCH):
        for kind, cap in (("ismcts:hard", 3.0), ("ismcts:normal", 0.9), ("ismcts:easy", 0.9), ("ismcts:4000", 0.9)):
            controller = make_local_game(get_game("pandoria"), mode=mode, bot=kind, seed=1)
            assert {p.seconds for p in controller.players if p is not None} == {cap}, (mode, kind)
    assert replacement_players("ismcts:hard")(1).seconds == 3.0       # on the LAN: a seat's replacement
    assert replacement_players("ismcts:normal")(1).seconds == 0.9


async def test_the_local_setup_offers_the_search_player_first():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, LocalSetupScreen)
        assert app.screen.query_one("#bot", Select).value == "ismcts:normal"
