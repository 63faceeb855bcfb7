"""A person at the Pueblo screen: games set up by notation, clicks aimed at cells and track spaces."""

from __future__ import annotations

import random

from textual import events

from lanterne.client.controller import LocalGame
from lanterne.client.games.pueblo.screen import PuebloScreen
from lanterne.client.games.pueblo.widgets import PuebloBoard, cell_centre, space_centre
from lanterne.client.widgets.status_line import StatusLine
from lanterne.engines.pueblo.geometry import parse_cell
from lanterne.engines.registry import get_game
from tests.support.apps import make_app, pass_keyboard

GAME = get_game("pueblo")
SIZE = (140, 45)


def pueblo_app(players=(None, None), seed: int = 1, variant: str = "standard", moves=()):
    """A hot-seat (or vs computer) game, with ``moves`` (notation) already played."""
    controller = LocalGame(GAME, list(players), names=["Ann", "Bob", "Cy", "Di"][:len(players)], seed=seed,
                           variant=variant)
    for text in moves:
        seat = controller.waiting.seat
        controller.submit(seat, controller.parse(seat, text))
    return controller, make_app(lambda: PuebloScreen(controller))


def play_randomly(controller: LocalGame, until, seed: int = 0, limit: int = 2000) -> None:
    """Random legal moves for the people at the keyboard until ``until(state)`` holds."""
    rng = random.Random(seed)
    for _ in range(limit):
        if until(controller.state):
            return
        seat = controller.waiting.seat
        controller.submit(seat, rng.choice(controller.legal_actions(seat)))
    raise AssertionError("the game never reached the wanted position")


async def open_screen(pilot) -> PuebloScreen:
    """Past the pass-the-keyboard dialog, to the board."""
    await pilot.pause()
    await pass_keyboard(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, PuebloScreen), type(screen).__name__
    return screen


async def to_the_player(pilot, controller) -> None:
    """Pass the keyboard (maybe twice: moves made through the controller skip turns) to whoever plays."""
    for _ in range(10):
        await pilot.pause()
        screen = pilot.app.screen
        if isinstance(screen, PuebloScreen) and screen.viewer == controller.waiting.seat:
            return
        await pass_keyboard(pilot)
    raise AssertionError("the keyboard never reached the player")


def at_cell(name: str) -> tuple[int, int]:
    """The board-widget offset of a cell's middle, by its name (``c3``)."""
    c = parse_cell(name)
    return cell_centre(c % 8, c // 8)


def at_space(space: int) -> tuple[int, int]:
    return space_centre(space)


async def scroll_wheel(pilot, notches: int) -> None:
    """Turn the mouse wheel over the board (down = positive)."""
    board = pilot.app.screen.query_one(PuebloBoard)
    kind = events.MouseScrollDown if notches > 0 else events.MouseScrollUp
    for _ in range(abs(notches)):
        board.post_message(kind(board, 0, 0, 0, 0, 0, False, False, False))
    await pilot.pause()


def status(screen) -> str:
    return str(screen.query_one(StatusLine).render())


def levels_of_new_stone(before, after) -> dict[int, tuple[int, int]]:
    """Cell -> (first level, last level) of the stone placed between two states."""
    sid = len(before.stones)
    assert len(after.stones) == sid + 1
    out = {}
    for c, stack in enumerate(after.stacks):
        zs = [z + 1 for z, s in enumerate(stack) if s == sid]
        if zs:
            out[c] = (zs[0], zs[-1])
    return out


def overlay_levels(picture) -> dict[int, tuple[int, int]]:
    """Cell -> (first, last) level as the preview prints them ('▲1-2' or '2')."""
    out = {}
    for c, over in picture.overlay.items():
        if over.text == "new":  # not the preview: a cell of a stone another player placed since
            continue
        text = over.text.lstrip("▲")
        first, _, last = text.partition("-")
        out[c] = (int(first), int(last or first))
    return out


async def measure_pointer_moves(cells: int = 64) -> str:
    """CPU time of one redraw and of one pointer move to a new cell (Textual's repaint included).

    A figure for the report, not a test: ``.venv/bin/python -c "import asyncio;
    from tests.support.pueblo import measure_pointer_moves as m; print(asyncio.run(m()))"``
    """
    import time

    from lanterne.engines.pueblo.state import PLACE

    controller, app = pueblo_app(seed=1)
    play_randomly(controller, lambda s: len(s.stones) == 16 and s.phase == PLACE, seed=7)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        start = time.process_time()
        for _ in range(200):
            screen.redraw()
        redraw = (time.process_time() - start) / 200
        board = screen.query_one(PuebloBoard)
        names = [f + r for f in "abcdefgh" for r in "12345678"][:cells]
        start = time.process_time()
        for name in names:
            await pilot.hover(board, offset=at_cell(name))
        move = (time.process_time() - start) / len(names)
    return f"redraw {redraw * 1000:.2f} ms CPU; pointer move to a new cell {move * 1000:.1f} ms CPU"
