"""No English word reaches a French screen: each screen a player meets, rendered in French at 80x24 and
read back, holds no word that only the English messages use.

The words to look for come from the catalog itself: every word of an English message that no French
message uses ("moves", "over", "north", "straight"), so a text shown without ``_()``, or an engine's
plain English part, is caught wherever it shows.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from lanterne.client import i18n
from lanterne.client.screens.game import game_screen_for
from lanterne.client.screens.home import make_screen
from tests.support.apps import make_app, mid_game

CATALOG = Path(__file__).resolve().parents[2] / "client" / "locale" / "fr" / "LC_MESSAGES" / "lanterne.po"
WORD = re.compile(r"[A-Za-zÀ-ÿ']{4,}")
NAMES = {"Pagode", "Pueblo", "Pandoria", "Pacal", "Pacal's", "Rocket", "Lanterne", "lanterne", "palette",
         "Bot", "Ann", "Bob", "ismcts", "greedy", "random"}
"""Words the same in both languages: the games' and the app's names, the players' names of the tests,
the command palette's key word (Textual's)."""


def english_only_words() -> set[str]:
    with CATALOG.open("rb") as f:
        catalog = read_po(f, locale="fr")
    english, french = set(), set()
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            english |= set(WORD.findall(re.sub(r"\{[^}]*\}", " ", text)))
        for text in strings:
            french |= set(WORD.findall(text))
    french_lower = {w.lower() for w in french}
    return {w for w in english if w.lower() not in french_lower} - NAMES


ENGLISH = english_only_words()


@pytest.fixture
def french(lanterne_home):
    i18n.set_language("fr")
    yield
    i18n.set_language("en")


def english_in(text: str, notation: set[str] = frozenset()) -> list[str]:
    """The English-only words of ``text``; ``notation``: the words of the moves' notation, the same in
    every language (typed after ``:``), shown beside the moves' words."""
    return sorted({w for w in WORD.findall(text) if w in ENGLISH and w not in notation})


def shown(app) -> str:
    """The screen's text as a person reads it (the SVG export's text runs, joined)."""
    svg = app.export_screenshot()
    runs = re.findall(r"<text[^>]*>(.*?)</text>", svg, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", run)).replace("\xa0", " ") for run in runs)


@pytest.mark.parametrize("game_id", ["pagode", "pueblo", "pacal", "pandoria"])
async def test_a_game_its_move_log_and_its_leave_dialog_speak_french(game_id, french):
    controller = mid_game(game_id, actions=30)
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = shown(app)
        await pilot.press("f2")                      # the scores and the move log
        await pilot.pause()
        side = shown(app)
        await pilot.press("f2")
        await pilot.press("escape", "escape")        # the leave dialog (a first Escape may clear a choice)
        await pilot.pause()
        leave = shown(app)
    notation = {w for entry in controller.log for w in WORD.findall(entry.text)}
    for where, text in (("board", board), ("move log", side), ("leave dialog", leave)):
        assert not english_in(text, notation), f"{game_id} {where}: {english_in(text, notation)}\n{text}"


@pytest.mark.parametrize("name", ["settings", "local", "replays"])
async def test_the_home_entries_speak_french(name, french, lanterne_home):
    from lanterne.client.screens.replay import log_folder

    local = log_folder() / "local"                  # one saved local game, for the replays list
    local.mkdir(parents=True)
    (local / "t1.log").write_bytes(b"")
    (local / "t1.json").write_text(json.dumps({"game": "pacal", "mode": "vs-computer", "moves": 23, "over": False,
                                               "seats": [{"name": "Ann"}, {"name": "Bot"}]}))
    app = make_app(lambda: make_screen(name))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        text = shown(app)
    path = set(WORD.findall(str(lanterne_home)))   # the data folder's path shows in the replays' field
    assert not english_in(text, path), f"{name}: {english_in(text, path)}\n{text}"
