"""`lanterne host GAME --bot KIND`: open a table on the LAN and play it headless.

The host advertises its table with zeroconf (on the interfaces given, else
the machine's LAN interfaces), listens on TCP, accepts the first joiner its
policy allows, and plays to the end with a computer player, printing one
line per event. If the log folder holds an unfinished game this host
started for the same game (after a crash), it resumes that game instead.
Every table size, two seats included, runs the same peer.
"""

from __future__ import annotations

from lanterne.client.commands import online
from lanterne.client.cli import UserError
from lanterne.client.i18n import N_, _
from lanterne.engines.registry import GAMES, get_game
from lanterne.protocol.identity import Identity, home

import asyncio
import json

import signal
import ipaddress
import sys
from pathlib import Path

NAME = "host"
HELP = N_("open a table on the LAN and play it with a computer player (headless)")


def add_arguments(p) -> None:
    p.add_argument("game", help=_("the game: {games}").format(games=", ".join(GAMES)))
    p.add_argument("--variant", default="standard", help=_("the game's variant (default standard)"))
    p.add_argument("--players", type=int, default=2, metavar="N",
                   help=_("seats at the table (default 2; every peer links with every other)"))
    p.add_argument("--computers", type=int, default=0, metavar="K",
                   help=_("seats for computer players this host runs (named '[computer] NAME n'; 0 to N-1)"))
    p.add_argument("--port", type=int, default=0, help=_("TCP port (default: any free port)"))
    p.add_argument("--accept", default="any", metavar="any|FP[,FP...]",
                   help=_("whom to seat: anyone (default) or only these key fingerprints"))
    p.add_argument("--on-gone", choices=("end", "computer"), default="end",
                   help=_("a peer gone past --claim-after: end the game with the scores so far (default), or "
                        "give its seat to a computer by agreement of the rest (signed in the table)"))
    p.add_argument("--invite", action="store_true",
                   help=_("print a code for a friend anywhere (one per guest, each once the last one is seated)"))
    add_common(p)
    p.epilog = EXIT_CODES


def run(args) -> int:
    # what this command alone needs: --version and --help import every command module
    from lanterne.engines.bots import make_bot
    from lanterne.protocol.net.files import GameFiles, ResumeError, read_meta
    from lanterne.protocol.net.peer import Peer

    game = get_game(args.game)
    game.check_options(args.players, args.variant)
    if not 0 <= args.computers < args.players:
        fail(_("--computers must be 0..{value} at a table of {players} (one seat is yours), not {computers}").format(
            value=args.players - 1, players=args.players, computers=args.computers))
    check_bot(args.bot)
    if not 0 <= args.port < 65536:
        fail(_("--port must be 0..65535, not {port}").format(port=args.port))
    if args.invite:
        servers = online.servers_of(args)
    me, name = identity_and_name(args)
    interfaces = interfaces_of(args)
    folder = log_folder(args)
    player = make_bot(args.bot, args.bot_seed)
    options = peer_options(args)
    unfinished = [m for m in GameFiles.unfinished(folder)
                  if read_meta(m).get("role") == "host" and read_meta(m).get("game") == game.id]
    from lanterne.protocol.net.online.rendezvous import came_by_code, resume_by_code

    resuming = bool(unfinished) and not args.new
    if resuming:
        if args.invite and not came_by_code(unfinished[0]):
            fail(_("{stem} is a game under way: a code seats a new table only (start one with --new)").format(
                stem=unfinished[0].stem))
        try:
            peer = Peer.from_files(me, unfinished[0], player=player, options=options, say=say)
            peer.resume_computers(lambda n: make_bot(args.bot, f"{args.bot_seed}-computer-{n}"))
        except ResumeError as e:
            fail(_("{e} (start a new game with --new)").format(e=e))
        port = args.port or int(peer.files.meta.get("port", 0) or 0)
    else:
        peer = Peer.host(me, name, game, args.players, folder, variant=args.variant, player=player,
                         options=options, say=say, on_gone=args.on_gone)
        for n in range(args.computers):
            peer.add_computer(make_bot(args.bot, f"{args.bot_seed}-computer-{n + 1}"))
        port = args.port
    peer.computer_player = replacement_player(args)
    allowed = None if args.accept == "any" else {f.strip() for f in args.accept.split(",") if f.strip()}
    policy = None if allowed is None else (lambda req: req.peer.fingerprint in allowed)
    # what this command alone needs: --version and --help import every command module
    from lanterne.protocol.net.discovery import DiscoveryError

    try:
        playing = peer.run_host(interfaces, port, discover=not args.no_discovery, accept=policy)
        if resuming and came_by_code(unfinished[0]):
            say(_("the seats that came by a code meet again by its rendezvous: no new code"))
            playing = resume_by_code(peer, playing)
        elif args.invite:
            playing = online.host(peer, servers, playing, say, direct=not args.relay_only)
        session = asyncio.run(until_signal(playing))
    except DiscoveryError as e:
        fail(str(e))
    except OSError as e:
        fail(_("cannot listen on {value}: {value2}").format(value=', '.join(interfaces), value2=e.strerror or e))
    except Stopped as e:
        return stopped(e)
    return ended(session)


