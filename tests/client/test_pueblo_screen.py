"""The Pueblo screen, played as a person plays it: by mouse and by keys."""

from __future__ import annotations

import random
from typing import NamedTuple

from hypothesis import given, settings, strategies as st
from lanterne.client.screens.dialogs import GameOverScreen, HandoffScreen
from lanterne.client.games.pueblo.screen import PuebloScreen
from lanterne.client.games.pueblo.widgets import (CELL_H, CELL_W, CYCLES, ILLEGAL_STYLE, LEGAL_STYLE, ORDER, SIZE as CELLS_SIDE,
                                   TRACK_PLACES, PuebloBoard, box_for, cell_at, cell_centre, family_of,
                                   next_family, space_at, space_centre, tall_offset, turn, wheel)
from lanterne.client.games.pueblo.panels import ChiefPanel, PenaltyBoard, StonePanel, side_view_text
from lanterne.engines.core import RulesError
from lanterne.engines.pueblo.data import TRACK
from lanterne.engines.pueblo.board import LINES, penalties_at, sight
from lanterne.engines.pueblo.view import chief_options, side_view
from lanterne.engines.pueblo.state import MOVE, PLACE, REMOVE, SITE, BID, OVER
from tests.support.apps import pass_keyboard
from tests.support.pueblo import (GAME, SIZE, at_cell, at_space, levels_of_new_stone, open_screen, overlay_levels,
                                  play_randomly, pueblo_app, scroll_wheel, status, to_the_player)


class BoardShown(NamedTuple):
    overlay: dict


def shown_in_cell(board: PuebloBoard, cell: int) -> str:
    """The text drawn in a cell's bottom line (where the preview prints the levels)."""
    lines = board.lines()
    cx, cy = cell % 8, cell // 8
    line = lines[1 + (7 - cy) * CELL_H + CELL_H - 1]
    return line[(cx + 1) * CELL_W:(cx + 2) * CELL_W].strip()


# ------------------------------------------------------------------ the stone in hand


def test_orientations_turn_a_quarter_inside_three_families_of_four():
    assert sorted(ORDER) == list(range(12))
    assert [sorted(family_of(o) for o in cycle) for cycle in CYCLES] == [[0] * 4, [1] * 4, [2] * 4]
    for o in range(12):
        assert turn(turn(turn(turn(o)))) == o and turn(o) != o
        assert turn(turn(o, 1), -1) == o
        assert family_of(next_family(o)) == (family_of(o) + 1) % 3
        assert wheel(wheel(o, 1), -1) == o


def test_the_tall_cell_follows_the_pointer_and_the_stone_stays_on_the_area():
    for o in range(12):
        dx, dy = tall_offset(o)
        for cx in range(8):
            for cy in range(8):
                x, y = box_for(o, cx, cy)
                assert 0 <= x <= 6 and 0 <= y <= 6
                if 0 <= cx - dx <= 6 and 0 <= cy - dy <= 6:
                    assert (x + dx, y + dy) == (cx, cy)


