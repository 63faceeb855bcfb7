"""Pagode at 80x24: all six building sites in view, and the keyboard moves between sites and cards."""

from __future__ import annotations

from contextlib import asynccontextmanager

import pytest

from lanterne.client import i18n
from lanterne.client.games.pagode.screen import PagodeScreen
from lanterne.client.games.pagode.widgets import CardWidget, SiteWidget
from tests.support.apps import make_app, mid_game, no_blink


@pytest.fixture(params=["en", "fr"])
def language(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


@asynccontextmanager
async def pagode_at_80x24():
    """A Pagode game mid-way at your turn, on an 80x24 terminal: its pilot, once the screen settled."""
    controller = mid_game("pagode")
    app = make_app(lambda: PagodeScreen(controller))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        yield pilot


async def test_every_site_is_whole_on_screen_at_80x24(language):
    async with pagode_at_80x24() as pilot:
        screen = pilot.app.screen
        scroll = screen.query_one("#pagode-scroll")
        for site in screen.query(SiteWidget):
            assert scroll.region.contains_region(site.region), site.id
            lines = str(site.render()).splitlines()
            assert lines[-1].strip().startswith(i18n._("F{n}").format(n=1)), (site.id, lines)  # the ground floor
        assert scroll.max_scroll_y == 0


async def test_the_sites_grow_back_on_a_tall_terminal():
    async with pagode_at_80x24() as pilot:
        site = pilot.app.screen.query_one("#site-1", SiteWidget)
        assert site.region.height == 7
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert site.region.height == 9 and len(str(site.render()).splitlines()) == 7


async def test_up_and_down_move_between_the_cards_and_the_two_rows_of_sites():
    async with pagode_at_80x24() as pilot:
        screen = pilot.app.screen
        assert isinstance(screen.focused, CardWidget)
        await pilot.press("up")
        assert isinstance(screen.focused, SiteWidget) and screen.focused.site in (3, 4, 5)
        lower = screen.focused.site
        await pilot.press("up")
        assert screen.focused.site == lower - 3
        await pilot.press("up")
        assert screen.focused.site == lower - 3  # the top row is the top
        await pilot.press("down", "down")
        assert isinstance(screen.focused, CardWidget)


async def test_the_status_line_names_the_keys_that_play():
    async with pagode_at_80x24() as pilot:
        assert "(1-6)" in pilot.app.screen.status_text()


def test_pagode_at_80x24(snap_compare, language):
    controller = mid_game("pagode")
    assert snap_compare(make_app(lambda: PagodeScreen(controller)), terminal_size=(80, 24), run_before=no_blink)


SITE_WIDTH = 21
"""Cells inside a site at 80 columns (three sites a row, their borders and padding)."""


def test_every_head_line_of_a_site_fits_its_width_at_80_columns(language):
    from lanterne.client.cells import cell_len
    from lanterne.client.games.pagode.widgets import site_text

    states = {"empty": ((), 0, None, False), "columns": ((), 2, 1, False), "needs a tile": ((3,), 4, 1, False),
              "needs a roof": ((3, 8, 13), 4, 2, False), "roofed": ((3, 8, 13, 18), 0, None, True),
              "no tile left": ((3,), 4, 1, True)}
    for what, (tiles, columns, colour, complete) in states.items():
        for short in (False, True):
            head = str(site_text(5, tiles, columns, colour, 4, complete, short)).splitlines()[0]
            assert cell_len(head) <= SITE_WIDTH, (what, head)
