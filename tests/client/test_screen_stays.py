"""A game screen never leaves unless the player leaves it.

Keys in one burst (a fast typist, a terminal that hands over several keys at
once) could make a dialog answer twice: ``?``, Enter, Enter closed the list
of moves and then the game screen under it, and the setup screen replaced the
board in the middle of a game. A screen below the top never pops the top.
"""

from __future__ import annotations

import pytest
from textual import events

from lanterne.client.screens.dialogs import ConfirmScreen
from lanterne.client.screens.game import GameScreen, game_screen_for
from lanterne.client.screens.moves import MovesScreen
from lanterne.client.screens.rules import RulesScreen
from tests.support.apps import make_app
from tests.support.apps import mid_game

CHARACTERS = {"enter": "\r", "question_mark": "?", "escape": "\x1b"}
LATER = {"escape": ConfirmScreen, "question_mark": MovesScreen}
"""What a key opens on the board when it reaches it after the list of moves closed."""


def burst(app, *keys: str) -> None:
    """Keys queued at once, as the terminal driver hands them over."""
    for key in keys:
        app.post_message(events.Key(key, CHARACTERS[key]))


@pytest.mark.parametrize("keys", [("enter", "enter"), ("enter", "question_mark"), ("enter", "escape"),
                                  ("escape", "escape")], ids=" ".join)
async def test_a_burst_of_keys_in_the_list_of_moves_leaves_the_game_screen_open(keys):
    controller = mid_game("pagode")
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, MovesScreen)
        moves_before = len(controller.log)
        burst(app, *keys)
        await pilot.pause()
        await pilot.pause()
        stack = [type(s).__name__ for s in app.screen_stack]
        board = next(i for i, s in enumerate(app.screen_stack) if isinstance(s, GameScreen))
        above = [type(s) for s in app.screen_stack[board + 1:]]
        if keys == ("escape", "escape"):      # the list closed, then the game asks whether to leave
            assert above == [ConfirmScreen], stack
        else:   # Enter closes the list; the second key reaches the board if it comes after that (a busy
            # machine), where an escape asks whether to leave and a ? opens the list again: never more
            assert above in [[]] + ([[LATER[keys[1]]]] if keys[1] in LATER else []), stack
        assert len(controller.log) <= moves_before + 1, "one answer, at most one move"


async def test_escape_twice_on_the_rules_closes_the_rules_only():
    controller = mid_game("pagode")
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(RulesScreen("pagode"))
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        burst(app, "escape", "escape")
        await pilot.pause()
        await pilot.pause()
        assert any(isinstance(s, GameScreen) for s in app.screen_stack)
