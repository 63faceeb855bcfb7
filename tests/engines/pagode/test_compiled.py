"""Pagode's compiled build (setup.py, engines/pagode/compiled.py): used where it can be, the same games, never stale.

Each check runs in a process of its own, since which build a process uses
is decided once, when the package is first imported.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from lanterne.engines.pagode import compiled

REPO = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
WHICH = ("import sys, json; from lanterne.engines.pagode import compiled, rules, state; "
         "print(json.dumps([compiled.COMPILED, compiled.BUILD, rules.__file__, state.__file__]))")


def python(code: str, *, pure: bool = False, path: Path | None = None, cwd: Path | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("LANTERNE_PURE", "PYTHONPATH")}
    if pure:
        env["LANTERNE_PURE"] = "1"
    if path is not None:
        env["PYTHONPATH"] = str(path)
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd or REPO, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def can_compile() -> str | None:
    """The C compiler a build here would use, if there is one and Python's headers too (else nothing compiles)."""
    compiler = shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0])
    return compiler if (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file() else None


def test_the_install_runs_the_compiled_build_where_a_c_compiler_is():
    """``pip install -e .`` compiles where it can: here, with a C compiler and Python's headers, the suite tests
    the compiled engine."""
    compiler = can_compile()
    if os.environ.get("LANTERNE_PURE") == "1":
        assert not compiled.COMPILED and "LANTERNE_PURE" in compiled.BUILD
    elif compiler:
        assert compiled.COMPILED, f"a C compiler is here ({compiler}) but the engine runs {compiled.BUILD}"
        assert Path(sys.modules["lanterne.engines.pagode.rules"].__file__).suffix == ".so"
    else:
        assert not compiled.COMPILED and compiled.BUILD == "Python sources (no compiled build)"


def test_lanterne_pure_loads_every_compiled_module_from_its_source():
    built, _, rules, state = json.loads(python(WHICH, pure=True))
    assert not built and rules.endswith("rules.py") and state.endswith("state.py")


def test_the_compiled_build_and_the_sources_play_the_same_games(tmp_path):
    """same_behaviour.py's record (a sample of its 388 games): every step's actions, events, scores, legal actions,
    views, digests and refusals, compiled against sources."""
    runs = {}
    for name, pure in (("sources", True), ("installed", False)):
        out = tmp_path / f"{name}.pickle"
        python(f"import sys; sys.path.insert(0, {str(HERE)!r}); import same_behaviour; "
               f"same_behaviour.record({str(out)!r}, scale=8)", pure=pure, cwd=tmp_path)
        runs[name] = pickle.loads(out.read_bytes())
    assert len(runs["sources"]) == 52 and sum(map(len, runs["sources"].values())) > 10_000
    assert runs["installed"] == runs["sources"]


def copy_of_the_package(tmp_path: Path) -> Path:
    """The ``lanterne`` package with a copy of ``engines/`` (its extensions and digests too): the folder for sys.path."""
    root = tmp_path / "root"
    package = root / "lanterne"
    shutil.copytree(REPO / "lanterne", package)
    shutil.copytree(REPO / "engines", package / "engines", ignore=shutil.ignore_patterns("__pycache__"))
    for layer in ("client", "protocol"):
        (package / layer).symlink_to(REPO / layer)
    return root


def test_a_damaged_digest_file_means_the_sources_not_an_error(tmp_path):
    root = copy_of_the_package(tmp_path)
    (root / "lanterne" / "engines" / "pagode" / "state.source-sha256").write_bytes(b"\xff\xfe\x00 not a digest")
    built, why, _, state = json.loads(python(WHICH, path=root, cwd=tmp_path))
    assert not built and state.endswith("state.py")
    if compiled.COMPILED:
        assert why == "Python sources (compiled build out of date: state)"


def test_an_edited_source_is_never_shadowed_by_an_older_extension(tmp_path):
    """A copy of the package, its extensions and digests with it: as built it runs what the install runs;
    once ``rules.py`` is edited, all four modules load from their sources, and it says which is out of date."""
    root = copy_of_the_package(tmp_path)
    package = root / "lanterne"
    built, why, rules, _ = json.loads(python(WHICH, path=root, cwd=tmp_path))
    assert rules.startswith(str(root)) and (built, why) == (compiled.COMPILED, compiled.BUILD)

    source = package / "engines" / "pagode" / "rules.py"
    source.write_text(source.read_text() + "\nEDITED = True\n")
    built, why, rules, state = json.loads(python(WHICH + "; print(rules.EDITED)", path=root,
                                                               cwd=tmp_path).splitlines()[0])
    assert not built and rules == str(source) and state.endswith("state.py")
    if compiled.COMPILED:
        assert why == "Python sources (compiled build out of date: rules)"


def test_setup_py_compiles_the_modules_compiled_py_checks():
    import ast

    tree = ast.parse((REPO / "setup.py").read_text())
    [listed] = [node.value for node in tree.body if isinstance(node, ast.Assign)
                and any(getattr(t, "id", None) == "COMPILED" for t in node.targets)]
    assert ast.literal_eval(listed) == compiled.MODULES
