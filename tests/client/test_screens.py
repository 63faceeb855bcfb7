"""Pilot tests of each screen: reachable by keys and clicks, and never a traceback."""

from __future__ import annotations

import json

from textual.widgets import Button, Input, MarkdownViewer, OptionList, Static

from lanterne.client.controller import LocalGame
from lanterne.client.rules_docs import players_rules, rules_path, rules_text
from lanterne.client.screens.dialogs import ConfirmScreen, GameOverScreen, HandoffScreen
from lanterne.client.screens.game import GameScreen
from lanterne.client.screens.help import HelpScreen
from lanterne.client.screens.home import HomeScreen
from lanterne.client.screens.local_setup import LocalSetupScreen
from lanterne.client.screens.lobby import LobbyScreen
from lanterne.client.screens.replay import ReplayScreen
from lanterne.client.screens.rules import RulesScreen
from lanterne.client.screens.settings import SettingsScreen
from lanterne.client.widgets.status_line import StatusLine
from lanterne.engines.bots import RandomBot
from tests.support.apps import make_app
from tests.support.toy_game import GAME
from tests.support.waiting import DEADLINE


def text_of(widget) -> str:
    return str(widget.render())


async def test_home_opens_every_entry_by_key():
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        assert isinstance(app.screen, HomeScreen)
        for key, screen in (("l", LobbyScreen), ("p", LocalSetupScreen), ("r", ReplayScreen),
                            ("u", RulesScreen), ("s", SettingsScreen)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen_stack[2], screen), key  # (the replay viewer asks for a log on top)
            for _ in range(len(app.screen_stack) - 2):
                await pilot.press("escape")
                await pilot.pause()
            assert isinstance(app.screen, HomeScreen), key


async def test_home_entries_are_clickable():
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.click("#home-lan")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert app.screen.interfaces == ["127.0.0.1"]
        await pilot.press("escape")
        await pilot.pause()
        await pilot.click("#home-replays")
        await pilot.pause()
        assert isinstance(app.screen_stack[2], ReplayScreen)


async def test_help_opens_with_f1_and_question_mark():
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.click("#help-close")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_command_palette_lists_the_app_commands():
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for wanted in ("Play locally", "Play on the LAN or online", "Replays", "Rules", "Settings", "Help", "Home"):
            assert wanted in titles
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "Settings")
        command.callback()
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)


async def test_settings_saves_the_display_name(lanterne_home):
    app = make_app(name="Ann")
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        name = app.screen.query_one("#display-name", Input)
        assert name.value == "Ann"
        name.value = "Chloé"
        await pilot.click("#save")
        await pilot.pause()
        assert "Saved: you are Chloé." in text_of(app.screen.query_one("#settings-status"))
        saved = json.loads((lanterne_home / "settings.json").read_text())
        assert saved["display_name"] == "Chloé"
        assert "not created yet" in text_of(app.screen.query_one("#fingerprint"))


async def test_settings_refuses_an_empty_name(lanterne_home):
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        app.screen.query_one("#display-name", Input).value = "   "
        await pilot.press("enter")
        await pilot.pause()
        status = app.screen.query_one("#settings-status", Static)
        assert "Not saved: the display name cannot be empty" in text_of(status)
        assert status.has_class("-error")
        assert not (lanterne_home / "settings.json").exists()


def test_rules_text_names_the_missing_file():
    text = rules_text("nosuchgame", "No Such Game")
    assert text.startswith("# No Such Game") and "not written yet" in text and "nosuchgame.md" in text


async def test_rules_screen_shows_a_game_and_switches():
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("u")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        viewer = screen.query_one(MarkdownViewer)
        expected = players_rules("pagode", "Pagode")  # the page written for players
        assert viewer.document.source == expected and "how to play" in expected
        screen.query_one("#rules-game").value = "pueblo"
        await pilot.pause()
        assert screen.game_id == "pueblo"
        assert viewer.document.source == players_rules("pueblo", "Pueblo")
        if rules_path("pueblo") is None:
            assert "not written yet" in viewer.document.source


def toy_app(players, seed=1, names=("Ann", "Bob")):
    controller = LocalGame(GAME, players, names=list(names), seed=seed)
    return controller, make_app(lambda: GameScreen(controller))


async def test_generic_game_against_a_computer_to_the_end_by_enter():
    controller, app = toy_app([None, RandomBot(5)])
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        for _ in range(40):
            if isinstance(app.screen, GameOverScreen):
                break
            await pilot.press("enter")  # plays the highlighted legal move when it is our turn
            await pilot.pause()
        assert controller.is_over()
        assert isinstance(app.screen, GameOverScreen)
        assert "Game over" in text_of(app.screen.query_one("#game-over-result"))
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_generic_game_typed_moves_and_refusals():
    controller, app = toy_app([None, None])
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        seat = controller.waiting.seat
        assert screen.viewer == seat
        await pilot.press("colon")
        for key in "fly":
            await pilot.press(key)
        await pilot.press("enter")
        await pilot.pause()
        status = screen.query_one(StatusLine)
        assert "Not a move: unknown toy move 'fly'" in text_of(status) and status.has_class("-error")
        assert screen.query_one("#command", Input).value == "fly"  # given back to be corrected
        screen.query_one("#command", Input).value = ""
        await pilot.press("question_mark")  # from the focused line: the list of legal moves, not help
        await pilot.pause()
        options = app.screen.query_one("#legal-moves", OptionList)
        assert [str(options.get_option_at_index(i).prompt).split()[0] for i in range(options.option_count)] == [
            "+1", "+2", "play"]
        await pilot.press("escape")
        await pilot.pause()
        assert screen.query_one("#command", Input).value == ""  # the next move goes into an empty line
        screen.query_one("#command", Input).value = ":+2"  # ":" typed again in the focused line is no part of the move
        await pilot.press("enter")
        await pilot.pause()
        assert controller.scores()[seat] == 2
        assert isinstance(app.screen, HandoffScreen)  # the other person's turn: hands hidden
        assert screen.viewer is None
        assert f"P{2 - seat}" in text_of(app.screen.query_one("#handoff-who"))


