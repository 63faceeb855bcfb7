"""The `lanterne` command: the app with no arguments, tools as subcommands.

Each subcommand is a module in ``client/commands`` with ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``. Any error a user can cause
ends as one line on stderr and exit status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import pkgutil
import sys

import client.commands
from engines.core import RulesError

EXIT_USAGE = 2
EXIT_CRASH = 70
"""An unexpected error (a bug): BSD's EX_SOFTWARE; the traceback is in crash.log (client/logs.py)."""


def holds_data_folder(args) -> bool:
    """Whether this command runs as *the* app of its data folder (client/single.py): the app,
    ``host`` and ``join`` (not ``join --list``), which use the identity and the games folder."""
    return args.command is None or args.command == "host" or (args.command == "join"
                                                              and not getattr(args, "list", False))


class UserError(Exception):
    """A mistake in what the user asked for; the message is the whole story."""


def seconds(text: str) -> float:
    """An argparse type: a duration in seconds, 0 or more (``--delay -3`` is refused in one line)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value >= 0 or value == float("inf"):       # also refuses nan
        raise argparse.ArgumentTypeError(f"{text!r} seconds: give 0 or more")
    return value


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + error
        sys.stderr.write(f"{self.prog}: {message} (see '{self.prog} --help')\n")
        raise SystemExit(EXIT_USAGE)


def command_modules() -> list:
    mods = []
    for info in sorted(pkgutil.iter_modules(client.commands.__path__), key=lambda m: m.name):
        mod = importlib.import_module(f"client.commands.{info.name}")
        if hasattr(mod, "NAME") and hasattr(mod, "run"):
            mods.append(mod)
    return mods


def version() -> str:
    """The installed distribution's version (from its metadata: pyproject.toml is the one place it is set)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("lanterne")
    except PackageNotFoundError:       # a source checkout that was never installed
        return "unknown (not installed)"


def build_parser() -> tuple[argparse.ArgumentParser, dict]:
    parser = _Parser(prog="lanterne", description="A terminal board-game table for the LAN.")
    parser.add_argument("--version", action="version", version=f"lanterne {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    runners = {}
    for mod in command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        runners[mod.NAME] = mod.run
    return parser, runners


def main(argv: list[str] | None = None) -> int:
    parser, runners = build_parser()
    args = parser.parse_args(argv)
    from client.logs import crash_line, log, setup_logging
    from client.single import AlreadyRunning, only_instance

    setup_logging()
    log.debug("lanterne %s %s: %s", version(), args.command or "app", " ".join(argv if argv is not None else sys.argv[1:]))
    try:
        with only_instance() if holds_data_folder(args) else contextlib.nullcontext():
            if args.command is None:
                from client.app import run_app

                return run_app() or 0
            return runners[args.command](args) or 0
    except (UserError, RulesError, AlreadyRunning) as e:
        log.info("refused: %s", e)
        sys.stderr.write(f"lanterne: {e}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("lanterne: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:            # a bug: one line here, the traceback in the log folder's crash.log
        sys.stderr.write(crash_line(e, args.command or "app") + "\n")
        return EXIT_CRASH


if __name__ == "__main__":
    raise SystemExit(main())
