"""The move log: it follows each new move, its scrollbar tracks its length, and a move repaints it alone."""

from __future__ import annotations

import random

from textual.widgets import RichLog

from lanterne.client.screens.game import game_screen_for
from tests.support.apps import make_app, mid_game
from tests.support.waiting import until


async def test_the_move_log_shows_each_new_move_with_its_scrollbar_as_long_as_the_log():
    controller = mid_game("pagode", actions=2)
    app = make_app(lambda: game_screen_for(controller))
    rng = random.Random(5)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        log = app.screen.query_one("#move-log", RichLog)
        overflowed = False
        for _ in range(25):
            if controller.is_over():
                break
            moves = len(controller.log)
            controller.submit(0, rng.choice(controller.legal_actions(0)))
            await until(lambda: controller.is_over() or controller.waiting.kind == "human", pilot,
                        what="the computer's answer")
            await until(lambda: log.shown == len(controller.log) > moves, pilot, what="the new moves written")
            await pilot.pause()
            assert log.scroll_y == log.max_scroll_y          # the newest move in view
            if len(log.lines) > log.scrollable_content_region.height:
                overflowed = True
                assert log.show_vertical_scrollbar
                assert log.vertical_scrollbar.window_virtual_size == len(log.lines)
        assert overflowed, "the log never outgrew its panel: the test played too few moves"


async def test_a_new_line_asks_for_no_layout():
    """A new line of the log repaints the log: it does not ask for a layout of the screen (which renders
    every widget again)."""
    controller = mid_game("pagode", actions=2)
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        log = app.screen.query_one("#move-log", RichLog)
        asked = []
        refresh = log.refresh

        def counted(*regions, **kwargs):
            asked.append(kwargs)
            return refresh(*regions, **kwargs)

        log.refresh = counted
        before = len(log.lines)
        controller.submit(0, controller.legal_actions(0)[0])     # a column: the turn goes on, one line
        assert controller.waiting.kind == "human"
        await until(lambda: len(log.lines) > before, pilot, what="the move written")
        await pilot.pause()
        assert asked, "the log was not repainted"
        assert not [kw for kw in asked if kw.get("layout")]


async def test_the_log_shown_again_at_80x24_ends_on_the_newest_move():
    """At 80x24 the log is behind F2: shown again (a new size), its last line is in view."""
    controller = mid_game("pagode", actions=14)
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        log = app.screen.query_one("#move-log", RichLog)
        await until(lambda: log.size.height and log.max_scroll_y > 0, pilot, what="the log shown, longer than its panel")
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y


async def test_moves_made_while_the_log_is_hidden_are_written_at_its_width_when_shown():
    """At 80x24 the log is hidden while the board shows; the moves made meanwhile are written when it is
    shown, as wide as the panel (written at a width of 0 they wrapped at 16 columns for good)."""
    controller = mid_game("pagode", actions=14)
    app = make_app(lambda: game_screen_for(controller))
    rng = random.Random(1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.screen.query_one("#move-log", RichLog)
        await pilot.press("f2")                               # the log seen once, then the board again
        await until(lambda: log.size, pilot, what="the log shown")
        await pilot.press("f2")
        await until(lambda: not log.size, pilot, what="the board shown")
        before = len(controller.log)
        while len(controller.log) < before + 2 and controller.waiting.kind == "human":
            controller.submit(0, rng.choice(controller.legal_actions(0)))
            await pilot.pause()
        await pilot.press("f2")
        await until(lambda: log.shown == len(controller.log) and log.size, pilot, what="the log shown and written")
        await pilot.pause()
        words = [line.text.rstrip() for line in log.lines]
        assert max(len(w) for w in words[-3:]) > 40, words[-6:]
        assert log.scroll_y == log.max_scroll_y
