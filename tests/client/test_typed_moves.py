"""Nothing typed at the move line is lost.

The keys are handed to the app the way the terminal driver hands them over:
all at once, with no pause between them (a fast typist, a paste, tmux
send-keys). Two faults lost moves before: Enter was resolved as a binding
only after it had bubbled up to the app, so the letters typed after it
reached the line first; and the screen emptied the line when it had played
the move, erasing what had been typed in the meantime. And ``:`` moved the
focus after a refresh, so the letters right after it went to the board.
"""

from __future__ import annotations

import random

import pytest
from textual import events
from textual.keys import _character_to_key

from lanterne.client.controller import LocalGame
from lanterne.client.screens.game import game_screen_for
from lanterne.engines.bots import make_bot
from lanterne.engines.registry import get_game
from tests.support.apps import make_app
from tests.support.waiting import until

MOVES_PER_GAME = 200


def type_at_once(app, text: str, enter: bool = True) -> None:
    """Send the keys of ``text`` (and Enter) as the driver does, without waiting between them."""
    for ch in text:
        event = events.Key(_character_to_key(ch), ch)
        event.set_sender(app)
        app._driver.send_message(event)
    if enter:
        event = events.Key("enter", "\r")
        event.set_sender(app)
        app._driver.send_message(event)


SOON = 0.002
"""Seconds between looks at the game: a move is typed the moment the app takes it."""


def new_game(game_id: str, seed: int) -> LocalGame:
    game = get_game(game_id)
    variant = "standard" if "standard" in game.variants else game.variants[0]
    return LocalGame(game, [None, make_bot("random", f"{seed}/bot")], names=["Ann", "Bot"], seed=seed,
                     variant=variant)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["pagode", "pueblo", "pacal", "pandoria"])
async def test_hundreds_of_moves_typed_as_soon_as_the_app_takes_them(game_id):
    """Each move is typed (":" first, as a person does) the moment it is the person's turn; every
    one is played, in order, and the line is empty after each."""
    typed = played = 0
    seed = 0
    while typed < MOVES_PER_GAME:
        seed += 1
        controller = new_game(game_id, seed)
        rng = random.Random(seed)
        app = make_app(lambda: game_screen_for(controller))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            line = screen.query_one("#command")
            while typed < MOVES_PER_GAME and not controller.is_over():
                await until(lambda: screen.acting_seat is not None or controller.is_over(), every=SOON)
                if controller.is_over():
                    break
                seat = screen.acting_seat
                text = controller.format(seat, rng.choice(controller.legal_actions(seat)))
                mine = sum(1 for e in controller.log if e.actor == seat)
                type_at_once(app, ":" + text)
                typed += 1
                await until(lambda: sum(1 for e in controller.log if e.actor == seat) > mine, every=SOON,
                            what=lambda: f"{game_id} seed {seed}: {text!r} played (line {line.value!r})")
                assert [e.text for e in controller.log if e.actor == seat][mine] == text
                played += 1
            await pilot.pause()
            assert line.value == ""
    assert played == typed >= MOVES_PER_GAME


async def test_moves_typed_ahead_in_one_burst_are_all_played_in_order():
    """Pagode: a column, then "end", typed in one go before the app has read any of it."""
    controller = LocalGame(get_game("pagode"), [None, None], names=["Ann", "Bob"], seed=33)
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")  # past the pass-the-keyboard dialog
        await pilot.pause()
        seat = controller.waiting.seat
        column = next(a for a in controller.legal_actions(seat) if a[0] == "column")
        text = controller.format(seat, column)
        type_at_once(app, ":" + text)  # ":" then letters at once: they go to the line, not the board
        type_at_once(app, "end")
        await until(lambda: controller.waiting.seat != seat, every=SOON)
        assert [e.text for e in controller.log if e.actor == seat] == [text, "end"]


async def test_a_refused_move_comes_back_to_the_line_to_be_corrected():
    controller = LocalGame(get_game("pagode"), [None, None], names=["Ann", "Bob"], seed=33)
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        type_at_once(app, ":c9 r")
        await pilot.pause()
        line = app.screen.query_one("#command")
        assert line.value == "c9 r" and "Not a move" in str(app.screen.query_one("#status").render())
        type_at_once(app, "x", enter=False)  # typed on: added to the move given back, never overwritten
        await pilot.pause()
        assert line.value == "c9 rx"
        type_at_once(app, ":c1", enter=False)  # ":" starts a new move: the old one is replaced, not extended
        await pilot.pause()
        assert line.value == "c1" and line.has_focus
