"""Suite-wide fixtures: every test gets its own Lanterne home (identity, logs).

The suite reads Lanterne in English (the message ids): ``LANGUAGE=en`` wins over a developer's French
locale (client/i18n.py reads it first), for this process and the commands it starts; the French tests
choose French themselves (tests/client/test_i18n.py).

The suite runs on two workers (pytest-xdist, ``--dist loadgroup`` in pyproject.toml). What two tests at
once could not share goes to one worker, one test after the other (an ``xdist_group``):

- ``loopback-zeroconf``: the tests that advertise or browse on zeroconf (``Discovery(``,
  ``discover=True``, a lobby app) with peers of fixed identities (``IDS``, a seeded identity): one
  loopback carries every worker's multicast, and two tests advertising the same fingerprint at once would
  find each other's peers. The other network tests dial their peers by address (fixed identities, but
  nobody hears them who was not told the port), or make fresh identities and unique names
  (tests/support/lobby.py) and pick their peers by them, so they share the loopback with anyone;
- ``netns``: the tests in network namespaces (up to five hosts of real processes each: side by side,
  they would starve each other's timers);
- a module with a fixture of module or session scope is a group of its own, so that the fixture is
  made once (test_install's wheel and venv took two minutes on each worker).
"""

import os
import re
from pathlib import Path

import pytest

os.environ["LANGUAGE"] = "en"

TESTS = Path(__file__).parent
ZEROCONF = re.compile(r"Discovery\(|discover=True|LobbyScreen|lobby_app|mesh_app")
"""A module that advertises or browses on the loopback's zeroconf."""
FIXED_IDENTITY = re.compile(r"\bIDS\b|Identity\.from_seed\((?!os\.urandom)")
"""A module whose peers are the same identities from test to test (``IDS``, a seeded identity)."""
SHARED_FIXTURE = re.compile(r"@pytest\.fixture\(scope=[\"'](module|session)[\"']")


@pytest.fixture(autouse=True)
def lanterne_home(tmp_path, monkeypatch):
    home = tmp_path / "lanterne-home"
    monkeypatch.setenv("LANTERNE_HOME", str(home))
    return home


def _group_of(path: Path, cache: dict[Path, str | None]) -> str | None:
    """The module's xdist group, read from its place and its source (a new module is grouped unlisted)."""
    if path not in cache:
        text = path.read_text(encoding="utf-8", errors="replace")
        fixed = ZEROCONF.search(text) and FIXED_IDENTITY.search(text)
        cache[path] = ("netns" if "mark.netns" in text else "loopback-zeroconf" if fixed else
                       path.relative_to(TESTS).as_posix() if SHARED_FIXTURE.search(text) else None)
    return cache[path]


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own, which reads the marks
def pytest_collection_modifyitems(config, items):
    """Each test of a module in a group (see above) gets the group's ``xdist_group`` mark."""
    cache: dict[Path, str | None] = {}
    for item in items:
        group = _group_of(Path(item.fspath), cache)
        if group is not None and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(group))
