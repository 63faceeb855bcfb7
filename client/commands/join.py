"""`lanterne join NAME|HOST:PORT|CODE --bot KIND`: join a table and play it headless.

NAME is a host's display name or the start of its key fingerprint, found
with zeroconf; HOST:PORT joins directly where multicast is blocked; CODE
(``7-crossover-clockwork``, from ``lanterne host --invite``) joins a friend
anywhere through a wormhole mailbox (:mod:`.online`). The
host's key is then proven on the connection (the TXT record is only a
hint). If the log folder holds an unfinished game this peer joined (after a
crash), it resumes that game instead.

``join --list`` prints one line per peer heard; when nobody answers within
``--wait`` seconds it says so on stderr and exits 1 (:data:`EXIT_NOBODY`).
"""

from __future__ import annotations

from lanterne.client.commands import online
from lanterne.client.i18n import N_, _

import argparse
import asyncio
import ipaddress
import sys

from lanterne.client.cli import seconds
from lanterne.engines.core import only_digits
from lanterne.client.commands.host import (EXIT_CODES, Stopped, add_common, check_bot, ended, fail,
                                           identity_and_name, interfaces_of, log_folder, peer_options,
                                           replacement_player, say, stopped, until_signal)

NAME = "join"
HELP = N_("join a table (by host name, HOST:PORT or a friend's code) and play it with a computer player")
EXIT_NOBODY = 1
LAN_WAIT = 10.0
"""``--wait``'s default on the LAN (a code's is the code's own, ``online.code.ACCEPT_WAIT``)."""
"""``join --list``: no Lanterne peer was heard within --wait seconds."""


def target(text: str) -> str:
    """An argparse type for NAME|HOST:PORT: a malformed address is one line, not a name to search for.

    Text is an address attempt when the part before its last ``:`` is an IP
    address (``[...]`` for IPv6), ``localhost`` or a dotted host name, or the
    part after it is a number; its port must then be 1..65535. Anything else
    is a player's name or fingerprint, looked up on the LAN.
    """
    host, sep, port = text.rpartition(":")
    if not sep:
        return text
    bare = host.strip("[]")
    try:
        ipaddress.ip_address(bare)
        is_ip = True
    except ValueError:
        is_ip = False
    numeric = port.lstrip("+-").isdigit()
    dotted = "." in bare and not any(ch.isspace() for ch in bare)
    if not (is_ip or bare == "localhost" or dotted or numeric):
        return text
    if not bare:
        raise argparse.ArgumentTypeError(_("{text!r} has no host before the ':' (HOST:PORT)").format(text=text))
    if not only_digits(port) or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(_("{text!r}: the port {port!r} is not a number from 1 to 65535 "
                                           "(HOST:PORT)").format(
            text=text, port=port))
    return text


def add_arguments(p) -> None:
    p.add_argument("target", nargs="?", default="", metavar="NAME|HOST:PORT|CODE", type=target,
                   help=_("the host's name or fingerprint (found by zeroconf), its address, or its code "
                          "(7-crossover-clockwork)"))
    p.add_argument("--wait", type=seconds, default=None, metavar="S",
                   help=_("seconds to look for the host on the LAN (default 10), or for the friend who made the "
                          "code to answer (default 30)"))
    p.add_argument("--players", type=int, default=0, metavar="N",
                   help=_("seats at a HOST:PORT table (default: what the host advertises, else 2)"))
    p.add_argument("--on-gone", choices=("end", "computer"), default=None,
                   help=_("leave unless the table's policy for a gone peer is this (default: the host's choice)"))
    p.add_argument("--list", action="store_true",
                   help=_("only list the peers heard on the LAN within --wait seconds, one per line, and exit "
                        "(exit 1 if nobody was heard)"))
    add_common(p)
    p.epilog = EXIT_CODES + "; join --list: 1 when nobody was heard"


