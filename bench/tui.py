"""Client speed figures for `lanterne bench` (tui.start, tui.redraw).

Both run the real app headless (Textual's test driver) on this machine.
"""

from __future__ import annotations

import asyncio
import statistics
import time


def start_to_home_s() -> float:
    """Seconds (wall clock) from a fresh interpreter to the home screen drawn (``lanterne`` alone)."""
    return _start_to_home()[0]


def start_to_home_cpu_s() -> float:
    """CPU seconds of the same start: the figure that a busy machine does not inflate."""
    return _start_to_home()[1]


def _start_to_home() -> tuple[float, float]:
    import resource
    import subprocess
    import sys

    code = ("import time; t=time.perf_counter()\n"
            "import asyncio\n"
            "from lanterne.client.app import LanterneApp\n"
            "from lanterne.client.settings import Settings\n"
            "async def main():\n"
            "    app = LanterneApp(settings=Settings(display_name='bench'))\n"
            "    async with app.run_test(size=(100, 32)) as pilot:\n"
            "        await pilot.pause()\n"
            "        assert type(app.screen).__name__ == 'HomeScreen'\n"
            "        print(time.perf_counter() - t)\n"
            "asyncio.run(main())\n")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    total = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    float(out.stdout.strip().splitlines()[-1])  # the app reached its home screen
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return total, cpu


def board_redraw_ms(moves: int = 30, seed: int = 3) -> float:
    """Median CPU milliseconds from a Pagode move to the board fully redrawn (160x50, hot-seat).

    The move is submitted to the controller; the clock stops when the app has
    handled the change (scores, log, board, status) and painted the screen.
    CPU time, not wall time: the test driver's idle sleeps are not redraw work.
    """
    return asyncio.run(_board_redraw_ms(moves, seed))


async def _board_redraw_ms(moves: int, seed: int) -> float:
    from lanterne.client.app import LanterneApp
    from lanterne.client.controller import LocalGame
    from lanterne.client.games.pagode.screen import PagodeScreen
    from lanterne.client.settings import Settings
    from lanterne.engines.registry import get_game

    game = get_game("pagode")
    controller = LocalGame(game, [None, None], names=["A", "B"], seed=seed)
    app = LanterneApp(settings=Settings(display_name="bench", computer_delay=0.0),
                      start=lambda: PagodeScreen(controller))
    samples = []
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, PagodeScreen))
        if app.screen is not screen:  # past the pass-the-keyboard dialog; the benchmark plays both seats
            app.pop_screen()
        screen.hot_seat = False
        screen._handoff_open = False
        for _ in range(moves):
            if controller.is_over():
                break
            seat = controller.waiting.seat
            screen.viewer = seat
            actions = [a for a in controller.legal_actions(seat) if a[0] in ("column", "tile", "roof")]
            action = actions[0] if actions else ("end", False)
            started = time.process_time()
            controller.submit(seat, action)
            await pilot.pause()
            samples.append((time.process_time() - started) * 1000)
    return statistics.median(samples)



def pause_while_thinking_ms(level: str = "ismcts:hard", presses: int = 20, seed: int = 11) -> float:
    """The longest pause of the screen (a key press to the screen redrawn), in wall milliseconds,
    over ``presses`` key presses while the computer thinks at ``level`` (Pacal, 120x40).

    The key moves the cursor on the city map (right, then left), what a person does while the
    computer thinks. The clock starts when the key is handed to the app as the terminal driver
    hands it over, and stops when the app has handled it and painted the screen (a callback
    after the next refresh). The computer thinks in its own process (client/thinking.py).
    """
    return asyncio.run(_pause_ms(level, presses, seed, thinking=True))


def pause_idle_ms(presses: int = 20, seed: int = 11) -> float:
    """The same longest pause with nobody thinking: the presses come on the person's turn, two a
    turn (the person then plays, the random computer answers at once), so they meet every phase
    of the game: the app's own work for a key, with no search beside it."""
    return asyncio.run(_pause_ms("random", presses, seed, thinking=False))