# --------------------------------------------------------------------------
# SIGTERM and SIGHUP (kill, a closed terminal): leave the LAN cleanly

EXIT_CODES = ("exit codes: 0 the game ended normally; 1 it ended by an abort or a claim; 2 a user error "
              "(one line on stderr); 129 stopped by SIGHUP (its terminal closed), 143 stopped by SIGTERM, "
              "130 by Ctrl-C: links closed, the zeroconf record withdrawn (goodbye), the unfinished game "
              "left in the log folder to resume")


CLEANUP_SECONDS = 5.0
"""After SIGTERM or SIGHUP, how long the peer may take to close its links and zeroconf before it is cut."""


class Stopped(Exception):
    """The command was stopped by a signal, after the peer closed its links and its zeroconf record."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


async def until_signal(coro):
    """Await ``coro``; SIGTERM or SIGHUP cancel it (its ``finally`` closes links and withdraws the
    zeroconf record, as on Ctrl-C) and raise :class:`Stopped`. Python's default for these signals
    ends the process at once, leaving a ghost table in other lobbies for the record's TTL."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    got: list[int] = []
    timers: list[asyncio.TimerHandle] = []

    def stop(signum: int) -> None:
        if not got:
            got.append(signum)
            # the cleanup gets CLEANUP_SECONDS, then is cut short (so is it by a second signal)
            timers.append(loop.call_later(CLEANUP_SECONDS, task.cancel))
        task.cancel()

    numbers = [s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None]
    installed = []
    for number in numbers:
        try:
            loop.add_signal_handler(number, stop, number)
            installed.append(number)
        except (NotImplementedError, RuntimeError, ValueError):  # not on this platform or loop
            pass
    try:
        return await coro
    except asyncio.CancelledError:
        if got:
            raise Stopped(got[0]) from None
        raise
    finally:
        for timer in timers:
            timer.cancel()
        for number in installed:
            loop.remove_signal_handler(number)


def stopped(e: Stopped) -> int:
    """One line on stderr for a signal that stopped the command; its exit code, 128 + the signal's number."""
    try:
        sys.stderr.write(f"lanterne: stopped by {signal.Signals(e.signum).name}: links closed, "
                         f"withdrawn from the LAN\n")
        sys.stderr.flush()
    except OSError:           # the terminal is gone (SIGHUP): the exit code still tells
        pass
    return 128 + e.signum


# --------------------------------------------------------------------------
# Options shared with `lanterne join`


def add_common(p) -> None:
    p.add_argument("--bot", metavar="KIND", help=_("computer player (required): random, greedy, ismcts[:level]"))
    p.add_argument("--bot-seed", default="0", metavar="S", help=_("seed of the computer player (default 0)"))
    p.add_argument("--name", default="", help=_("display name (default: your user name)"))
    p.add_argument("--interface", action="append", default=[], metavar="IP",
                   help=_("IPv4 address of an interface to use (repeatable; default: the LAN interfaces)"))
    p.add_argument("--no-discovery", action="store_true", help=_("no zeroconf: manual HOST:PORT only"))
    p.add_argument("--log-dir", metavar="DIR", help=_("where game logs go (default: the data folder's games/)"))
    p.add_argument("--new", action="store_true",
                   help=_("start a new game even if an unfinished one is in the log folder"))
    p.add_argument("--claim-after", type=float, default=300.0, metavar="S",
                   help=_("claim the game after the other peer is gone this long (default 300)"))
    p.add_argument("--min-claim", type=float, default=10.0, metavar="S",
                   help=_("leave a table whose claim time or move clock is shorter than this (default 10, or "
                        "--claim-after if shorter)"))
    p.add_argument("--move-clock", type=float, default=None, metavar="S",
                   help=_("as host: a player linked but silent this long for one move may be claimed against "
                        "(default: none)"))
    p.add_argument("--spectators", choices=("off", "ask", "known", "everyone"), default=None,
                   help=_("as host: who may watch the table: off, ask (nobody to ask when headless), known, "
                        "everyone (default: ask for a game with hidden cards, known for an open one)"))
    p.add_argument("--undo", choices=("off", "ask"), default="off",
                   help=_("as host: whether the player whose turn it is may take back their last move if every "
                        "other player says yes: off, ask (a computer says yes; default off)"))
    p.add_argument("--read-timeout", type=float, default=20.0, metavar="S",
                   help=_("a link silent this long is dead (default 20; keep-alive every quarter of it)"))
    p.add_argument("--move-delay", type=float, default=0.0, metavar="S", help=_("seconds the bot waits before moving"))

    online.add_arguments(p)


