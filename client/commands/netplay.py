"""Selfplay through signed sessions: `lanterne selfplay GAME --net memory`.

Not a subcommand of its own (no NAME): ``selfplay`` calls :func:`selfplay`
when ``--net`` is not ``open``. Each game runs between one session per seat
joined by an in-memory pipe; each seat writes its own log file and the logs
must come out identical, byte for byte.
"""

from __future__ import annotations

import json
import time
from pathlib import Path


def selfplay(args, game, kinds: list[str]) -> int:
    from client.cli import UserError
    from client.commands.selfplay import emit, game_seed, report
    from engines.bots import make_bot
    from protocol.log import LogWriter
    from protocol.memory import make_sessions, play

    if args.net != "memory":
        import importlib

        try:
            tcp = importlib.import_module("protocol.net.selfplay")
        except ModuleNotFoundError:
            tcp = None
        if tcp is None or not hasattr(tcp, "selfplay"):
            raise UserError(f"--net {args.net} is not built yet (use --net memory)")
        return tcp.selfplay(args, game, kinds)   # protocol/net's own driver, two processes over TCP
    log_dir = Path(args.log_dir) if args.log_dir else None
    if log_dir is not None:
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UserError(f"cannot make the log folder {log_dir}: {e.strerror}") from None
    started = time.perf_counter()
    for g in range(args.games):
        seed = game_seed(args.seed, g)
        writers = ([LogWriter(log_dir / f"{game.id}-{g}-seat{i + 1}.lanterne") for i in range(args.players)]
                   if log_dir is not None else [])
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
            raise UserError(f"game {g}: the peers' logs differ")
        if writers and len({w.path.read_bytes() for w in writers}) != 1:
            raise UserError(f"game {g}: the peers' log files differ")
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
