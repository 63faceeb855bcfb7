"""Leaving a network game is never one stray key away: Ctrl+Q and a resignation ask first.

Escape, Escape, then a word starting with r typed for the chat used to
resign at once, and Ctrl+Q ended the app in the middle of a LAN game.
"""

from __future__ import annotations

from lanterne.client.screens.dialogs import ConfirmScreen, LeaveScreen
from lanterne.client.screens.game import GameScreen
from tests.support.lobby import lobby_app, seated, two_players, unique
from tests.support.waiting import until


async def test_ctrl_q_and_resign_ask_first_in_a_network_game(tmp_path) -> None:
    async with two_players(tmp_path, (80, 24), (80, 24)) as (pa, pb, ann, bob):
        screens = await seated(pa, pb, ann, bob)
        controller = screens[pa].controller

        await pa.press("ctrl+q")
        assert isinstance(pa.app.screen, ConfirmScreen) and "Quit Lanterne?" in pa.app.screen.question
        await pa.press("n")
        assert isinstance(pa.app.screen, GameScreen) and pa.app.is_running

        await pa.press("escape")
        assert isinstance(pa.app.screen, LeaveScreen)
        await pa.press("r")
        assert isinstance(pa.app.screen, ConfirmScreen) and "Resign" in pa.app.screen.question
        await pa.press("n")
        assert isinstance(pa.app.screen, LeaveScreen), "a no goes back to the question, nothing resigned"
        assert not controller.is_over()
        await pa.press("escape")
        assert isinstance(pa.app.screen, GameScreen)

        await pa.press("ctrl+q", "y")
        await until(lambda: not pa.app.is_running, pa, what="the app quits on a yes")
        assert not controller.is_over(), "quitting pauses the game, it does not end it"


async def test_ctrl_q_quits_at_once_where_no_network_game_is_played(tmp_path) -> None:
    app = lobby_app(unique("Cy"), tmp_path / "c")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+q")
        await until(lambda: not pilot.app.is_running, pilot, what="the app quits")
