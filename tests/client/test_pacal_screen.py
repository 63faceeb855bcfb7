"""The Pacal's Rocket screen, played as a person plays it: by clicks and by keys."""

from __future__ import annotations

import pytest
from rich.color import Color
from rich.console import Console

from lanterne.client.controller import LocalGame
from lanterne.client.local_play import make_local_game
from lanterne.client.screens.dialogs import GameOverScreen, HandoffScreen
from lanterne.client.games.pacal.screen import PacalScreen
from lanterne.client.games.pacal.widgets import (DISTRICT_BG, LAKE_BG, PLAYER_COLOURS, PREVIEW_BG, TARGET_BG, PacalMap,
                                  cell_at, cell_offset, map_text, Marks)
from lanterne.client.widgets.status_line import StatusLine
from lanterne.engines.core import IllegalAction
from lanterne.engines.pacal.board import parse_cell
from lanterne.engines.pacal.view import build_choices, cell_name, reachable
from lanterne.engines.pacal.rules import visible_stones
from lanterne.client.games.pacal.screen import visible_stones as screen_visible_stones
from lanterne.engines.registry import get_game
from tests.support.apps import make_app
from tests.support.waiting import until

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


def play_to_the_end(controller) -> None:
    """A quick whole game without the screen: the best build every time, both stones when allowed."""
    for _ in range(2000):
        if controller.is_over():
            return
        seat = controller.waiting.seat
        view = controller.view(seat)
        legal = controller.legal_actions(seat)
        if view.phase == "build":
            pick = max(build_choices(view, seat), key=lambda ap: (ap[1], ap[0][1]))[0]
        else:
            stones = [a for a in legal if a[0] == "stones" and a[1]]
            pick = stones[-1] if stones else legal[0]
        controller.submit(seat, pick)
    raise AssertionError("the game did not end")


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


COVERED = {2: "DHNO", 3: "DH", 4: "D", 5: ""}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_map_shows_districts_lake_river_covers_and_pieces(players):
    controller = LocalGame(GAME, [None] * players, seed=5)
    play_until(controller, lambda: controller.view(0).round >= 3)
    view = controller.view(0)
    plain = map_text(view, Marks()).plain
    lines = plain.split("\n")
    assert lines[0].split() == list("abcdefghijklm")
    assert "S7" in plain and "F6" in plain and "A3" in plain and "≈" in plain and "┃" in plain
    for district, value in (("D", 3), ("H", 4), ("N", 4), ("O", 3)):
        assert (f"{district}{value}" in plain) == (district not in COVERED[players])
    assert ("░" in plain) == bool(COVERED[players])
    for seat, at in enumerate(view.ships):
        row, col = divmod(at, 13)
        assert f"◆{seat + 1}" in lines[1 + row * 2 + 1]
    assert plain.count("●") + plain.count("○") == sum(bin(b).count("1") for b in view.stones)
    under = sum(1 for seat in range(players) for at in view.ships if view.stones[seat] >> at & 1)
    assert plain.count("○") == under


def test_pyramids_show_their_storeys_in_the_owner_colour():
    controller = LocalGame(GAME, [None] * 2, seed=5)
    play_to_the_end(controller)
    view = controller.view(0)
    text = map_text(view, Marks())
    lines = text.plain.split("\n")
    built = [c for c in range(169) if view.pyramid_owner[c] >= 0]
    assert built
    for c in built:
        row, col = divmod(c, 13)
        x = 3 + col * 7 + 1
        line = lines[1 + row * 2]
        storeys = view.pyramid_size[c]
        assert line[x:x + 6] == f"{'▲' * storeys:<6}"
        offset = sum(len(l) + 1 for l in lines[:1 + row * 2]) + x
        style = text.get_style_at_offset(Console(), offset)
        assert style.color.triplet == Color.parse(PLAYER_COLOURS[view.pyramid_owner[c]]).triplet


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
            assert all(screen.notes[c] == "◇" for c in targets)
            await click_cell(pilot, targets[0])
            assert controller.view(seat).ships[seat] == targets[0]
        await pass_keyboard(pilot)
        seat = controller.waiting.seat
        view = controller.view(seat)
        assert view.phase == "move" and view.face is not None
        ways = reachable(view, seat)
        assert screen.targets == frozenset(c for c, w in ways.items() if "straight" in w or "arrow" in w)
        goal = max(screen.targets)
        await pilot.hover(PacalMap, offset=cell_offset(goal))
        await pilot.pause()
        way = "arrow" if view.face == 0 else "straight"
        assert status(screen) == f"{cell_name(goal)}: {way} (then 2 stones) — click or Enter to go"
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
        assert screen.notes[at] == f"+{points}"  # the best a build there scores, before any choice
        assert f"+{shown.points} point" in status(screen)
        map_widget = screen.query_one(PacalMap)
        assert map_widget.marks.preview == frozenset(shown.cells)
        assert map_widget.marks.preview_note == f"+{shown.points}"
        score = controller.scores()[seat]
        await click_cell(pilot, at)
        if controller.view(seat).phase == "build" and controller.waiting.seat == seat:  # several fit: click again
            assert screen.only_cell == at
            await click_cell(pilot, at)
        assert controller.view(seat).pyramid_owner[at] == seat
        assert controller.view(seat).pyramid_size[at] == shown.action[1]
        assert controller.scores()[seat] - score == shown.points


