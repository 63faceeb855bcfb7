"""``?``: every legal move in a scrollable list, with its count, in notation and words."""

from __future__ import annotations

import pytest

from lanterne.client.screens.help import HelpScreen
from lanterne.client.screens.moves import MovesScreen
from lanterne.client.screens.game import game_screen_for
from textual.widgets import OptionList
from tests.support.apps import make_app, mid_game


def listed(app) -> list[str]:
    options = app.screen.query_one("#legal-moves", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


@pytest.mark.parametrize("game_id", ["pagode", "pueblo", "pacal", "pandoria"])
async def test_question_mark_lists_every_legal_move_from_the_board_and_from_the_line(game_id):
    controller = mid_game(game_id)
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seat = controller.waiting.seat
        legal = controller.legal_actions(seat)
        names = [controller.format(seat, a) for a in legal]
        for focus_line in (False, True):
            if focus_line:
                await pilot.press("colon")
                assert app.focused is app.screen.query_one("#command")
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, MovesScreen), (focus_line, str(app.screen.query_one("#status").render()))
            lines = listed(app)
            assert len(lines) == len(legal)
            assert [line.split("  ")[0].strip() for line in lines] == names
            assert f"{len(legal)} legal move" in str(app.screen.query_one(".screen-title").render())
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, MovesScreen)
            assert app.screen.query_one("#command").value == ""  # "?" is no part of a move
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)


async def test_the_list_says_moves_in_words_and_plays_by_enter_and_by_click():
    controller = mid_game("pagode")
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        seat = controller.waiting.seat
        await pilot.press("question_mark")
        await pilot.pause()
        lines = listed(app)
        assert any(" builds a " in line and "column on site" in line for line in lines), lines
        assert not any("P1 Ann builds" in line for line in lines)  # the mover is not repeated on every line
        assert not any("seat " in line for line in lines)  # seats are named as on screen: P1 Ann
        legal = controller.legal_actions(seat)
        await pilot.press("down", "enter")  # the second move
        await pilot.pause()
        mine = [e.text for e in controller.log if e.actor == seat]
        assert mine[-1] == lines[1].split("  ")[0].strip()
        if controller.waiting.seat == seat:  # still this seat's turn: a click plays the first listed
            before = len(mine)
            await pilot.press("question_mark")
            await pilot.pause()
            first = listed(app)[0].split("  ")[0].strip()
            assert await pilot.click("#legal-moves", offset=(4, 1))
            await pilot.pause()
            mine = [e.text for e in controller.log if e.actor == seat]
            assert len(mine) == before + 1 and mine[-1] == first
        assert legal