def test_every_track_space_and_cell_has_its_own_place_on_the_drawing():
    assert sorted(TRACK_PLACES) == list(range(TRACK))
    for space in range(TRACK):
        assert space_at(*space_centre(space)) == space
        assert cell_at(*space_centre(space)) is None
    for cx in range(CELLS_SIDE):
        for cy in range(CELLS_SIDE):
            assert cell_at(*cell_centre(cx, cy)) == (cx, cy)
            assert space_at(*cell_centre(cx, cy)) is None
    # each side space sits right next to the first cell of the line it looks along
    inward = {-8: (0, CELL_H), 8: (0, -CELL_H), -1: (-CELL_W, 0), 1: (CELL_W, 0)}
    for space, line in LINES.items():
        sx, sy = space_centre(space)
        dx, dy = inward[line[1] - line[0]]
        assert cell_at(sx + dx, sy + dy) == (line[0] % 8, line[0] // 8), space


# ------------------------------------------------------------------ placing by mouse and keys


async def test_a_stone_turned_and_placed_by_mouse_lands_where_the_preview_showed():
    controller, app = pueblo_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        seat = controller.waiting.seat
        board = screen.query_one(PuebloBoard)
        assert await pilot.hover(board, offset=at_cell("c3"))
        await scroll_wheel(pilot, 1)  # one notch: the next flat-bottom orientation
        await pilot.press("r")  # and a quarter turn by key
        assert screen.orient not in (ORDER[0], ORDER[1])
        picture = board.picture
        shown = overlay_levels(picture)
        assert len(shown) == 3 and all(o.style == LEGAL_STYLE for o in picture.overlay.values())
        assert 18 in shown  # c3 is under the pointer: the tall cell
        assert shown[18] == (1, 2)
        for cell, over in picture.overlay.items():
            assert shown_in_cell(board, cell) == over.text
        assert "fits" in str(screen.query_one(StonePanel).render())
        before = controller.state
        assert await pilot.click(board, offset=at_cell("c3"))
        await pilot.pause()
        assert levels_of_new_stone(before, controller.state) == shown
        assert controller.state.owners[-1] == seat
        assert controller.state.phase == MOVE


async def test_a_stone_placed_by_keys_only_lands_where_the_preview_showed():
    controller, app = pueblo_app(seed=1, moves=["C b1^ a1 a2", "m1"])  # a1, b1 (2 high), a2
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        await pilot.press("left", "left", "down", "down")  # d4 -> b2
        assert screen.cursor == (1, 1)
        await pilot.press("f")  # flat top: b2 low, the other two cells on the first stone
        flat_top = screen.orient
        await pilot.press("r", "R")  # a quarter turn and back
        assert screen.orient == flat_top
        for _ in range(4):
            if screen.preview().legal:
                break
            await pilot.press("r")
        preview = screen.preview()
        assert preview.legal, preview.reason
        shown = overlay_levels(screen.query_one(PuebloBoard).picture)
        before = controller.state
        await pilot.press("enter")
        await pilot.pause()
        assert levels_of_new_stone(before, controller.state) == shown
        assert max(last for _, last in shown.values()) == 2 and shown[9] == (1, 2)  # b2: the tall cell


async def test_an_illegal_placement_is_previewed_red_and_refused_with_the_reason():
    controller, app = pueblo_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        board = screen.query_one(PuebloBoard)
        await pilot.press("f")  # flat top: two cells one level up, over nothing
        assert await pilot.hover(board, offset=at_cell("e5"))
        preview = screen.preview()
        assert not preview.legal and "would hang in the air" in preview.reason
        assert all(o.style == ILLEGAL_STYLE for o in board.picture.overlay.values())
        assert f"refused: {preview.reason}" in str(screen.query_one(StonePanel).render())
        before = len(controller.log)
        assert await pilot.click(board, offset=at_cell("e5"))
        await pilot.pause()
        assert f"Refused: {preview.reason}" in status(screen)
        assert screen.query_one("#status").has_class("-error")
        assert len(controller.log) == before and controller.state.phase == PLACE


async def test_first_turn_refusals_lone_stone_first_no_move_yet_no_set_aside():
    controller, app = pueblo_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        assert "set it aside" not in str(screen.query_one(StonePanel).render())
        await pilot.press("d")
        assert "Refused: a stone may only be dropped when it fits nowhere" in status(screen)
        assert screen.kinds() == ["C"]
        await pilot.press("n")
        assert "Refused: the lone coloured stone must be placed first" in status(screen)
        assert screen.kind == "C"
        await pilot.press("1")
        assert "Refused: cannot move now: a stone must be placed" in status(screen)


async def test_a_block_begun_with_either_half_must_be_finished():
    controller, app = pueblo_app(seed=1, moves=["C b1^ a1 a2", "m1", "C h1^ g1 g2", "m1"])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)  # P1 begins a block: either half, chosen by a click on a chip or a key
        assert screen.kinds() == ["C", "N"]
        panel = screen.query_one(StonePanel)
        chips = {key: (left + 2, line) for line, left, _, key in panel.regions}
        assert await pilot.click(panel, offset=chips["N"])
        assert screen.kind == "N"
        assert await pilot.click(panel, offset=chips["C"])
        assert screen.kind == "C"
        await pilot.press("n")
        assert screen.kind == "N"
        assert await pilot.click(screen.query_one(PuebloBoard), offset=at_cell("d4"))
        await pilot.pause()
        assert controller.state.owners[-1] == -1  # neutral
        await pilot.press("1")
        await pilot.pause()
        seat = controller.waiting.seat
        controller.submit(seat, controller.parse(seat, "C f6^ e6 e7"))
        controller.submit(seat, ("move", 1))
        await to_the_player(pilot, controller)
        assert screen.kinds() == ["C"]
        await pilot.press("n")
        assert "Refused: the begun block must be finished: place the coloured stone" in status(screen)


