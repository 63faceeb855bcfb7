"""The `lanterne` command: the app with no arguments, tools as subcommands.

Each subcommand is a module in ``client/commands`` with ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``. Any error a user can cause
ends as one line on stderr and exit status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
from importlib.metadata import PackageNotFoundError, version as dist_version
import pkgutil
import sys

from lanterne.client import commands as command_package
from lanterne.client.i18n import (LANGUAGES, N_, UnknownLanguage, _, choose_language, say_refusal,
                                  set_language, translate_argparse)
from lanterne.client.settings import Settings
from lanterne.engines.core import RulesError
from lanterne.protocol.wire import printable

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


APP_COMMANDS = frozenset({"play", "replay"})
"""The commands that run the app on this terminal (and no command at all); the others print lines."""


class PrintableStream:
    """A command's standard output or error, written :func:`~protocol.wire.printable` but for its line breaks
    and tabs (``join --list`` separates its columns with tabs).

    What a command prints may hold another peer's words (a name in a log, the reason a link was closed,
    a claim's reason); an ESC among them would recolour, move or retitle the user's terminal. The
    protocol makes such text printable where it arrives (``protocol.wire.printable``); this is the net
    under every line a headless command prints, wherever the text came from.
    """

    def __init__(self, stream):
        self._stream, self._printable = stream, printable

    def write(self, text: str) -> int:
        """``text`` as it may be shown; plain ASCII lines (most of them: a headless peer prints one a move) pass
        as they are, without the per-character walk (ASCII holds no invisible character and no mark)."""
        if not (text.isascii() and text.replace("\n", "").replace("\t", "").isprintable()):
            text = "\n".join("\t".join(map(self._printable, line.split("\t"))) for line in text.split("\n"))
        return self._stream.write(text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


@contextlib.contextmanager
def printable_output():
    """Standard output and error as :class:`PrintableStream` while a headless command runs."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = PrintableStream(out), PrintableStream(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def seconds(text: str) -> float:
    """An argparse type: a duration in seconds, 0 or more (``--delay -3`` is refused in one line)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a number of seconds").format(text=text)) from None
    if not value >= 0 or value == float("inf"):       # also refuses nan
        raise argparse.ArgumentTypeError(_("{text!r} seconds: give 0 or more").format(text=text))
    return value


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + error
        sys.stderr.write(_("{prog}: {message} (see '{prog} --help')").format(prog=self.prog, message=message) + "\n")
        raise SystemExit(EXIT_USAGE)


def command_modules() -> list:
    mods = []
    for info in sorted(pkgutil.iter_modules(command_package.__path__), key=lambda m: m.name):
        mod = importlib.import_module(f"lanterne.client.commands.{info.name}")
        if hasattr(mod, "NAME") and hasattr(mod, "run"):
            mods.append(mod)
    return mods


def version() -> str:
    """The installed distribution's version (from its metadata: pyproject.toml is the one place it is set)."""
    try:
        return dist_version("lanterne")
    except PackageNotFoundError:       # a source checkout that was never installed
        return "unknown (not installed)"


ARGPARSE_WORDS = (
    N_("usage: "), N_("options"), N_("positional arguments"), N_("show this help message and exit"),
    N_("show program's version number and exit"), N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"), N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"), N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"), N_("expected one argument"), N_("expected at least one argument"),
    N_("expected at most one argument"), N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"), N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
)
"""argparse's own words (it asks gettext for them: client/i18n.py's translate_argparse), marked here
so that the catalog keeps them."""


def add_lang_argument(parser: argparse.ArgumentParser, default=None) -> None:
    parser.add_argument("--lang", metavar="LANG", default=default,
                        help=_("the language of this run: {choices} (default: the settings, else the "
                               "environment's LANGUAGE, LC_ALL, LC_MESSAGES, LANG)").format(
                                   choices=", ".join(sorted(LANGUAGES))))


def setup_language(argv: list[str]) -> str:
    """The language of this run, in force from now on: ``--lang`` anywhere in ``argv``, else the
    settings', else the environment's; :class:`UnknownLanguage` for a ``--lang`` Lanterne lacks."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang")
    try:
        known, _rest = pre.parse_known_args(argv)
    except SystemExit:          # "--lang" without a value: the real parser says so
        known = argparse.Namespace(lang=None)
    setting = None
    if not known.lang:
        setting = Settings.load().language
    code = choose_language(known.lang, setting)
    set_language(code)
    translate_argparse()
    return code


def build_parser() -> tuple[argparse.ArgumentParser, dict]:
    parser = _Parser(prog="lanterne", description=_("A terminal board-game table for the LAN and, by a short code, for friends anywhere."))
    parser.add_argument("--version", action="version", version=f"lanterne {version()}")
    add_lang_argument(parser)
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"), parser_class=_Parser)
    runners = {}
    for mod in command_modules():
        p = sub.add_parser(mod.NAME, help=_(mod.HELP), description=_(mod.HELP))
        mod.add_arguments(p)
        add_lang_argument(p, default=argparse.SUPPRESS)
        runners[mod.NAME] = mod.run
    return parser, runners


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        setup_language(argv)
    except UnknownLanguage as e:
        sys.stderr.write(f"lanterne: {e}\n")
        return EXIT_USAGE
    parser, runners = build_parser()
    args = parser.parse_args(argv)
    from lanterne.client.logs import crash_line, log, setup_logging  # after the parser: --version and --help exit first
    from lanterne.client.single import AlreadyRunning, only_instance  # (these bring logging, filelock, pickle)

    setup_logging()
    log.debug("lanterne %s %s: %s", version(), args.command or "app", " ".join(argv))
    headless = args.command is not None and args.command not in APP_COMMANDS
    try:
        with only_instance() if holds_data_folder(args) else contextlib.nullcontext(), \
                printable_output() if headless else contextlib.nullcontext():
            if args.command is None:
                from lanterne.client.app import run_app  # Textual loads for the app, not for a command that prints

                return run_app() or 0
            return runners[args.command](args) or 0
    except (UserError, RulesError, AlreadyRunning) as e:
        log.info("refused: %s", e)
        said = say_refusal(e) if isinstance(e, RulesError) else str(e)
        PrintableStream(sys.stderr).write(f"lanterne: {said}\n")  # may quote another peer's words, app or not
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("lanterne: " + _("interrupted") + "\n")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:            # a bug: one line here, the traceback in the log folder's crash.log
        sys.stderr.write(crash_line(e, args.command or "app") + "\n")
        return EXIT_CRASH


if __name__ == "__main__":
    raise SystemExit(main())
