"""The import layers, read from the source (the AST: nothing is imported).

* Dependencies point one way, ``client -> protocol -> engines``: no module of
  ``engines/`` imports ``protocol`` or ``client``; none of ``protocol/``
  imports ``client`` (docs/architecture.md).
* Every game package is laid out in one order, each module importing only
  modules before it: data -> board -> state (with its save/load) -> actions
  -> rules -> notation -> game -> search -> view -> package ``__init__``, ``engines/core.py`` below them
  all. :data:`ORDER` places each package's modules; a new module must be
  placed there, so it cannot form a cycle.
* ``client/`` reads a game's engine through its package and its ``view`` module alone.
* ``client/`` touches no private name of ``protocol/``: no ``x._name`` where
  ``_name`` is a function, method or attribute ``protocol/`` defines and
  ``client/`` does not (its own privates on ``self`` or ``cls`` are its own).
* The product imports neither the benchmarks nor the fuzzer (the checkout's ``bench/`` and ``fuzz/``), and
  those import nothing of ``tests/``: ``lanterne bench`` loads ``bench/`` by its path, never the tests.
* ``engines/`` has no import cycle at all, and no import inside a function
  (the usual way to hide a cycle) other than those in :data:`ALLOWED_LATE`,
  each with its reason.

A small AST walk rather than import-linter: the rules are these few lines,
they cover imports inside functions and ``TYPE_CHECKING`` blocks (which an
import-time graph misses), and the suite needs no new dependency.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = tuple(sorted(p.parent.name for p in (ROOT / "engines").glob("*/game.py")))
"""Every game package, the template included: a folder of ``engines/`` with a ``game.py``."""

SKELETON = ("data", "board", "state", "actions", "rules", "notation", "game", "search", "view", "__init__")
"""The one layout (docs/adding-a-game.md): a game whose modules are all in it, in this order, needs no
line in :data:`ORDER`."""

ORDER: dict[str, tuple[str, ...]] = {
    "example": ("game", "__init__"),
}
"""The game packages with modules outside :data:`SKELETON`, lowest first: the template is one file."""

CONTRACT = ("lanterne.engines.core", "lanterne.engines.game_type")
"""What every game package may import from ``engines`` besides itself: the contract and the declaration."""

ALLOWED_FROM_ENGINES: dict[str, set[str]] = {}
"""What a game package may import from ``engines`` besides :data:`CONTRACT` and itself."""

ALLOWED_LATE = {
    ("lanterne.engines.registry", "importlib.import_module"):
        "the registry loads a game package on first use, so that a broken or unbuilt game does not stop the others",
    ("lanterne.engines.bots.ismcts", "time"):
        "the wall clock, only for a search level given in seconds when no clock was injected",
    ("lanterne.engines.bots.trial", "lanterne.engines.bots.openspiel"):
        "OpenSpiel is the optional extra 'bench': a trial imports it only when it plays against it",
}
"""Imports inside functions in ``engines/`` that stay, with why."""


def module_name(path: Path, root: Path = ROOT) -> str:
    """The import name: the three layer folders are installed under ``lanterne.`` (pyproject's package-dir)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["lanterne", *parts])


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def exists(name: str, root: Path = ROOT) -> bool:
    parts = name.split(".")
    if parts[0] != "lanterne" or len(parts) < 2:
        return False
    base = root.joinpath(*parts[1:])
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


class Import:
    def __init__(self, target: str, line: int, late: bool):
        self.target, self.line, self.late = target, line, late


def imports(path: Path, root: Path = ROOT) -> list[Import]:
    """Every module ``path`` imports (resolved: ``from . import x`` gives the package's ``x`` when it is a
    module), and whether the import is inside a function; ``importlib.import_module`` calls count too."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    me = module_name(path, root)
    package = me if is_package(path) else me.rpartition(".")[0]
    out: list[Import] = []

    def visit(node: ast.AST, late: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = late or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                out.extend(Import(a.name, child.lineno, late) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - (child.level - 1)]
                    source = ".".join(base + ([child.module] if child.module else []))
                else:
                    source = child.module or ""
                for a in child.names:
                    sub = f"{source}.{a.name}"
                    out.append(Import(sub if exists(sub, root) else source, child.lineno, late))
            elif isinstance(child, ast.Call) and late:
                f = child.func
                if ((isinstance(f, ast.Attribute) and f.attr == "import_module")
                        or (isinstance(f, ast.Name) and f.id in ("import_module", "__import__"))):
                    out.append(Import("importlib.import_module", child.lineno, late))
            visit(child, inner)

    visit(tree, False)
    return out


def sources(top: str, root: Path = ROOT) -> list[Path]:
    return sorted(p for p in (root / top).rglob("*.py") if "__pycache__" not in p.parts)


def within(target: str, top: str) -> bool:
    top = top if top.startswith("lanterne.") else f"lanterne.{top}"
    return target == top or target.startswith(top + ".")


@pytest.mark.parametrize("lower, upper", [("engines", "protocol"), ("engines", "client"), ("protocol", "client")])
def test_no_module_imports_a_layer_above_its_own(lower, upper):
    bad = [f"{module_name(p)}:{i.line} imports {i.target}"
           for p in sources(lower) for i in imports(p) if within(i.target, upper)]
    assert not bad, bad


@pytest.mark.parametrize("game", GAMES)
def test_every_game_package_imports_in_one_direction(game):
    pkg = f"lanterne.engines.{game}"
    files = {p.stem: p for p in (ROOT / "engines" / game).glob("*.py")}
    order = ORDER.get(game, SKELETON)
    unplaced = set(files) - set(order)
    assert not unplaced, f"a module of {pkg} outside the skeleton: place it in ORDER (unplaced: {unplaced})"
    bad = []
    for stem, path in files.items():
        rank = order.index(stem)
        for i in imports(path):
            if within(i.target, pkg):
                rest = i.target[len(pkg) + 1:].split(".")[0] or "__init__"
                if order.index(rest) >= rank:
                    bad.append(f"{pkg}.{stem}:{i.line} imports {i.target}, which is not below it")
            elif within(i.target, "engines") and i.target not in CONTRACT and not any(
                    within(i.target, ok) for ok in ALLOWED_FROM_ENGINES.get(f"{pkg}.{stem}", ())):
                bad.append(f"{pkg}.{stem}:{i.line} imports {i.target} (a game needs the contract only)")
    assert not bad, bad


@pytest.mark.parametrize("game", GAMES)
def test_the_game_class_is_in_game_py_and_the_state_class_in_state_py(game):
    package = importlib.import_module(f"lanterne.engines.{game}")
    game_class = type(package.GAME)
    assert game_class.__module__ == f"lanterne.engines.{game}.game", game_class
    state = package.GAME.setup(players=package.GAME.min_players)
    expected = f"lanterne.engines.{game}.game" if game == "example" else f"lanterne.engines.{game}.state"   # the template is one file
    assert type(state).__module__ == expected, type(state)


def test_the_client_reads_a_game_through_its_package_and_its_view_alone():
    """Of a game's engine the client imports the package (``GAME``, ``GAME_TYPE``) and its ``view`` module, no
    other: the rest of the engine can change shape without a screen knowing."""
    games = [g for g in GAMES if g != "example"]
    bad = [f"{module_name(p)}:{i.line} imports {i.target}" for p in sources("client") for i in imports(p)
           for g in games if within(i.target, f"engines.{g}")
           and i.target not in (f"lanterne.engines.{g}", f"lanterne.engines.{g}.view")]
    assert not bad, bad


def test_the_contract_is_at_the_bottom():
    assert not [i.target for i in imports(ROOT / "engines" / "core.py") if within(i.target, "engines")]


def test_engines_have_no_import_cycle():
    graph: dict[str, set[str]] = {}
    for p in sources("engines"):
        me = module_name(p)
        graph[me] = {i.target for i in imports(p) if within(i.target, "engines") and i.target != me}
    cycle = find_cycle({k: {t for t in v if t in graph} for k, v in graph.items()})
    assert cycle is None, " -> ".join(cycle or [])


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return None


def test_no_import_inside_a_function_in_engines_but_the_listed_ones():
    late = {(module_name(p), i.target): i.line for p in sources("engines") for i in imports(p) if i.late}
    unlisted = [f"{m}:{line} imports {t} inside a function" for (m, t), line in late.items() if (m, t) not in ALLOWED_LATE]
    assert not unlisted, unlisted
    stale = [k for k in ALLOWED_LATE if k not in late]
    assert not stale, f"ALLOWED_LATE lists imports that are gone: {stale}"


def test_the_check_finds_what_it_is_for(tmp_path):
    """The walk sees a late import, a TYPE_CHECKING import and a relative one; the cycle finder finds a cycle."""
    src = tmp_path / "engines" / "toy"
    src.mkdir(parents=True)
    (src / "__init__.py").write_text("")
    (src / "rules.py").write_text("from . import notation\n")
    (src / "notation.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .rules import X\n"
        "def f():\n    from lanterne.protocol import wire\n")
    found = {(module_name(p, tmp_path), i.target, i.late)
             for p in sources("engines", tmp_path) for i in imports(p, tmp_path)}
    assert ("lanterne.engines.toy.rules", "lanterne.engines.toy.notation", False) in found
    assert ("lanterne.engines.toy.notation", "lanterne.engines.toy.rules", False) in found
    assert ("lanterne.engines.toy.notation", "lanterne.protocol", True) in found
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("top", ["client", "engines", "protocol"])
def test_the_product_imports_no_benchmark_and_no_fuzzer(top):
    bad = [f"{p.relative_to(ROOT)}:{i.line} imports {i.target}" for p in sources(top) for i in imports(p)
           if i.target.split(".")[0] in ("bench", "fuzz")]
    assert not bad, bad


@pytest.mark.parametrize("top", ["bench", "fuzz"])
def test_the_benchmarks_and_the_fuzzer_import_nothing_of_the_tests(top):
    bad = [f"{p.relative_to(ROOT)}:{i.line} imports {i.target}" for p in sources(top) for i in imports(p)
           if i.target.split(".")[0] == "tests"]
    assert sources(top) and not bad, bad


@pytest.mark.parametrize("top", ["engines", "protocol", "client", "tests", "bench", "fuzz"])
def test_every_import_of_the_project_goes_through_the_lanterne_package(top):
    """Installed, the layers exist only as ``lanterne.engines`` etc.: a bare ``import engines`` works from a
    checkout (the repository root is on the path) and breaks in a wheel, so none may exist."""
    bare = [f"{p.relative_to(ROOT)}:{i.line} imports {i.target}"
            for p in sources(top) for i in imports(p)
            if i.target.split(".")[0] in ("engines", "protocol", "client")]
    assert not bare, bare


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_names(top: str, root: Path = ROOT) -> set[str]:
    """Every private name a layer defines: functions, methods, classes, and names or attributes it assigns."""
    out: set[str] = set()
    for path in sources(top, root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and _private(node.name):
                out.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    for x in ast.walk(target):
                        if isinstance(x, ast.Attribute) and _private(x.attr):
                            out.add(x.attr)
                        elif isinstance(x, ast.Name) and _private(x.id):
                            out.add(x.id)
    return out


def private_reads(top: str, theirs: set[str], root: Path = ROOT) -> list[str]:
    """``x._name`` (or ``getattr(x, "_name")``) in a layer, ``_name`` one of ``theirs`` and ``x`` not ``self``
    or ``cls``."""
    found = []
    for path in sources(top, root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Attribute):
                owner, name = node.value, node.attr
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
                  and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)):
                owner, name = node.args[0], node.args[1].value
            else:
                continue
            if name in theirs and not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                found.append(f"{path.relative_to(root)}:{node.lineno} {ast.unparse(node)}")
    return found


def test_the_client_touches_no_private_name_of_the_protocol():
    """What the client reads of a session or a peer is its public interface (typed records, methods), so that
    the protocol can change inside without the app noticing."""
    theirs = private_names("protocol") - private_names("client")
    assert not private_reads("client", theirs), private_reads("client", theirs)


def test_the_private_name_check_finds_a_read_of_another_layers_private(tmp_path):
    (tmp_path / "protocol").mkdir()
    (tmp_path / "protocol" / "session.py").write_text("class S:\n    def __init__(self):\n        self._op = None\n")
    (tmp_path / "client").mkdir()
    (tmp_path / "client" / "app.py").write_text("def f(s):\n    return s._op, s.op, getattr(s, '_op')\n")
    theirs = private_names("protocol", tmp_path) - private_names("client", tmp_path)
    assert private_reads("client", theirs, tmp_path) == ["client/app.py:2 s._op", "client/app.py:2 getattr(s, '_op')"]


@pytest.mark.parametrize("package", ["protocol/session", "protocol/net"])
def test_the_session_and_the_peer_packages_have_no_import_cycle(package):
    """The session's and the peer's parts import nothing of their front door (``TYPE_CHECKING`` imports count
    too): each part is handed what it needs."""
    graph = {module_name(p): {i.target for i in imports(p)} for p in sources(package)}
    assert find_cycle({m: targets & graph.keys() for m, targets in graph.items()}) is None
