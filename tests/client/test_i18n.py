"""Lanterne in French and in English: the catalog, the language, the words of the engines.

* Every text a person reads in :data:`COVERED` is a message of the French catalog, translated; a
  text shown there without ``_()`` (a button, a label, a notice, a footer key, a command's help) fails
  too. One board of each game is kept as a snapshot in French.
* The catalog is not stale: Babel's extraction of the sources (babel.cfg, :data:`KEYWORDS`) gives
  exactly the messages of the ``.po``, and the shipped ``.mo`` is the ``.po`` compiled.
* The language: ``--lang`` for one run, the settings, the environment; plural forms ("1 carte").
* The engines stay language-neutral: their words are English text (``Words``) that the client says
  in its language; the logs of a game are the same whatever the language.
"""

from __future__ import annotations

import ast
import re
import gettext
import io
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from lanterne.client import i18n
from lanterne.client.i18n import _, ngettext, say
from lanterne.engines.core import Words

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "client" / "locale" / "fr" / "LC_MESSAGES" / "lanterne.po"
MO = PO.with_suffix(".mo")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "Words": None, "plural": (1, 2), "C_": ((1, "c"), 2)}
"""Babel's keywords, as in the commands of docs/client.md ("Languages")."""

COVERED = (
    "client/cli.py", "client/commands/bench.py", "client/commands/host.py", "client/commands/join.py",
    "client/commands/log.py", "client/commands/play.py", "client/commands/replay.py",
    "client/commands/selfplay.py", "client/commands/serve.py", "client/commands/strength.py",
    "client/commands/verify.py", "client/commands/watch.py", "client/commands/netplay.py",
    "client/app.py", "client/settings.py", "client/controller.py", "client/takeback.py", "client/rules_docs.py",
    "client/screens/home.py", "client/screens/settings.py", "client/screens/local_setup.py",
    "client/screens/help.py", "client/screens/rules.py", "client/screens/replay.py",
    "client/screens/moves.py", "client/screens/dialogs.py", "client/screens/invite.py",
    "client/screens/game.py", "client/screens/online.py", "client/commands/online.py", "client/widgets/move_log.py", "client/game_terms.py", "client/net_controller.py",
    "engines/pagode/notation.py", "engines/pueblo/game.py", "engines/pacal/game.py", "engines/pandoria/game.py",
    "client/games/pagode/screen.py", "client/games/pagode/widgets.py",
    "client/games/pueblo/screen.py", "client/games/pueblo/widgets.py", "client/games/pueblo/panels.py",
    "client/games/pacal/screen.py", "client/games/pacal/widgets.py",
    "client/games/pandoria/screen.py", "client/games/pandoria/widgets.py", "client/games/pandoria/board.py",
    "client/games/pagode/replay.py", "client/games/pueblo/replay.py", "client/games/pacal/replay.py",
    "client/games/pandoria/replay.py", "client/games/pacal/__init__.py",
    "engines/pagode/rules/building.py", "engines/pagode/rules/paying.py", "engines/pagode/rules/turns.py",
    "engines/pagode/rules/table.py", "engines/pagode/rules/queries.py",
    "engines/pueblo/rules/queries.py", "engines/pueblo/rules/auction.py",
    "engines/pueblo/rules/building.py", "engines/pueblo/rules/ending.py", "engines/pueblo/rules/__init__.py",
    "engines/pueblo/board.py", "engines/pueblo/view.py",
    "engines/pacal/rules/__init__.py", "engines/pacal/rules/moving.py", "engines/pacal/rules/building.py",
    "engines/pacal/rules/ending.py", "engines/pandoria/rules/__init__.py", "engines/pandoria/rules/queries.py",
    "engines/pandoria/rules/setup.py", "engines/pandoria/rules/tiles.py", "engines/pandoria/rules/scoring.py",
    "engines/pandoria/rules/cards.py",
    "client/widgets/chat.py", "client/widgets/link_banner.py", "client/widgets/peers.py", "client/widgets/replay_board.py",
    "client/widgets/replay_steps.py", "client/widgets/score_chart.py", "client/widgets/scoreboard.py",
    "client/widgets/status_line.py", "client/widgets/move_input.py", "client/widgets/text_panel.py",
    "client/widgets/scrolling.py", "client/screens/network.py", "client/screens/watch.py",
    "client/screens/lobby.py", "client/replay_model.py", "client/known_peers.py", "client/single.py",
    "client/logs.py", "client/local_record.py", "client/local_play.py", "bench/rows.py",
    "client/selfplay_report.py", "client/thinking.py", "protocol/verify.py",
)
"""The files whose every text shown to a person is in the catalog. Left in English: the reasons the protocol
gives for malformed input and broken links (protocol/, shown after a translated frame such as "Refused: ..."),
and what the docs' tables say (docs/ is English: ``lanterne bench --write-docs`` writes the English table)."""

