"""`lanterne selfplay GAME`: complete games between computer players."""

from __future__ import annotations

from lanterne.client.cli import UserError
from lanterne.client.i18n import N_, _, ngettext

import json
import time

from lanterne.engines.bots import make_bot
from lanterne.engines.core import OpenTable, play_out
from lanterne.engines.registry import GAMES, get_game

from lanterne.client.commands import netplay
from lanterne.client.selfplay_report import emit, game_seed, report

NAME = "selfplay"
HELP = N_("play complete games between computer players and print the results")


def add_arguments(p) -> None:
    p.add_argument("game", help=_("the game: {games}").format(games=", ".join(GAMES)))
    p.add_argument("--games", type=int, default=1, metavar="K", help=_("number of games (default 1)"))
    p.add_argument("--seed", default="0", metavar="S", help=_("seed of the first game (default 0)"))
    p.add_argument("--variant", default="standard", help=_("the game's variant (default standard)"))
    p.add_argument("--players", type=int, default=2, metavar="N", help=_("number of players (default 2)"))
    p.add_argument("--bots", default="random", metavar="B[,B...]",
                   help=_("computer player per seat, cycled: random, greedy, ismcts[:easy|normal|hard|ITERATIONS|SECONDSs] (default random)"))
    p.add_argument("--net", choices=["open", "memory", "tcp"], default="open",
                   help=_("open table (default), signed sessions in memory, or one process per seat over TCP"))
    p.add_argument("--log-dir", metavar="DIR", help=_("where the signed logs go (with --net memory or tcp)"))
    p.add_argument("--json", action="store_true", help=_("one JSON object per game, then a summary"))


def run(args) -> int:
    if args.games < 1:
        raise UserError(_("--games must be at least 1"))
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
        print(ngettext("{n} game in {seconds:.2f} s: {rate} games/s", "{n} games in {seconds:.2f} s: {rate} games/s",
                       args.games).format(n=args.games, seconds=elapsed, rate=summary["games_per_second"]))
    return 0
