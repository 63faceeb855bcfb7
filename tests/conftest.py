"""Suite-wide fixtures: every test gets its own Lanterne home (identity, logs).

The suite reads Lanterne in English (the message ids): ``LANGUAGE=en`` wins over a developer's French
locale (client/i18n.py reads it first), for this process and the commands it starts; the French tests
choose French themselves (tests/client/test_i18n.py).

The test folders (``tmp_path``, and so every Lanterne home) are in memory, on ``/dev/shm``, when the
machine has it with 2 GiB free and ``TMPDIR`` names no other place: real files, but an ``fsync`` there costs nothing
where on a disk it takes milliseconds, and a log fsyncs every entry (a Pacal game of self-play took 8.5 s
on the disk, 0.6 s in memory). No test is about surviving a power cut, the one thing an fsync adds.

The suite runs on two workers a core (pytest-xdist, ``-n auto --dist loadgroup`` in pyproject.toml, the
count in :func:`pytest_xdist_auto_num_workers`): a test waits on links, claims and subprocesses about half
its time (a run on two cores: 2,000 s of tests, 780 s of CPU), so two a core keep the cores busy. What two
tests at once could not share goes to one worker, one test after the other (an ``xdist_group``):

- ``loopback-zeroconf``: the tests that advertise or browse on zeroconf (``Discovery(``,
  ``discover=True``, a lobby app) with peers of fixed identities (``IDS``, a seeded identity), and the
  zeroconf tests of tests/protocol/net, which wait on zeroconf itself (a list heard within its --wait, a
  goodbye heard): one loopback carries every worker's multicast, two tests advertising the same fingerprint
  at once would find each other's peers, and mDNS delays a question another asked just before (it answers
  a record at most once a second). The other network tests dial their peers by address (fixed
  identities, but nobody hears them who was not told the port), or make fresh identities and unique
  names (tests/support/lobby.py), pick their peers by them and wait for them with ``until``, so they share
  the loopback with anyone;
- ``netns`` and ``netns-online``: the tests that play on networks of namespaces, a LAN of up to five
  hosts (the ``netns_network`` fixture) or homes behind NAT with a mailbox and a relay (``internet``), real
  processes on each: two LAN tables side by side would starve each other's timers, and so would two
  internets. A LAN beside an internet is what the suite runs: they mostly wait (about a quarter of a
  core each), less than a Textual test beside either takes. A test that needs root for a
  namespace of its own (``unshare -n``, one named after its process) shares the machine like any other,
  and so do the other tests of its module;
- a module with a fixture of module or session scope is a group of its own, so that the fixture is
  made once (test_install's wheel and venv took two minutes on each worker).
"""

import functools
import os
import re
import tempfile
from pathlib import Path

import pytest
from textual._context import active_app
from textual.pilot import Pilot

os.environ["LANGUAGE"] = "en"
IN_MEMORY = Path("/dev/shm")
ROOM_IN_MEMORY = 2 << 30
"""Bytes /dev/shm must have free to hold the test folders (a container's is often 64 MiB: then the disk)."""


def _room(path: Path) -> int:
    fs = os.statvfs(path)
    return fs.f_bavail * fs.f_frsize


if ("TMPDIR" not in os.environ and IN_MEMORY.is_dir() and os.access(IN_MEMORY, os.W_OK | os.X_OK)
        and _room(IN_MEMORY) >= ROOM_IN_MEMORY):
    os.environ["TMPDIR"] = str(IN_MEMORY)      # for this process, its workers and the commands they start
    tempfile.tempdir = None                    # read again by the next gettempdir()


def _as_its_app(wait):
    """A Pilot wait that runs with its own app as the context's active app.

    Each of Pilot's waits ends with ``app.screen._on_timer_update()``, which pauses the screen's update
    timer and then lays the screen out only if it is the *active* app's current screen (Textual's
    ``.app`` is the context's app). A test that drives two apps in one process (two players) is, in its
    own task, in the context of the app it entered last: a pause of the first app's pilot there stopped
    that app's timer and dropped its pending layout (a chat pane shown at 0x0 for a minute, under load).
    """
    @functools.wraps(wait)
    async def in_its_context(self, *args, **kwargs):
        token = active_app.set(self.app)
        try:
            return await wait(self, *args, **kwargs)
        finally:
            active_app.reset(token)
    return in_its_context


for _wait in ("pause", "wait_for_animation", "wait_for_scheduled_animations"):
    setattr(Pilot, _wait, _as_its_app(getattr(Pilot, _wait)))

TESTS = Path(__file__).parent
ZEROCONF = re.compile(r"Discovery\(|discover=True|LobbyScreen|lobby_app|mesh_app")
"""A module that advertises or browses on the loopback's zeroconf."""
ZEROCONF_TIMED = TESTS / "protocol" / "net"
"""Where the zeroconf tests wait on zeroconf itself."""
FIXED_IDENTITY = re.compile(r"\bIDS\b|Identity\.from_seed\((?!os\.urandom)")
"""A module whose peers are the same identities from test to test (``IDS``, a seeded identity)."""
SHARED_FIXTURE = re.compile(r"@pytest\.fixture\(scope=[\"'](module|session)[\"']")
NETWORKS = {"netns_network": "netns", "internet": "netns-online"}
"""The fixtures that build a network of namespaces (tests/e2e, tests/online) -> the group of their tests."""


def pytest_xdist_auto_num_workers(config) -> int:
    """Two workers for each core this process may run on (the machine's share, not its count)."""
    return 2 * len(os.sched_getaffinity(0))


@pytest.fixture(autouse=True)
def lanterne_home(tmp_path, monkeypatch):
    home = tmp_path / "lanterne-home"
    monkeypatch.setenv("LANTERNE_HOME", str(home))
    return home


def _group_of(path: Path, cache: dict[Path, str | None]) -> str | None:
    """The module's xdist group, read from its place and its source (a new module is grouped unlisted)."""
    if path not in cache:
        text = path.read_text(encoding="utf-8", errors="replace")
        fixed = ZEROCONF.search(text) and (FIXED_IDENTITY.search(text) or path.is_relative_to(ZEROCONF_TIMED))
        cache[path] = ("loopback-zeroconf" if fixed else
                       path.relative_to(TESTS).as_posix() if SHARED_FIXTURE.search(text) else None)
    return cache[path]


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own, which reads the marks
def pytest_collection_modifyitems(config, items):
    """Each test of a module in a group (see above) gets the group's ``xdist_group`` mark."""
    cache: dict[Path, str | None] = {}
    for item in items:
        if item.get_closest_marker("netns"):    # (its zeroconf, if any, is on a loopback of its own)
            group = next((NETWORKS[f] for f in getattr(item, "fixturenames", ()) if f in NETWORKS), None)
        else:
            group = _group_of(Path(item.fspath), cache)
        if group is not None and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(group))