SHOWN_BY_CALL = {"Button": (0,), "Label": (0,), "Static": (0,), "notify": (0,), "Binding": (2,),
                 "SystemCommand": (0, 1), "ConfirmScreen": (0,), "show_status": (0,), "UserError": (0,), "fail": (0,),
                 "ArgumentTypeError": (0,), "append": (0,), "Text": (0,), "Overlay": (0,)}
"""Calls whose arguments at these places are shown to a person (a footer key's words: ``Binding``'s third)."""
SHOWN_BY_KEYWORD = ("help", "placeholder", "description", "tooltip", "title")


@pytest.fixture(autouse=True)
def english_after():
    """Every test here leaves the process in English, as the other tests expect it."""
    yield
    i18n.set_language("en")


def catalog():
    with PO.open("rb") as f:
        return read_po(f, locale="fr")


def extracted(paths=None) -> dict:
    """(context, message id) -> where, as Babel extracts them from the sources (babel.cfg's map)."""
    method_map = [("client/**.py", "python"), ("engines/**.py", "python"), ("protocol/verify.py", "python"),
                  ("protocol/session/takeback.py", "python"), ("bench/**.py", "python")]
    found = {}
    for filename, _lineno, message, _comments, context in extract_from_dir(
            ROOT, method_map=method_map, keywords=KEYWORDS, strip_comment_tags=True):
        if paths is not None and filename not in paths:
            continue
        key = message if isinstance(message, str) else tuple(message)
        found.setdefault((context, key), filename)
    return found


# ------------------------------------------------------------------- the catalog


def test_every_message_of_the_covered_files_has_its_french():
    po = catalog()
    missing = []
    for (context, message), where in extracted(set(COVERED)).items():
        entry = po.get(message if isinstance(message, str) else message[0], context)
        strings = [] if entry is None else ([entry.string] if isinstance(entry.string, str) else list(entry.string))
        if entry is None or not all(strings) or entry.fuzzy:
            missing.append(f"{where}: {message!r}")
    assert not missing, "not in the French catalog (client/locale/fr/LC_MESSAGES/lanterne.po):\n" + "\n".join(missing)


def test_the_catalog_is_not_stale():
    """The .po holds exactly what Babel extracts: a message gone from the code, or a new one not yet in the
    catalog, fails (docs/client.md: pybabel extract, then update)."""
    in_code = {(c, m if isinstance(m, str) else m[0]) for c, m in extracted()}
    in_po = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog() if m.id}
    assert not in_po - in_code, f"stale entries in the .po: {sorted(in_po - in_code)}"
    assert not in_code - in_po, f"messages missing from the .po: {sorted(in_code - in_po)}"


def test_the_shipped_mo_is_the_po_compiled():
    compiled = io.BytesIO()
    write_mo(compiled, catalog())
    compiled.seek(0)
    with MO.open("rb") as f:
        shipped = gettext.GNUTranslations(f)
    expected = gettext.GNUTranslations(compiled)
    assert shipped._catalog == expected._catalog, \
        "run: pybabel compile -d client/locale -D lanterne"  # type: ignore[attr-defined]
    assert shipped.plural(1) == expected.plural(1) and shipped.plural(2) == expected.plural(2)


NEUTRAL = re.compile(r"[\s│·:]*(P|F\d+:)?[\s│·:]*")
"""Literal parts the same in every language: a seat's mark (P1, as the notation writes it), a key (F2:)."""


def _worded(text: str) -> bool:
    return any(c.isalpha() for c in text) and not NEUTRAL.fullmatch(text)


