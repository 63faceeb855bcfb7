"""What the other players did since your move is highlighted on the board and said in words."""

from __future__ import annotations

import pytest

from lanterne.client.screens.game import game_screen_for
from tests.support.apps import make_app, mid_game


def at_my_turn_after_theirs(game_id: str, want) -> object:
    """A mid-game position at P1's turn where what the others did since P1's move satisfies ``want``."""
    for actions in range(6, 60):
        controller = mid_game(game_id, actions=actions)
        if not controller.is_over() and want(since_mine(controller)):
            return controller
    raise AssertionError("no such position")


def since_mine(controller, me: int = 0) -> list:
    out = []
    for entry in reversed(controller.log):
        if entry.actor == me:
            break
        if entry.actor >= 0:
            out.append(entry)
    return out


async def test_pagode_sites_the_other_player_built_on_are_framed():
    def builds(entries):
        return {e[2] for entry in entries for e in entry.events if e[0] in ("column", "tile", "roof")}

    controller = at_my_turn_after_theirs("pagode", builds)
    built = builds(since_mine(controller))
    assert built, "the computer built something since P1's move"
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        framed = {w.site for w in app.screen.query("SiteWidget") if w.has_class("-last")}
        assert framed == built
        assert all(app.screen.query_one(f"#site-{s + 1}").border_title == "just built" for s in built)


async def test_pacal_cells_the_other_player_changed_are_marked():
    def cells(entries):
        return {e[4] if e[0] == "move" else e[2] for entry in entries for e in entry.events
                if e[0] in ("move", "stone")}

    controller = at_my_turn_after_theirs("pacal", cells)
    changed = cells(since_mine(controller))
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        marks = app.screen.query_one("PacalMap").marks
        assert set(marks.last) == changed


async def test_pandoria_hexes_the_other_player_changed_are_framed():
    from lanterne.engines.pandoria.board import STEP

    def tiles_of(entries):
        return [e for entry in entries for e in entry.events if e[0] == "tile"]

    controller = at_my_turn_after_theirs("pandoria", tiles_of)
    tiles = tiles_of(since_mine(controller))
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = app.screen
        last = screen.changed_hexes()
        for _, _, _, h, d in tiles:
            assert h in last and STEP[h][d] in last
        assert screen.query_one("HexMap").marks.last == last


@pytest.mark.parametrize("game_id", ["pagode", "pacal", "pandoria", "pueblo"])
async def test_the_compact_line_says_what_the_others_did_since_your_move(game_id):
    from lanterne.client.widgets.move_log import said

    controller = at_my_turn_after_theirs(game_id, bool)
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bar = str(app.screen.query_one("#compact-bar").render())
        others = since_mine(controller)[::-1]
        assert others
        first = said(controller, others[0]) or others[0].text
        assert f"P{others[0].actor + 1} {first[:20]}" in bar


async def test_pueblo_cells_of_the_other_players_stone_are_marked_new():
    from lanterne.engines.pueblo.board import TEMPLATE_INDEX

    def cells_of(entries):
        return {c for entry in entries for e in entry.events if e[0] == "place"
                for c in TEMPLATE_INDEX[(e[3], e[4], e[5])].cells}

    controller = at_my_turn_after_theirs("pueblo", cells_of)
    cells = cells_of(since_mine(controller))
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.changed_cells() == cells
        overlay = screen.query_one("PuebloBoard").picture.overlay
        marked = {c for c, over in overlay.items() if over.text == "new"}
        assert marked and marked <= cells  # (the stone in hand's preview may cover some of them)
