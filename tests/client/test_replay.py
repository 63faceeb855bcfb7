"""Pilot tests of the replay viewer on real signed logs (and broken ones)."""

from __future__ import annotations

import hashlib
import io

import pytest
from textual.widgets import Input

from lanterne.client.cli import main as cli_main
from lanterne.client.screens.replay import GoToScreen, LogPickerScreen, ReplayScreen
from lanterne.client.widgets.replay_board import ReplayBoard
from lanterne.client.widgets.replay_steps import ReplaySteps
from lanterne.client.widgets.status_line import StatusLine
from lanterne.engines.registry import get_game
from lanterne.protocol.log import read_log
from tests.support.apps import make_app, settled
from tests.support.logs import make_log, write_log
from tests.support.waiting import until

SIZE = (120, 36)


def status(pilot) -> str:
    return str(pilot.app.screen.query_one(StatusLine)._content)


def widget_text(pilot, selector: str) -> str:
    return str(pilot.app.screen.query_one(selector).render())


def replay_app(path, **kwargs):
    return make_app(lambda: ReplayScreen(path, **kwargs))


async def test_open_shows_the_verdict_the_players_and_the_start_and_v_verifies_again(pueblo_log):
    async with replay_app(pueblo_log).run_test(size=SIZE) as pilot:
        await settled(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        assert widget_text(pilot, "#replay-verdict").startswith("Verified: ")
        assert screen.query_one("#replay-verdict").has_class("-ok")
        assert "P1 bot1" in widget_text(pilot, "#replay-players")
        last = screen.cursor.last
        assert status(pilot) == "Step 0/{}: the start · next: the table".format(last)
        assert screen.query_one(ReplaySteps).option_count == last + 1
        screen.verdict = None
        await pilot.press("v")      # verify again
        await settled(pilot)
        assert screen.verdict is not None and screen.verdict[0] is True


async def test_keys_step_forward_and_back_and_to_both_ends(pueblo_log):
    async with replay_app(pueblo_log).run_test(size=SIZE) as pilot:
        await settled(pilot)
        screen = pilot.app.screen
        replay = screen.replay
        await pilot.press("right", "right", "right")
        assert screen.cursor.position == 3
        step = replay.steps[2]
        assert status(pilot).startswith(f"Step 3/{screen.cursor.last}: ")
        assert step.text in status(pilot)
        assert screen.query_one(ReplaySteps).highlighted == 3
        await pilot.press("left")
        assert screen.cursor.position == 2
        await pilot.press("end")
        assert screen.cursor.position == screen.cursor.last
        assert status(pilot).endswith(replay.ending) and "Game over" in replay.ending
        await pilot.press("right")
        assert status(pilot).startswith("Already at the end")
        assert screen.query_one(StatusLine).has_class("-error")
        await pilot.press("home")
        assert screen.cursor.position == 0
        await pilot.press("left")
        assert status(pilot) == "Already at the start"


async def test_the_board_shows_the_position_of_the_step(pueblo_log):
    async with replay_app(pueblo_log).run_test(size=SIZE) as pilot:
        await settled(pilot)
        screen = pilot.app.screen
        game = get_game("pueblo")
        await pilot.press("end")
        final = screen.replay.states[-1]
        board = screen.query_one(ReplayBoard)
        shown = str(board.query_one("#replay-picture").render())
        await pilot.press("b")  # plain view: the penalties are in it
        plain = str(board.query_one("#replay-picture").render())
        for score in game.display_scores(final):
            assert str(score) in plain
        assert shown != plain
        await pilot.press("home")
        start = str(board.query_one("#replay-picture").render())
        assert start != plain


async def test_a_click_on_a_step_jumps_there(pueblo_log):
    async with replay_app(pueblo_log).run_test(size=SIZE) as pilot:
        await settled(pilot)
        screen = pilot.app.screen
        steps = screen.query_one(ReplaySteps)
        assert await pilot.click(ReplaySteps, offset=(6, 6))
        await pilot.pause()
        assert screen.cursor.position > 0
        assert steps.highlighted == screen.cursor.position
        assert status(pilot).startswith(f"Step {screen.cursor.position}/")


async def test_up_and_down_in_the_focused_step_list_step_too(pueblo_log):
    async with replay_app(pueblo_log).run_test(size=SIZE) as pilot:
        await settled(pilot)
        screen = pilot.app.screen
        screen.query_one(ReplaySteps).focus()
        await pilot.press("down", "down", "down", "up")
        await pilot.pause()
        assert screen.cursor.position == 2
        await pilot.press("right", "right", "right", "right", "right")
        await pilot.pause()
        assert screen.cursor.position == 7 and screen.query_one(ReplaySteps).highlighted == 7
        players = widget_text(pilot, "#replay-players")
        actor = screen.replay.game.next_actor(screen.cursor.state())
        assert f"▶ {screen.replay.labels[actor]}" in players


async def test_g_goes_to_a_step_number_and_refuses_others(pueblo_log):
    async with replay_app(pueblo_log).run_test(size=SIZE) as pilot:
        await settled(pilot)
        screen = pilot.app.screen
        last = screen.cursor.last
        await pilot.press("g")
        assert isinstance(pilot.app.screen, GoToScreen)
        await pilot.press(*"999", "enter")
        assert isinstance(pilot.app.screen, GoToScreen)
        assert str(pilot.app.screen.query_one("#goto-error").render()) == f"no step 999: the steps are 0 to {last}"
        pilot.app.screen.query_one(Input).value = ""
        await pilot.press(*"12", "enter")
        assert pilot.app.screen is screen and screen.cursor.position == 12
        await pilot.press("g", "escape")
        assert pilot.app.screen is screen and screen.cursor.position == 12


async def test_every_hand_is_a_toggle_after_a_finished_game_and_the_file_is_never_changed(pueblo_log):
    before = hashlib.sha256(pueblo_log.read_bytes()).hexdigest()
    async with replay_app(pueblo_log).run_test(size=SIZE) as pilot:
        await settled(pilot)
        screen = pilot.app.screen
        await pilot.press("end", "a")
        await settled(pilot)
        assert screen.all_hands and status(pilot).endswith("every hand shown (after the audit)")
        await pilot.press("a", "v")
        assert not screen.all_hands
        await settled(pilot)
    assert hashlib.sha256(pueblo_log.read_bytes()).hexdigest() == before


async def test_a_tampered_log_is_not_verified_and_replays_up_to_the_bad_entry(pueblo_log, tmp_path):
    raws, _ = read_log(pueblo_log)
    index = len(raws) // 2
    raw = bytearray(raws[index])
    raw[-10] ^= 1
    bad = tmp_path / "tampered.lanterne"
    write_log(bad, raws[:index] + [bytes(raw)] + raws[index + 1:])
    async with replay_app(bad).run_test(size=SIZE) as pilot:
        await settled(pilot)
        screen = pilot.app.screen
        verdict = widget_text(pilot, "#replay-verdict")
        assert verdict.startswith(f"NOT VERIFIED: entry {index}")
        assert screen.query_one("#replay-verdict").has_class("-bad")
        assert status(pilot).startswith(f"The replay stops early: entry {index}")
        assert "\n" not in status(pilot)
        await pilot.press("end")
        assert status(pilot).endswith(f"· stopped by: {screen.replay.problem}")
        await pilot.press("a")
        assert status(pilot).startswith("Every hand is known only after a finished game")


@pytest.mark.parametrize("content", [b"not a log at all", b"LANTERNE-LOG 1\n\x00\x00"])
async def test_a_file_that_is_no_log_is_one_line_in_the_app(tmp_path, content):
    path = tmp_path / "junk.lanterne"
    path.write_bytes(content)
    async with replay_app(path).run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert pilot.app.screen.replay is None
        line = status(pilot)
        assert line.startswith(str(path)) and "\n" not in line
        await pilot.press("right", "g", "a")
        assert isinstance(pilot.app.screen, ReplayScreen)
        assert status(pilot) == line


async def test_a_log_whose_engine_is_missing_lists_its_moves(tmp_path):
    pueblo = get_game("pueblo")
    ghost = type("Ghost", (type(pueblo),), {"id": "ghost", "name": "Ghost"})()
    path = make_log(tmp_path, game=ghost, seed="ghost-ui", games=lambda _: ghost)
    async with replay_app(path).run_test(size=SIZE) as pilot:
        await settled(pilot)
        screen = pilot.app.screen
        assert status(pilot).startswith("The replay stops early: this Lanterne cannot replay 'ghost'")
        assert screen.query_one(ReplaySteps).option_count > 1
        await pilot.press("right")
        assert "this Lanterne cannot replay 'ghost'" in str(screen.query_one("#replay-picture").render())
        assert widget_text(pilot, "#replay-verdict").startswith("NOT VERIFIED")


async def test_without_a_path_the_picker_opens_the_log_typed(pueblo_log, tmp_path, monkeypatch):
    monkeypatch.setenv("LANTERNE_HOME", str(tmp_path))
    (tmp_path / "games").mkdir()
    async with make_app(lambda: ReplayScreen()).run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, LogPickerScreen)
        field = pilot.app.screen.query_one("#picker-path", Input)
        assert field.value == f"{tmp_path / 'games'}/"
        field.value = str(tmp_path / "missing.lanterne")
        await pilot.press("enter")
        assert "no such file" in str(pilot.app.screen.query_one("#picker-error").render())
        field.value = str(pueblo_log)
        await pilot.press("enter")
        await settled(pilot)
        assert isinstance(pilot.app.screen, ReplayScreen) and pilot.app.screen.replay is not None


