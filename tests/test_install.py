"""Installed like any Python tool: a wheel, a fresh venv outside the repository, the whole app.

The wheel is built from a copy of the source tree (so the build leaves no
``build/`` or ``*.egg-info`` in the working tree), installed with its
declared dependencies into a new venv, and run from a folder that is not
the repository: ``lanterne --version`` answers, and every game's rules and
stylesheet are read from the installed package data (the Rules screen's
text), not from a source checkout. pip fetches the dependencies from the package index (its
cache makes a second run quick).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP = shutil.ignore_patterns(".venv", ".git", "__pycache__", ".hypothesis", ".pytest_cache", "*.egg-info",
                              "build", "dist")

READ_RULES = """
import json, sys
from importlib import resources
import lanterne.client as client, lanterne.client.rules_docs as r
from lanterne.engines.registry import GAMES, get_game
out = {"client": client.__file__, "games": {},
       "stylesheet": resources.files("lanterne.client").joinpath("lanterne.tcss").is_file()}
for gid in GAMES:
    path = r.rules_path(gid)
    out["games"][gid] = {"path": str(path) if path else None, "text": r.rules_text(gid, get_game(gid).name),
                         "stylesheet": resources.files(f"lanterne.client.games.{gid}").joinpath(f"{gid}.tcss").is_file()}
from lanterne.client import i18n
out["rules_fr"] = {gid: r.rules_text(gid, language="fr") for gid in GAMES}
i18n.set_language("fr")
out["french"] = i18n._("Play on the LAN or online")
print(json.dumps(out))
"""


def run(*args, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd), "LANTERNE_HOME": str(cwd / "home")}
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A venv outside the repository with the wheel built from this tree installed in it."""
    tmp = tmp_path_factory.mktemp("install")
    src = tmp / "src"
    shutil.copytree(ROOT, src, symlinks=True, ignore=SKIP)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp / "dist", src],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    [wheel] = (tmp / "dist").glob("lanterne-*.whl")
    shutil.rmtree(src)                                   # nothing of the source is left to be found
    venv = tmp / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", venv], capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    pip = run(venv / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check", wheel, cwd=tmp)
    assert pip.returncode == 0, pip.stderr
    return tmp, venv, wheel


@pytest.mark.slow
def test_the_installed_command_tells_its_version(installed):
    tmp, venv, _ = installed
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    r = run(venv / "bin" / "lanterne", "--version", cwd=tmp)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"lanterne {version}\n"


