"""The client's layout, read from the source (docs/client.md, "Layout of the code").

* One home per pixel: each game's board screen, its widgets and its
  stylesheet live in ``client/games/<game>/``; no game module is left in
  ``client/screens`` or ``client/widgets``, no game keeps a ``DEFAULT_CSS``.
* Colours in one module: no colour literal (hex, ``rgb()``) in the client
  outside ``client/theme.py``, and the stylesheets (files and the
  ``DEFAULT_CSS`` that remain) name no colour: only the theme's variables.
* Network screens by composition: no class built with ``type(...)`` at run
  time, no mixin, the banner reads a typed protocol (no probing).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest
from rich.color import ANSI_COLOR_NAMES
from textual._color_constants import COLOR_NAME_TO_RGB

from lanterne.client.games import client_side
from lanterne.engines.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "client"
THEME = CLIENT / "theme.py"

HEX = re.compile(r"(?<![\w#-])#(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{3,4})(?![\w-])")
COLOUR_FUNCTION = re.compile(r"\b(?:rgba?|hsla?)\(")
NAMED = {name for name in COLOR_NAME_TO_RGB if name != "transparent"}
"""Textual's colour names (a stylesheet's)."""
RICH_NAMED = set(ANSI_COLOR_NAMES) - {"default"}
"""Rich's colour names (a board's text styles)."""


def sources(*suffixes: str) -> list[Path]:
    return sorted(p for suffix in suffixes for p in CLIENT.rglob(f"*{suffix}")
                  if "rules" not in p.relative_to(CLIENT).parts)


def default_css(path: Path) -> list[tuple[int, str]]:
    """Every ``DEFAULT_CSS = ...`` of a module: (line, its text; an f-string's constant parts)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "DEFAULT_CSS" for t in node.targets):
            parts = [n.value for n in ast.walk(node.value) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
            out.append((node.lineno, "".join(parts)))
    return out


def style_strings(path: Path) -> list[ast.Constant]:
    """The string parts of a module's Rich styles: ``style=...``, the style given to ``append``/``put``/
    ``stylize``, and names ending in ``STYLE``/``_style``/``INK``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        value = None
        if isinstance(node, ast.keyword) and node.arg == "style":
            value = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and len(node.args) >= 2 \
                and node.func.attr in ("append", "put", "stylize"):
            value = node.args[-1]
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id.endswith(("STYLE", "_style", "INK"))
                                                  for t in node.targets):
            value = node.value
        if value is not None:
            out += [n for n in ast.walk(value) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return out


def colours_in_css(css: str) -> list[str]:
    """The colours a stylesheet writes itself (a hex, rgb(), a named colour) rather than a $variable."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found = HEX.findall(css) + COLOUR_FUNCTION.findall(css)
    for value in re.findall(r":\s*([^;{}]*)", css):
        found += [word for word in re.findall(r"(?<![$\w-])[a-z_]+(?![\w-])", value) if word in NAMED]
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_screen_lives_in_its_folder_with_its_stylesheet(game_id):
    screen = client_side(game_id).screen
    assert screen.__module__ == f"lanterne.client.games.{game_id}.screen"
    folder = CLIENT / "games" / game_id
    assert Path(inspect.getfile(screen)).resolve() == (folder / "screen.py").resolve()
    assert screen.CSS_PATH == f"{game_id}.tcss" and (folder / f"{game_id}.tcss").is_file()
    strays = [p.relative_to(ROOT) for sub in ("screens", "widgets") for p in (CLIENT / sub).glob(f"{game_id}*.py")]
    assert not strays, f"{game_id}'s modules belong in client/games/{game_id}/: {strays}"


def test_the_games_keep_no_default_css():
    """A game's rules are all in its stylesheet file: none in a DEFAULT_CSS string."""
    found = [f"{p.relative_to(ROOT)}:{line}" for p in sources(".py") if "games" in p.relative_to(CLIENT).parts
             for line, _ in default_css(p)]
    assert not found, found


def test_no_colour_literal_outside_the_theme():
    found = [f"{p.relative_to(ROOT)}:{n}: {m}" for p in sources(".py", ".tcss") if p != THEME
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             for m in HEX.findall(line) + COLOUR_FUNCTION.findall(line)]
    assert not found, found


def test_no_colour_named_in_a_text_style_outside_the_theme():
    """The boards' and the lobby's Rich styles take a named terminal colour from the theme too (WHITE, GOOD...)."""
    found = [f"{p.relative_to(ROOT)}:{s.lineno}: {s.value!r}" for p in sources(".py") if p != THEME
             for s in style_strings(p) if set(re.findall(r"[a-z_0-9]+", s.value)) & RICH_NAMED]
    assert not found, found


def test_the_stylesheets_take_their_colours_from_the_theme():
    """The .tcss files and the remaining DEFAULT_CSS strings use the theme's variables, never a colour."""
    found = [f"{p.relative_to(ROOT)}: {c}" for p in sources(".tcss") for c in colours_in_css(p.read_text())]
    found += [f"{p.relative_to(ROOT)}:{line}: {c}" for p in sources(".py") for line, css in default_css(p)
              for c in colours_in_css(css)]
    assert not found, found


def test_the_checks_see_a_colour():
    assert colours_in_css("A { color: red; background: #123456 50%; }") == ["#123456", "red"]
    assert colours_in_css("A { color: $text-muted; border: round $panel; } #red-box { height: 1; }") == []
    assert HEX.findall('query_one("#hand-0") style="bold #ff9a3c" on #fff') == ["#ff9a3c", "#fff"]


@pytest.mark.parametrize("widget, module, width, height", [
    ("PuebloBoard", "lanterne.client.games.pueblo.widgets", "BOARD_W", "BOARD_H"),
    ("PacalMap", "lanterne.client.games.pacal.widgets", "MAP_WIDTH", "MAP_HEIGHT"),
    ("HexMap", "lanterne.client.games.pandoria.widgets", "MAP_WIDTH", "MAP_HEIGHT"),
])
def test_a_board_drawn_to_size_has_that_size_in_its_stylesheet(widget, module, width, height):
    """The maps are drawn cell by cell in Python: the stylesheet gives them the size the drawing takes."""
    game = module.split(".")[3]
    css = (CLIENT / "games" / game / f"{game}.tcss").read_text()
    values = importlib.import_module(module)
    rule = re.search(rf"^{widget} {{ width: (\d+); height: (\d+); }}", css, flags=re.M)
    assert rule, f"{widget}'s size rule in {game}.tcss"
    assert (int(rule[1]), int(rule[2])) == (getattr(values, width), getattr(values, height))


def test_network_screens_are_composed_not_built_at_run_time():
    found = []
    for p in sources(".py"):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type" \
                    and len(node.args) == 3:
                found.append(f"{p.relative_to(ROOT)}:{node.lineno}: type(name, bases, namespace)")
            if isinstance(node, ast.ClassDef) and node.name.endswith("Mixin"):
                found.append(f"{p.relative_to(ROOT)}:{node.lineno}: class {node.name}")
    assert not found, found
    banner = (CLIENT / "widgets" / "link_banner.py").read_text()
    assert "getattr(" not in banner and "hasattr(" not in banner
    lobby = (CLIENT / "screens" / "lobby.py").read_text()
    assert "type(" not in lobby and "type: ignore" not in lobby