async def test_a_refused_action_shows_the_reason():
    controller, app = toy_app([None, None])
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("enter")  # past the pass-the-keyboard dialog
        await pilot.pause()
        screen = app.screen
        assert screen.play(("add", 9)) is False
        assert "Refused: not a toy move" in text_of(screen.query_one(StatusLine))
        assert controller.scores() == [0, 0]


async def test_leaving_a_game_asks_first():
    controller, app = toy_app([None, RandomBot(1)])
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_local_setup_starts_a_hot_seat_pagode_game():
    from lanterne.client.games.pagode.screen import PagodeScreen

    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LocalSetupScreen)
        screen.query_one("#game").value = "pagode"
        screen.query_one("#variant").value = "quick"
        screen.query_one("#seed", Input).value = "7"
        await pilot.click("#mode-hot-seat")  # the default is against the computer
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        game_screen = app.screen_stack[-2]
        assert isinstance(game_screen, PagodeScreen)
        assert game_screen.controller.variant == "quick" and game_screen.controller.seed == "7"
        assert [s.name for s in game_screen.controller.seats] == ["Ann", "Player 2"]


async def test_local_setup_against_the_computer():
    from lanterne.client.games.pagode.screen import PagodeScreen

    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#game").value = "pagode"
        await pilot.click("#mode-vs")
        screen.query_one("#bot").value = "greedy"
        await pilot.click("#start")
        await pilot.pause()
        game_screen = next(s for s in app.screen_stack if isinstance(s, PagodeScreen))
        assert [s.kind for s in game_screen.controller.seats] == ["human", "computer"]
        assert game_screen.viewer == 0


async def test_a_theme_chosen_in_the_app_goes_to_the_settings():
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        assert app.theme == "lanterne"
        app.theme = "nord"
        await pilot.pause()
        assert app.settings.theme == "nord"


class GatedBot:
    """A computer player that thinks until the test lets it answer (a slow bot, on purpose)."""

    name = "gated"

    def __init__(self):
        import threading

        self.thinking = threading.Event()
        self.gate = threading.Event()

    def choose(self, game, view, seat):
        self.thinking.set()
        self.gate.wait(10)
        return game.legal_actions(view, seat)[0]


async def test_the_app_answers_while_a_computer_thinks():
    import asyncio

    bot = GatedBot()
    controller, app = toy_app([None, bot])
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        screen = app.screen
        if controller.waiting.seat == 0:
            screen.play(("add", 1))
        assert await asyncio.to_thread(bot.thinking.wait, DEADLINE), "the computer never began to think"
        await pilot.pause()
        assert "(computer) is thinking" in text_of(screen.query_one(StatusLine))
        await pilot.press("f1")  # the app is not blocked by the bot
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        moved = asyncio.Event()
        controller.subscribe(lambda change: moved.set())
        bot.gate.set()
        await asyncio.wait_for(moved.wait(), DEADLINE)   # (a hang guard: a busy machine took over 10 s)
        assert controller.log[-1].actor == 1


async def test_settings_shows_the_identity_fingerprint_once_it_exists(lanterne_home):
    from lanterne.protocol.identity import Identity

    identity = Identity.load_or_create()
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert text_of(app.screen.query_one("#fingerprint")) == str(identity.fingerprint)


async def test_rules_open_from_a_game_and_come_back():
    controller, app = toy_app([None, RandomBot(1)])
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_after_the_result_the_board_stays_visible():
    controller, app = toy_app([None, None])
    for _ in range(20):
        if controller.is_over():
            break
        controller.submit(controller.waiting.seat, ("add", 2))
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.click("#board")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.viewer is None
        assert text_of(screen.query_one(StatusLine)).startswith("Game over:")
        await pilot.press("escape")  # a finished game leaves without asking
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_local_setup_seats_as_many_players_as_the_game_allows():
    app = make_app()
    async with app.run_test(size=(100, 44)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#game").value = "pacal"
        await pilot.pause()
        players = screen.query_one("#players")
        assert [value for _, value in players._options] == [2, 3, 4, 5]
        players.value = 4
        await pilot.click("#mode-vs")
        await pilot.click("#start")
        await pilot.pause()
        game_screen = next(s for s in app.screen_stack if hasattr(s, "controller"))
        assert [s.kind for s in game_screen.controller.seats] == ["human", "computer", "computer", "computer"]
