"""A new game joins through docs/adding-a-game.md's path alone: its package, one registration line, and nothing else.

The template game (``engines/example``, High card) is registered here with
the one line a new game adds to ``engines/registry.GAMES``; from then on
every generic part of the program finds it through its declaration
(``GAME_TYPE``): the registry, the search player (its ``SearchHints``),
the local game setup, the game and replay screens, the rules screen and the
start-up check, which says in one line what the game lacks (it has no
``client/games/highcard/``, so it plays on the generic screen).
"""

from __future__ import annotations

import pytest

from lanterne.client.games import client_side, missing_parts
from lanterne.client.local_play import HOT_SEAT, make_local_game, playable_games
from lanterne.client.rules_docs import rules_text
from lanterne.client.screens.game import GameScreen, game_screen_for
from lanterne.client.widgets.replay_board import draw, generic_text
from lanterne.engines import registry
from lanterne.engines.bots import IsmctsBot
from lanterne.engines.bots.ismcts import tuned_settings
from lanterne.engines.core import OpenTable, play_out
from lanterne.engines.example import GAME, GAME_TYPE, SEARCH


@pytest.fixture
def registered(monkeypatch):
    """``engines/registry.GAMES`` with High card's line added, and nothing loaded yet."""
    monkeypatch.setitem(registry.GAMES, "highcard", "lanterne.engines.example")
    monkeypatch.setattr(registry, "_loaded", {})


def test_the_registry_reads_the_games_declaration(registered):
    assert registry.game_type("HighCard") is GAME_TYPE and registry.get_game("highcard") is GAME
    assert GAME_TYPE.id == "highcard" and GAME_TYPE.name == "High card"
    assert list(GAME_TYPE.seats) == [2, 3] and GAME_TYPE.variants == ("standard",)
    assert registry.available_games()[-1] is GAME and registry.game_name("highcard") == "High card"
    assert registry.search_hints("highcard") is SEARCH


def test_the_search_player_plays_it_with_its_declared_hints(registered):
    assert tuned_settings("highcard") == tuned_settings(None)     # it declared no tuning: the defaults, by choice
    final, _ = play_out(GAME, GAME.setup(players=2), OpenTable("new game"),
                        [IsmctsBot("a", iterations=20), IsmctsBot("b", iterations=20)])
    assert GAME.is_over(final)


def test_the_app_offers_it_on_the_generic_screens_and_says_what_it_lacks(registered):
    assert GAME in playable_games()
    assert client_side("highcard") is None
    assert missing_parts() == ["highcard: no client/games/highcard/ (the generic screen and replay, rolls as numbers)"]
    controller = make_local_game(GAME, mode=HOT_SEAT, seed=1)
    assert type(game_screen_for(controller)) is GameScreen
    state = GAME.setup(players=2)
    picture, note = draw(GAME, state, ["P1 Ann", "P2 Bob"])
    assert note is None and picture.plain == generic_text(GAME, state, ["P1 Ann", "P2 Bob"]).plain


def test_its_rules_page_is_looked_for_in_docs_rules(registered):
    assert "rules/highcard.md" in rules_text("highcard", "High card")


def test_a_package_that_declares_no_game_is_refused_in_one_line(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "bots", "lanterne.engines.bots")
    monkeypatch.setattr(registry, "_loaded", {})
    with pytest.raises(registry.RulesError) as e:
        registry.game_type("bots")
    assert str(e.value) == "lanterne.engines.bots declares no GAME_TYPE (engines.game_type.GameType)"
    assert "bots" not in [t.id for t in registry.available_types()]        # the others still load
