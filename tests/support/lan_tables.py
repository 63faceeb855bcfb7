"""``lanterne host`` and ``lanterne join`` at one table across the hosts of a test network (bench/netns.py)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.support.commands import lanterne
from bench.netns import Host, output

FAST = ["--read-timeout", "3", "--claim-after", "300"]
"""Short link timeouts, and a claim time no test reaches unless it means to."""
NAMES = ["Ana", "Bob", "Cy", "Dee", "Eve"]


def host_cmd(host: Host, game: str, players: int, *extra: str) -> list[str]:
    return ["host", game, "--players", str(players), "--bot", "random", "--name", NAMES[0], "--interface",
            host.address, "--log-dir", str(host.home / "games"), *FAST, *extra]


def join_cmd(guest: Host, name: str, *extra: str) -> list[str]:
    return ["join", "Ana", "--bot", "random", "--name", name, "--interface", guest.address,
            "--log-dir", str(guest.home / "games"), "--wait", "30", *FAST, *extra]


def finish(proc: subprocess.Popen, timeout: float) -> str:
    out, err = output(proc, timeout)
    assert proc.returncode == 0, f"exit {proc.returncode}: {err[-2000:]}\n{out[-3000:]}"
    return out


def log_path(out: str) -> Path:
    return Path(re.findall(r"^log: (.+)$", out, re.M)[-1])


def assert_identical_and_verified(outs: list[str], game: str) -> None:
    paths = [log_path(o) for o in outs]
    first = paths[0].read_bytes()
    assert all(p.read_bytes() == first for p in paths[1:]), "the peers' logs differ"
    check = lanterne("verify", *map(str, paths), timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.count(f": valid: {game}") == len(paths), check.stdout
