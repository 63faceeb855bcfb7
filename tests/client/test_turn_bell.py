"""The turn, told: a network game rings once when the turn comes back to you; the settings turn it off."""

from __future__ import annotations

from textual.widgets import Checkbox

from lanterne.client.screens.settings import SettingsScreen
from lanterne.client.settings import Settings
from lanterne.client.turn_bell import TurnBell
from tests.support.apps import make_app


def test_the_bell_rings_once_each_time_the_turn_comes_back():
    bell = TurnBell()
    seen = [bell.passes(yours) for yours in (True, True, False, False, True, True, False, True)]
    assert seen == [False, False, False, False, True, False, False, True]


def test_a_game_that_opens_on_the_others_turn_rings_when_it_is_yours():
    bell = TurnBell()
    assert [bell.passes(yours) for yours in (False, True)] == [False, True]


async def test_the_settings_turn_the_bell_off_and_keep_it(lanterne_home):
    app = make_app(lambda: SettingsScreen())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        box = app.screen.query_one("#turn-bell", Checkbox)
        assert box.value is True
        box.value = False
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert Settings.load().turn_bell is False
