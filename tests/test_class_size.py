"""No class of ``protocol/`` holds more than :data:`MOST` attributes (read from the source: nothing is imported).

A class's attributes are what its instances hold: every ``self.x = ...``
(plain, annotated, augmented or in a tuple) in its methods, a dataclass's
fields (its annotated class-level names, ``ClassVar`` aside) and its
``__slots__``. A name the class body binds to a descriptor (a property, or a
call such as the session's ``Shared()``) is not one: assigning it writes
where the descriptor says. A class that grows past the figure is cut into
parts with their own state (docs/architecture.md).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST = 25


def _dataclass(cls: ast.ClassDef) -> bool:
    return any("dataclass" in ast.unparse(d) for d in cls.decorator_list)


def _self_targets(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets = [node.target]
    else:
        return []
    names = []
    for target in targets:
        for e in target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]:
            if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self":
                names.append(e.attr)
    return names


def attributes(cls: ast.ClassDef) -> set[str]:
    names: set[str] = set()
    descriptors: set[str] = set()
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if _dataclass(cls) and "ClassVar" not in ast.unparse(node.annotation):
                names.add(node.target.id)
            elif isinstance(node.value, ast.Call):
                descriptors.add(node.target.id)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == "__slots__" \
                        and isinstance(node.value, (ast.Tuple, ast.List)):
                    names |= {e.value for e in node.value.elts if isinstance(e, ast.Constant)}
                elif isinstance(target, ast.Name) and isinstance(node.value, ast.Call):
                    descriptors.add(target.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any("property" in ast.unparse(d) or "setter" in ast.unparse(d) for d in node.decorator_list):
                descriptors.add(node.name)
            for inner in ast.walk(node):
                names.update(_self_targets(inner))
    return names - descriptors


def classes(folder: Path) -> dict[str, set[str]]:
    out = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                out[f"{path.relative_to(folder)}::{node.name}"] = attributes(node)
    return out


def test_no_class_of_the_protocol_holds_more_than_25_attributes():
    found = classes(ROOT / "protocol")
    assert len(found) > 100, "the walk finds the protocol's classes"
    over = {name: len(attrs) for name, attrs in found.items() if len(attrs) > MOST}
    assert over == {}, {name: sorted(found[name]) for name in over}


def test_the_count_finds_what_it_is_for(tmp_path):
    source = tmp_path / "big.py"
    source.write_text("\n".join([
        "from dataclasses import dataclass",
        "class Shared:",
        "    pass",
        "class Big:",
        "    phase = Shared()",
        "    def __init__(self):",
        "        self.a, self.b = 1, 2",
        "        self.c: int = 3",
        "        self.phase = 4",
        "    def later(self):",
        "        self.d += 1",
        "    @property",
        "    def e(self):",
        "        return 5",
        "    @e.setter",
        "    def e(self, v):",
        "        self.e = v",
        "@dataclass",
        "class Fields:",
        "    x: int",
        "    y: int = 0",
        "class Slots:",
        "    __slots__ = ('p', 'q')",
    ]))
    found = {name.rsplit("::", 1)[1]: attrs for name, attrs in classes(tmp_path).items()}
    assert found["Big"] == {"a", "b", "c", "d"}
    assert found["Fields"] == {"x", "y"} and found["Slots"] == {"p", "q"}
