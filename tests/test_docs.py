"""The docs cite only what the repository holds: every relative link, every source path, every ``path:NAME``.

A reader of docs/ never needs anything outside the checkout, and a renamed file or function breaks
this test instead of leaving a doc that points nowhere.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"\]\(([^)\s]+)\)")
CITED = re.compile(r"`((?:engines|client|protocol|tests|docs|lanterne|bench|fuzz)/[A-Za-z0-9_./-]*)(?::([A-Za-z_][A-Za-z0-9_.]*))?`")
OUTSIDE = re.compile(r"shared/(?:seeds|rules|design)|\.\./\.\.|kept outside this repository")


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_every_relative_link_of_a_doc_exists(doc: Path) -> None:
    missing = []
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (doc.parent / target.split("#")[0]).resolve()
        if not path.exists():
            missing.append(target)
        elif ROOT not in path.parents and path != ROOT:
            missing.append(f"{target} (outside the repository)")
    assert not missing, f"{doc.relative_to(ROOT)} links to what is not in the repository: {missing}"


def cited_missing(text: str) -> list[str]:
    """The paths (and ``path:NAME``, ``module.NAME``) the text cites in backquotes that the checkout lacks."""
    missing = []
    for path, name in CITED.findall(text):
        if "<" in path or "*" in path:
            continue
        file = _file(path)
        if file is None and "." in path.rsplit("/", 1)[-1]:
            module, _, name = path.rpartition(".")             # `client/local_play.move_seconds`
            file = _file(module + ".py")
        if file is None:
            missing.append(path)
        elif name and file.is_file() and name.split(".")[0] not in file.read_text(encoding="utf-8"):
            missing.append(path if path.endswith(name) else f"{path}:{name}")
    return missing


def _file(path: str) -> Path | None:
    """The file a cited path names: from the checkout's top, or as the package ``lanterne/`` maps it."""
    for candidate in (ROOT / path, ROOT / path.removeprefix("lanterne/")):
        if candidate.exists():
            return candidate
    return None


def test_the_check_catches_a_missing_path_and_a_missing_name() -> None:
    text = "`engines/core.py`, `engines/nowhere.py`, `engines/core.py:Game`, `engines/core.py:Nothing_here`, " \
           "`client/local_play.move_seconds`, `client/local_play.no_such_name`"
    assert cited_missing(text) == ["engines/nowhere.py", "engines/core.py:Nothing_here", "client/local_play.no_such_name"]


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_every_source_path_a_doc_cites_exists(doc: Path) -> None:
    missing = cited_missing(doc.read_text(encoding="utf-8"))
    assert not missing, f"{doc.relative_to(ROOT)} cites what is not there: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_no_doc_sends_its_reader_outside_the_repository(doc: Path) -> None:
    found = OUTSIDE.findall(doc.read_text(encoding="utf-8"))
    assert not found, f"{doc.relative_to(ROOT)} points outside the repository: {found}"