async def _pause_ms(level: str, presses: int, seed: int, thinking: bool) -> float:
    from textual import events

    from lanterne.client.app import LanterneApp
    from lanterne.client.controller import COMPUTER, HUMAN
    from lanterne.client.local_play import VS_COMPUTER, make_local_game
    from lanterne.client.screens.game import game_screen_for
    from lanterne.client.settings import Settings
    from lanterne.client.games.pacal.widgets import PacalMap
    from lanterne.engines.registry import get_game

    controller = make_local_game(get_game("pacal"), mode=VS_COMPUTER, bot=level, seed=seed)
    app = LanterneApp(settings=Settings(display_name="bench", computer_delay=0.0),
                      start=lambda: game_screen_for(controller))
    pressing = COMPUTER if thinking else HUMAN
    worst = 0.0
    done = 0

    async def play_own_move() -> None:
        seat = controller.waiting.seat
        controller.submit(seat, controller.legal_actions(seat)[0])
        await pilot.pause()

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        city = app.screen.query_one(PacalMap)
        while done < presses and not controller.is_over():
            if thinking and controller.waiting.kind == HUMAN:
                await play_own_move()
                continue
            await asyncio.sleep(0.05)  # the search is under way, or the computer's answer comes
            if controller.waiting.kind != pressing:
                continue
            if app.focused is not city:
                city.focus()
                await pilot.pause()
            cursor = city.cursor
            painted = asyncio.get_running_loop().create_future()
            started = time.perf_counter()
            key = events.Key("right" if done % 2 == 0 else "left", None)
            key.set_sender(app)
            app._driver.send_message(key)
            while city.cursor == cursor:
                await asyncio.sleep(0.0005)
            app.call_after_refresh(lambda: painted.done() or painted.set_result(time.perf_counter()))
            worst = max(worst, (await painted - started) * 1000)
            done += 1
            if not thinking and done % 2 == 0:
                await play_own_move()
    controller.close()
    if done < presses:
        raise RuntimeError(f"the game ended after {done} key presses")
    return worst



DISK_LOAD = ("import os, sys\n"
             "block = os.urandom(1 << 20)\n"
             "with open(sys.argv[1], 'wb') as f:\n"
             "    while True:\n"
             "        for _ in range(32):\n"
             "            f.write(block)\n"
             "        f.flush(); os.fsync(f.fileno())\n"
             "        f.seek(0)\n")
"""A program writing 32 MiB and fsyncing it, over and over (two run: a log's fsync then waits ~10 ms, here)."""

DISK_WRITERS = 2


def pause_while_saving_ms(presses: int = 40, seed: int = 5, disk_load: int = DISK_WRITERS) -> float:
    """The longest pause of the screen (a key press to the screen redrawn), in wall milliseconds, over
    ``presses`` key presses, each sent as a local move is played and written to its signed log
    (Pacal against a random computer, 80x24, the game saved as the app saves it), while ``disk_load``
    other programs write and fsync 32 MiB blocks on the same disk.

    Each press is queued right behind a move of the person (as a key typed while the move is being
    played): the clock starts when the move is handed to the controller on the screen's loop and the
    key to the app, and stops when the key is handled and the screen painted (the move's redraw
    included). The computer answers at once (no delay); its moves are written too.
    ``RecordedGame.WRITE_ON_LOOP = True`` measures the old way (each entry fsynced on the loop).
    """
    return saving_figures(presses, seed, disk_load)["pause_ms"]


def saving_figures(presses: int = 40, seed: int = 5, disk_load: int = DISK_WRITERS) -> dict:
    """:func:`pause_while_saving_ms`'s run, with the longest and median time the loop spent playing one
    move (``controller._play``: sign, deliver through every seat's session, hand the entries to the log)."""
    return asyncio.run(_pause_while_saving(presses, seed, disk_load))


