"""`lanterne play GAME`: a local game in the app, hot-seat or against the computer.

The game is saved as the app's local games are (``games/local/`` of the data
folder, a signed log written as it is played): the home screen resumes it,
Replays lists it, ``lanterne verify`` checks it. Where it went is said in one
line when the app closes.
"""

from __future__ import annotations

from lanterne.client.cli import seconds
from lanterne.client.i18n import N_, _
from lanterne.client.settings import Settings
from lanterne.engines.registry import GAMES, get_game

NAME = "play"
HELP = N_("play a game on this machine: against the computer (--vs bot), hot-seat (--hot-seat) "
           "or computers only (--watch); saved in games/local of the data folder")


def add_arguments(p) -> None:
    p.add_argument("game", help=_("the game: {games}").format(games=", ".join(GAMES)))
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--vs", choices=["bot"], default=None,
                      help=_("you (P1) against computer players (the default)"))
    mode.add_argument("--hot-seat", action="store_true", help=_("everyone at this keyboard, hands hidden between turns"))
    mode.add_argument("--watch", action="store_true",
                      help=_("computers at every seat; you watch (--delay sets the speed)"))
    p.add_argument("--bot", default=None, metavar="KIND",
                   help=_("computer player: random, greedy, ismcts[:easy|normal|hard|ITERATIONS|SECONDSs], e.g. ismcts:2000 or ismcts:3s (default from the settings, ismcts:normal)"))
    p.add_argument("--seed", default=None, metavar="S", help=_("seed of the table (default: a new random game)"))
    p.add_argument("--variant", default="standard", help=_("the game's variant (default standard)"))
    p.add_argument("--players", type=int, default=2, metavar="N", help=_("number of players (default 2)"))
    p.add_argument("--delay", type=seconds, default=None, metavar="SECONDS",
                   help=_("pause after each computer move (default from the settings, 0.4)"))


def run(args) -> int:
    # what this command alone needs: --version and --help import every command module
    from lanterne.client import app as app_module
    from lanterne.client.local_play import HOT_SEAT, VS_COMPUTER, WATCH, make_local_game
    from lanterne.client.local_games import local_folder
    from lanterne.client.screens.game import game_screen_for

    settings = Settings.load()
    game = get_game(args.game)
    delay = settings.computer_delay if args.delay is None else max(0.0, args.delay)
    mode = HOT_SEAT if args.hot_seat else WATCH if args.watch else VS_COMPUTER
    controller = make_local_game(game, mode=mode, bot=args.bot or settings.computer_level,
                                 seed=args.seed, variant=args.variant, players=args.players,
                                 you=settings.display_name, computer_delay=delay,
                                 save_to=local_folder())  # as the app's local games: resumable, in Replays
    try:
        status = app_module.run_app(start=lambda: game_screen_for(controller))
    finally:
        controller.close()  # every entry on disk before the line says where (closing twice is harmless)
        app_module.say_after(saved_line(controller))
    return status


def saved_line(controller) -> str:
    """One line: where the game's log is, and what to do with it."""
    path = getattr(controller, "log_path", None)
    if path is None or not path.is_file():
        return _("lanterne: the game was not saved (no move was written)")
    if controller.waiting.kind == "over":
        return _("Saved: {path} (finished; lanterne verify checks it)").format(path=path)
    return _("Saved: {path} (unfinished; the home screen (lanterne) resumes it; lanterne verify checks it)").format(
        path=path)