def _shown_literals(path: Path) -> list[str]:
    """Texts shown to a person written as bare literals (plain or f-strings), not through ``_``/``N_``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []

    def check(node: ast.AST) -> None:
        if isinstance(node, ast.BoolOp):            # fingerprint or "not created yet"
            for value in node.values:
                check(value)
        elif isinstance(node, ast.IfExp):
            check(node.body)
            check(node.orelse)
        elif isinstance(node, ast.JoinedStr) and any(isinstance(v, ast.Constant) and _worded(v.value)
                                                   for v in node.values):
            bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: f-string")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _worded(node.value):
            bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        for index in SHOWN_BY_CALL.get(name, ()):
            if index < len(node.args):
                check(node.args[index])
        for kw in node.keywords:
            if kw.arg in SHOWN_BY_KEYWORD and name not in ("add_parser",):
                check(kw.value)
    return bad


def test_no_text_shown_in_the_covered_files_bypasses_the_catalog():
    bad = [line for rel in COVERED for line in _shown_literals(ROOT / rel)]
    assert not bad, "shown without _():\n" + "\n".join(bad)


def test_no_function_of_the_client_hides_the_gettext_underscore():
    """``slot, ident, _ = card`` in a function that also says ``_("...")`` makes ``_`` a local there: the
    call fails at run time (found on Pandoria's spells). Unpack into another name."""
    bad = []
    for path in sorted((ROOT / "client").rglob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            stores, calls = [], []
            todo = list(ast.iter_child_nodes(fn))
            while todo:
                node = todo.pop()
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    continue
                if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)):
                    calls += [n for n in ast.walk(node) if isinstance(n, ast.Call)
                              and isinstance(n.func, ast.Name) and n.func.id == "_"]
                    continue
                if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
                    stores.append(node)
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_":
                    calls.append(node)
                todo.extend(ast.iter_child_nodes(node))
            if stores and calls:
                bad.append(f"{path.relative_to(ROOT)}:{stores[0].lineno}: {fn.name} assigns _ and calls _()")
    assert not bad, "\n".join(bad)


def test_every_name_the_engines_put_in_their_words_is_in_the_catalog():
    """The colours, abilities, resources and peoples are Words made from data (client/game_terms.py)."""
    from lanterne.engines.pacal.data import COLOURS as PACAL
    from lanterne.engines.pagode.data import ABILITY_OF_COLOUR, COLOURS as PAGODE
    from lanterne.engines.pandoria import data as D
    from lanterne.engines.pueblo.data import COLOURS as PUEBLO

    i18n.set_language("fr")
    names = set(ABILITY_OF_COLOUR + PUEBLO + D.TERRAIN_NAMES + D.RESOURCE_NAMES + D.PEOPLE_NAMES)
    names -= {"dragon"}                                  # the same word in French
    untranslated = sorted(n for n in names if _(n) == n)
    untranslated += [c for c in PAGODE if i18n.pgettext("pagode colour", c) == c]
    assert not untranslated
    assert set(PACAL) <= set(PAGODE) | set(PUEBLO)


# ------------------------------------------------------------------- the language


