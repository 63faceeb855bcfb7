"""Small defects a newcomer found, each with its test."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from textual.widgets import Button, RadioButton

from lanterne.client.controller import LocalGame
from lanterne.client.local_play import make_local_game
from lanterne.client.screens.dialogs import ConfirmScreen, GameOverScreen, HandoffScreen
from lanterne.client.screens.game import game_screen_for
from lanterne.client.screens.local_setup import LocalSetupScreen
from lanterne.client.widgets.scoreboard import ScoreBoard
from lanterne.engines.registry import get_game
from tests.support.apps import make_app

ROOT = Path(__file__).resolve().parents[2]


async def test_dialog_key_hints_are_shown_as_written():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(ConfirmScreen("Leave?"))
        await pilot.pause()
        labels = [str(b.label) for b in app.screen.query(Button)]
        assert labels == ["Yes [y]", "No [n]"]
        app.pop_screen()
        app.push_screen(GameOverScreen("Game over", "P1 Ann: 3"))
        await pilot.pause()
        board, home = app.screen.query_one("#board"), app.screen.query_one("#game-over-home")
        assert str(home.label) == "Home [h]"
        assert home.region.y == board.region.y and home.region.height == board.region.height == 3


async def test_escape_on_the_hand_off_leaves_the_game_after_a_yes_and_never_shows_a_hand():
    controller = LocalGame(get_game("pagode"), [None, None], names=["Ann", "Bob"], seed=33)
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # no: back to the hand-off, hands still hidden
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("escape", "y")
        await pilot.pause()
        assert type(app.screen).__name__ == "HomeScreen"


async def test_local_setup_defaults_to_the_computer_and_the_choice_shows_by_shape():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, LocalSetupScreen)
        vs, hot = app.screen.query_one("#mode-vs", RadioButton), app.screen.query_one("#mode-hot-seat", RadioButton)
        assert vs.value and not hot.value
        assert "●" in str(vs.render()) and "●" not in str(hot.render())
        assert vs.has_class("-on") and vs.styles.text_style.bold


async def test_local_setup_starts_on_the_game_field_so_enter_opens_the_list():
    """Found trying it at 80x24: the first Enter did nothing (the form's scroll container had the focus)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, LocalSetupScreen) and app.focused is app.screen.query_one("#game")
        await pilot.press("enter", "down", "enter")
        await pilot.pause()
        assert app.screen.query_one("#game").value == "pueblo"


async def test_pandoria_cursor_starts_on_a_free_hex():
    controller = make_local_game(get_game("pandoria"), mode="vs", bot="random", seed=1, variant="classic")
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        from lanterne.client.games.pandoria.widgets import HexMap

        view = controller.view(0)
        h = app.screen.query_one(HexMap).cursor
        assert view.terrain[h] < 0 and view.occupant[h] < 0
        seat = controller.waiting.seat
        assert any(a[0] == "tile" and a[3] == h for a in controller.legal_actions(seat))


@pytest.mark.parametrize("size", [(120, 40), (160, 50)])
async def test_long_names_are_never_cut(size):
    controller = make_local_game(get_game("pagode"), mode="vs", bot="ismcts:normal", seed=1,
                                 you="Annabelle-Marguerite de la Fontaine")
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        text = str(app.screen.query_one(ScoreBoard).render()).replace("\n", "")  # wrapped, never cut
        assert "P1 Annabelle-Marguerite de la Fontaine" in text
        assert "P2 Computer (normal)" in text, "a computer by its level in words, never its algorithm"
    controller.close()


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_first_player_and_pacal_die_are_said_as_a_person_reads_them(seed):
    import random

    from lanterne.engines.pacal.data import DIE_FACES
    from lanterne.engines.pacal.notation import face_name

    pacal = LocalGame(get_game("pacal"), [None, None], seed=seed)
    first = pacal.log[0].text
    assert first.startswith("roll (first player): P") and first.endswith(" starts")
    assert first == f"roll (first player): P{pacal.game.next_actor(pacal.state) + 1} starts"  # who plays first
    rng = random.Random(seed)
    while not any(e.text.startswith("roll (die)") for e in pacal.log):
        seat = pacal.waiting.seat
        pacal.submit(seat, rng.choice(pacal.legal_actions(seat)))
    roll = next(e.text for e in pacal.log if e.text.startswith("roll (die)"))
    shown = pacal.view(None).face
    assert roll == f"roll (die): {face_name(shown)}" and shown in DIE_FACES  # the face the board shows


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals and signals")
def test_sigterm_gives_the_terminal_back(tmp_path):
    from tests.support.terminal import (ALTERNATE_SCREEN_OFF, ALTERNATE_SCREEN_ON, HOME_DRAWN, MOUSE_OFF, MOUSE_ON,
                                        Terminal)

    term = Terminal([sys.executable, "-m", "lanterne"], env=dict(os.environ, LANTERNE_HOME=str(tmp_path),
                                                                 COLUMNS="80", LINES="24"))
    try:
        term.wait_for(ALTERNATE_SCREEN_ON)
        term.wait_for(MOUSE_ON)  # alternate screen and mouse on: the app has the terminal
        term.wait_for(HOME_DRAWN)
        mark = term.mark()
        term.proc.send_signal(signal.SIGTERM)
        assert term.proc.wait(timeout=30) == 128 + signal.SIGTERM
        term.wait_for(ALTERNATE_SCREEN_OFF, since=mark)
        term.wait_for(MOUSE_OFF, since=mark)  # and off again
    finally:
        term.close()


@pytest.mark.parametrize("game_id", ["pagode", "pueblo", "pacal", "pandoria"])
async def test_a_board_screen_drives_its_game_once(game_id):
    """Textual calls each on_mount up the class chain: the game loop and the listener are set up once
    (twice, every change was drawn twice and two computer loops raced each other)."""
    from tests.support.apps import mid_game

    controller = mid_game(game_id)
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert len(controller._listeners) == 1
        assert len([w for w in app.screen.workers if w.group == "controller"]) == 1


def test_pueblo_penalties_keep_a_long_name_whole():
    from lanterne.client.games.pueblo.panels import penalties_text

    text = penalties_text(["P1 Annabelle-Marguerite", "P2 ismcts:normal bot"], [3, 0], [(7, 7, 0), (7, 7, 0)],
                          turn=0, winners=[]).plain
    assert "P1 Annabelle-Marguerite" in text and "P2 ismcts:normal bot" in text


async def test_the_move_log_says_moves_in_words_with_the_notation_beside_and_no_slot():
    from textual.widgets import RichLog

    from tests.support.apps import mid_game

    controller = mid_game("pagode", actions=20)
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        lines = [strip.text for strip in app.screen.query_one("#move-log", RichLog).lines]
        text = "".join(lines)  # wrapped lines joined back
        assert "P2 Bot builds a " in text and "column on site" in text
        assert "@" not in text
        bot_moves = [e for e in controller.log if e.actor == 1 and e.text.startswith("c")]
        assert any(e.text.split("@")[0] in text for e in bot_moves)  # the notation beside the words
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        bar = str(app.screen.query_one("#compact-bar").render())
        assert "│ P2 " in bar  # the other player's last move, in words, on the compact screen


async def test_settings_keep_theme_computer_level_and_delay(tmp_path):
    from textual.widgets import Select

    from lanterne.client.app import LanterneApp
    from lanterne.client.settings import Settings

    path = tmp_path / "settings.json"
    app = LanterneApp(settings=Settings(display_name="Ann", interfaces=["127.0.0.1"]), settings_path=path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#theme", Select).value = "textual-light"
        screen.query_one("#computer-level", Select).value = "ismcts:hard"
        screen.query_one("#computer-delay", Select).value = 0.8
        await pilot.pause()
        assert app.theme == "textual-light"  # seen at once
        await pilot.click("#save")
        await pilot.pause()
    saved = Settings.load(path)
    assert (saved.theme, saved.computer_level, saved.computer_delay) == ("textual-light", "ismcts:hard", 0.8)
    app = LanterneApp(settings=saved, settings_path=path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("p")  # a new local game offers the chosen computer
        await pilot.pause()
        assert app.screen.query_one("#bot", Select).value == "ismcts:hard"
        assert app.theme == "textual-light"


@pytest.mark.parametrize("game_id", ["pagode", "pueblo", "pacal", "pandoria"])
async def test_help_starts_with_the_game_on_screen_its_keys_and_mouse(game_id):
    from lanterne.client.screens.help import HelpScreen
    from tests.support.apps import mid_game

    controller = mid_game(game_id)
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        board = app.screen
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.game_help
        assert text.startswith(f"# {controller.game.name}: keys and mouse") and board.MOUSE_HELP in text
        for binding in board.BINDINGS:  # every key the board screen binds is explained
            if binding.description and not binding.action.startswith("app."):
                assert f"| {binding.description} |" in text, binding
        assert "Lanterne help" in app.screen.source
        await pilot.press("escape", "f1")  # closed and opened again
        assert isinstance(app.screen, HelpScreen)


@pytest.mark.parametrize("game_id", ["pagode", "pueblo", "pacal", "pandoria"])
async def test_the_rules_screen_has_no_developer_text(game_id):
    from textual.widgets import MarkdownViewer

    from lanterne.client.screens.rules import RulesScreen

    app = make_app(lambda: RulesScreen(game_id))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = app.screen.query_one(MarkdownViewer).document.source
        assert "## Playing in Lanterne" in text and ("## Your turn" in text or "## Rounds" in text)  # en/<game>.md
        for developer in ("Engine API", "Position format", "for programs", "engines/", "client/", "## Speed",
                          "## Tests and speed", "For the screen", "For the game screen"):
            assert developer not in text, developer
