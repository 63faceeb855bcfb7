"""The Pacal's Rocket screen, played as a person plays it: by clicks and by keys."""

from __future__ import annotations

import pytest
from rich.color import Color

from client.controller import LocalGame
from client.screens.dialogs import GameOverScreen, HandoffScreen
from client.screens.pacal import PacalScreen
from client.widgets.pacal import (DISTRICT_BG, LAKE_BG, PLAYER_COLOURS, PREVIEW_BG, TARGET_BG, PacalMap,
                                  cell_at, cell_offset, map_text, Marks)
from client.widgets.status_line import StatusLine
from engines.core import IllegalAction
from engines.pacal import build_choices, cell_name, parse_cell, reachable
from engines.pacal.rules import visible_stones
from engines.registry import get_game
from tests.client.conftest import make_app

GAME = get_game("pacal")
SIZE = (150, 48)
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed")


def pacal_app(players: int = 2, seed: int = 5):
    controller = LocalGame(GAME, [None] * players, names=list(NAMES[:players]), seed=seed)
    return controller, make_app(lambda: PacalScreen(controller))


def status(screen) -> str:
    return str(screen.query_one(StatusLine).render())


async def pass_keyboard(pilot) -> bool:
    if isinstance(pilot.app.screen, HandoffScreen):
        await pilot.press("enter")
        await pilot.pause()
        return True
    return False


async def click_cell(pilot, c: int) -> None:
    await pilot.click(PacalMap, offset=cell_offset(c))
    await pilot.pause()


def the_screen(app) -> PacalScreen:
    return next(s for s in app.screen_stack if isinstance(s, PacalScreen))


def play_until(controller, stop, limit: int = 400) -> None:
    """Play without the screen (first legal move, a stone into one's own ship, no build) until ``stop()``."""
    for _ in range(limit):
        if stop():
            return
        seat = controller.waiting.seat
        legal = controller.legal_actions(seat)
        stones = [a for a in legal if a[0] == "stones" and a[1] and a[2] is None]
        pick = stones[0] if stones else (("pass",) if ("pass",) in legal else legal[0])
        controller.submit(seat, pick)
    raise AssertionError("the position was not reached")


def in_build_phase(controller) -> bool:
    w = controller.waiting
    view = controller.view(w.seat) if w.seat is not None else None
    return view is not None and view.phase == "build" and len(build_choices(view, w.seat)) >= 2


# --------------------------------------------------------------------------
# the map itself


def test_cell_offsets_and_cell_at_agree_on_every_cell():
    for c in range(169):
        assert cell_at(*cell_offset(c)) == c
    assert cell_at(0, 5) is None and cell_at(10, 0) is None


def test_the_map_shows_districts_lake_river_covers_and_pieces():
    controller = LocalGame(GAME, [None] * 3, seed=5)
    play_until(controller, lambda: controller.view(0).round >= 3)
    view = controller.view(0)
    text = map_text(view, Marks())
    plain = text.plain
    lines = plain.split("\n")
    assert lines[0].split() == list("abcdefghijklm")
    assert "S7" in plain and "F6" in plain and "A3" in plain and "≈" in plain and "┃" in plain
    assert "░" in plain  # 3 players: the "2/3" piece covers D and H
    assert "D3" not in plain and "H4" not in plain
    for seat, at in enumerate(view.ships):
        assert f"◆{seat + 1}" in plain
        row, col = divmod(at, 13)
        assert f"◆{seat + 1}" in lines[1 + row * 2 + 1]
    assert plain.count("●") + plain.count("○") == sum(bin(b).count("1") for b in view.stones)
    under = sum(1 for seat in range(3) for at in view.ships if view.stones[seat] >> at & 1)
    assert plain.count("○") == under