@pytest.mark.parametrize("environ, expected", [
    ({}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_ALL": "fr_CA.UTF-8", "LANG": "en_GB.UTF-8"}, "fr"),
    ({"LC_MESSAGES": "fr_BE", "LANG": "en_US"}, "fr"),
    ({"LANGUAGE": "de:fr:en", "LANG": "en_US.UTF-8"}, "fr"),
    ({"LANGUAGE": "fr", "LC_ALL": "C"}, "en"),              # gettext ignores LANGUAGE under the C locale
    ({"LANGUAGE": "", "LANG": "fr_FR"}, "fr"),
])
def test_the_language_comes_from_the_environment_as_gettext_reads_it(environ, expected):
    assert i18n.language_from_environment(environ) == expected


def test_lang_overrides_the_settings_which_override_the_environment():
    env = {"LANG": "en_US.UTF-8"}
    assert i18n.choose_language(None, None, env) == "en"
    assert i18n.choose_language(None, "fr", env) == "fr"
    assert i18n.choose_language("en", "fr", env) == "en"
    assert i18n.choose_language(None, "", {"LANG": "fr_FR"}) == "fr"
    with pytest.raises(i18n.UnknownLanguage, match=r"unknown language 'xx' \(choose en or fr\)"):
        i18n.choose_language("xx", "fr", env)


def test_plural_forms_follow_french():
    i18n.set_language("fr")
    said = [ngettext("{n} more request waits after this one.", "{n} more requests wait after this one.", n)
            .format(n=n) for n in (0, 1, 2)]
    assert said == ["0 autre demande attend après celle-ci.", "1 autre demande attend après celle-ci.",
                    "2 autres demandes attendent après celle-ci."]
    i18n.set_language("en")
    assert ngettext("{n} more request waits after this one.", "{n} more requests wait after this one.", 0) \
        == "{n} more requests wait after this one."


# ------------------------------------------------------------------- the engines' words


def test_engine_words_are_english_text_the_client_says_in_french():
    from lanterne.engines.pagode.notation import describe_event

    event = ("column", 0, 2, 1, 1)                 # seat 1, site 3, blue, floor 1
    words = describe_event(event)
    assert isinstance(words, Words) and words == "seat 1 builds a blue column on site 3, floor 1"
    i18n.set_language("fr")
    assert say(words) == "place 1 construit une colonne bleue sur le terrain 3, étage 1"
    assert say(words, lambda n: {1: "J1 Ann"}.get(n)) == "J1 Ann construit une colonne bleue sur le terrain 3, étage 1"
    assert str(describe_event(event)) == "seat 1 builds a blue column on site 3, floor 1"   # the engine: English


def test_engine_plural_words_in_both_languages():
    from lanterne.engines.pacal.game import PacalGame

    game = PacalGame()
    one, two = game.describe_event(("stones back", 0, 40, 1)), game.describe_event(("stones back", 0, 40, 2))
    assert "gets 1 stone back" in one and "gets 2 stones back" in two
    i18n.set_language("fr")
    assert "récupère 1 pierre divine" in say(one) and "récupère 2 pierres divines" in say(two)


def test_an_engine_refusal_is_english_words_the_client_says_in_french():
    """Refusals (IllegalAction reasons) are made like the event words: the engine's English, kept as Words."""
    from lanterne.client.controller import LocalGame
    from lanterne.engines.core import IllegalAction
    from lanterne.engines.registry import get_game

    game = get_game("pagode")
    controller = LocalGame(game, [None, None], names=["Ann", "Bob"], seed=33, variant="standard")
    view = controller.view(controller.waiting.seat)
    reason = game.check(view, ("end", False))
    assert isinstance(reason, Words) and reason == "a turn must build at least 1 column"
    colour = Words.term("pagode colour", "red")
    refused = IllegalAction(Words("{what} needs a {colour} card, not {paid}", colour=colour,
                                  what=Words("a {colour} column", colour=colour),
                                  paid=Words.term("pagode colour", "blue")))
    assert str(refused) == "a red column needs a red card, not blue"
    i18n.set_language("fr")
    assert i18n.say_refusal(reason) == "un tour doit construire au moins 1 colonne"
    assert i18n.say_refusal(refused) == "une colonne rouge demande une carte rouge, pas bleue"
    assert i18n.say_refusal(IllegalAction("a reason still in plain English")) == "a reason still in plain English"


def test_a_broken_translation_falls_back_to_the_engines_english(monkeypatch):
    words = Words("{seat} passes", seat=Words("seat {n}", n=2))
    monkeypatch.setattr(i18n, "_", lambda m: "{nobody} passe" if m == "{seat} passes" else m)
    assert say(words) == "seat 2 passes"


# ------------------------------------------------------------------- the command line


def test_lang_fr_help_is_in_french(capsys):
    from lanterne.client.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["--lang", "fr", "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage : lanterne")
    assert "afficher cette aide et sortir" in out
    assert "jouer une partie sur cette machine" in out
    with pytest.raises(SystemExit):
        main(["play", "--help", "--lang", "fr"])
    out = capsys.readouterr().out
    assert "tout le monde au même clavier" in out and "graine de la table" in out


def test_lang_en_help_stays_english(capsys):
    from lanterne.client.cli import main

    with pytest.raises(SystemExit):
        main(["--lang", "en", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: lanterne") and "show this help message and exit" in out


def test_an_unknown_lang_is_one_line(capsys):
    from lanterne.client.cli import EXIT_USAGE, main

    assert main(["--lang", "xx"]) == EXIT_USAGE
    captured = capsys.readouterr()
    assert captured.err == "lanterne: unknown language 'xx' (choose en or fr)\n"
    assert captured.out == ""


def test_a_french_usage_error_is_one_french_line(capsys):
    from lanterne.client.cli import EXIT_USAGE, main

    with pytest.raises(SystemExit) as stop:
        main(["--lang", "fr", "play"])
    assert stop.value.code == EXIT_USAGE
    err = capsys.readouterr().err
    assert err == ("lanterne play : ces arguments sont obligatoires : game (voir 'lanterne play --help')\n")


# ------------------------------------------------------------------- the app


async def test_the_home_screen_and_its_footer_speak_french():
    from tests.support.apps import make_app
    from textual.widgets import Button

    i18n.set_language("fr")
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        labels = [str(b.label) for b in app.screen.query(Button) if b.display]
        assert "Jouer en réseau local ou en ligne  [l]" in labels and "Quitter  [q]" in labels
        words = {b.description for bs in app.screen._bindings.key_to_bindings.values() for b in bs}
        assert "Règles" in words and "Quitter" in words
        await pilot.press("u")                         # the rules, in French
        await pilot.pause()
        from textual.widgets import MarkdownViewer

        viewer = app.screen.query_one(MarkdownViewer)
        assert "Mise en place" in viewer.document.source or "Matériel" in viewer.document.source


def test_home_in_french(snap_compare):
    from tests.support.apps import make_app
    from tests.support.apps import SNAPSHOT_SIZE, no_blink

    i18n.set_language("fr")
    assert snap_compare(make_app(), terminal_size=SNAPSHOT_SIZE, run_before=no_blink)


FRENCH_BOARDS = ("pagode", "pueblo", "pacal", "pandoria")
"""The game screens whose every word is French (covered above): one board of each, mid-game, at 100x30."""


@pytest.mark.parametrize("game_id", FRENCH_BOARDS)
def test_a_board_in_french(snap_compare, game_id):
    from lanterne.client.screens.game import game_screen_for
    from tests.support.apps import make_app
    from tests.support.apps import no_blink
    from tests.support.apps import mid_game

    i18n.set_language("fr")
    controller = mid_game(game_id)
    assert snap_compare(make_app(lambda: game_screen_for(controller)), terminal_size=(100, 30), run_before=no_blink)


def test_the_settings_choose_the_language(tmp_path):
    from lanterne.client.settings import Settings

    path = tmp_path / "settings.json"
    Settings(language="fr").save(path)
    assert Settings.load(path).language == "fr"
    assert Settings.load(tmp_path / "none.json").language == ""       # default: the environment's


# ------------------------------------------------------------------- neutrality


def test_a_game_played_in_french_logs_the_same_bytes_as_in_english(tmp_path):
    """Words on screen change; the notation and the signed log do not."""
    from lanterne.client.controller import TABLE
    from lanterne.client.local_play import WATCH, make_local_game
    from lanterne.engines.registry import get_game

    def play(language: str) -> tuple[bytes, list[str]]:
        i18n.set_language("en")         # the seats' names are the game's data, chosen when it is made
        folder = tmp_path / language
        controller = make_local_game(get_game("pagode"), mode=WATCH, bot="random", seed="i18n", variant="quick",
                                     players=2, you="Ann", computer_delay=0.0, save_to=folder)
        i18n.set_language(language)     # what the screen says from here on
        try:
            import asyncio

            asyncio.run(asyncio.wait_for(controller.run(), 60))
            controller.close()
            moves = [e.text for e in controller.log if e.actor != TABLE]      # a table's words are the client's
            return controller.log_path.read_bytes(), moves
        finally:
            controller.close()

    french, english = play("fr"), play("en")
    assert french[1] == english[1]                      # the notation of every move
    assert french[0] == english[0]                      # the signed log, byte for byte


# ------------------------------------------------------------------- the rules in French

GAMES = ("pagode", "pueblo", "pacal", "pandoria")
SEEDS = {"pagode": ("pagode.fr.txt", "pagode-setup-ocr.fr.txt"), "pueblo": ("pueblo.fr.txt",),
         "pacal": ("pacals-rocket.fr.txt",), "pandoria": ("pandoria.fr.txt",)}


@pytest.mark.parametrize("game", GAMES)
def test_the_french_rules_carry_the_house_data_of_the_english_ones(game):
    import re

    from lanterne.client.rules_docs import for_players, rules_path, rules_text

    assert rules_path(game, "fr") is not None
    english, french = for_players(rules_text(game, language="en")), rules_text(game, language="fr")
    assert french != english and "maison" in french
    constants = set(re.findall(r"`([A-Z][A-Z_]{2,})(?: = [^`]*)?`", english))
    assert constants <= set(re.findall(r"[A-Z][A-Z_]{2,}", french)), constants - set(re.findall(r"[A-Z_]+", french))
    notation = set(re.findall(r"^\| `([^`]+)`", english, flags=re.M))       # the move notation is the same
    assert notation <= set(re.findall(r"^\| `([^`]+)`", french, flags=re.M))


@pytest.mark.parametrize("game", GAMES)
def test_the_french_rules_are_written_afresh_not_copied_from_the_rulebook(game):
    """No run of 7 words in a row is the rulebook's (shared/seeds, beside the repository; skipped without it)."""
    import re

    folder = next((p / "shared" / "seeds" for p in (ROOT.parent, ROOT.parent.parent, Path("/work"))
                   if (p / "shared" / "seeds").is_dir()), None)
    if folder is None:
        pytest.skip("the French rulebooks (shared/seeds) are not beside this checkout")

    def words(text: str) -> list[str]:
        return re.findall(r"[a-zàâçéèêëîïôûùüÿœ0-9']+", text.lower())

    seed = words(" ".join((folder / name).read_text(encoding="utf-8") for name in SEEDS[game]))
    runs = {tuple(seed[i:i + 7]) for i in range(len(seed) - 6)}
    ours = words((ROOT / "docs" / "rules" / "fr" / f"{game}.md").read_text(encoding="utf-8"))
    copied = [" ".join(ours[i:i + 7]) for i in range(len(ours) - 6) if tuple(ours[i:i + 7]) in runs]
    assert not copied


def test_the_rules_follow_the_language_and_fall_back_to_english():
    from lanterne.client.rules_docs import rules_text

    i18n.set_language("fr")
    assert rules_text("pueblo").startswith("# Pueblo — les règles telles que Lanterne les joue")
    assert "chef de tribu" in rules_text("pueblo")
    i18n.set_language("en")
    assert rules_text("pueblo").startswith("# Pueblo")
    assert "chef de tribu" not in rules_text("pueblo")
    assert rules_text("pueblo", language="xx") == rules_text("pueblo", language="en")


async def test_the_palette_chooses_the_language_saves_it_and_redraws_home(lanterne_home):
    import json

    from textual.widgets import Button

    from tests.support.apps import make_app

    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Language: Français" in titles and "Language: English" in titles
        next(c for c in app.get_system_commands(app.screen) if c.title == "Language: Français").callback()
        await pilot.pause()
        assert str(app.screen.query_one("#home-local", Button).label) == "Jouer sur cette machine  [p]"
        words = {b.description for bs in app.screen._bindings.key_to_bindings.values() for b in bs}
        assert "Réglages" in words
        assert json.loads((lanterne_home / "settings.json").read_text())["language"] == "fr"
        next(c for c in app.get_system_commands(app.screen) if c.title == "Langue : English").callback()
        await pilot.pause()
        assert str(app.screen.query_one("#home-local", Button).label) == "Play locally  [p]"


async def test_the_settings_screen_chooses_the_language_and_redraws_itself_in_it(lanterne_home):
    import json

    from textual.widgets import Label, Select

    from tests.support.apps import make_app

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        language = app.screen.query_one("#language", Select)
        assert language.value == "" and ("from the environment (English)", "") in language._options
        language.value = "fr"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert json.loads((lanterne_home / "settings.json").read_text())["language"] == "fr"
        labels = [str(w.render()) for w in app.screen.query(Label)]
        assert "Langue (les parties sont les mêmes dans toutes les langues)" in labels
        assert app.screen.query_one("#language", Select).value == "fr" and app.screen.sub_title == "Réglages"
        await pilot.press("escape")
        await pilot.pause()
        assert "Réglages" in {b.description for bs in app.screen._bindings.key_to_bindings.values() for b in bs}


def test_the_bench_report_is_french_on_the_terminal_and_english_in_the_docs(capsys):
    from bench import rows as bench
    from lanterne.client.cli import main

    results = [bench.Result(bench.BENCHMARKS[0], 300.0, [300.0]), bench.Result(bench.BENCHMARKS[6], None, [], "n/a")]
    i18n.set_language("fr")
    french = bench.markdown_table(results, say=_, say_term=i18n.pgettext)
    assert french.splitlines()[0] == "| figure mesurée | médiane | objectif | atteint | marge | reproduire |"
    assert ("| Pagode : parties aléatoires complètes par seconde (un cœur) | 300 games/s | >= 200 games/s | oui |"
            in french)
    assert "Pagode : coup du joueur de recherche" in french
    english = bench.markdown_table(results)          # what --write-docs writes, whatever the language
    assert english.splitlines()[0] == "| figure | median | target | met | headroom | reproduce |"
    assert "| Pagode: complete random games per second (one core) | 300 games/s | >= 200 games/s | yes |" in english
    assert main(["--lang", "fr", "bench", "--list", "--only", "pueblo"]) == 0
    assert "Pueblo : poses permises générées par seconde" in capsys.readouterr().out


def test_an_unknown_game_is_one_french_line(capsys):
    from lanterne.client.cli import EXIT_USAGE, main

    assert main(["--lang", "fr", "play", "pagod"]) == EXIT_USAGE
    assert capsys.readouterr().err == "lanterne: pas de jeu 'pagod' (jeux : pagode, pueblo, pacal, pandoria)\n"


def test_verify_says_a_missing_log_in_french(capsys, tmp_path):
    from lanterne.client.cli import main

    missing = tmp_path / "none.log"
    assert main(["--lang", "fr", "verify", str(missing), str(tmp_path)]) != 0
    assert capsys.readouterr().err.splitlines() == [f"lanterne: {missing}: fichier introuvable",
                                                    f"lanterne: {tmp_path}: un dossier, pas un fichier de journal"]


def test_the_tables_operations_are_said_in_french_with_plurals():
    from lanterne.client.controller import describe_table_op
    from lanterne.engines.core import DEAL, ROLL, SHUFFLE, TableOp

    i18n.set_language("fr")
    assert describe_table_op(TableOp(SHUFFLE, "draw", (1, 2, 3))) == "mélange : pioche (3 cartes)"
    assert describe_table_op(TableOp(DEAL, "draw", (4,), 1)) == "distribue 1 carte à J2"
    first = TableOp(ROLL, faces=2, why="first player")
    assert describe_table_op(first, ("roll", 1)) == "tirage (premier joueur) : J2 commence"
    i18n.set_language("en")
    assert describe_table_op(TableOp(SHUFFLE, "draw", (1, 2, 3))) == "shuffle draw (3 cards)"
    assert describe_table_op(first, ("roll", 1)) == "roll (first player): P2 starts"


@pytest.mark.slow
def test_a_french_peer_and_an_english_peer_play_one_game_with_byte_identical_logs(tmp_path, monkeypatch):
    """Two processes over TCP on 127.0.0.1 (``lanterne host --lang fr``, ``lanterne join --lang en``, computer
    players): each speaks its language, the game and its signed log are one."""
    from lanterne.client.commands import netplay

    spawn = netplay._spawn
    languages = iter(["fr", "en"])

    def spawn_in(args, home):
        return spawn([args[0], "--lang", next(languages), *args[1:]], home)

    monkeypatch.setattr(netplay, "_spawn", spawn_in)
    (french, english), results = netplay.play_one("pagode", "quick", 2, ["random"], "i18n", tmp_path, timeout=240)
    assert french.read_bytes() == english.read_bytes()
    assert results[0] == results[1] and results[0]["counted"] == "points"
    assert french.stat().st_size > 1000


def test_lanterne_serve_gives_each_browser_tab_its_language():
    from lanterne.client.commands.serve import child_command

    import shlex

    i18n.set_language("fr")
    assert shlex.split(child_command())[-1].endswith("child('fr'))")