async def test_enter_on_the_folder_in_the_path_field_shows_its_logs(tmp_path, monkeypatch):
    """The field starts with the games' folder: Enter there shows the folder below and gives it the keys,
    never "a folder, not a log file"."""
    monkeypatch.setenv("LANTERNE_HOME", str(tmp_path))
    (tmp_path / "games" / "old").mkdir(parents=True)
    async with make_app(lambda: ReplayScreen()).run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, LogPickerScreen)
        assert "not a log" not in str(screen.query_one("#picker-error").render())
        assert pilot.app.focused is screen.query_one("#picker-tree")
        field = screen.query_one("#picker-path", Input)
        field.value = str(tmp_path / "games" / "old")
        field.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert screen.query_one("#picker-tree").path == tmp_path / "games" / "old"


async def test_the_picker_tree_opens_the_log_chosen(pueblo_log, tmp_path, monkeypatch):
    monkeypatch.setenv("LANTERNE_HOME", str(tmp_path))
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "game.lanterne").write_bytes(pueblo_log.read_bytes())
    async with make_app(lambda: ReplayScreen()).run_test(size=SIZE) as pilot:
        await pilot.pause()
        tree = pilot.app.screen.query_one("#picker-tree")
        tree.focus()
        await until(lambda: tree.last_line >= 1, pilot, what="the folder listed (by a worker of its own)")
        await pilot.press("down", "enter")
        await settled(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen) and screen.path == str(tmp_path / "games" / "game.lanterne")
        assert screen.replay is not None and screen.replay.result == "over"


