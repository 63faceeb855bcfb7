"""Issue 16, point 6: a local game is a signed log written as it is played, resumable, verifiable.

Real files in the test's own Lanterne home: a game started from the local setup screen is
played a few moves, the app quits; a new app offers to resume it on the home screen, the
game goes on from the same position with the same hidden cards, is played to its end, and
its log verifies. A game cut off by SIGKILL resumes too.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from textual.widgets import Button, Input

from client.local_record import RecordedGame, describe_unfinished, local_folder, resume_local, unfinished_local
from client.replay_model import load_replay
from client.screens.home import HomeScreen
from engines.bots import RandomBot
from engines.registry import get_game
from protocol.verify import verify_file
from tests.client.conftest import make_app

GAME = get_game("pagode")


async def wait_for_my_turn(pilot, controller, seat: int = 0) -> None:
    for _ in range(200):
        w = controller.waiting
        if w.kind == "over" or (w.kind == "human" and w.seat == seat):
            return
        await pilot.pause(0.02)
    raise AssertionError(f"the computer never played ({controller.status()})")


def game_screen_of(app):
    return next(s for s in reversed(app.screen_stack) if hasattr(s, "controller"))


async def test_a_local_game_quit_midway_resumes_from_home_and_its_log_verifies():
    chooser = RandomBot("test")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        setup = app.screen
        setup.query_one("#game").value = "pagode"
        setup.query_one("#variant").value = "quick"
        setup.query_one("#bot").value = "random"
        setup.query_one("#seed", Input).value = "7"
        await pilot.click("#mode-vs")
        await pilot.click("#start")
        await pilot.pause()
        controller = game_screen_of(app).controller
        assert isinstance(controller, RecordedGame)
        for _ in range(6):
            await wait_for_my_turn(pilot, controller)
            controller.submit(0, chooser.choose(GAME, controller.view(0), 0))
        await wait_for_my_turn(pilot, controller)
        moves, hand = controller.moves, GAME.digest(controller.view(0))
        log = controller.log_path
        lines = [e.text for e in controller.log]
        assert log.is_file() and log.parent == local_folder()
        await app.action_quit()
    assert verify_file(str(log)).unfinished  # sound so far, not over
    meta = log.with_suffix(".json")
    assert unfinished_local() == [meta]
    assert oct(log.with_suffix(".seed").stat().st_mode & 0o777) == "0o600"
    assert describe_unfinished(meta) == f"Pagode against random bot, move {moves}"

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        button = app.screen.query_one("#home-resume", Button)
        assert button.display and f"Resume: Pagode against random bot, move {moves}" in str(button.label)
        await pilot.press("c")
        await pilot.pause()
        controller = game_screen_of(app).controller
        assert controller.moves == moves and GAME.digest(controller.view(0)) == hand  # same position, same hand
        assert [e.text for e in controller.log] == lines
        while controller.waiting.kind != "over":
            await wait_for_my_turn(pilot, controller)
            if controller.waiting.kind == "over":
                break
            controller.submit(0, chooser.choose(GAME, controller.view(0), 0))
        await pilot.pause()
        await app.action_quit()
    report = verify_file(str(log))
    assert report.ok and report.result == "over", report.problem
    assert unfinished_local() == []
    replay = load_replay(log)
    assert replay.result == "over" and replay.names == ["Ann", "random bot"] and replay.problem is None


async def test_the_home_screen_shows_no_resume_without_an_unfinished_game():
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        assert not app.screen.query_one("#home-resume", Button).display
        await pilot.press("c")  # nothing to resume: a notice, no screen
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


def test_a_local_game_killed_midway_resumes_with_the_same_hidden_cards(lanterne_home):
    script = textwrap.dedent("""
        import os, signal
        from client.local_play import make_local_game
        from client.local_record import local_folder
        from engines.bots import RandomBot
        from engines.registry import get_game
        game = get_game("pueblo")
        c = make_local_game(game, mode="hot-seat", seed="k", you="Ann", save_to=local_folder())
        bot = RandomBot("kill")
        for _ in range(9):
            w = c.waiting
            c.submit(w.seat, bot.choose(game, c.view(w.seat), w.seat))
        print(c.moves, game.digest(c.view(0)).hex(), game.digest(c.view(1)).hex(), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    env = dict(os.environ, LANTERNE_HOME=str(lanterne_home))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    moves, hand0, hand1 = done.stdout.split()
    [meta] = unfinished_local()
    game = get_game("pueblo")
    c = resume_local(meta)
    assert c.moves == int(moves) and [s.name for s in c.seats] == ["Ann", "Player 2"]
    assert game.digest(c.view(0)).hex() == hand0 and game.digest(c.view(1)).hex() == hand1
    bot = RandomBot("after")
    while c.waiting.kind != "over":
        w = c.waiting
        c.submit(w.seat, bot.choose(game, c.view(w.seat), w.seat))
    c.close()
    report = verify_file(str(c.log_path))
    assert report.ok and report.result == "over", report.problem
    assert unfinished_local() == []
