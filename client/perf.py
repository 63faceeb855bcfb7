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
            "from client.app import LanterneApp\n"
            "from client.settings import Settings\n"
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
    from client.app import LanterneApp
    from client.controller import LocalGame
    from client.screens.pagode import PagodeScreen
    from client.settings import Settings
    from engines.registry import get_game

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
