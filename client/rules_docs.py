"""The rules of each game: package data ``client/rules/`` (the engine's English reference
``<game>.md``; the pages for players ``en/<game>.md``, ``fr/<game>.md``).

They are read through :mod:`importlib.resources`, so an installed wheel (or
``pipx install``) finds them wherever the package landed. There is one copy:
``docs/rules/*.md`` in the repository, which is what people read and edit;
``client/rules`` is a symbolic link to it, so the source checkout reads the
same files and setuptools copies them into the wheel as package data
(``tests/test_install.py`` builds one and reads every game's rules from it).
"""

from __future__ import annotations

import re
from importlib import resources
from importlib.resources.abc import Traversable

from lanterne.client.i18n import _, language as current

RULES_PACKAGE = __package__   # "lanterne.client": the rules are its package data
RULES_FOLDER = "rules"


def rules_path(game_id: str, language: str = "en") -> Traversable | None:
    """The rules file of ``game_id`` in ``language`` in the package data (English: ``rules/<game>.md``,
    another language: ``rules/<lang>/<game>.md``), or None."""
    folder = resources.files(RULES_PACKAGE).joinpath(RULES_FOLDER)
    path = folder.joinpath(f"{game_id}.md") if language == "en" else folder.joinpath(language, f"{game_id}.md")
    return path if path.is_file() else None


def rules_text(game_id: str, game_name: str | None = None, language: str | None = None) -> str:
    """The rules as Markdown in ``language`` (default: the language in force; English where a language
    lacks them), or a Markdown note saying why they are missing."""
    language = language or current()
    path = rules_path(game_id, language) or rules_path(game_id)
    name = game_name or game_id
    if path is None:
        return (f"# {name}\n\n" + _("The rules of {name} are not written yet.").format(name=name) + "\n\n"
                + _("Lanterne looks for them in its package data, {path}.").format(
                    path=f"`{RULES_PACKAGE}/{RULES_FOLDER}/{game_id}.md`"))
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return f"# {name}\n\n" + _("The rules file {path} cannot be read: {error}.").format(path=f"`{path}`", error=e)


def players_rules(game_id: str, game_name: str | None = None, language: str | None = None) -> str:
    """The rules as the Rules screen shows them: the page written for players (English:
    ``rules/en/<game>.md``; another language: its own page), without what is for programmers. The
    English ``rules/<game>.md`` is the engine's reference, the one the others are checked against."""
    language = language or current()
    if language == "en" or rules_path(game_id, language) is None:
        page = resources.files(RULES_PACKAGE).joinpath(RULES_FOLDER, "en", f"{game_id}.md")
        if page.is_file():
            return for_players(page.read_text(encoding="utf-8"))
    return for_players(rules_text(game_id, game_name, language))


DEVELOPER_SECTIONS = re.compile(
    r"for programs|engine api|position format|for the (game )?screen|^speed$|tests and speed|^events$",
    re.IGNORECASE)
"""Sections of docs/rules/*.md written for programmers (the engine's API, the position format, the
events, speed), which the rules screen leaves out: a player reads the rules and the move notation."""


def for_players(markdown: str) -> str:
    """The rules without the sections for programmers, nor a source path in what is left."""
    out: list[str] = []
    skipping = False
    for line in markdown.splitlines():
        heading = re.match(r"^(#{1,6})\s+(.*)$", line)
        if heading and len(heading.group(1)) <= 2:
            skipping = len(heading.group(1)) == 2 and bool(DEVELOPER_SECTIONS.search(heading.group(2).strip()))
        elif heading and skipping:
            continue
        if not skipping:
            out.append(SOURCE_PATH.sub("", line))
    return "\n".join(out).rstrip() + "\n"


SOURCE_PATH = re.compile(r"\s*\(?`(?:engines|client|protocol|tests)/[^`]*`\)?")
"""A source path in the text (`engines/pueblo/view.py`), with its brackets: no use to a player."""
