"""`lanterne selfplay GAME --net tcp`: each game between two processes over 127.0.0.1.

A real ``lanterne host`` and a real ``lanterne join HOST:PORT`` run as two
child processes, each with its own identity folder and log folder, talking
over TCP on the loopback only (no zeroconf). Their logs must come out
identical, byte for byte; the result is read back from the log itself.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LISTENING = re.compile(r"^listening on 127\.0\.0\.1:(\d+)")


def _spawn(args: list[str], home: Path) -> subprocess.Popen:
    env = dict(os.environ, LANTERNE_HOME=str(home), PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "client", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def play_one(game_id: str, variant: str, bots: list[str], seed: str, folder: Path,
             timeout: float = 300.0) -> tuple[Path, Path]:
    """One game between a host process and a guest process; returns both log files."""
    from client.cli import UserError

    common = ["--interface", "127.0.0.1", "--no-discovery", "--new"]
    host = _spawn(["host", game_id, "--variant", variant, "--bot", bots[0], "--bot-seed", f"{seed}/bot0",
                   "--name", "bot1", "--log-dir", str(folder / "host"), *common], folder / "host-home")
    guest = None
    try:
        port = None
        for line in host.stdout:
            m = LISTENING.match(line)
            if m:
                port = int(m.group(1))
                break
        if port is None:
            raise UserError(f"the host process ended without listening: {host.stderr.read().strip()[-300:]}")
        guest = _spawn(["join", f"127.0.0.1:{port}", "--bot", bots[1 % len(bots)], "--bot-seed", f"{seed}/bot1",
                        "--name", "bot2", "--log-dir", str(folder / "guest"), *common], folder / "guest-home")
        guest_out, guest_err = guest.communicate(timeout=timeout)
        host_out, host_err = host.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        raise UserError(f"the TCP game did not end within {timeout:g} s") from None
    finally:
        for proc in (host, guest):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
    if host.returncode or guest.returncode:
        raise UserError(f"a peer failed (host exit {host.returncode}, guest exit {guest.returncode}): "
                        f"{(guest_err or host_err).strip()[-300:]}")
    logs = []
    for out in (host_out, guest_out):
        m = re.search(r"^log: (.+)$", out, re.M)
        if m is None:
            raise UserError("a peer did not say where its log is")
        logs.append(Path(m.group(1)))
    return logs[0], logs[1]


def selfplay(args, game, kinds: list[str]) -> int:
    from client.cli import UserError
    from client.commands.selfplay import emit, game_seed, report
    from protocol.log import open_entry, read_log
    from protocol.session import Session

    if args.players != 2:
        raise UserError("--net tcp plays two processes: --players must be 2")
    root = Path(args.log_dir) if args.log_dir else Path(tempfile.mkdtemp(prefix="lanterne-tcp-"))
    started = time.perf_counter()
    for g in range(args.games):
        seed = game_seed(args.seed, g)
        host_log, guest_log = play_one(game.id, args.variant, kinds, seed, root / f"game{g}")
        if host_log.read_bytes() != guest_log.read_bytes():
            raise UserError(f"game {g}: the two peers' logs differ ({host_log}, {guest_log})")
        raws, _ = read_log(host_log)
        host_key = open_entry(raws[0]).author
        final = Session.replay(raws, host_key, host_log.with_suffix(".seed").read_bytes())
        result = report(game, final.view, g, seed, len(raws))
        result["log"] = str(host_log)
        emit(result, args.json)
    elapsed = time.perf_counter() - started
    summary = {"games": args.games, "seconds": round(elapsed, 3), "net": "tcp", "logs": str(root)}
    if args.json:
        print(json.dumps({"summary": summary}))
    else:
        print(f"{args.games} games in {elapsed:.2f} s over TCP on 127.0.0.1; logs in {root}")
    return 0
