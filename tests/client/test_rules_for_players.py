"""The Rules screen's pages are written for players: no engine reference in them, and every move they
show is one the game's reference notation has (docs/rules/<game>.md)."""

from __future__ import annotations

import re

import pytest

from lanterne.client.rules_docs import players_rules, rules_text
from lanterne.engines.registry import GAMES

ENGINEERING = re.compile(r"engine|identit|house data|\bAPI\b|tuple|\.py\b|//|for programs", re.IGNORECASE)
CONSTANT = re.compile(r"`[A-Z][A-Z_]{2,}`")
"""What a player has no use for: the engine, card identities, house constants, source files."""


def moves_in_tables(markdown: str) -> set[str]:
    """The backticked items of the first cell of each table row (a move-notation table)."""
    cells = re.findall(r"^\| ([^|]*`[^|]*) \|", markdown, flags=re.M)
    return {item for cell in cells for item in re.findall(r"`([^`]+)`", cell)}


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_english_page_is_for_players(game_id):
    page = players_rules(game_id, language="en")
    assert page.startswith("# ") and "how to play" in page.splitlines()[0]
    found = sorted({m.group(0) for pattern in (ENGINEERING, CONSTANT) for m in pattern.finditer(page)})
    assert not found, found
    assert "## Playing in Lanterne" in page           # the keys and the mouse, where a player looks


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_move_a_players_page_shows_is_in_the_reference(game_id):
    reference = moves_in_tables(rules_text(game_id, language="en"))
    shown = moves_in_tables(players_rules(game_id, language="en"))
    assert shown and shown <= reference, shown - reference


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_french_rules_screen_keeps_its_french_page(game_id):
    page = players_rules(game_id, language="fr")
    assert "## Playing in Lanterne" not in page and page == players_rules(game_id, language="fr")
    assert page.startswith(rules_text(game_id, language="fr").splitlines()[0])


async def test_the_rules_page_scrolls_by_keyboard_at_once():
    from lanterne.client.screens.rules import RulesScreen
    from tests.support.apps import make_app

    app = make_app(lambda: RulesScreen("pueblo"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        viewer = app.screen.query_one("#rules-view")
        assert app.focused is viewer
        await pilot.press("pagedown")
        await pilot.pause()
        assert viewer.scroll_y > 0


@pytest.mark.parametrize("language", ["en", "fr"])
def test_rules_screen_at_80x24(snap_compare, language, request):
    from lanterne.client import i18n
    from lanterne.client.screens.rules import RulesScreen
    from tests.support.apps import make_app

    i18n.set_language(language)
    request.addfinalizer(lambda: i18n.set_language("en"))
    assert snap_compare(make_app(lambda: RulesScreen("pagode")), terminal_size=(80, 24))
