"""The Pagode screen, played as a person plays it: by clicks and by keys."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from lanterne.client.controller import LocalGame
from lanterne.client.screens.dialogs import ChoiceScreen, GameOverScreen, HandoffScreen
from lanterne.client.games.pagode.screen import PagodeScreen
from lanterne.client.games.pagode.widgets import CardWidget, SiteWidget
from lanterne.client.widgets.status_line import StatusLine
from lanterne.engines.bots import RandomBot
from lanterne.engines.registry import get_game
from tests.support.apps import make_app, pass_keyboard
from tests.support.pagode import builder_choice, card_widget, click_action, quick_buttons

GAME = get_game("pagode")
SIZE = (120, 40)


def pagode_app(players, seed=1, names=("Ann", "Bob"), variant="standard"):
    controller = LocalGame(GAME, players, names=list(names), seed=seed, variant=variant)
    return controller, make_app(lambda: PagodeScreen(controller))


def status(screen) -> str:
    return str(screen.query_one(StatusLine).render())


@pytest.mark.slow
async def test_hot_seat_game_by_clicks_reaches_a_roof():
    controller, app = pagode_app([None, None], seed=33, variant="quick")  # seed 33: a roof in ~45 clicks
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, PagodeScreen))
        quick_buttons(screen)
        handoffs = 0
        for _ in range(400):
            if await pass_keyboard(pilot):
                handoffs += 1
                continue
            assert app.screen is screen, type(app.screen).__name__
            seat = controller.waiting.seat
            assert screen.viewer == seat  # the hand on screen is the player's own
            action = builder_choice(controller, seat)
            before = len(controller.log)
            await click_action(pilot, screen, action)
            await pilot.pause()
            assert len(controller.log) > before, f"{action} not played: {status(screen)}"
            if action[0] == "roof":
                break
        assert action[0] == "roof"
        assert handoffs >= 2
        roofed = [w for w in screen.query(SiteWidget) if w.has_class("-roofed")]
        assert len(roofed) == 1 and "roof built" in str(roofed[0].render())
        assert controller.scores()[seat] > 0


async def test_hands_are_hidden_between_hot_seat_turns():
    controller, app = pagode_app([None, None], seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        screen = app.screen_stack[-2]
        assert screen.viewer is None
        assert all(w.slot is None for w in screen.query(CardWidget))  # no hand on screen behind the dialog
        await pass_keyboard(pilot)
        first = controller.waiting.seat
        hand = controller.state.hands[first]
        shown = [w.slot for w in screen.query(CardWidget) if w.slot is not None and w.place == "hand"]
        assert shown == list(hand)
        other = controller.state.hands[1 - first]
        assert str(controller.view(first).cards.ids[other[0]]) == "None"


async def test_refused_intents_show_the_reason():
    controller, app = pagode_app([None, None], seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = app.screen
        quick_buttons(screen)
        await pilot.click("#site-2")
        assert "Refused: select the cards to pay with first" in status(screen)
        await pilot.click("#btn-end")
        await pilot.pause()
        assert "Refused: a turn must build at least 1 column" in status(screen)
        # a column, then a second of another colour on the same site
        seat = controller.waiting.seat
        view = controller.view(seat)
        red, blue = view.reserves[seat][0], view.reserves[seat][1]
        await pilot.click(card_widget(screen, red))
        await pilot.click("#site-1")
        await pilot.pause()
        assert controller.view(seat).site_cols[0] == 1
        await pilot.click(card_widget(screen, blue))
        await pilot.click("#site-1")
        await pilot.pause()
        assert "Refused: site 1 takes red columns, not blue" in status(screen)
        assert screen.query_one(StatusLine).has_class("-error")
        assert controller.view(seat).site_cols[0] == 1


async def test_keyboard_only_turn():
    controller, app = pagode_app([None, None], seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # pass the keyboard
        await pilot.pause()
        screen = app.screen
        seat = controller.waiting.seat
        assert isinstance(app.focused, CardWidget) and app.focused.slot == controller.view(seat).reserves[seat][0]
        await pilot.press("enter", "3")  # select the first reserve card, build on site 3
        await pilot.pause()
        assert controller.view(seat).site_cols[2] == 1
        await pilot.press("e")
        await pilot.pause()
        assert controller.waiting.seat == 1 - seat
        assert isinstance(app.screen, HandoffScreen)


async def test_a_tile_choice_is_asked_and_chosen_by_click():
    controller, app = pagode_app([None, None], seed=33, variant="quick")
    while True:  # the opening, played without the screen, up to the first tile
        seat = controller.waiting.seat
        action = builder_choice(controller, seat)
        if action[0] == "tile":
            break
        controller.submit(seat, action)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = app.screen
        view = controller.view(seat)
        site = action[1]
        spots = GAME.tile_spots_left(view, view.site_colour[site])
        for slot, _ in action[3]:
            await pilot.click(card_widget(screen, slot))
        await pilot.click(f"#site-{site + 1}")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)  # one line per spot colour left
        assert len(app.screen.options) == len(spots)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and len(controller.view(seat).site_tiles[site]) == 0
        assert len(screen.selected) == len(action[3])  # the selection survives a cancelled choice
        await pilot.click(f"#site-{site + 1}")  # again, and this time pick the tile by click
        await pilot.pause()
        wanted = controller.format(seat, action)
        index = next(i for i, label in enumerate(app.screen.options) if label.startswith(wanted + " "))
        await pilot.click(app.screen.query_one(OptionList), offset=(3, 1 + index))
        await pilot.pause()
        assert screen.selected == []
        assert controller.view(seat).site_tiles[site] == (view.site_colour[site] * 5 + action[2],)


async def test_against_the_computer_to_the_end():
    controller, app = pagode_app([None, RandomBot(2)], seed=5, variant="quick")
    while GAME.complete_pagodas(controller.state) < 2:  # the opening, played without the screen
        if controller.waiting.kind == "human":
            controller.submit(0, builder_choice(controller, 0))
        else:
            controller.play_computer_now()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PagodeScreen) and screen.viewer == 0
        quick_buttons(screen)
        for _ in range(600):
            if isinstance(app.screen, GameOverScreen) or controller.is_over():
                break
            if controller.waiting.seat == 0 and controller.waiting.kind == "human":
                before = len(controller.log)
                await click_action(pilot, screen, builder_choice(controller, 0))
                await pilot.pause()
                assert len(controller.log) > before, status(screen)
            else:
                await pilot.pause()
        await pilot.pause()
        assert controller.is_over()
        assert isinstance(app.screen, GameOverScreen)
        assert "Game over" in str(app.screen.query_one("#game-over-result").render())
        chart = str(app.screen.query_one("#game-over-chart").render())   # each seat's score over the game
        final = controller.game.display_scores(controller.view(None))
        lines = chart.splitlines()
        assert len(lines) == 3 and lines[1].startswith("P1 ") and lines[2].startswith("P2 "), chart
        assert lines[1].endswith(str(final[0])) and lines[2].endswith(str(final[1])), chart


def with_abilities(seed=3, uses=(2, 2, 2, 2, 2)):
    """A fresh game where both seats hold every ability (a position, edited and loaded)."""
    state = LocalGame(GAME, [None, None], seed=seed).state
    data = state.to_data()
    data["uses"] = [list(uses), list(uses)]
    controller = LocalGame(GAME, [None, None], names=["Ann", "Bob"], seed=seed, state=GAME.load(data))
    return controller, make_app(lambda: PagodeScreen(controller))


async def test_a_modified_turn_by_clicks():
    controller, app = pagode_app([None, None], seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = app.screen
        quick_buttons(screen)
        seat = controller.waiting.seat
        await pilot.click("#btn-modified")
        await pilot.pause()
        assert controller.view(seat).phase == "modified"
        assert "discard 4 more" in status(screen)
        view = controller.view(seat)
        for slot in (view.reserves[seat] + view.hands[seat])[:4]:
            await pilot.click(card_widget(screen, slot))
        await pilot.click("#btn-discard")
        await pilot.pause()
        assert controller.view(seat).phase == "modified column"
        await pilot.click("#site-2")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen) and len(app.screen.options) == 5  # any colour on an empty site
        await pilot.click(app.screen.query_one(OptionList), offset=(3, 1 + 4))  # the fifth: yellow
        await pilot.pause()
        after = controller.view(seat)
        assert after.site_colour[1] == 4 and after.site_cols[1] == 1 and after.phase == "modified end"
        await pilot.click("#btn-end")
        await pilot.pause()
        assert controller.waiting.seat == 1 - seat


async def test_dragon_discard_and_draw_by_clicks():
    controller, app = with_abilities()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = app.screen
        quick_buttons(screen)
        seat = controller.waiting.seat
        before = controller.view(seat)
        sizes = (len(before.reserves[seat]), len(before.hands[seat]))
        await pilot.click("#btn-dragon")
        await pilot.pause()
        assert controller.view(seat).phase == "dragon"
        await pilot.click(card_widget(screen, before.reserves[seat][0]))
        await pilot.click(card_widget(screen, before.hands[seat][0]))
        await pilot.click("#btn-discard")
        await pilot.pause()
        assert len(controller.view(seat).discard) == 2
        await pilot.click("#btn-draw")
        await pilot.pause()
        after = controller.view(seat)
        assert after.phase == "play" and (len(after.reserves[seat]), len(after.hands[seat])) == sizes
        assert after.uses[seat][4] == 1
        await pilot.click("#btn-dragon")
        await pilot.pause()
        assert "Refused: the dragon" in status(screen)  # once a turn, and only before any build


async def test_lantern_raises_the_column_limit():
    controller, app = with_abilities()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = app.screen
        quick_buttons(screen)
        await pilot.press("l")
        await pilot.pause()
        seat = controller.waiting.seat
        assert GAME.column_limit(controller.view(seat)) == 4
        assert "columns this turn 0/4" in str(screen.query_one("#pagode-info").render())
        assert "*" in str(screen.query_one("#abilities").render())


async def test_end_turn_with_the_fan_fills_the_hand_to_four():
    controller, app = with_abilities()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = app.screen
        quick_buttons(screen)
        seat = controller.waiting.seat
        column = next(a for a in controller.legal_actions(seat) if a[0] == "column" and len(a[3]) == 1)
        await click_action(pilot, screen, column)
        await pilot.pause()
        await pilot.click("#btn-end-fan")
        await pilot.pause()
        after = controller.view(None)
        assert len(after.hands[seat]) == 4 and after.uses[seat][3] == 1


async def test_typed_notation_is_not_taken_for_board_keys():
    controller, app = pagode_app([None, None], seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = app.screen
        seat = controller.waiting.seat
        view = controller.view(seat)
        letter = "rbgvy"[view.cards.ids[view.reserves[seat][0]] // 11]
        await pilot.press("colon", "c", "3", "space", letter, "enter")
        await pilot.pause()
        assert controller.view(seat).site_cols[2] == 1  # typed, not site 3 by key
        await pilot.press(*"end", "enter")
        await pilot.pause()
        assert controller.waiting.seat == 1 - seat
        assert [e.text for e in controller.log if e.actor == seat][-2:] == [f"c3 {letter}", "end"]


async def test_escape_empties_the_move_line_and_colon_is_never_a_letter_of_it():
    """Seen at 80x24: ":c1 b", Escape, ":end" read "c1 b:end" (the line ate ":" and kept the abandoned text)."""
    controller, app = pagode_app([None, None], seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        line = app.screen.query_one("#command")
        await pilot.press("colon", "c", "1", "space", "b", "colon")
        await pilot.pause()
        assert line.value == "c1 b" and app.focused is line
        await pilot.press("escape")
        await pilot.pause()
        assert line.value == "" and isinstance(app.screen, PagodeScreen), "the first Escape empties the line"
        seat = controller.waiting.seat
        view = controller.view(seat)
        letter = "rbgvy"[view.cards.ids[view.reserves[seat][0]] // 11]
        await pilot.press("colon", "c", "3", "space", letter, "enter")
        await pilot.pause()
        assert [e.text for e in controller.log if e.actor == seat][-1:] == [f"c3 {letter}"]
        await pilot.press("escape")      # an empty line: Escape is the screen's again (leave?)
        await pilot.pause()
        assert not isinstance(app.screen, PagodeScreen)
