"""A person at the Pueblo screen: games set up by notation, clicks aimed at cells and track spaces."""

from __future__ import annotations

import random

from textual import events

from lanterne.client.controller import LocalGame
from lanterne.client.games.pueblo.screen import PuebloScreen
from lanterne.client.games.pueblo.widgets import PuebloBoard, cell_centre, space_centre
from lanterne.client.widgets.status_line import StatusLine
from lanterne.engines.pueblo.board import parse_cell
from lanterne.engines.registry import get_game
from tests.support.apps import make_app, pass_keyboard

GAME = get_game("pueblo")
SIZE = (140, 45)
NO_FIT = '{"format":1,"game":"pueblo","state":{"at":0,"auction":0,"bidder":0,"card_of":[null,null,null,null],"chief":19,"coloured":[0,0,0,1],"dropped":[[0,0],[0,0],[0,0],[0,0]],"first":0,"half":["N","N","N","C"],"held":[0,0,0,0],"high":0,"high_seat":null,"lone":[false,false,false,false],"neutral":[1,1,1,0],"opener":0,"order":[0,1,2,3],"passed":0,"penalties":[27,14,26,30],"pending":null,"phase":"place","players":4,"sites":[],"sites_wanted":0,"stage":1,"stones":[[0,4,1,3],[1,0,4,1],[2,4,4,5],[3,9,1,5],[-1,8,5,2],[1,9,1,0],[-1,4,3,3],[3,4,6,5],[0,10,3,6],[-1,5,5,0],[2,7,2,0],[-1,3,0,2],[-1,10,5,3],[1,10,5,6],[-1,2,1,5],[3,5,1,5],[0,8,2,3],[-1,9,5,1],[2,0,2,0],[-1,8,6,0],[-1,1,6,0],[-1,7,4,6],[-1,0,4,6],[3,0,0,6],[0,10,0,5],[1,0,1,5],[2,4,0,0],[-1,3,0,0],[0,10,1,0],[1,1,0,0],[2,0,0,0],[-1,9,1,0]],"turn":32,"variant":"standard"}}'
"""A position reached in a 4-player game (found by a search that chose the most cramping stones):
seat 1 must place its neutral stone and none of the 588 placements rests on the pueblo."""


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
