"""`lanterne play GAME`: a local game in the app, hot-seat or against the computer."""

from __future__ import annotations

from client.cli import seconds

NAME = "play"
HELP = "play a game on this machine: against the computer (--vs bot) or hot-seat (--hot-seat)"


def add_arguments(p) -> None:
    p.add_argument("game", help="pagode, pueblo, pacal or pandoria")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--vs", choices=["bot"], default=None,
                      help="you (P1) against computer players (the default)")
    mode.add_argument("--hot-seat", action="store_true", help="everyone at this keyboard, hands hidden between turns")
    p.add_argument("--bot", default=None, metavar="KIND",
                   help="computer player: random, greedy, ismcts[:easy|normal|hard|ITERATIONS|SECONDSs], e.g. ismcts:2000 or ismcts:3s (default from the settings, ismcts:normal)")
    p.add_argument("--seed", default=None, metavar="S", help="seed of the table (default: a new random game)")
    p.add_argument("--variant", default="standard", help="the game's variant (default standard)")
    p.add_argument("--players", type=int, default=2, metavar="N", help="number of players (default 2)")
    p.add_argument("--delay", type=seconds, default=None, metavar="SECONDS",
                   help="pause after each computer move (default from the settings, 0.4)")


def run(args) -> int:
    from client.app import run_app
    from client.local_play import HOT_SEAT, VS_COMPUTER, make_local_game
    from client.settings import Settings
    from client.screens.game import game_screen_for
    from engines.registry import get_game

    settings = Settings.load()
    game = get_game(args.game)
    delay = settings.computer_delay if args.delay is None else max(0.0, args.delay)
    controller = make_local_game(game, mode=HOT_SEAT if args.hot_seat else VS_COMPUTER,
                                 bot=args.bot or settings.computer_level,
                                 seed=args.seed, variant=args.variant, players=args.players,
                                 you=settings.display_name, computer_delay=delay)
    return run_app(start=lambda: game_screen_for(controller))