@pytest.mark.slow
def test_every_games_rules_come_from_the_installed_package(installed):
    tmp, venv, _ = installed
    r = run(venv / "bin" / "python", "-I", "-c", READ_RULES, cwd=tmp)
    assert r.returncode == 0, r.stderr
    found = json.loads(r.stdout)
    assert found["client"].startswith(str(venv)), found["client"]      # the installed copy, not the checkout
    assert sorted(found["games"]) == ["pacal", "pagode", "pandoria", "pueblo"]
    assert found["stylesheet"]                                           # the app-wide stylesheet
    for gid, rules in found["games"].items():
        assert rules["stylesheet"], f"client/games/{gid}/{gid}.tcss is not in the wheel"
        assert rules["path"] and rules["path"].startswith(str(venv)), rules["path"]
        assert "not written yet" not in rules["text"]
        assert rules["text"] == (ROOT / "docs" / "rules" / f"{gid}.md").read_text(encoding="utf-8")
    for gid, text in found["rules_fr"].items():                        # the French rules, package data too
        assert text == (ROOT / "docs" / "rules" / "fr" / f"{gid}.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_wheel_carries_the_message_catalogs(installed):
    """The French catalog (.po and its compiled .mo) is in the wheel and speaks from the installed package;
    ``--lang fr`` works from it."""
    tmp, venv, wheel = installed
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    assert "lanterne/client/locale/fr/LC_MESSAGES/lanterne.mo" in names
    assert "lanterne/client/locale/fr/LC_MESSAGES/lanterne.po" in names
    r = run(venv / "bin" / "python", "-I", "-c", READ_RULES, cwd=tmp)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["french"] == "Jouer en réseau local ou en ligne"
    r = run(venv / "bin" / "lanterne", "--lang", "fr", "--help", cwd=tmp)
    assert r.returncode == 0, r.stderr
    assert "afficher cette aide et sortir" in r.stdout


@pytest.mark.slow
def test_python_dash_m_lanterne_is_the_command_and_only_lanterne_is_installed(installed):
    """One import package: nothing generic (client, engines, protocol) at the top of site-packages."""
    tmp, venv, _ = installed
    r = run(venv / "bin" / "python", "-m", "lanterne", "--version", cwd=tmp)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("lanterne ")
    [site] = (venv / "lib").glob("python3*/site-packages")
    tops = run(venv / "bin" / "python", "-I", "-c", "import importlib.metadata as m;"
               "print(m.distribution('lanterne').read_text('top_level.txt') or '')", cwd=tmp)
    ours = {p.name for p in site.iterdir() if p.is_dir() and not p.name.endswith((".dist-info", "__pycache__"))
            and (p / "__init__.py").is_file()}
    assert "lanterne" in ours and not ours & {"client", "engines", "protocol"}, ours
    assert tops.stdout.split() in ([], ["lanterne"]), tops.stdout


@pytest.mark.slow
def test_the_wheel_carries_no_benchmark_and_no_fuzzer_and_the_installed_bench_says_so_in_one_line(installed):
    """bench/ and fuzz/ are the checkout's tools, not the product: an installed ``lanterne bench`` has none to load."""
    tmp, venv, wheel = installed
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    tools = [n for n in names if n.split("/")[0] in ("bench", "fuzz") or "/fuzz/" in n
             or (re.search(r"/(bench\w*|perf)\.py$", n) and n != "lanterne/client/commands/bench.py")]
    assert not tools, tools
    r = run(venv / "bin" / "lanterne", "bench", "--list", cwd=tmp)
    assert r.returncode == 2 and r.stdout == "", (r.returncode, r.stdout)
    assert r.stderr.startswith("lanterne: lanterne bench measures from a source checkout: no bench/ folder")
    assert r.stderr.count("\n") == 1, r.stderr


@pytest.mark.slow
def test_the_wheel_carries_the_license_and_the_metadata(installed):
    tmp, venv, wheel = installed
    r = run(venv / "bin" / "python", "-I", "-c",
            "import importlib.metadata as m, json; d = m.distribution('lanterne');"
            "print(json.dumps({'meta': dict(d.metadata.items()), 'classifiers': d.metadata.get_all('Classifier'),"
            " 'requires': d.requires, 'files': [str(f) for f in d.files]}))", cwd=tmp)
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert info["meta"]["License-Expression"] == "MIT"
    assert any(f.endswith("licenses/LICENSE") for f in info["files"])
    assert info["meta"]["Author"] and len(info["classifiers"]) >= 5
    required = {req.split(">")[0].split("<")[0].split("=")[0].strip().lower() for req in info["requires"]}
    assert {"textual", "rich", "msgpack", "cryptography", "pynacl", "zeroconf", "ifaddr", "platformdirs",
            "filelock"} <= required


EXTRAS = {"engines/bots/openspiel.py": "bench"}
"""Modules that the app never imports and that may import an optional extra's distributions."""


def test_every_imported_distribution_is_declared():
    """Each third-party top-level module the code imports belongs to a declared dependency (or, for the
    modules of :data:`EXTRAS`, to their extra)."""
    import ast
    from importlib.metadata import packages_distributions

    def names(requirements):
        return {re.sub(r"[-_.]+", "-", d.split(">")[0].split("<")[0].split("=")[0].strip().lower()) for d in requirements}

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = names(project["dependencies"])
    optional = {path: declared | names(project["optional-dependencies"][extra]) for path, extra in EXTRAS.items()}
    owners = packages_distributions()
    ours = {"lanterne", "tests"}
    missing = set()
    for folder in ("client", "engines", "protocol"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
                for name in names:
                    top = name.split(".")[0]
                    if top in ours or top in sys.stdlib_module_names:
                        continue
                    dists = {re.sub(r"[-_.]+", "-", d.lower()) for d in owners.get(top, [top])}
                    if not dists & optional.get(path.relative_to(ROOT).as_posix(), declared):
                        missing.add(f"{top} ({path.relative_to(ROOT)})")
    assert not missing, f"imported but not declared in pyproject.toml: {sorted(missing)}"