async def test_a_build_chosen_in_the_list_by_keys_shows_its_constellation_and_scores_it():
    controller, app = pacal_app(3, seed=5)
    play_until(controller, lambda: in_build_phase(controller))
    seat = controller.waiting.seat
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = the_screen(app)
        await pilot.press("tab")
        assert app.focused is screen.query_one("#pacal-choices")
        box = screen.query_one("#pacal-choices")
        for _ in range(4):
            if box.highlighted == 3:
                break
            await pilot.press("down")
        await pilot.pause()
        choice = screen.choices[box.highlighted]
        assert screen.preview == choice and choice.action[0] == "build"
        marks = screen.query_one(PacalMap).marks
        assert marks.preview == frozenset(choice.cells) and marks.preview_note == f"+{choice.points}"
        assert f": +{choice.points} point" in choice.label
        score = controller.scores()[seat]
        await pilot.press("enter")
        await pilot.pause()
        view = controller.view(seat)
        assert view.pyramid_owner[choice.at] == seat and view.pyramid_size[choice.at] == choice.action[1]
        assert controller.scores()[seat] - score == choice.points


async def test_a_cursor_step_repaints_only_the_lines_of_the_rows_it_touches():
    controller, app = pacal_app(2, seed=5)
    play_until(controller, lambda: controller.view(0).round >= 2 and controller.view(0).phase == "move")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        city = app.focused
        assert isinstance(city, PacalMap)
        if city.cursor % 13 == 12:
            await pilot.press("left")
            await pilot.pause()
        row = city.cursor // 13
        drawn: list[int] = []
        render_line = city.render_line
        city.render_line = lambda y: drawn.append(y) or render_line(y)
        await pilot.press("right")
        await pilot.pause()
        assert drawn and set(drawn) <= {1 + row * 2, 2 + row * 2}  # the brackets' row, not the whole city
        on_screen = [strip.text.rstrip() for strip in (render_line(y) for y in range(city.size.height))]
        whole = map_text(the_screen(app).view(), city.marks).plain.split("\n")
        assert on_screen == [line.rstrip() for line in whole]  # the same city as the whole map drawn at once


async def test_keyboard_only_turn():
    controller, app = pacal_app(2, seed=5)
    play_until(controller, lambda: controller.view(0).round >= 2 and controller.view(0).phase == "move")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = the_screen(app)
        seat = controller.waiting.seat
        assert isinstance(app.focused, PacalMap)
        assert app.focused.cursor == controller.view(seat).ships[seat]  # the cursor starts on the own ship
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
        assert view.phase == "stones"
        labels = [c.label for c in screen.choices]
        own = next(i for i, label in enumerate(labels) if label == "a stone into your own ship")
        supply = view.stone_supply[seat]
        await pilot.press(str(own + 1))
        await pilot.pause()
        view = controller.view(seat)
        assert view.stone_supply[seat] == supply - 1 and view.stones[seat] >> goal & 1
        assert view.phase == "build" and controller.waiting.seat == seat  # round 1's stones are visible now
        assert screen.choices[0].label.startswith("pass")
        await pilot.press("1")
        await pilot.pause()
        assert controller.waiting.seat != seat
        assert isinstance(app.screen, HandoffScreen)


