"""The client apps the tests drive: fixed settings, loopback only, a game set up mid-way, a settled screen."""

from __future__ import annotations

import random

from textual.widgets import Input

from lanterne.client.app import LanterneApp
from lanterne.client.controller import LocalGame
from lanterne.client.screens.dialogs import HandoffScreen
from lanterne.client.settings import Settings
from lanterne.engines.bots import make_bot
from lanterne.engines.registry import get_game

SNAPSHOT_SIZE = (100, 32)
"""The terminal of the main screens' snapshots."""

TURNS = {"pagode": 14, "pueblo": 8, "pacal": 10, "pandoria": 12}
"""Actions :func:`mid_game` plays by default (a board with pieces on it, not the empty start)."""


def make_app(start=None, name: str = "Ann") -> LanterneApp:
    """The app with fixed settings on any first screen; the LAN lobby listens on loopback only (tests
    never let zeroconf bind every interface)."""
    return LanterneApp(settings=Settings(display_name=name, computer_delay=0.0, interfaces=["127.0.0.1"]),
                       start=start)


async def no_blink(pilot) -> None:
    """No cursor blinks on the screen: a snapshot is the same at any instant."""
    for widget in pilot.app.screen.query(Input):
        widget.cursor_blink = False
    await pilot.pause()


async def pass_keyboard(pilot) -> bool:
    """Click 'show my hand' if the hot-seat dialog is up."""
    if isinstance(pilot.app.screen, HandoffScreen):
        assert await pilot.click("#handoff-ready")
        await pilot.pause()
        return True
    return False


def mid_game(game_id: str, actions: int | None = None, seed: int = 7) -> LocalGame:
    """You (P1) against a random computer, ``actions`` actions in, stopped at your turn."""
    game = get_game(game_id)
    controller = LocalGame(game, [None, make_bot("random", f"{seed}/bot")], names=["Ann", "Bot"], seed=seed,
                           variant=game.variants[0] if "standard" not in game.variants else "standard")
    rng = random.Random(seed)
    played = 0
    target = TURNS[game_id] if actions is None else actions
    while not controller.is_over():
        w = controller.waiting
        if w.kind == "human":
            if played >= target:
                break
            controller.submit(w.seat, rng.choice(controller.legal_actions(w.seat)))
        else:
            controller.play_computer_now()
        played += 1
    assert controller.waiting.kind == "human"
    return controller


async def settled(pilot) -> None:
    """Wait for the replay and verification workers, then for the screen to redraw."""
    for _ in range(3):
        ours = [w for w in pilot.app.workers if w.group.startswith("replay-")]
        await pilot.app.workers.wait_for_complete(ours)
        await pilot.pause()