def test_player_colours_are_distinct_and_legible_on_every_district():
    def luminance(hex_colour: str) -> float:
        r, g, b = Color.parse(hex_colour).triplet
        def lin(v: int) -> float:
            v /= 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)

    def contrast(a: str, b: str) -> float:
        la, lb = sorted((luminance(a), luminance(b)), reverse=True)
        return (la + 0.05) / (lb + 0.05)

    assert len(set(PLAYER_COLOURS)) == 5
    for i, a in enumerate(PLAYER_COLOURS):  # far apart in RGB from each other
        for b in PLAYER_COLOURS[i + 1:]:
            ta, tb = Color.parse(a).triplet, Color.parse(b).triplet
            assert sum(abs(x - y) for x, y in zip(ta, tb)) > 150, (a, b)
    for ink in PLAYER_COLOURS:
        for bg in list(DISTRICT_BG.values()) + [TARGET_BG, LAKE_BG]:
            assert contrast(ink, bg) >= 3.0, (ink, bg)
        assert contrast(ink, PREVIEW_BG) >= 2.5, ink  # the preview is a short highlight


# --------------------------------------------------------------------------
# playing through the screen


async def test_ships_are_placed_and_moved_by_clicking_highlighted_cells():
    controller, app = pacal_app(2, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = the_screen(app)
        for _ in range(2):  # both players put their ship into the sacred district
            assert await pass_keyboard(pilot)
            seat = controller.waiting.seat
            targets = sorted(screen.targets)
            assert targets and all(cell_name(c) in ("f6", "g6", "h6", "f7", "g7", "h7", "f8", "g8", "h8")
                                   for c in targets)
            await click_cell(pilot, targets[0])
            assert controller.view(seat).ships[seat] == targets[0]
        await pass_keyboard(pilot)
        seat = controller.waiting.seat
        view = controller.view(seat)
        assert view.phase == "move" and view.face is not None
        ways = reachable(view, seat)
        assert screen.targets == frozenset(c for c, w in ways.items() if "straight" in w or "arrow" in w)
        goal = max(screen.targets)
        await click_cell(pilot, goal)
        assert controller.view(seat).ships[seat] == goal
        assert controller.view(seat).phase == "stones"
        assert "divine stones" in status(screen)


async def test_an_illegal_move_is_refused_with_the_engine_reason():
    controller, app = pacal_app(2, seed=5)
    play_until(controller, lambda: controller.view(0).phase == "move")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = the_screen(app)
        seat = controller.waiting.seat
        before = controller.view(seat).ships[seat]
        await click_cell(pilot, parse_cell("g7") if before != parse_cell("g7") else parse_cell("f7"))
        assert status(screen).startswith("Refused: in the first round the ship must leave the sacred district")
        assert screen.query_one(StatusLine).has_class("-error")
        lake = parse_cell("c4")
        guess = ("move", "arrow" if controller.view(seat).face == 0 else "straight", lake)
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(controller.state, guess)
        await click_cell(pilot, lake)
        assert status(screen) == f"Refused: {refused.value}"
        assert controller.view(seat).ships[seat] == before
        await pilot.press("7")
        assert "Refused: no choice 7 now" in status(screen)


async def test_a_pyramid_built_by_click_scores_what_the_preview_showed():
    controller, app = pacal_app(2, seed=5)
    play_until(controller, lambda: in_build_phase(controller))
    seat = controller.waiting.seat
    view = controller.view(seat)
    best, points = max(build_choices(view, seat), key=lambda ap: (ap[1], ap[0][1]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = the_screen(app)
        at = best[2]
        await pilot.hover(PacalMap, offset=cell_offset(at))
        await pilot.pause()
        assert screen.preview is not None and screen.preview.at == at
        shown = screen.preview
        assert f"+{shown.points} point" in status(screen)
        map_widget = screen.query_one(PacalMap)
        assert map_widget.marks.preview == frozenset(shown.cells) and map_widget.marks.preview_note == f"+{shown.points}"
        score = controller.scores()[seat]
        await click_cell(pilot, at)
        if controller.view(seat).phase == "build" and controller.waiting.seat == seat:  # several fit: click again
            assert screen.only_cell == at
            await click_cell(pilot, at)
        assert controller.view(seat).pyramid_owner[at] == seat
        assert controller.view(seat).pyramid_size[at] == shown.action[1]
        assert controller.scores()[seat] - score == shown.points


async def test_keyboard_only_turn():
    controller, app = pacal_app(2, seed=5)
    play_until(controller, lambda: controller.view(0).round >= 2 and controller.view(0).phase == "move")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = the_screen(app)
        seat = controller.waiting.seat
        assert isinstance(app.focused, PacalMap)
        goal = min(screen.targets, key=lambda c: abs(c - app.focused.cursor))
        cursor = app.focused.cursor
        r0, c0 = divmod(cursor, 13)
        r1, c1 = divmod(goal, 13)
        keys = (["down"] * (r1 - r0) if r1 > r0 else ["up"] * (r0 - r1)) + \
               (["right"] * (c1 - c0) if c1 > c0 else ["left"] * (c0 - c1))
        await pilot.press(*keys)
        assert app.focused.cursor == goal
        await pilot.press("enter")
        await pilot.pause()
        if screen.question is not None:  # straight and turning both end there
            await pilot.press("1")
            await pilot.pause()
        view = controller.view(seat)
        assert view.ships[seat] == goal
        if view.phase == "stones":
            labels = [c.label for c in screen.choices]
            own = next(i for i, label in enumerate(labels) if label == "a stone into your own ship")
            supply = view.stone_supply[seat]
            await pilot.press(str(own + 1))
            await pilot.pause()
            assert controller.view(seat).stone_supply[seat] == supply - 1
        view = controller.view(seat)
        if view.phase == "build" and controller.waiting.seat == seat:
            assert screen.choices[0].label.startswith("pass")
            await pilot.press("1")
            await pilot.pause()
        assert controller.waiting.seat != seat
        assert isinstance(app.screen, HandoffScreen)


async def test_stones_into_another_ship_by_number_and_by_clicking_the_ship():
    controller, app = pacal_app(3, seed=5)
    play_until(controller, lambda: controller.view(0).phase == "stones" and controller.view(0).allowance == 2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = the_screen(app)
        seat = controller.waiting.seat
        other = (seat + 1) % 3
        view = controller.view(seat)
        await click_cell(pilot, view.ships[other])  # one stone into that ship alone
        after = controller.view(seat)
        assert after.stones[seat] >> view.ships[other] & 1
        assert after.stone_supply[seat] == view.stone_supply[seat] - 1


async def test_energy_piece_then_a_cell():
    controller, app = pacal_app(2, seed=5)
    play_until(controller, lambda: controller.view(0).round >= 2 and controller.view(0).phase == "move")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = the_screen(app)
        seat = controller.waiting.seat
        assert [c.label.split(":")[0] for c in screen.choices] == ["energy piece 2", "energy piece 4",
                                                                  "energy piece 6"]
        await pilot.press("2")
        await pilot.pause()
        assert screen.teleport == 4 and "energy piece 4" in status(screen)
        goal = parse_cell("a13")
        assert goal in screen.targets
        await click_cell(pilot, goal)
        view = controller.view(seat)
        assert view.ships[seat] == goal and view.energy[seat] == [2, 6]


async def test_escape_cancels_a_chosen_energy_piece():
    controller, app = pacal_app(2, seed=5)
    play_until(controller, lambda: controller.view(0).round >= 2 and controller.view(0).phase == "move")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = the_screen(app)
        await pilot.press("1")
        assert screen.teleport == 2
        await pilot.press("escape")
        await pilot.pause()
        assert screen.teleport is None and app.screen is screen


def test_snapshot_mid_game(snap_compare):
    controller = LocalGame(GAME, [None] * 3, names=list(NAMES[:3]), seed=5)
    play_until(controller, lambda: in_build_phase(controller))

    async def run_before(pilot):
        await pilot.press("enter")  # past the pass-the-keyboard dialog
        await pilot.pause()
        screen = pilot.app.screen
        choice = screen.choices[1]
        await pilot.hover(PacalMap, offset=cell_offset(choice.at))
        await pilot.pause()

    assert snap_compare(make_app(lambda: PacalScreen(controller)), terminal_size=SIZE, run_before=run_before)
