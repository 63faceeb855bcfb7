"""Where the English rules live: docs/rules/<game>.md next to the source.

The rules are read from the repository's ``docs/rules`` folder (found from
this file's location), or from ``client/rules`` when a packaged copy exists.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
RULES_DIRS = (_HERE.parent / "docs" / "rules", _HERE / "rules")


def rules_path(game_id: str) -> Path | None:
    for folder in RULES_DIRS:
        path = folder / f"{game_id}.md"
        if path.is_file():
            return path
    return None


def rules_text(game_id: str, game_name: str | None = None) -> str:
    """The rules as Markdown, or a Markdown note saying why they are missing."""
    path = rules_path(game_id)
    name = game_name or game_id
    if path is None:
        where = " or ".join(str(d / f"{game_id}.md") for d in RULES_DIRS)
        return (f"# {name}\n\nThe rules of {name} are not written yet.\n\n"
                f"Lanterne looks for them in `{where}`.")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return f"# {name}\n\nThe rules file `{path}` cannot be read: {e}."
