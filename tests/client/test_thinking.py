"""The computer thinks in another process (client/thinking.py): the same choices, no stall, no stray."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from lanterne.client.controller import COMPUTER
from lanterne.client.local_play import VS_COMPUTER, make_local_game
from lanterne.client.screens.game import game_screen_for
from lanterne.client.thinking import Thinker
from lanterne.engines.bots import make_bot
from lanterne.engines.core import OpenTable, TABLE
from lanterne.engines.registry import get_game
from tests.client.conftest import make_app


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def wait_for(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        await asyncio.sleep(0.01)
    return condition()


async def test_a_seeded_player_chooses_in_the_process_what_it_chooses_here():
    """The player goes to the worker and comes back: its random state moves on as if it thought here."""
    game = get_game("pagode")
    here, there = make_bot("ismcts:60", "same"), make_bot("ismcts:60", "same")
    thinker = Thinker()
    try:
        state = game.setup(players=2, variant="standard")
        table = OpenTable(5)
        for _ in range(12):
            while game.next_actor(state) == TABLE:
                state, _ = game.apply(state, table.resolve(state, game.table_op(state)))
            seat = game.next_actor(state)
            view = game.view(state, seat)
            mine = here.choose(game, view, seat)
            theirs = await thinker(there, game, view, seat)
            assert theirs == mine
            state, _ = game.apply(state, mine)
        assert thinker.alive()
    finally:
        thinker.close()
    assert not thinker.alive()


async def test_a_cancelled_search_kills_its_process():
    game = get_game("pandoria")
    thinker = Thinker()
    state = game.setup(players=2, variant="classic")
    table = OpenTable(1)
    while game.next_actor(state) == TABLE:
        state, _ = game.apply(state, table.resolve(state, game.table_op(state)))
    seat = game.next_actor(state)
    task = asyncio.ensure_future(thinker(make_bot("ismcts:30s", "x"), game, game.view(state, seat), seat))
    assert await wait_for(thinker.alive)
    pid = thinker.pid
    await asyncio.sleep(0.5)  # searching now
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert gone(pid) and not thinker.alive()


def vs_hard(game_id: str = "pandoria"):
    """A game against ``ismcts:hard``; Pandoria's by default: its hard move (5,000 iterations, about 2.5 s) is
    surely still under way a second after it starts (Pagode's compiled engine finishes some in 0.4 s)."""
    controller = make_local_game(get_game(game_id), mode=VS_COMPUTER, bot="ismcts:hard", seed=11)
    return controller, make_app(lambda: game_screen_for(controller))


async def play_until_the_computer_thinks(pilot, controller) -> int:
    """Play the person's moves (the first legal one) until the computer's search is under way; its pid."""
    for _ in range(50):
        if controller.waiting.kind == COMPUTER:
            break
        seat = controller.waiting.seat
        controller.submit(seat, controller.legal_actions(seat)[-1])
        await pilot.pause()
    assert controller.waiting.kind == COMPUTER
    assert await wait_for(controller.think.alive)
    await asyncio.sleep(0.3)
    return controller.think.pid


async def test_the_search_runs_outside_the_app_and_keys_are_answered_meanwhile():
    controller, app = vs_hard()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await play_until_the_computer_thinks(pilot, controller)
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.sleep(0.4)
        assert controller.waiting.kind == COMPUTER  # still thinking (a hard move may take up to 3 s)
        busy = (time.process_time() - cpu) / (time.perf_counter() - wall)
        assert busy < 0.5, f"the app's process was busy {busy:.0%} of the time: the search runs here"
        await pilot.press("f2", "f2")  # once there and back first: the panel's first layout is not the point
        await pilot.pause()
        started = time.perf_counter()
        await pilot.press("f2")  # the side panel: a relayout of the screen
        await pilot.pause()
        assert time.perf_counter() - started < 0.5
        assert controller.waiting.kind == COMPUTER or controller.log[-1].actor == 1


async def test_leaving_the_screen_while_the_computer_thinks_leaves_no_process():
    controller, app = vs_hard()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        pid = await play_until_the_computer_thinks(pilot, controller)
        await pilot.press("escape")
        await pilot.press("y")  # leave the game
        await pilot.pause()
        assert type(app.screen).__name__ == "HomeScreen"
        assert await wait_for(lambda: gone(pid), 5)


async def test_quitting_while_the_computer_thinks_leaves_no_process():
    controller, app = vs_hard("pueblo")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        pid = await play_until_the_computer_thinks(pilot, controller)
        await pilot.press("ctrl+q")
    assert await wait_for(lambda: gone(pid), 5)


def test_the_worker_starts_when_stderr_is_the_apps_capture():
    """In the app, sys.stderr is Textual's capture (no file behind it); multiprocessing's resource
    tracker took its descriptor and the worker never started ("bad value(s) in fds_to_keep")."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import asyncio, sys\n"
        "class Capture:\n"
        "    def write(self, text): return len(text)\n"
        "    def flush(self): pass\n"
        "    def fileno(self): return -1\n"
        "sys.stderr = sys.stdout = Capture()\n"
        "from lanterne.client.thinking import Thinker\n"
        "from lanterne.engines.bots import make_bot\n"
        "from lanterne.engines.core import OpenTable, TABLE\n"
        "from lanterne.engines.registry import get_game\n"
        "game = get_game('pagode'); state = game.setup(players=2, variant='standard'); table = OpenTable(1)\n"
        "while game.next_actor(state) == TABLE: state, _ = game.apply(state, table.resolve(state, game.table_op(state)))\n"
        "seat = game.next_actor(state)\n"
        "thinker = Thinker()\n"
        "action = asyncio.run(thinker(make_bot('random', 1), game, game.view(state, seat), seat))\n"
        "ok = thinker.failed is None and thinker.pid is not None\n"
        "thinker.close()\n"
        "sys.__stdout__.write('OK' if ok else f'FAILED {thinker.failed}')\n"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "OK", out.stdout + out.stderr