# ------------------------------------------------------------------ the chieftain


async def test_the_chieftain_moves_by_a_click_on_a_numbered_space():
    controller, app = pueblo_app(seed=1, moves=["C a8^ b8 b7", "m4", "C d8^ e8 e7"])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        seat = controller.waiting.seat
        view = controller.state
        options = chief_options(view)
        assert view.phase == MOVE
        assert screen.query_one(PuebloBoard).picture.options == {o.space: o.steps for o in options}
        panel = str(screen.query_one(ChiefPanel).render())
        for o in options:  # each choice's penalty is shown before the click
            assert o.name in panel
        before = list(GAME.penalties(view))
        board = screen.query_one(PuebloBoard)
        assert await pilot.click(board, offset=at_space((view.chief + 6) % TRACK))  # too far
        assert "Refused: the chieftain moves 1 to 4 spaces clockwise" in status(screen)
        assert controller.state.chief == view.chief
        target = options[2]
        assert await pilot.click(screen.query_one(PuebloBoard), offset=at_space(target.space))
        await pilot.pause()
        assert controller.state.chief == target.space
        assert GAME.penalties(controller.state) == [b + p for b, p in zip(before, target.penalties)]
        assert controller.log[-1].actor == seat and controller.log[-1].text == "m3"


async def test_the_chieftain_moves_by_a_click_on_the_list_and_by_keys():
    controller, app = pueblo_app(seed=1, moves=["C a8^ b8 b7", "m4", "C d8^ e8 e7"])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        start = controller.state.chief
        panel = screen.query_one(ChiefPanel)
        assert await pilot.click(panel, offset=(4, 2))  # the row of move 2
        await pilot.pause()
        assert controller.state.chief == (start + 2) % TRACK
        assert isinstance(app.screen, HandoffScreen)  # hot-seat: the next player takes the keyboard
        assert screen.viewer is None and screen.preview() is None
        # next player: a stone by the controller, then the chieftain by key
        seat = controller.waiting.seat
        controller.submit(seat, controller.parse(seat, "C h2^ h1 g1"))
        await to_the_player(pilot, controller)
        await pilot.press("4")
        await pilot.pause()
        assert controller.state.chief == (start + 6) % TRACK
        # and by arrows + Enter, after a glance at the options
        controller.submit(controller.waiting.seat, controller.parse(controller.waiting.seat, "C d4^ d5 e5"))
        await to_the_player(pilot, controller)
        await pilot.press("right", "right")
        assert screen.hot_move == 2
        assert "What he sees from" in str(screen.query_one("#side-title").render())
        await pilot.press("enter")
        await pilot.pause()
        assert controller.state.chief == (start + 8) % TRACK


async def test_pointing_at_a_track_space_shows_what_the_chieftain_would_see_there():
    controller, app = pueblo_app(seed=1, moves=["C a1^ a2 b2", "m1"])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        assert await pilot.hover(screen.query_one(PuebloBoard), offset=at_space(28))  # west of row 1
        side = str(screen.query_one("#pueblo-side").render())
        assert "From west of row 1, looking east" in side
        assert "Costs red  3" in side  # a1 seen at levels 1 and 2


# ------------------------------------------------------------------ what he sees


def test_side_view_costs_are_the_chieftains_penalties_in_random_positions():
    rng = random.Random(5)
    controller, _ = pueblo_app(players=(None, None, None), seed=2)
    for _ in range(30):
        seat = controller.waiting.seat
        controller.submit(seat, rng.choice(controller.legal_actions(seat)))
    s = controller.state
    for space in range(TRACK):
        text = side_view_text(s.heights, s.stacks, s.owners, space, side_view(s, space), s.players).plain
        costs = text.rsplit("Costs", 1)[1].split()
        assert [int(costs[k]) for k in (1, 3, 5)] == penalties_at(s.heights, s.stacks, s.owners, space, 3)
        hidden = sum(s.heights[c] for c in LINES.get(space, ())) - len(sight(s.heights, s.stacks, space))
        if space in LINES and max(s.heights[c] for c in LINES[space]) <= 12:
            assert text.count("░░") == hidden


