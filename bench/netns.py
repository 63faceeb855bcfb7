"""Throw-away test networks made of Linux network namespaces.

``TestNetwork`` builds N hosts (namespaces ``lnt-<pid>-<n>-a``, ``-b``...) on
one switch: a bridge in its own namespace, one veth per host, addresses in
``10.254.<n>.0/24`` that exist only inside these namespaces, multicast on
(mDNS needs it). Nothing touches the machine's own interfaces, so tests can
let zeroconf loose on a real multicast link without bothering anybody.

A network deletes every namespace it made when it is left, also after a
failure; processes started with ``host.popen`` are killed first. The
namespace rows of ``lanterne bench`` build them, and so do the tests (their
fixture ``netns_network``, in tests/e2e/conftest.py, skips with the reason
of :func:`unavailable_reason` when they cannot be made).
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
"""The checkout: hosts run its ``python -m lanterne``, its sources first on their path."""

PYTHON = sys.executable
_counter = itertools.count(1)


class NetnsUnavailable(Exception):
    """Namespaces cannot be made here; the message is the skip reason."""


def unavailable_reason() -> str | None:
    """Why network-namespace tests cannot run here, or None if they can."""
    if not sys.platform.startswith("linux"):
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "needs root to create network namespaces (ip netns); run the e2e tests as root"
    if shutil.which("ip") is None:
        return "the 'ip' command (iproute2) is missing"
    return None


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(["ip", *args], capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise NetnsUnavailable(f"ip {' '.join(args)}: {proc.stderr.strip() or proc.returncode}")
    return proc


@dataclass
class Host:
    """One machine of the test network: a namespace with interface ``eth0``."""

    namespace: str
    address: str
    switch_port: str
    switch_ns: str
    home: Path
    processes: list[subprocess.Popen] = field(default_factory=list)

    def run(self, *cmd: str, timeout: float = 60, **kw) -> subprocess.CompletedProcess:
        """Run a command inside this host and wait for it."""
        return subprocess.run(["ip", "netns", "exec", self.namespace, *cmd],
                              capture_output=True, text=True, timeout=timeout, env=self.env(), **kw)

    def popen(self, *cmd: str, **kw) -> subprocess.Popen:
        """Start a command inside this host; it is killed at cleanup."""
        kw.setdefault("stdout", subprocess.PIPE)
        kw.setdefault("stderr", subprocess.PIPE)
        kw.setdefault("text", True)
        proc = subprocess.Popen(["ip", "netns", "exec", self.namespace, *cmd], env=self.env(),
                                start_new_session=True, **kw)
        self.processes.append(proc)
        _watch(proc)
        return proc

    def python(self, *args: str, **kw) -> subprocess.Popen:
        """Start the project's Python inside this host (``-c code`` or ``-m module``)."""
        return self.popen(PYTHON, *args, cwd=str(REPO), **kw)

    def lanterne(self, *args: str, **kw) -> subprocess.Popen:
        return self.popen(PYTHON, "-m", "lanterne", *args, cwd=str(REPO), **kw)

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["LANTERNE_HOME"] = str(self.home)
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
        env["PYTHONUNBUFFERED"] = "1"
        return env

    def link_down(self) -> None:
        """Pull the cable: the switch port goes down (this host's eth0 loses its carrier)."""
        ip("-n", self.switch_ns, "link", "set", self.switch_port, "down")

    def link_up(self) -> None:
        ip("-n", self.switch_ns, "link", "set", self.switch_port, "up")

    def kill_all(self) -> None:
        for proc in self.processes:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    pass


