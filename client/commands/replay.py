"""`lanterne replay LOG`: the app, opened straight on the replay of a game log."""

from __future__ import annotations

NAME = "replay"
HELP = "watch a signed game log in the app: verdict, board, step through every move"


def add_arguments(p) -> None:
    p.add_argument("log", metavar="LOG", nargs="?", help="a game log (<table>.log of a LAN game, or a selfplay .lanterne); none: choose one in the app")


def run(args) -> int:
    from pathlib import Path

    from client.app import run_app
    from client.cli import UserError
    from client.screens.replay import ReplayScreen

    if args.log is not None:
        path = Path(args.log)
        if not path.is_file():
            raise UserError(f"{args.log}: {'a folder, not a log file' if path.is_dir() else 'no such file'}")
    return run_app(start=lambda: ReplayScreen(args.log))
