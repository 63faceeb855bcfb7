"""The suite's own shape, read from the source: test modules share helpers only through support modules.

A test module that imports another one runs that module's fixtures and module-level setup wherever it
is imported, and ties two subjects together so that moving one test breaks another. Shared helpers live
in ``tests/support/`` or in a folder's ``helpers``/``positions``-style module, never in a ``test_*.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports resolved against its package."""
    package = path.relative_to(TESTS.parent).with_suffix("").parts[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = list(package[:len(package) - node.level + 1]) if node.level else []
            module = ".".join([*base, *(node.module or "").split(".")]).strip(".")
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def test_no_test_module_imports_another():
    offenders = []
    for path in sorted(TESTS.rglob("*.py")):
        for module in imported_modules(path):
            if module.startswith("tests.") and module.rsplit(".", 1)[-1].startswith("test_"):
                offenders.append(f"{path.relative_to(TESTS.parent)} imports {module}")
    assert not offenders, "\n".join(offenders)
