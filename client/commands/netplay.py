"""Selfplay through signed sessions: `lanterne selfplay GAME --net memory|tcp`.

Not a subcommand of its own (no NAME): ``selfplay`` calls :func:`selfplay`
when ``--net`` is not ``open``. With ``memory`` each game runs between one
session per seat joined by in-memory pipes; with ``tcp`` between one real
``lanterne host`` process and one ``lanterne join HOST:PORT`` process per
other seat, over 127.0.0.1 only (no zeroconf). Either way each seat writes
its own log file and the logs must come out identical, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lanterne.client.cli import UserError
from lanterne.client.i18n import _
from lanterne.client.selfplay_report import emit, game_seed, report
from lanterne.engines.bots import make_bot
from lanterne.protocol.log import LogWriter, read_log


class TableLog:
    """A seat's log file named as every Lanterne log is (docs/protocol.md, "File kinds and names"):
    ``<t>.log`` in the seat's own folder, ``<t>`` the first 16 hex digits of the table id (the SHA-256 of
    entry 0), so the file is opened at the first entry."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._writer: LogWriter | None = None

    @property
    def path(self) -> Path | None:
        return self._writer.path if self._writer else None

    def append(self, raw: bytes) -> None:
        if self._writer is None:
            self._writer = LogWriter(self.folder / f"{hashlib.sha256(raw).hexdigest()[:16]}.log")
        self._writer.append(raw)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()


def selfplay(args, game, kinds: list[str]) -> int:
    from lanterne.protocol.memory import make_sessions, play   # here: --version and --help import every command module

    if args.net == "tcp":
        return selfplay_tcp(args, game, kinds)
    log_dir = Path(args.log_dir) if args.log_dir else None
    if log_dir is not None:
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UserError(_("cannot make the log folder {log_dir}: {strerror}").format(
                log_dir=log_dir, strerror=e.strerror)) from None
    started = time.perf_counter()
    for g in range(args.games):
        seed = game_seed(args.seed, g)
        writers = ([TableLog(log_dir / f"game{g}" / f"seat{i + 1}") for i in range(args.players)] if log_dir is not None else [])
        try:
            sessions = make_sessions(game, args.players, seed, variant=args.variant,
                                     stores=[w.append for w in writers] or None)
            bots = [make_bot(kinds[i % len(kinds)], f"{seed}/bot{i}") for i in range(args.players)]
            play(sessions, bots)
        finally:
            for w in writers:
                w.close()
        chains = {tuple(e.raw for e in s.chain) for s in sessions}
        if len(chains) != 1:
            raise UserError(_("game {g}: the peers' logs differ").format(g=g))
        if writers and len({w.path.read_bytes() for w in writers}) != 1:
            raise UserError(_("game {g}: the peers' log files differ").format(g=g))
        host = sessions[0]
        r = report(game, host.view, g, seed, len(host.chain))
        r["entries"] = len(host.chain)
        r["game_id"] = host.game_id.hex()
        if writers:
            r["logs"] = [str(w.path) for w in writers]
        emit(r, args.json)
    elapsed = time.perf_counter() - started
    summary = {"games": args.games, "seconds": round(elapsed, 3),
               "games_per_second": round(args.games / elapsed, 2) if elapsed else None, "net": "memory"}
    if args.json:
        print(json.dumps({"summary": summary}))
    else:
        print(f"{args.games} games in {elapsed:.2f} s over signed sessions: {summary['games_per_second']} games/s")
    return 0


# --------------------------------------------------------------------------
# One process per seat over TCP on 127.0.0.1

LISTENING = re.compile(r"^listening on 127\.0\.0\.1:(\d+)")


def _spawn(args: list[str], home: Path) -> subprocess.Popen:
    env = dict(os.environ, LANTERNE_HOME=str(home), PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "lanterne.client", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def play_one(game_id: str, variant: str, players: int, bots: list[str], seed: str, folder: Path,
             timeout: float = 300.0) -> list[Path]:
    """One game between a host process and ``players - 1`` guest processes: every seat's log file and the result
    its process printed (each seat's session checked every entry as it came, so the parent replays nothing)."""
    common = ["--interface", "127.0.0.1", "--no-discovery", "--new"]
    host = _spawn(["host", game_id, "--variant", variant, "--players", str(players), "--bot", bots[0],
                   "--bot-seed", f"{seed}/bot0", "--name", "bot1", "--log-dir", str(folder / "seat1"), *common],
                  folder / "home1")
    procs = [host]
    try:
        port = None
        for line in host.stdout:
            m = LISTENING.match(line)
            if m:
                port = int(m.group(1))
                break
        if port is None:
            raise UserError(_("the host process ended without listening: {value}").format(
                value=host.stderr.read().strip()[-300:]))
        for i in range(1, players):
            procs.append(_spawn(["join", f"127.0.0.1:{port}", "--players", str(players),
                                 "--bot", bots[i % len(bots)], "--bot-seed", f"{seed}/bot{i}", "--name",
                                 f"bot{i + 1}", "--log-dir", str(folder / f"seat{i + 1}"), *common],
                                folder / f"home{i + 1}"))
        outputs = [None] * players
        deadline = time.monotonic() + timeout
        for i in list(range(1, players)) + [0]:
            outputs[i] = procs[i].communicate(timeout=max(deadline - time.monotonic(), 1.0))
    except subprocess.TimeoutExpired:
        raise UserError(_("the TCP game did not end within {timeout:g} s").format(timeout=timeout)) from None
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    failed = [(i, p.returncode) for i, p in enumerate(procs) if p.returncode]
    if failed:
        i, code = failed[0]
        raise UserError(_("seat {value}'s process failed (exit {code}): {value2}").format(
            value=i + 1, code=code, value2=outputs[i][1].strip()[-300:]))
    logs, finals = [], []
    for i, (out, _err) in enumerate(outputs):
        m = re.search(r"^log: (.+)$", out, re.M)
        r = re.search(r"^result: (.+)$", out, re.M)
        if m is None:
            raise UserError(_("seat {value}'s process did not say where its log is").format(value=i + 1))
        if r is None:
            raise UserError(_("seat {value}'s process did not print the game's result").format(value=i + 1))
        logs.append(Path(m.group(1)))
        finals.append(json.loads(r.group(1)))
    return logs, finals


def selfplay_tcp(args, game, kinds: list[str]) -> int:
    root = Path(args.log_dir) if args.log_dir else Path(tempfile.mkdtemp(prefix="lanterne-tcp-"))
    started = time.perf_counter()
    for g in range(args.games):
        seed = game_seed(args.seed, g)
        logs, finals = play_one(game.id, args.variant, args.players, kinds, seed, root / f"game{g}")
        if len({json.dumps(f, sort_keys=True) for f in finals}) != 1:
            raise UserError(_("game {g}: the peers' results differ").format(g=g))
        if len({log.read_bytes() for log in logs}) != 1:
            raise UserError(_("game {g}: the peers' logs differ ({value})").format(
                g=g, value=', '.join(map(str, logs))))
        raws, _cut = read_log(logs[0])
        result = {"game": g, "seed": seed, **finals[0], "steps": len(raws), "log": str(logs[0])}
        emit(result, args.json)
    elapsed = time.perf_counter() - started
    summary = {"games": args.games, "seconds": round(elapsed, 3), "net": "tcp", "players": args.players,
               "logs": str(root)}
    if args.json:
        print(json.dumps({"summary": summary}))
    else:
        print(f"{args.games} games of {args.players} in {elapsed:.2f} s over TCP on 127.0.0.1; logs in {root}")
    return 0
