"""`lanterne replay LOG`: the app, opened straight on the replay of a game log."""

from __future__ import annotations

from lanterne.client.cli import UserError
from lanterne.client.i18n import N_, _

NAME = "replay"
HELP = N_("watch a signed game log in the app: verdict, board, step through every move")


def add_arguments(p) -> None:
    p.add_argument("log", metavar="LOG", nargs="?",
                   help=_("a game log (a <table>.log file); none: choose one in the app"))


def run(args) -> int:
    # what this command alone needs: --version and --help import every command module
    from lanterne.client.app import run_app
    from lanterne.client.replay_model import why_not_a_log_file
    from lanterne.client.screens.replay import ReplayScreen

    if args.log is not None:
        why = why_not_a_log_file(args.log)
        if why:
            raise UserError(_("{log}: {value}").format(log=args.log, value=why))
    return run_app(start=lambda: ReplayScreen(args.log))