def test_side_view_of_a_hand_made_line():
    controller, _ = pueblo_app(moves=["C a1^ a2 b2", "m1", "C d1^ c1 c2"])  # red at a1 (2 high), blue behind
    s = controller.state
    text = side_view_text(s.heights, s.stacks, s.owners, 28, side_view(s, 28), 2).plain
    assert text.splitlines()[0] == "From west of row 1, looking east"
    assert " 2  2 " in text and " 1  1 " in text  # a1 seen at level 2 (cost 2) and level 1 (cost 1)
    assert text.count("░░") == 3  # b1 at level 1, c1 at levels 1 and 2: hidden behind a1
    assert text.rstrip().endswith("Costs red  3 blue  0")
    corner = side_view_text(s.heights, s.stacks, s.owners, 27, side_view(s, 27), 2).plain
    assert corner.startswith("From the SW corner, looking down")
    assert corner.rstrip().endswith("Costs red  3 blue  3")


# ------------------------------------------------------------------ the whole game


async def test_penalties_replace_scores_and_the_end_shows_the_result():
    controller, app = pueblo_app(seed=3)
    play_randomly(controller, lambda s: s.phase == OVER, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        pens = GAME.penalties(controller.state)
        result = str(app.screen.query_one("#game-over-result").render())
        assert f"with {min(pens)} penalty points" in result
        await pilot.press("escape")
        await pilot.pause()
        board = str(app.screen.query_one(PenaltyBoard).render())
        for p in pens:
            assert f" {p:>3}" in board
        assert "★" in board
        assert not app.screen.query_one("#scores").display


async def test_dismantling_a_stone_by_click():
    controller, app = pueblo_app(seed=4, variant="dismantling")
    play_randomly(controller, lambda s: s.phase == REMOVE, seed=4)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        seat = controller.waiting.seat
        removable = [a for a in controller.legal_actions(seat) if a[0] == "remove"]
        tall = removable[0][1]
        stones_on = sum(st is not None for st in controller.state.stones)
        name = "abcdefgh"[tall % 8] + str(tall // 8 + 1)
        assert await pilot.hover(screen.query_one(PuebloBoard), offset=at_cell(name))
        assert screen.preview().legal
        empty = [c for c in range(64) if not controller.state.heights[c]]
        hole = "abcdefgh"[empty[0] % 8] + str(empty[0] // 8 + 1)  # this game leaves cells empty
        assert await pilot.click(screen.query_one(PuebloBoard), offset=at_cell(hole))
        assert "Refused: no stone there" in status(screen)
        assert await pilot.click(screen.query_one(PuebloBoard), offset=at_cell(name))
        await pilot.pause()
        assert sum(st is not None for st in controller.state.stones) == stones_on - 1


async def test_advanced_sites_by_click_and_bids_from_the_list():
    controller, app = pueblo_app(seed=1, variant="advanced")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        assert controller.state.phase == SITE
        board = screen.query_one(PuebloBoard)
        assert await pilot.click(board, offset=at_cell("d4"))
        await pilot.pause()
        assert len(controller.state.sites) == 1 and 27 in controller.state.sites[0]
        await pass_keyboard(pilot)
        assert await pilot.click(board, offset=at_cell("d4"))  # overlaps the first site
        assert "Refused: sacred sites cannot overlap" in status(screen)
        assert await pilot.click(board, offset=at_cell("g7"))
        await pilot.pause()
        assert controller.state.phase == BID
        await pass_keyboard(pilot)
        assert screen.query_one("#moves").display
        await pilot.press("enter")  # the first choice: pass
        await pilot.pause()
        assert controller.log[-1].text in ("pass", "card 1", "card 2") or controller.state.phase != BID


# ------------------------------------------------------------------ snapshot


def test_pueblo_screen_snapshot(snap_compare):
    controller, app = pueblo_app(seed=1)
    play_randomly(controller, lambda s: len(s.stones) == 9 and s.phase == MOVE, seed=7)

    async def run_before(pilot):
        await pilot.press("enter")  # past the pass-the-keyboard dialog
        await pilot.pause()
        pilot.app.screen.query_one("#command").cursor_blink = False
        await pilot.press("right")  # the keyboard's choice: move 1, and what he would see from there
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_a_stone_that_fits_nowhere_is_set_aside_by_key_and_not_before():
    from lanterne.client.controller import LocalGame
    from lanterne.client.games.pueblo.screen import PuebloScreen
    from tests.support.apps import make_app
    from tests.support.pueblo import NO_FIT

    controller = LocalGame(GAME, [None] * 4, names=["Ann", "Bob", "Cy", "Di"], state=GAME.load_position(NO_FIT))
    app = make_app(lambda: PuebloScreen(controller))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        seat = controller.waiting.seat
        assert "set it aside" in str(screen.query_one(StonePanel).render())
        assert await pilot.click(screen.query_one(PuebloBoard), offset=at_cell("a1"))
        assert "Refused:" in status(screen) and controller.state.phase == PLACE
        await pilot.press("d")
        await pilot.pause()
        assert controller.state.dropped[seat] == [0, 1] and controller.state.phase == MOVE


async def test_the_choices_show_the_penalties_the_previewed_stone_would_bring():
    controller, app = pueblo_app(seed=1, moves=["C b1^ a1 a2", "m1"])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        assert await pilot.hover(screen.query_one(PuebloBoard), offset=at_cell("b8"))
        preview = screen.preview()
        assert preview.legal
        after, _ = GAME.apply(controller.state, preview.action)
        panel = str(screen.query_one(ChiefPanel).render())
        assert "penalties after this stone" in panel
        lines = panel.splitlines()[1:]
        for option, line in zip(chief_options(after), lines):
            assert f"red {option.penalties[0]:>2} blue {option.penalties[1]:>2}" in line
        assert chief_options(after)[0].penalties[1] > chief_options(controller.state)[0].penalties[1]


# ------------------------------------------------------------------ the preview, in any position


def random_position(seed: int, players: int, actions: int):
    """A position after ``actions`` random legal moves (with the first-player roll)."""
    from lanterne.engines.core import OpenTable

    rng = random.Random(seed)
    table = OpenTable(seed)
    state = GAME.setup(players=players)
    state, _ = GAME.apply(state, table.resolve(state, GAME.table_op(state)))
    for _ in range(actions):
        if GAME.is_over(state):
            break
        seat = GAME.next_actor(state)
        state, _ = GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)))
    return state


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4), st.integers(0, 60), st.integers(0, 11), st.integers(0, 7),
       st.integers(0, 7))