async def test_the_picker_cancelled_goes_back_home(tmp_path, monkeypatch):
    monkeypatch.setenv("LANTERNE_HOME", str(tmp_path))
    async with make_app(lambda: ReplayScreen()).run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "HomeScreen"


def test_the_replay_command_refuses_a_missing_file_in_one_line(tmp_path, capsys):
    assert cli_main(["replay", str(tmp_path / "nope.lanterne")]) == 2
    err = capsys.readouterr().err
    assert err == f"lanterne: {tmp_path / 'nope.lanterne'}: no such file\n"


@pytest.mark.parametrize("game_id", ["pagode", "pueblo", "pacal", "pandoria"])
def test_every_game_draws_its_own_board_from_any_position(game_id):
    """Public views and full states (every hand known) through a whole game on the open table."""
    from lanterne.engines.bots import RandomBot
    from lanterne.engines.core import OpenTable, play_out
    from lanterne.client.widgets.replay_board import draw
    from rich.console import Console

    game = get_game(game_id)
    states = [game.setup(players=2)]
    play_out(game, states[0], OpenTable(7), [RandomBot(1), RandomBot(2)],
             on_step=lambda state, action, events: states.append(state))
    console = Console(width=160, file=io.StringIO())
    for state in states[:: max(1, len(states) // 6)] + [states[-1]]:
        for shown in (game.view(state, None), state):
            picture, note = draw(game, shown, ["P1 Ann", "P2 Bob"])
            assert note is None
            console.print(picture)


def test_a_board_that_fails_to_draw_falls_back_to_the_generic_view(monkeypatch):
    from dataclasses import replace

    from lanterne.client import games
    from lanterne.client.games import pueblo
    from lanterne.client.widgets import replay_board

    def broken(game, state, labels):
        raise KeyError("site_tiles")

    monkeypatch.setattr(pueblo, "CLIENT", replace(games.client_side("pueblo"), drawing=broken))
    game = get_game("pueblo")
    picture, note = replay_board.draw(game, game.setup(players=2), ["P1 Ann", "P2 Bob"])
    assert note == "the Pueblo board could not be drawn (KeyError: 'site_tiles')"
    assert "P1 Ann" in picture.plain


@pytest.mark.parametrize("argv, path", [(["replay", "LOG"], "LOG"), (["replay"], None)])
def test_the_replay_command_opens_the_app_on_the_replay(pueblo_log, monkeypatch, argv, path):
    from lanterne import client
    import lanterne.client.app  # noqa: F401 (the module whose run_app is replaced)

    started = []
    monkeypatch.setattr(client.app, "run_app", lambda start=None: started.append(start()) or 0)
    argv = [str(pueblo_log) if a == "LOG" else a for a in argv]
    assert cli_main(argv) == 0
    screen = started[0]
    assert isinstance(screen, ReplayScreen)
    assert screen.path == (str(pueblo_log) if path else None)


def test_snapshot_plain_view_mid_game(snap_compare, pueblo_log):
    async def run_before(pilot):
        await settled(pilot)
        await pilot.press("b", *["right"] * 6)
        await pilot.pause()

    assert snap_compare(replay_app(pueblo_log), terminal_size=SIZE, run_before=run_before)
