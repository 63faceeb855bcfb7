"""The clocks on the board and the window title.

Each seat's time on this move and in the game, and the table's move clock when it signed one, in
local and network games; a tick repaints the clock panels only, never the board; they fit at 80x24.
The terminal's title names the game and says when it is your turn (the bell's setting turns that
off). The screens read a clock the test advances (tests never wait for seconds to pass).
"""

from __future__ import annotations

import os
import re
import sys

import pytest
from textual.widget import Widget

from lanterne.client import i18n
from lanterne.client.screens.game import game_screen_for
from lanterne.client.seat_clocks import SeatClocks, clock_text
from lanterne.client.settings import Settings
from lanterne.client.app import LanterneApp
from lanterne.client.widgets.clocks import ClockPanel
from lanterne.client.window_title import title_sequence
from tests.support.apps import make_app, mid_game, no_blink
from tests.support.clock import FakeClock
from tests.support.lobby import seated, two_players
from tests.support.waiting import until

SIZES = ((80, 24), (120, 40))


def test_a_seats_clock_runs_while_the_game_waits_for_it():
    clocks = SeatClocks(2, now=0.0)
    clocks.see(0, 0.0)
    assert (clocks.on_move(12.0), clocks.in_game(0, 12.0), clocks.in_game(1, 12.0)) == (12.0, 12.0, 0.0)
    assert clocks.see(0, 20.0) is False                     # a second action of one turn: the same move
    clocks.see(None, 30.0)                                  # the table deals: nobody's clock runs
    assert (clocks.on_move(40.0), clocks.in_game(0, 40.0)) == (0.0, 30.0)
    clocks.see(1, 40.0)
    clocks.see(0, 45.0)
    assert (clocks.in_game(0, 50.0), clocks.in_game(1, 50.0), clocks.on_move(50.0)) == (35.0, 5.0, 5.0)
    assert [clock_text(s) for s in (0, 59.9, 61, 3600 + 62)] == ["0:00", "0:59", "1:01", "1:01:02"]


def test_a_move_ends_when_another_seat_played_even_if_the_turn_came_back_before_the_clocks_looked():
    clocks = SeatClocks(2, now=0.0)
    clocks.see(0, 0.0, (4, 1))
    assert clocks.see(0, 10.0, (5, 0)) is False             # the seat's own action: the same move
    assert clocks.see(0, 20.0, (6, 1)) is True              # the computer answered between two looks
    assert (clocks.on_move(23.0), clocks.in_game(0, 23.0)) == (3.0, 23.0)


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, ClockPanel).render())


def pagode_at_your_turn(clock: FakeClock):
    controller = mid_game("pagode")
    screen = game_screen_for(controller)
    screen.clock = clock
    return screen


def end_turn(screen) -> None:
    """P1 plays until the turn passes (a Pagode turn is several actions; the last one is ``end``)."""
    c = screen.controller
    while c.waiting.seat == 0 and c.waiting.kind == "human":
        actions = c.legal_actions(0)
        ends = [a for a in actions if c.format(0, a).startswith("end")]
        screen.play_listed((ends or actions)[0])