def test_the_preview_shows_exactly_the_levels_the_stone_fills(seed, players, actions, orient, cx, cy):
    from lanterne.client.games.pueblo.widgets import footprint_overlay
    from lanterne.engines.pueblo.view import footprint

    state = random_position(seed, players, actions)
    if state.phase == MOVE:
        state, _ = GAME.apply(state, ("move", 1))
    kinds = [a[1] for a in GAME.legal_actions(state, state.seat) if a[0] == "place"]
    if state.phase != PLACE or not kinds:
        return
    x, y = box_for(orient, cx, cy)
    fp = footprint(state, orient, x, y)
    shown = overlay_levels(BoardShown(footprint_overlay(fp.cells, fp.legal)))
    try:
        after, _ = GAME.apply(state, ("place", kinds[0], orient, x, y))
    except RulesError as e:  # refused: the preview said so, with the same words
        assert not fp.legal and str(e) == fp.reason
        return
    assert fp.legal
    assert levels_of_new_stone(state, after) == shown


def test_the_penalty_panel_tells_two_computer_seats_of_one_host_apart():
    from lanterne.client.games.pueblo.panels import penalties_text

    text = penalties_text(["P2 [computer] Ann 1", "P3 [computer] Ann 2"], [3, 4], [(1, 2, 0), (1, 2, 0)],
                          turn=None, winners=[]).plain.splitlines()
    assert "[c] Ann 1" in text[0] and "[c] Ann 2" in text[1]
