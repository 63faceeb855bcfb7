"""The harness of the ``same_behaviour.py`` scripts: an engine of an old commit against the working tree's.

A game's script defines ``record(out)`` (play its games with the ``lanterne``
first on ``sys.path`` and pickle what was seen to ``out``) and calls
:func:`main` with its own file; each side records in a process of its own,
the old one with ``COMMIT``'s tree (``git archive``) put first on ``sys.path``.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def old_tree(commit: str, into: Path) -> Path:
    """The ``lanterne`` package of ``commit``, laid out as pyproject's package-dir maps it: the folder for sys.path."""
    src = into / "src"
    src.mkdir()
    archive = subprocess.run(["git", "archive", commit, "lanterne", "engines", "client", "protocol"],
                             cwd=REPO, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    package = into / "root" / "lanterne"
    package.mkdir(parents=True)
    for path in (src / "lanterne").glob("*.py"):
        (package / path.name).write_bytes(path.read_bytes())
    for layer in ("engines", "client", "protocol"):
        (package / layer).symlink_to(src / layer)
    return into / "root"


def compare(old: dict, new: dict) -> int:
    """Print where the records first differ; the number of games that do."""
    if old.keys() != new.keys():
        print("not the same games")
        return len(old.keys() ^ new.keys())
    bad = [k for k in old if old[k] != new[k]]
    for k in bad[:3]:
        i = next((i for i, (a, b) in enumerate(zip(old[k], new[k])) if a != b), min(len(old[k]), len(new[k])))
        print(f"{k} differs at step {i}")
        print("  old:", old[k][i][:2000] if i < len(old[k]) else "(ended)")
        print("  new:", new[k][i][:2000] if i < len(new[k]) else "(ended)")
    steps = sum(map(len, old.values()))
    print(f"{len(old)} games, {steps} steps: " + ("identical" if not bad else f"{len(bad)} games differ"))
    return len(bad)


def main(script: str, argv: list[str], usage: str) -> int:
    """``script``'s ``record`` run with the engine of ``argv[1]`` and with the working tree's; 0 if identical."""
    if len(argv) != 2:
        sys.exit(usage)
    script_path = Path(script).resolve()
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        root = old_tree(argv[1], tmp_path)
        runs = {}
        for name, path in (("old", str(root)), ("new", "")):
            out = tmp_path / f"{name}.pickle"
            code = (f"import sys; sys.path.insert(0, {path!r}) if {path!r} else None; "
                    f"sys.path.insert(0, {str(script_path.parent)!r}); "
                    f"import {script_path.stem} as script; script.record({str(out)!r})")
            subprocess.run([sys.executable, "-c", code], check=True, cwd=tmp)
            runs[name] = pickle.loads(out.read_bytes())
        return 1 if compare(runs["old"], runs["new"]) else 0
