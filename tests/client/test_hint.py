"""A hint (F4): what the computer would play here and why, in words; y plays it. Local games only."""

from __future__ import annotations

import pytest

from lanterne.client import i18n
from lanterne.client.screens.dialogs import ConfirmScreen
from lanterne.client.screens.game import game_screen_for
from tests.support.apps import make_app, mid_game, no_blink
from tests.support.waiting import until


@pytest.mark.parametrize("game_id", ["pagode", "pueblo"])
async def test_the_hint_names_the_computers_move_and_why_and_plays_it(game_id):
    controller = mid_game(game_id)
    screen = game_screen_for(controller)
    screen.hint_seed = "the same search"   # uncapped: on a busy machine the 1 s cap may leave one plan to weigh
    app = make_app(lambda: screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Hint" in screen.help_text()
        before = len(controller.log)
        await pilot.press("f4")
        await until(lambda: isinstance(app.screen, ConfirmScreen) and app.screen.query_one("#no"), pilot,
                    what="the hint, composed")
        text = str(app.screen.query_one(".screen-title").render())
        assert "The computer (normal) would play" in text and "games it imagined from what you know" in text, text
        shown = text.split("would play ", 1)[1].split(" ", 1)[0].rstrip(".")
        await pilot.press("y")
        await until(lambda: len(controller.log) > before, pilot, what="the hinted move played")
        mine = next(e for e in controller.log[before:] if e.actor == 0)
        assert mine.text.startswith(shown), (mine.text, shown)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hint_dialog(snap_compare, size, language, request):
    """The hint over the board at 80x24 and 120x40, in English and in French (a seeded search: the same hint)."""
    i18n.set_language(language)
    request.addfinalizer(lambda: i18n.set_language("en"))

    def screen():
        made = game_screen_for(mid_game("pagode"))
        made.hint_seed = "snapshot"
        return made

    async def run_before(pilot):
        await pilot.pause()
        await pilot.press("f4")
        await until(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot, what="the hint")
        await no_blink(pilot)

    assert snap_compare(make_app(screen), terminal_size=size, run_before=run_before)