async def _pause_while_saving(presses: int, seed: int, disk_load: int) -> dict:
    import subprocess
    import sys
    import tempfile

    from lanterne.protocol.identity import home

    home().mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bench-saving-", dir=home()) as folder:  # the disk games go to
        loads = [subprocess.Popen([sys.executable, "-c", DISK_LOAD, f"{folder}/load{i}.bin"])
                 for i in range(disk_load)]
        try:
            if loads:
                await asyncio.sleep(1.0)  # the writers under way
            return await _saving_presses(presses, seed, folder)
        finally:
            for load in loads:
                load.kill()
                load.wait()


async def _saving_presses(presses: int, seed: int, folder: str) -> dict:
    from textual import events

    from lanterne.client.app import LanterneApp
    from lanterne.client.controller import HUMAN
    from lanterne.client.local_play import VS_COMPUTER, make_local_game
    from lanterne.client.screens.game import game_screen_for
    from lanterne.client.settings import Settings
    from lanterne.client.games.pacal.widgets import PacalMap
    from lanterne.engines.registry import get_game

    controller = make_local_game(get_game("pacal"), mode=VS_COMPUTER, bot="random", seed=seed, save_to=folder)
    plays: list[float] = []
    play = controller._play

    def timed_play(seat, action):
        started = time.perf_counter()
        try:
            return play(seat, action)
        finally:
            plays.append((time.perf_counter() - started) * 1000)

    controller._play = timed_play
    app = LanterneApp(settings=Settings(display_name="bench", computer_delay=0.0),
                      start=lambda: game_screen_for(controller))
    worst = 0.0
    done = 0
    loop = asyncio.get_running_loop()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        city = app.screen.query_one(PacalMap)
        while done < presses and not controller.is_over():
            w = controller.waiting
            if w.kind != HUMAN:
                await asyncio.sleep(0.005)  # the computer's move (written as it is played)
                continue
            if app.focused is not city:
                city.focus()
                await pilot.pause()
            cursor = city.cursor
            action = controller.legal_actions(w.seat)[0]
            painted = loop.create_future()
            started = time.perf_counter()
            loop.call_soon(controller.submit, w.seat, action)  # the move, on the screen's loop, then the key
            key = events.Key("right" if done % 2 == 0 else "left", None)
            key.set_sender(app)
            app._driver.send_message(key)
            while city.cursor == cursor:
                await asyncio.sleep(0.0005)
            app.call_after_refresh(lambda: painted.done() or painted.set_result(time.perf_counter()))
            worst = max(worst, (await painted - started) * 1000)
            done += 1
    controller.close()
    if done < presses:
        raise RuntimeError(f"the game ended after {done} key presses")
    return {"pause_ms": worst, "play_max_ms": max(plays), "play_median_ms": statistics.median(plays),
            "moves": len(plays)}


def main(argv: list[str] | None = None) -> None:
    """``python -m bench.tui saving [RUNS] [WRITERS]``: the local-move write measured both ways."""
    import json
    import sys

    from lanterne.client.local_record import RecordedGame

    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] != "saving":
        raise SystemExit("usage: python -m bench.tui saving [RUNS] [DISK_WRITERS]")
    runs = int(args[1]) if len(args) > 1 else 3
    writers = int(args[2]) if len(args) > 2 else DISK_WRITERS
    for on_loop in (True, False):
        RecordedGame.WRITE_ON_LOOP = on_loop
        figures = [saving_figures(disk_load=writers) for _ in range(runs)]
        print(json.dumps({"writes": "on the loop" if on_loop else "writer thread", "disk_writers": writers,
                          "pause_ms": [round(f["pause_ms"], 1) for f in figures],
                          "pause_median_ms": round(statistics.median(f["pause_ms"] for f in figures), 1),
                          "play_max_ms": [round(f["play_max_ms"], 1) for f in figures],
                          "play_median_ms": round(statistics.median(f["play_median_ms"] for f in figures), 2)}))
    RecordedGame.WRITE_ON_LOOP = False


if __name__ == "__main__":
    main()