async def test_stones_go_into_the_ships_clicked():
    controller, app = pacal_app(3, seed=5)
    play_until(controller, lambda: controller.view(0).phase == "stones" and controller.view(0).allowance == 2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = the_screen(app)
        seat = controller.waiting.seat
        first, second = (seat + 1) % 3, (seat + 2) % 3
        view = controller.view(seat)
        assert screen.targets == frozenset(view.ships)  # every ship may get a stone
        await click_cell(pilot, view.ships[first])
        assert "click another ship for the second stone" in status(screen)
        await click_cell(pilot, view.ships[second])  # two other players: not allowed
        assert status(screen) == ("Refused: with two stones, one goes into your own ship and one into "
                                  "another player's")
        await click_cell(pilot, view.ships[first])
        await click_cell(pilot, view.ships[seat])  # own ship second: one stone each
        after = controller.view(seat)
        assert after.stones[seat] >> view.ships[first] & 1 and after.stones[seat] >> view.ships[seat] & 1
        assert after.stone_supply[seat] == view.stone_supply[seat] - 2
        text = next(e.text for e in reversed(controller.log) if e.actor == seat and e.text.startswith("stones"))
        assert text == f"stones own P{first + 1}"


async def test_a_single_stone_by_clicking_the_same_ship_twice():
    controller, app = pacal_app(2, seed=5)
    play_until(controller, lambda: controller.view(0).phase == "stones" and controller.view(0).allowance == 2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        seat = controller.waiting.seat
        other = 1 - seat
        ship = controller.view(seat).ships[other]
        await click_cell(pilot, ship)
        await click_cell(pilot, ship)
        text = next(e.text for e in reversed(controller.log) if e.actor == seat and e.text.startswith("stones"))
        assert text == f"stones P{other + 1}"


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


async def test_straight_or_turning_to_the_same_cell_is_asked_and_answered_by_number():
    controller, app = pacal_app(2, seed=5)

    def both_ways() -> bool:
        seat = controller.waiting.seat
        view = controller.view(seat)
        return view.phase == "move" and view.round >= 2 and any(
            "straight" in w and "turn" in w for w in reachable(view, seat).values())

    play_until(controller, both_ways)
    seat = controller.waiting.seat
    cell = next(c for c, w in reachable(controller.view(seat), seat).items() if "straight" in w and "turn" in w)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = the_screen(app)
        ways = reachable(controller.view(seat), seat)
        assert screen.notes[cell] == "··/·"  # two stones after the straight move, one after turning
        assert all(screen.notes[c] == "·" for c, w in ways.items() if w == ["turn"])
        assert all(screen.notes[c] == "··" for c, w in ways.items() if w == ["straight"])
        assert "or use an energy piece (1-3)" in status(screen)
        await click_cell(pilot, cell)
        assert [c.action for c in screen.choices] == [("move", "straight", cell), ("move", "turn", cell)]
        assert "two ways to that cell" in status(screen)
        assert "then 2 stones" in screen.choices[0].label and "then 1 stone" in screen.choices[1].label
        await pilot.press("2")
        await pilot.pause()
        view = controller.view(seat)
        assert view.ships[seat] == cell and view.allowance == 1  # the turning move: one stone


async def test_stones_short_supply_takes_back_the_stones_clicked():
    controller, app = pacal_app(2, seed=5)

    def short() -> bool:
        seat = controller.waiting.seat
        view = controller.view(seat)
        return (view.phase == "stones" and view.allowance == 2 and view.stone_supply[seat] == 0
                and len(visible_stones(view, seat)) >= 3)

    play_until(controller, short)
    seat = controller.waiting.seat
    other = 1 - seat
    visible = visible_stones(controller.view(seat), seat)
    assert screen_visible_stones(controller.view(seat), seat) == visible
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = the_screen(app)
        both = next(i for i, c in enumerate(screen.choices) if c.then[:3] == ("stones", True, other))
        assert "take back 2" in screen.choices[both].label
        await pilot.press(str(both + 1))
        await pilot.pause()
        assert screen.targets == frozenset(visible)
        assert all(screen.notes[c] == "take" for c in visible)
        await click_cell(pilot, controller.view(seat).ships[other])  # not a visible stone of the player
        assert status(screen).startswith("Refused:") and controller.view(seat).phase == "stones"
        await click_cell(pilot, visible[0])
        assert "click 1 more" in status(screen) and controller.view(seat).phase == "stones"
        await click_cell(pilot, visible[-1])
        view = controller.view(seat)
        assert view.phase != "stones" or controller.waiting.seat != seat
        entry = next(e for e in reversed(controller.log) if e.actor == seat and e.text.startswith("stones"))
        assert entry.text == (f"stones own P{other + 1} take {cell_name(visible[0])} {cell_name(visible[-1])}")


async def test_the_end_shows_the_result():
    controller, app = pacal_app(2, seed=5)
    play_to_the_end(controller)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert "Game over: P2 Bob wins" in app.screen.result
        await pilot.press("escape")  # back to the board
        await pilot.pause()
        screen = the_screen(app)
        assert app.screen is screen and not screen.targets and not screen.choices
        await click_cell(pilot, parse_cell("a1"))
        assert status(screen) == "Refused: the game is over"


async def wait_for_human(pilot, controller) -> None:
    await until(lambda: controller.waiting.kind in ("human", "over"), pilot, what=controller.status)
    await pilot.pause()


async def test_against_computers_with_five_players():
    controller = make_local_game(GAME, mode="vs", bot="random", seed=3, players=5)
    app = make_app(lambda: PacalScreen(controller))
    async with app.run_test(size=SIZE) as pilot:
        screen = the_screen(app)
        moved = 0
        for _ in range(7):  # place, then turns; the computers play in between
            await wait_for_human(pilot, controller)
            view = controller.view(0)
            assert status(screen).startswith("Your turn, P1 You")
            played = len(controller.log)
            if view.phase in ("place", "move"):
                goal = min(screen.targets)
                await click_cell(pilot, goal)
                if screen.question is not None:  # straight or turning: the first
                    await pilot.press("1")
                    await pilot.pause()
                assert controller.view(0).ships[0] == goal
                moved += 1
            else:  # stones: none; build: pass
                await pilot.press("1")
                await pilot.pause()
            assert len(controller.log) > played
        assert moved >= 2
        players = str(screen.query_one("#pacal-players").render())
        assert all(f"◆{n}" in players for n in range(1, 6))


def surrounded(energy: list[int]) -> LocalGame:
    """A 2-player game where the ship to move is walled in by pyramids (and has these energy pieces)."""
    controller = LocalGame(GAME, [None] * 2, names=list(NAMES[:2]), seed=5)
    play_until(controller, lambda: controller.view(0).round >= 2 and controller.view(0).phase == "move"
               and controller.view(0).face != 0)
    state = controller.state.copy()
    seat = state.current
    row, col = divmod(state.ships[seat], 13)
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < 13 and 0 <= c < 13 and (r * 13 + c) not in state.ships:
            cell = r * 13 + c
            state.pyramid_owner[cell], state.pyramid_size[cell] = 1 - seat, 1
            state.pyramids[1 - seat] |= 1 << cell
            state.stones = [bits & ~(1 << cell) for bits in state.stones]
    state.energy[seat] = list(energy)
    return LocalGame(GAME, [None] * 2, names=list(NAMES[:2]), seed=5, state=state)


async def test_a_surrounded_ship_must_spend_an_energy_piece():
    controller = surrounded([2, 6])
    seat = controller.waiting.seat
    app = make_app(lambda: PacalScreen(controller))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = the_screen(app)
        assert not screen.targets and "the ship is surrounded" in status(screen)
        assert [c.then for c in screen.choices] == [("energy", 2), ("energy", 6)]
        await click_cell(pilot, parse_cell("a13"))
        assert status(screen) == "Refused: the ship is surrounded: choose an energy piece first (1-2)"
        await pilot.press("2")
        await pilot.pause()
        await click_cell(pilot, parse_cell("a13"))
        view = controller.view(seat)
        assert view.ships[seat] == parse_cell("a13") and view.energy[seat] == [2]


async def test_a_surrounded_ship_without_energy_relocates_anywhere():
    controller = surrounded([])
    seat = controller.waiting.seat
    app = make_app(lambda: PacalScreen(controller))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pass_keyboard(pilot)
        screen = the_screen(app)
        goal = parse_cell("a13")
        assert goal in screen.targets and screen.notes[goal] == "0"  # no stone after relocating
        await click_cell(pilot, goal)
        view = controller.view(seat)
        assert view.ships[seat] == goal
        assert any(e.actor == seat and e.text == "relocate a13" for e in controller.log)
        assert view.phase != "stones"  # relocating puts no stone


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
