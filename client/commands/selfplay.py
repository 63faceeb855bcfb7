"""`lanterne selfplay GAME`: complete games between computer players."""

from __future__ import annotations

import json
import time

from engines.bots import make_bot
from engines.core import OpenTable, play_out
from engines.registry import get_game

from client.commands import netplay
from client.selfplay_report import emit, game_seed, report

NAME = "selfplay"
HELP = "play complete games between computer players and print the results"


def add_arguments(p) -> None:
    p.add_argument("game", help="pagode, pueblo, pacal or pandoria")
    p.add_argument("--games", type=int, default=1, metavar="K", help="number of games (default 1)")
    p.add_argument("--seed", default="0", metavar="S", help="seed of the first game (default 0)")
    p.add_argument("--variant", default="standard", help="the game's variant (default standard)")
    p.add_argument("--players", type=int, default=2, metavar="N", help="number of players (default 2)")
    p.add_argument("--bots", default="random", metavar="B[,B...]",
                   help="computer player per seat, cycled: random, greedy, ismcts[:easy|normal|hard|ITERATIONS|SECONDSs] (default random)")
    p.add_argument("--net", choices=["open", "memory", "tcp"], default="open",
                   help="open table (default), signed sessions in memory, or one process per seat over TCP")
    p.add_argument("--log-dir", metavar="DIR", help="where the signed logs go (with --net memory or tcp)")
    p.add_argument("--json", action="store_true", help="one JSON object per game, then a summary")


def run(args) -> int:
    from client.cli import UserError

    if args.games < 1:
        raise UserError("--games must be at least 1")
    game = get_game(args.game)
    game.check_options(args.players, args.variant)
    kinds = [k.strip() for k in args.bots.split(",") if k.strip()] or ["random"]
    if args.net != "open":
        return netplay.selfplay(args, game, kinds)
    started = time.perf_counter()
    results = []
    for g in range(args.games):
        seed = game_seed(args.seed, g)
        bots = [make_bot(kinds[i % len(kinds)], f"{seed}/bot{i}") for i in range(args.players)]
        state = game.setup(players=args.players, variant=args.variant)
        final, record = play_out(game, state, OpenTable(seed), bots)
        results.append(report(game, final, g, seed, len(record)))
        emit(results[-1], args.json)
    elapsed = time.perf_counter() - started
    summary = {"games": args.games, "seconds": round(elapsed, 3),
               "games_per_second": round(args.games / elapsed, 1) if elapsed else None}
    if args.json:
        print(json.dumps({"summary": summary}))
    else:
        print(f"{args.games} games in {elapsed:.2f} s: {summary['games_per_second']} games/s")
    return 0
