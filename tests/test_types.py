"""The whole of protocol/ passes mypy (the list may only grow: client/ and engines/ next).

mypy cannot follow setuptools' editable import hook, so it reads the package from a link tree that
lays the checkout's folders out as ``lanterne.*`` (the layout a wheel installs).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

TYPED = ["lanterne.protocol"]
"""Packages (every module in them) and modules that type-check: the whole of protocol/."""


def link_tree(where: Path) -> Path:
    """``where/lanterne`` with the checkout's layers linked in as its subpackages."""
    package = where / "lanterne"
    package.mkdir()
    for name in ("__init__.py", "__main__.py"):
        shutil.copy(ROOT / "lanterne" / name, package / name)
    for layer in ("protocol", "engines", "client"):
        (package / layer).symlink_to(ROOT / layer)
    return where


def test_the_typed_modules_pass_mypy(tmp_path):
    pytest.importorskip("mypy", reason="mypy comes with the test extra: pip install -e '.[test]'")
    tree = link_tree(tmp_path)
    args = [sys.executable, "-m", "mypy", "--follow-imports=silent", "--ignore-missing-imports",
            "--no-incremental", "--cache-dir", str(tmp_path / ".mypy_cache")]
    for name in TYPED:
        args += ["-p" if (ROOT / name.removeprefix("lanterne.").replace(".", "/")).is_dir() else "-m", name]
    done = subprocess.run(args, cwd=tree, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
