"""F1 lists the keys this game offers, and its text scrolls by keyboard at once."""

from __future__ import annotations

from textual.containers import VerticalScroll

from lanterne.client.screens.game import game_screen_for
from lanterne.client.screens.help import HelpScreen
from tests.support.apps import make_app
from tests.support.apps import mid_game
from tests.support.waiting import until


async def test_a_local_games_help_offers_no_chat_and_scrolls_by_keyboard():
    controller = mid_game("pagode")
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        assert "Chat" not in app.screen.source and "F3" not in app.screen.source, "no chat in a local game"
        scroll = app.screen.query_one("#help-scroll", VerticalScroll)
        assert app.focused is scroll
        await until(lambda: scroll.max_scroll_y > 0, pilot, what="the help laid out, taller than 80x24")
        await pilot.press("pagedown")
        await until(lambda: scroll.scroll_y > 0, pilot, what="Page Down scrolls the help")
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