def ended(session) -> int:
    """The exit code of a finished table; a game played to its end also prints its result as our seat saw
    it, one JSON line (``result: {...}``: the scores as the rulebook counts them, the winners from 1, the
    turns): what ``selfplay --net tcp`` reports, without replaying the log again."""
    from lanterne.protocol.session.phases import Phase   # here: --version and --help import every command module

    if session.phase != Phase.OVER:
        return 1
    game, view = session.game, session.view
    if game is not None and view is not None and game.is_over(view):
        say("result: " + json.dumps({"scores": game.display_scores(view), "counted": game.score_name,
                                     "winners": [w + 1 for w in game.winners(view)], "turns": game.turn(view)}))
    return 0


def fail(message: str):
    raise UserError(message)


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def check_bot(kind: str | None) -> None:
    # what this command alone needs: --version and --help import every command module
    from lanterne.engines.bots import make_bot

    if not kind:
        fail(_("--bot KIND is required: these commands are headless (people play in the app)"))
    make_bot(kind, 0)  # raises a one-line RulesError for an unknown kind


def identity_and_name(args):
    import getpass  # it brings termios: not on the path of --version, which loads every command

    try:
        me = Identity.load_or_create()
    except (OSError, ValueError) as e:
        fail(_("cannot load your identity: {e}").format(e=e))
    name = args.name or getpass.getuser() or "peer"
    return me, name


def interfaces_of(args) -> list[str]:
    # what this command alone needs: --version and --help import every command module
    from lanterne.protocol.net.discovery import default_interfaces

    for ip in args.interface:
        try:
            ipaddress.IPv4Address(ip)
        except ValueError:
            fail(_("--interface takes an IPv4 address, not {ip!r}").format(ip=ip))
    found = args.interface or default_interfaces()
    if not found:
        fail(_("no LAN interface found: pass --interface IP"))
    return found


def log_folder(args) -> Path:
    folder = Path(args.log_dir) if args.log_dir else home() / "games"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(_("cannot make the log folder {folder}: {strerror}").format(folder=folder, strerror=e.strerror))
    return folder


def replacement_player(args):
    """The player of a computer this peer hosts for a seat it replaced (same kind as ours)."""
    # what this command alone needs: --version and --help import every command module
    from lanterne.engines.bots import make_bot

    return lambda seat: make_bot(args.bot, f"{args.bot_seed}-replace-{seat + 1}")


def peer_options(args):
    # what this command alone needs: --version and --help import every command module
    from lanterne.protocol.net.peer import PeerOptions
    from lanterne.protocol.net.transport import LinkOptions

    for flag in ("claim_after", "read_timeout", "min_claim", "move_clock"):
        value = getattr(args, flag, None)
        if value is not None and value <= 0:
            fail(_("--{value} must be positive").format(value=flag.replace('_', '-')))
    if args.move_delay < 0:
        fail(_("--move-delay must not be negative"))
    link = LinkOptions(read_timeout=args.read_timeout, keepalive=args.read_timeout / 4,
                       connect_timeout=min(3.0, args.read_timeout))
    return PeerOptions(link=link, claim_after=args.claim_after, move_delay=args.move_delay,
                       min_claim=getattr(args, "min_claim", 10.0), move_clock=getattr(args, "move_clock", None),
                       spectators=getattr(args, "spectators", None), undo=getattr(args, "undo", "off"))