def run(args) -> int:
    # what this command alone needs: --version and --help import every command module
    from lanterne.engines.bots import make_bot
    from lanterne.protocol.net.discovery import Discovery, DiscoveryError
    from lanterne.protocol.net.handshake import HandshakeError
    from lanterne.protocol.net.invite import Declined, parse_address
    from lanterne.protocol.net.files import GameFiles, ResumeError, read_meta
    from lanterne.protocol.net.peer import Peer
    from lanterne.protocol.net.transport import LinkClosed

    if args.list:
        return list_peers(args)
    check_bot(args.bot)
    me, name = identity_and_name(args)
    folder = log_folder(args)
    player = make_bot(args.bot, args.bot_seed)
    options = peer_options(args)

    code = args.target.strip().lower() if online.is_code(args.target) else ""
    servers = online.servers_of(args) if code else None
    address = parse_address(args.target) if args.target and not code else None
    unfinished = [m for m in GameFiles.unfinished(folder) if read_meta(m).get("role") == "guest"]
    if not args.target and not unfinished:
        fail(_("join needs a host: NAME or HOST:PORT"))
    interfaces = [] if args.no_discovery else interfaces_of(args)
    if address is not None and not args.interface:      # by HOST:PORT: the one interface that reaches the host
        reaching = interface_towards(address)
        if reaching is not None:
            interfaces = [] if args.no_discovery else [reaching]
            args.interface = [reaching]
    if args.players and not 2 <= args.players <= 16:
        fail(_("--players must be 2..16, not {players}").format(players=args.players))

    async def by_code() -> int:
        peer = Peer.guest(me, name, folder, player=player, options=options, say=say)
        peer.computer_player = replacement_player(args)
        peer.require_on_gone = args.on_gone
        session = await online.join(peer, code, servers, interfaces or interfaces_of(args), say,
                                     direct=not args.relay_only, players=args.players, wait=args.wait)
        return ended(session)

    from lanterne.protocol.net.online.rendezvous import came_by_code, resume_by_code

    by_rendezvous = bool(unfinished) and not args.new and came_by_code(unfinished[0])

    async def main() -> int:
        if code and not by_rendezvous:
            return await by_code()
        discovery = Discovery(interfaces) if interfaces else None
        if discovery is not None:
            try:
                await discovery.start()
            except DiscoveryError as e:
                fail(str(e))
        expect_fp = None
        target = address
        game = variant = ""
        seats = args.players
        if unfinished and not args.new:
            try:
                peer = Peer.from_files(me, unfinished[0], player=player, options=options, say=say)
                # a computer we took a gone seat over with comes back with us
                peer.resume_computers(lambda n: make_bot(args.bot, f"{args.bot_seed}-replace-{n}"))
            except ResumeError as e:
                fail(_("{e} (start a new game with --new)").format(e=e))
            if target is not None and peer.seats:
                peer.seats[0].address = target     # the host moved: where to find it now
        else:
            if target is None:
                if discovery is None:
                    fail(_("{target!r} is not HOST:PORT, and --no-discovery forbids looking it up").format(
                        target=args.target))
                wanted = args.target.lower()
                say(f"looking for {args.target} on {', '.join(interfaces)}")
                try:
                    advert = await discovery.wait_for(
                        lambda a: a.table is not None and a.table.free > 0
                        and (a.name.lower() == wanted or a.fingerprint.replace("-", "").startswith(
                            wanted.replace("-", ""))), lan_wait(args))
                except DiscoveryError:
                    await discovery.close()
                    fail(_("no open table of {target!r} found on the LAN within {wait:g} s").format(
                        target=args.target, wait=lan_wait(args)))
                say(f"found {advert.name} ({advert.fingerprint}) at {advert.address}:{advert.port}: "
                    f"{advert.table.game} {advert.table.variant}")
                target = (advert.address, advert.port)
                expect_fp = advert.fingerprint
                game, variant = advert.table.game, advert.table.variant
                seats = args.players or advert.table.seats
            peer = Peer.guest(me, name, folder, player=player, options=options, say=say)
        peer.computer_player = replacement_player(args)
        peer.require_on_gone = args.on_gone
        try:
            playing = peer.run_guest(target, interfaces or interfaces_of(args), discovery=discovery,
                                     expect_fingerprint=expect_fp, game=game, variant=variant or "standard",
                                     players=seats)
            if by_rendezvous:
                say(_("the seats that came by a code meet again by its rendezvous: no new code"))
                playing = resume_by_code(peer, playing)
            elif not (unfinished and not args.new):    # a mixed table: the guests that came by a code
                from lanterne.protocol.net.online.table import guest_with_pairs

                playing = guest_with_pairs(peer, online.servers_of(args), playing, direct=not args.relay_only)
            session = await playing
        except (Declined, HandshakeError, LinkClosed, DiscoveryError) as e:
            fail(str(e))
        finally:
            if discovery is not None:
                await discovery.close()
        return ended(session)

    try:
        return asyncio.run(until_signal(main()))
    except Stopped as e:
        return stopped(e)


def lan_wait(args) -> float:
    """Seconds to look for peers on the LAN: ``--wait``, else :data:`LAN_WAIT`."""
    return LAN_WAIT if args.wait is None else args.wait


def list_peers(args) -> int:
    """Print every Lanterne peer heard within --wait seconds: name, fingerprint, address, open table."""
    # what this command alone needs: --version and --help import every command module
    from lanterne.protocol.net.discovery import Discovery, DiscoveryError

    if args.no_discovery:
        fail(_("--list needs zeroconf (drop --no-discovery)"))
    interfaces = interfaces_of(args)

    async def main() -> list:
        try:
            async with Discovery(interfaces) as d:
                await d.browse()
                await asyncio.sleep(lan_wait(args))
                return sorted(d.peers.values(), key=lambda a: (a.name, a.fingerprint))
        except DiscoveryError as e:
            fail(str(e))

    try:
        heard = asyncio.run(until_signal(main()))
    except Stopped as e:
        return stopped(e)
    for a in heard:
        table = f"{a.table.game} {a.table.variant} free={a.table.free}" if a.table else "no open table"
        say(f"{a.name}\t{a.fingerprint}\t{a.address}:{a.port}\t{table}")
    if not heard:
        sys.stderr.write(f"lanterne: nobody heard on {', '.join(interfaces)} within {lan_wait(args):g} s\n")
        return EXIT_NOBODY
    return 0


def interface_towards(address: tuple[str, int]) -> str | None:
    """The address of this machine's interface that reaches ``address`` (the routing table's choice; nothing is
    sent), or None if no route does: a guest that joins by HOST:PORT listens there for the players seated after
    it, not on every LAN interface."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(address)
            return probe.getsockname()[0]
    except (OSError, ValueError):
        return None
