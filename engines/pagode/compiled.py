"""Whether Pagode's engine runs compiled: an extension is used only if it was built from the source beside it.

setup.py compiles ``MODULES`` with Cython where a C compiler is found and
writes beside each extension the digest of the ``.py`` it came from. Python
imports an extension before a ``.py`` of the same name, so an extension left
from an older build would run in place of an edited source. Before any of
these modules is imported (the package's ``__init__`` imports this one
first), ``choose`` checks every digest; if one differs or is missing, or if
``LANTERNE_PURE=1`` asks for the sources, a finder first on ``sys.meta_path``
loads all of ``MODULES`` from their sources. Both builds play the same games
byte for byte (tests/engines/pagode/test_compiled.py).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path

MODULES = ("state", "views", "payments", "rules")   # as in setup.py's COMPILED
PACKAGE = __name__.rpartition(".")[0]
HERE = Path(__file__).resolve().parent


def stale(folder: Path = HERE) -> list[str]:
    """The modules of ``MODULES`` in ``folder`` with no extension built from the source beside it."""
    out = []
    for name in MODULES:
        built = any((folder / f"{name}{suffix}").is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)
        try:   # bytes, not text: a damaged digest file is a mismatch, never a decoding error at import
            recorded = (folder / f"{name}.source-sha256").read_bytes().strip()
            source = hashlib.sha256((folder / f"{name}.py").read_bytes()).hexdigest().encode()
        except OSError:
            recorded, source = b"", None
        if not (built and recorded == source):
            out.append(name)
    return out


class _Sources:
    """A finder that loads ``MODULES`` from their ``.py`` files, ahead of any extension."""

    def __init__(self, folder: Path) -> None:
        self.paths = {f"{PACKAGE}.{name}": folder / f"{name}.py" for name in MODULES}

    def find_spec(self, fullname, path=None, target=None):
        source = self.paths.get(fullname)
        return None if source is None else importlib.util.spec_from_file_location(fullname, source)


def choose() -> str:
    """Decide once which build the package imports: "" for the compiled one, else why the sources."""
    if os.environ.get("LANTERNE_PURE") == "1":
        why = "LANTERNE_PURE=1"
    else:
        left = stale()
        if not left:
            return ""
        built = any(HERE.glob("*.source-sha256")) or any(HERE.glob("*" + importlib.machinery.EXTENSION_SUFFIXES[0]))
        why = "compiled build out of date: " + ", ".join(left) if built else "no compiled build"
    if not any(isinstance(finder, _Sources) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Sources(HERE))
    return why


WHY_SOURCES = choose()
COMPILED = not WHY_SOURCES
BUILD = "compiled (Cython)" if COMPILED else f"Python sources ({WHY_SOURCES})"
"""In words, for ``lanterne bench`` and the docs."""