async def test_the_clocks_count_the_move_and_the_game_and_repaint_alone(monkeypatch):
    clock = FakeClock(0.0)
    screen = pagode_at_your_turn(clock)
    app = make_app(lambda: screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert screen.compact
        line = screen.query_one("#clock-line", ClockPanel)
        assert line.region.width >= len("P1 0:00, game 0:00") and line.region.right <= 80   # in the screen
        refreshed: list[Widget] = []
        real = Widget.refresh

        def spy(self, *args, **kwargs):
            refreshed.append((self, kwargs.get("layout", False)))
            return real(self, *args, **kwargs)

        monkeypatch.setattr(Widget, "refresh", spy)
        clock.advance(75)
        screen.tick_clocks()
        monkeypatch.setattr(Widget, "refresh", real)
        assert {type(w) for w, _ in refreshed} == {ClockPanel}, "only the clocks repaint for a tick"
        assert not any(layout for _, layout in refreshed), "a tick asks for no new layout"
        assert text_of(screen, "#clock-line").strip() == "P1 1:15, game 1:15"
        side = text_of(screen, "#clocks")
        assert re.search(r"▶ P1 Ann\s+1:15\s+1:15", side) and re.search(r"P2 Bot\s+0:00", side), side
        # the move played: P1's clock stops, the computer's runs; back to P1, a new move starts from 0
        end_turn(screen)
        await until(lambda: screen.controller.waiting.seat == 0 and screen.clocks.seat == 0, pilot,
                    what="the computer's answer")
        clock.advance(3)
        screen.tick_clocks()
        assert text_of(screen, "#clock-line").strip() == "P1 0:03, game 1:18"


async def test_a_network_board_counts_down_the_tables_move_clock(tmp_path):
    async with two_players(tmp_path, (80, 24), (120, 40)) as (pa, pb, ann, bob):
        screens = await seated(pa, pb, ann, bob)
        for pilot, screen in screens.items():
            await until(lambda: screen.controller.move_clock_left() is not None, pa, pb, what="the move clock running")
            screen.tick_clocks()
            side = text_of(screen, "#clocks")
            assert re.search(r"Move clock: (9:5\d|10:00) left", side), side
        line = text_of(screens[pa], "#clock-line")
        assert re.search(r"P\d 0:0\d, game 0:0\d · (9:5\d|10:00) left", line.strip()), line
        assert screens[pa].query_one("#clock-line").region.right <= 80
        assert screens[pa].check_action("hint", ()) is False and "Hint" not in screens[pa].help_text(), \
            "no hint at a network table (tests/client/test_hint.py: local games)"
        assert screens[pa].check_action("undo", ()) is False and "Undo" not in screens[pa].help_text(), \
            "a network table takes back nothing (tests/client/test_undo.py: local games)"


# -- snapshots: the clocks at 80x24 and 120x40, in English and in French

@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_clocks_on_the_board(snap_compare, size, language, request):
    i18n.set_language(language)
    request.addfinalizer(lambda: i18n.set_language("en"))
    clock = FakeClock(0.0)

    async def run_before(pilot):
        await pilot.pause()
        clock.advance(83)
        pilot.app.screen.tick_clocks()
        await no_blink(pilot)

    assert snap_compare(make_app(lambda: pagode_at_your_turn(clock)), terminal_size=size, run_before=run_before)


# -- the window title

async def test_the_title_says_your_turn_and_names_the_game_otherwise():
    screen = pagode_at_your_turn(FakeClock(0.0))
    app = make_app(lambda: screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.window_title.text == "Your turn: Pagode — Lanterne"
        end_turn(screen)
        await until(lambda: screen.controller.waiting.seat == 0, pilot, what="the computer's answer")
        assert app.window_title.text == "Your turn: Pagode — Lanterne"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")                                  # the game left: the title is the app's again
        await until(lambda: app.window_title.text == "Lanterne", pilot, what="the app's own title")


async def test_without_the_bell_the_title_only_names_the_game():
    screen = pagode_at_your_turn(FakeClock(0.0))
    app = LanterneApp(settings=Settings(display_name="Ann", computer_delay=0.0, turn_bell=False,
                                        interfaces=["127.0.0.1"]), start=lambda: screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.window_title.text == "Pagode — Lanterne"


def test_the_title_is_written_to_the_terminal(tmp_path):
    """In a real terminal: the title bytes (xterm's OSC 2) come with the board, in French too."""
    from tests.support.terminal import Terminal

    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, LANTERNE_HOME=str(home))
    env.pop("TEXTUAL", None)
    term = Terminal([sys.executable, "-m", "lanterne", "--lang", "fr", "play", "pagode", "--seed", "3", "--bot",
                     "random", "--delay", "0"], env=env)
    try:
        term.wait_for(title_sequence("À vous : Pagode — Lanterne").encode())
    finally:
        term.close()
    assert title_sequence("a\x07b\x1b]2;c") == "\x1b]2;ab]2;c\x07"
