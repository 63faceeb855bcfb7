"""Every game at the sizes people use: 80x24 (compact), 120x40 and 160x50 (side panel).

At 80x24 the side panel is a toggle (F2) and the board area keeps the hand
and the actions in view while the board scrolls; below 80x24 the screen says
so instead of drawing half a board. Snapshots of every game at three sizes,
mid-game, at the person's turn.
"""

from __future__ import annotations


import pytest

from lanterne.client.screens.game import game_screen_for
from tests.support.apps import make_app, mid_game, no_blink

GAMES = ("pagode", "pueblo", "pacal", "pandoria")
SIZES = ((80, 24), (120, 40), (160, 50))

@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_at_every_size(snap_compare, game_id, size):
    controller = mid_game(game_id)
    assert snap_compare(make_app(lambda: game_screen_for(controller)), terminal_size=size, run_before=no_blink)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game_id", GAMES)
async def test_compact_layout_keeps_the_hand_and_actions_in_view(game_id, language, request):
    """At 80x24 the side panel is hidden (F2 shows it instead of the board) and every piece a
    person acts with (hand, buttons, choices, the move line) lies inside the screen, every button
    with its whole words, in English and in French (longer words)."""
    from textual.widgets import Button

    from lanterne.client import i18n

    i18n.set_language(language)
    request.addfinalizer(lambda: i18n.set_language("en"))
    controller = mid_game(game_id)
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.compact
        side = screen.query_one("#game-side")
        assert side.region.width == 0, "the side panel takes no column at 80x24"
        screen_region = app.screen.region
        must_show = {"pagode": ["#reserve-0", "#hand-0", "#btn-end", "#btn-end-fan"],
                     "pueblo": ["#pueblo-stone", "PuebloBoard"],
                     "pacal": ["#pacal-die", "#pacal-choices"],
                     "pandoria": ["#hand-title", "#tile-0", "#btn-skip", "#btn-cancel"]}[game_id]
        for selector in must_show + ["#command", "#status", "#compact-bar"]:
            widget = screen.query_one(selector)
            assert widget.region.area > 0 and screen_region.contains_region(widget.region), selector
            shown, _ = screen.get_widget_at(*widget.region.offset)  # drawn there: not scrolled out of view
            assert shown is widget or widget in shown.ancestors_with_self, (selector, shown)
        for button in screen.query(Button):
            if button.region.area:
                words = button.label.plain
                assert button.region.width >= len(words) + 2 * button.styles.line_pad, f"{words!r} is cut"
        bar = str(screen.query_one("#compact-bar").render())
        assert f"{i18n.seat_tag(0)} Ann" in bar and "F2" in bar   # P1 (French J1), as every line names seats
        await pilot.press("f2")
        assert side.region.width >= 76 and screen.query_one("#game-main").region.area == 0
        assert screen.query_one("#move-log").region.height >= 4
        await pilot.press("f2")
        assert side.region.width == 0 and screen.query_one("#game-main").region.width == 80


async def test_the_side_panel_is_a_column_at_120x40():
    controller = mid_game("pagode")
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not app.screen.compact
        assert app.screen.query_one("#game-side").region.width == 42
        assert app.screen.query_one("#compact-bar").region.area == 0


async def test_below_80x24_a_notice_replaces_the_board_and_the_game_goes_on():
    controller = mid_game("pueblo")
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        notice = app.screen.query_one("#too-small")
        assert notice.region.area > 0
        assert "70x20" in str(notice.render()) and "80x24" in str(notice.render())
        assert app.screen.query_one("#game-body").region.area == 0
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert notice.region.area == 0 and app.screen.query_one("PuebloBoard").region.area > 0
