"""Snapshots of the main screens (fixed size, no cursor blink).

Review a change with `pytest tests/client/test_snapshots.py --snapshot-report`
and accept it with `--snapshot-update` only after looking at the report.
"""

from __future__ import annotations


from lanterne.client.controller import LocalGame
from lanterne.client.screens.game import GameScreen
from tests.support.apps import SNAPSHOT_SIZE, make_app, no_blink
from tests.support.toy_game import GAME

SIZE = SNAPSHOT_SIZE


def test_home(snap_compare):
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=no_blink)


def test_help(snap_compare):
    assert snap_compare(make_app(), terminal_size=SIZE, press=["f1"], run_before=no_blink)


def test_settings(snap_compare):
    async def run_before(pilot):
        await pilot.press("s")
        await no_blink(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_generic_game_screen(snap_compare):
    controller = LocalGame(GAME, [None, None], names=["Ann", "Bob"], seed=4)

    async def run_before(pilot):
        await pilot.press("enter")  # past the pass-the-keyboard dialog
        await pilot.pause()
        pilot.app.screen.play(("add", 2))
        await pilot.press("enter")
        await no_blink(pilot)

    assert snap_compare(make_app(lambda: GameScreen(controller)), terminal_size=SIZE, run_before=run_before)


def test_handoff_dialog(snap_compare):
    controller = LocalGame(GAME, [None, None], names=["Ann", "Bob"], seed=4)
    assert snap_compare(make_app(lambda: GameScreen(controller)), terminal_size=SIZE, run_before=no_blink)


def pagode_controller(seed=33, variant="standard"):
    from lanterne.engines.registry import get_game

    return LocalGame(get_game("pagode"), [None, None], names=["Ann", "Bob"], seed=seed, variant=variant)


def test_pagode_screen_mid_game(snap_compare):
    from lanterne.client.games.pagode.screen import PagodeScreen
    from tests.support.pagode import builder_choice

    controller = pagode_controller()
    for _ in range(24):  # a few turns in, played without the screen: floors, a tile, both reserves
        seat = controller.waiting.seat
        controller.submit(seat, builder_choice(controller, seat))

    async def run_before(pilot):
        await pilot.press("enter")  # past the pass-the-keyboard dialog
        await pilot.pause()
        screen = pilot.app.screen
        first = screen.query("CardWidget").first()
        await pilot.click(first)  # one card selected
        await no_blink(pilot)

    assert snap_compare(make_app(lambda: PagodeScreen(controller)), terminal_size=(160, 50), run_before=run_before)


def test_pagode_handoff_hides_the_hands(snap_compare):
    from lanterne.client.games.pagode.screen import PagodeScreen

    assert snap_compare(make_app(lambda: PagodeScreen(pagode_controller())), terminal_size=(120, 40),
                        run_before=no_blink)


def test_local_setup(snap_compare):
    async def run_before(pilot):
        await pilot.press("p")
        pilot.app.screen.query_one("#game").value = "pagode"
        await no_blink(pilot)

    assert snap_compare(make_app(), terminal_size=(100, 40), run_before=run_before)


def test_join_dialog_with_a_changed_key_at_80x24(snap_compare):
    """The tallest join dialog (a changed key's warning, a request waiting) fits a 80x24 terminal."""
    from lanterne.client.known_peers import CHANGED, Check
    from lanterne.client.screens.invite import InviteScreen
    from lanterne.protocol.identity import Identity, safety_code

    code = safety_code(Identity.from_seed(bytes(range(32))).public, Identity.from_seed(bytes(range(32, 64))).public)
    name = "Beatrice from upstairs"    # the who line takes two rows
    dialog = InviteScreen(name, "1e19-4fa7-00df-7dc1", "192.0.2.7:52202", code, "Pagode, standard, 2 seats",
                          waiting=1, known=Check(CHANGED, name, "2025-01-02"), own_part=code.replace(" ", "")[:30])

    async def run_before(pilot):
        await pilot.app.push_screen(dialog)
        await no_blink(pilot)
        box = dialog.query_one("#invite-box")
        assert box.region.bottom <= 23 and dialog.query_one("#invite-accept").region.bottom < box.region.bottom
        assert box.max_scroll_y == 0                  # nothing scrolled out of the dialog

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=run_before)
