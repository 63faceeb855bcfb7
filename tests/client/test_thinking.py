"""The computer thinks in another process (client/thinking.py): the same choices, no stall, no stray."""

from __future__ import annotations

import asyncio
import os

import pytest

from lanterne.client.controller import COMPUTER
from lanterne.client.local_play import VS_COMPUTER, make_local_game
from lanterne.client.screens.game import game_screen_for
from lanterne.client.thinking import Thinker
from lanterne.engines.bots import make_bot
from lanterne.engines.core import OpenTable, TABLE
from lanterne.engines.registry import get_game
from tests.support.apps import make_app
from tests.support.waiting import until

LONG_SEARCH = "ismcts:600s"
"""A search that is surely still under way whatever the test does meanwhile (a time level is kept as
chosen); leaving, quitting or cancelling ends it."""


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


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
    task = asyncio.ensure_future(thinker(make_bot(LONG_SEARCH, "x"), game, game.view(state, seat), seat))
    await until(lambda: thinker.searching and thinker.alive(), what="the worker searching")
    pid = thinker.pid
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert gone(pid) and not thinker.alive()


def vs_computer(game_id: str = "pandoria"):
    """A game against a computer whose move takes as long as the test wants: it ends when the test does."""
    controller = make_local_game(get_game(game_id), mode=VS_COMPUTER, bot=LONG_SEARCH, seed=11)
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
    think = controller.think
    await until(lambda: think.searching and think.alive(), pilot, what="the computer's search under way")
    return think.pid


async def test_the_search_runs_outside_the_app_and_keys_are_answered_meanwhile():
    """What a person notices: the keys pressed while the computer thinks are answered before its move
    comes, and the search is another process's work (a search here would hold the app's loop)."""
    controller, app = vs_computer()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        pid = await play_until_the_computer_thinks(pilot, controller)
        assert pid is not None and pid != os.getpid() and not gone(pid)
        moves = len(controller.log)
        screen = app.screen
        for shown in (True, False, True):  # the side panel there, back, and there again
            await pilot.press("f2")
            await until(lambda: screen.has_class("-side") is shown, pilot, what=f"the side panel shown={shown}")
        assert controller.waiting.kind == COMPUTER and controller.think.searching  # its move has not come
        assert len(controller.log) == moves


async def test_leaving_the_screen_while_the_computer_thinks_leaves_no_process():
    controller, app = vs_computer()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        pid = await play_until_the_computer_thinks(pilot, controller)
        await pilot.press("escape")
        await pilot.press("y")  # leave the game
        await pilot.pause()
        await until(lambda: type(app.screen).__name__ == "HomeScreen", pilot, what="the home screen")
        await until(lambda: gone(pid), pilot, what="the worker gone")


async def test_quitting_while_the_computer_thinks_leaves_no_process():
    controller, app = vs_computer("pueblo")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        pid = await play_until_the_computer_thinks(pilot, controller)
        await pilot.press("ctrl+q")
    await until(lambda: gone(pid), what="the worker gone")


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
