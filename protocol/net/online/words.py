"""The words of a code (magic-wormhole's PGP word list), for completing what a person types.

Read from magic-wormhole's own list without importing its package (which
imports Twisted: the app never does, see :mod:`.process`); if it cannot be
read, nothing is completed and a code is typed in full.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from pathlib import Path

WORD_PAIR = re.compile(r"'[0-9A-Fa-f]{2}': \['([A-Za-z]+)', '([A-Za-z]+)'\]")


@functools.cache
def words() -> tuple[str, ...]:
    """Every word a code may hold, sorted (empty if magic-wormhole's list is not there)."""
    spec = importlib.util.find_spec("wormhole")
    if spec is None or spec.origin is None:
        return ()
    try:
        text = (Path(spec.origin).parent / "_wordlist.py").read_text(encoding="utf-8")
    except OSError:
        return ()
    return tuple(sorted({word.lower() for pair in WORD_PAIR.findall(text) for word in pair}))


def complete(typed: str) -> str | None:
    """``typed`` with its last word completed, when exactly one word of the list starts so (else None).

    Only a word after the code's number is completed: ``7-cross`` -> ``7-crossover``.
    """
    head, dash, last = typed.rpartition("-")
    if not dash or not last or not last.isalpha():
        return None
    found = [w for w in words() if w.startswith(last.lower())]
    if len(found) != 1 or found[0] == last.lower():
        return None
    return f"{head}-{found[0]}"
