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

from lanterne.client.local_games import describe_unfinished, local_folder, unfinished_local
from lanterne.client.local_record import RecordedGame, resume_local
from lanterne.client.replay_model import load_replay
from lanterne.client.screens.home import HomeScreen
from lanterne.engines.bots import RandomBot
from lanterne.engines.registry import get_game
from lanterne.protocol.verify import verify_file
from tests.support.apps import make_app
from tests.support.waiting import until

GAME = get_game("pagode")


async def wait_for_my_turn(pilot, controller, seat: int = 0) -> None:
    def mine() -> bool:
        w = controller.waiting
        return w.kind == "over" or (w.kind == "human" and w.seat == seat)
    await until(mine, pilot, what=lambda: f"the computer's move ({controller.status()})")


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
    assert describe_unfinished(meta) == f"Pagode against Computer (random moves), move {moves}"

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        button = app.screen.query_one("#home-resume", Button)
        assert button.display and f"Resume: Pagode against Computer (random moves), move {moves}" in str(button.label)
        await pilot.press("c")
        await until(lambda: any(hasattr(s, "controller") for s in app.screen_stack), pilot,
                    what="the sessions rebuilt (in a worker thread)")
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
    assert replay.result == "over" and replay.names == ["Ann", "Computer"] and replay.problem is None


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
        from lanterne.client.local_play import make_local_game
        from lanterne.client.local_games import local_folder
        from lanterne.engines.bots import RandomBot
        from lanterne.engines.registry import get_game
        game = get_game("pueblo")
        c = make_local_game(game, mode="hot-seat", seed="k", you="Ann", save_to=local_folder())
        bot = RandomBot("kill")
        for _ in range(9):
            w = c.waiting
            c.submit(w.seat, bot.choose(game, c.view(w.seat), w.seat))
        c.flush()  # on disk (the writer thread's queue: a kill loses what it has not written yet)
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


def play_local(game_id: str, seed: str, stop: int | None = None, mode: str = "hot-seat") -> RecordedGame:
    from lanterne.client.local_play import make_local_game

    game = get_game(game_id)
    c = make_local_game(game, mode=mode, bot="random", seed=seed, you="Ann", save_to=local_folder())
    bot = RandomBot(seed)
    while c.waiting.kind != "over" and (stop is None or c.moves < stop):
        w = c.waiting
        if w.kind == "computer":
            c.play_computer_now()
        else:
            c.submit(w.seat, bot.choose(game, c.view(w.seat), w.seat))
    c.close()
    return c


async def test_replays_lists_local_games_and_opens_one_verified():
    from textual.widgets import OptionList

    from lanterne.client.screens.replay import LogPickerScreen, ReplayScreen

    done = play_local("pueblo", "r1")
    left = play_local("pagode", "r2", stop=5, mode="vs")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, LogPickerScreen)
        games = app.screen.query_one("#picker-games", OptionList)
        lines = [str(games.get_option_at_index(i).prompt) for i in range(games.option_count)]
        assert len(lines) == 2
        assert "Pagode (local): Ann vs Computer, 5 moves, unfinished" in lines[0]
        assert "Pueblo (hot-seat): Ann vs Player 2, " in lines[1] and lines[1].endswith(", over")
        games.focus()
        games.highlighted = 1
        await pilot.press("enter")
        screen = await until(lambda: isinstance(app.screen, ReplayScreen) and app.screen.verdict is not None
                             and app.screen, pilot, what="the replay's verdict")
        assert screen.path == str(done.log_path) and screen.replay.result == "over"
        assert screen.verdict[0] and screen.verdict[1].startswith("Verified"), screen.verdict
    assert left.log_path.is_file()


async def test_computers_play_each_other_at_the_chosen_speed_and_the_game_is_logged():
    from textual.widgets import Select

    app = make_app()
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        setup = app.screen
        setup.query_one("#game").value = "pueblo"
        setup.query_one("#bot").value = "random"
        setup.query_one("#delay", Select).value = 0.2
        await pilot.click("#mode-watch")
        await pilot.click("#start")
        await pilot.pause()
        screen = game_screen_of(app)
        controller = screen.controller
        assert [s.kind for s in controller.seats] == ["computer", "computer"] and screen.viewer is None
        assert controller.mode == "computers playing" and controller.computer_delay == 0.2
        moves = controller.moves
        await until(lambda: controller.moves >= moves + 4, pilot, what="four moves at the chosen speed")
        controller.computer_delay = 0.0      # then as fast as they play, to the end
        await until(controller.is_over, pilot, what="the end of the game")
        log = controller.log_path
        await app.action_quit()
    report = verify_file(str(log))
    assert report.ok and report.result == "over", report.problem