class TestNetwork:
    """N hosts on one switch. Use as a context manager; ``hosts[i].address`` are 10.254.x.(i+1)."""

    __test__ = False  # not a pytest test class

    def __init__(self, count: int, workdir: Path):
        if not 1 <= count <= 8:
            raise ValueError("a test network has 1 to 8 hosts")
        n = next(_counter)
        self.tag = f"lnt-{os.getpid()}-{n}"
        self.subnet = 1 + (os.getpid() * 7 + n) % 250
        self.switch_ns = f"{self.tag}-sw"
        self.workdir = workdir
        self.hosts: list[Host] = []
        self.count = count
        self._made: list[str] = []

    def __enter__(self) -> "TestNetwork":
        try:
            self._build()
        except BaseException:
            self.cleanup()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.cleanup()

    def _netns(self, name: str) -> None:
        ip("netns", "add", name)
        self._made.append(name)
        ip("-n", name, "link", "set", "lo", "up")

    def _build(self) -> None:
        remove_stale_namespaces()
        self._netns(self.switch_ns)
        ip("-n", self.switch_ns, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        ip("-n", self.switch_ns, "link", "set", "br0", "up")
        for i in range(self.count):
            letter = "abcdefgh"[i]
            ns = f"{self.tag}-{letter}"
            self._netns(ns)
            port = f"p{letter}"
            ip("link", "add", "eth0", "netns", ns, "type", "veth", "peer", "name", port, "netns", self.switch_ns)
            ip("-n", self.switch_ns, "link", "set", port, "master", "br0")
            ip("-n", self.switch_ns, "link", "set", port, "multicast", "on", "up")
            address = f"10.254.{self.subnet}.{i + 1}"
            ip("-n", ns, "addr", "add", f"{address}/24", "dev", "eth0")
            ip("-n", ns, "link", "set", "eth0", "multicast", "on", "up")
            ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", "eth0")
            home = self.workdir / f"home-{letter}"
            home.mkdir(parents=True, exist_ok=True)
            self.hosts.append(Host(ns, address, port, self.switch_ns, home))

    def cleanup(self) -> None:
        for host in self.hosts:
            host.kill_all()
        for name in reversed(self._made):
            ip("netns", "del", name, check=False)
        self._made.clear()


def remove_stale_namespaces() -> None:
    """Delete ``lnt-<pid>-*`` namespaces left by test processes that no longer run."""
    listing = ip("netns", "list", check=False).stdout
    for line in listing.splitlines():
        m = re.match(r"(lnt-(\d+)-\d+-\w+)", line)
        if m and not _alive(int(m.group(2))):
            ip("netns", "del", m.group(1), check=False)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class _Reader:
    """Collects a pipe's lines in a thread, so no line sits unseen in a buffer."""

    def __init__(self, pipe):
        self.lines: list[str] = []
        self.cursor = 0
        self.changed = threading.Condition()
        self.closed = False
        self.thread = threading.Thread(target=self._run, args=(pipe,), daemon=True)
        self.thread.start()

    def _run(self, pipe) -> None:
        for line in pipe:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()
        with self.changed:
            self.closed = True
            self.changed.notify_all()

    def text(self) -> str:
        return "".join(self.lines)


_readers: dict[int, tuple[_Reader, _Reader]] = {}


def _watch(proc: subprocess.Popen) -> None:
    if proc.stdout is not None and proc.stderr is not None:
        _readers[proc.pid] = (_Reader(proc.stdout), _Reader(proc.stderr))


def output(proc: subprocess.Popen, timeout: float = 120) -> tuple[str, str]:
    """Wait for ``proc`` to end; its whole stdout and stderr."""
    proc.wait(timeout)
    out, err = _readers[proc.pid]
    out.thread.join(10)
    err.thread.join(10)
    return out.text(), err.text()


def printed(proc: subprocess.Popen) -> str:
    """What ``proc`` has printed on stdout so far."""
    return _readers[proc.pid][0].text()


def wait_line(proc: subprocess.Popen, pattern: str, timeout: float) -> str:
    """The next stdout line of ``proc`` matching ``pattern``; fails with its stderr if none comes in time."""
    out, err = _readers[proc.pid]
    deadline = time.monotonic() + timeout
    with out.changed:
        while True:
            while out.cursor < len(out.lines):
                line = out.lines[out.cursor]
                out.cursor += 1
                if re.search(pattern, line):
                    return line.strip()
            left = deadline - time.monotonic()
            if out.closed or left <= 0:
                break
            out.changed.wait(left)
    proc.poll()
    raise AssertionError(f"no line matching {pattern!r} within {timeout:g} s (exit {proc.returncode}); "
                         f"stdout: {out.text()[-1000:]!r}; stderr: {err.text()[-2000:]}")
