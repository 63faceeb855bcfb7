"""`lanterne join NAME|HOST:PORT --bot KIND`: join a table on the LAN and play it headless.

NAME is a host's display name or the start of its key fingerprint, found
with zeroconf; HOST:PORT joins directly where multicast is blocked. The
host's key is then proven on the connection (the TXT record is only a
hint). If the log folder holds an unfinished game this peer joined (after a
crash), it resumes that game instead.
"""

from __future__ import annotations

import asyncio

from client.commands.host import (_meta, add_common, check_bot, fail, identity_and_name, interfaces_of,
                                  log_folder, peer_options, replacement_player, say)

NAME = "join"
HELP = "join a table on the LAN (by host name or HOST:PORT) and play it with a computer player"


def add_arguments(p) -> None:
    p.add_argument("target", nargs="?", default="", metavar="NAME|HOST:PORT",
                   help="the host's name or fingerprint (found by zeroconf), or its address")
    p.add_argument("--wait", type=float, default=10.0, metavar="S",
                   help="seconds to look for the host on the LAN (default 10)")
    p.add_argument("--players", type=int, default=0, metavar="N",
                   help="seats at a HOST:PORT table (default: what the host advertises, else 2)")
    p.add_argument("--on-gone", choices=("end", "computer"), default=None,
                   help="leave unless the table's policy for a gone peer is this (default: the host's choice)")
    p.add_argument("--list", action="store_true",
                   help="only list the peers heard on the LAN within --wait seconds, one per line, and exit")
    add_common(p)


def run(args) -> int:
    from engines.bots import make_bot
    from protocol.net.discovery import Discovery, DiscoveryError
    from protocol.net.handshake import HandshakeError
    from protocol.net.invite import Declined, parse_address
    from protocol.net.transport import LinkClosed
    from protocol.net.mesh import MeshPeer
    from protocol.net.peer import GameFiles, NetPeer, ResumeError

    if args.list:
        return list_peers(args)
    check_bot(args.bot)
    me, name = identity_and_name(args)
    folder = log_folder(args)
    player = make_bot(args.bot, args.bot_seed)
    options = peer_options(args)
    address = parse_address(args.target) if args.target else None
    unfinished = [m for m in GameFiles.unfinished(folder) if _role(m) == "guest"]
    if not args.target and not unfinished:
        fail("join needs a host: NAME or HOST:PORT")
    interfaces = [] if args.no_discovery else interfaces_of(args)
    if args.players and not 2 <= args.players <= 16:
        fail(f"--players must be 2..16, not {args.players}")

    async def main() -> int:
        discovery = Discovery(interfaces) if interfaces else None
        if discovery is not None:
            try:
                await discovery.start()
            except DiscoveryError as e:
                fail(str(e))
        expect_fp = None
        target = address
        game = variant = ""
        seats = args.players or 2
        if unfinished and not args.new:
            mesh = bool(_meta(unfinished[0]).get("mesh"))
            try:
                peer = (MeshPeer if mesh else NetPeer).from_files(me, unfinished[0], player=player,
                                                                  options=options, say=say)
                if mesh:   # a computer we took a gone seat over with comes back with us
                    peer.resume_computers(lambda n: make_bot(args.bot, f"{args.bot_seed}-replace-{n}"))
            except ResumeError as e:
                fail(f"{e} (start a new game with --new)")
            if target is not None and not mesh:
                peer.address = target
        else:
            peer = None
            if target is None:
                if discovery is None:
                    fail(f"{args.target!r} is not HOST:PORT, and --no-discovery forbids looking it up")
                wanted = args.target.lower()
                say(f"looking for {args.target} on {', '.join(interfaces)}")
                try:
                    advert = await discovery.wait_for(
                        lambda a: a.table is not None and a.table.free > 0
                        and (a.name.lower() == wanted or a.fingerprint.replace("-", "").startswith(
                            wanted.replace("-", ""))), args.wait)
                except DiscoveryError:
                    await discovery.close()
                    fail(f"no open table of {args.target!r} found on the LAN within {args.wait:g} s")
                say(f"found {advert.name} ({advert.fingerprint}) at {advert.address}:{advert.port}: "
                    f"{advert.table.game} {advert.table.variant}")
                target = (advert.address, advert.port)
                expect_fp = advert.fingerprint
                game, variant = advert.table.game, advert.table.variant
                seats = args.players or advert.table.seats
            if seats > 2:
                peer = MeshPeer.guest(me, name, folder, player=player, options=options, say=say)
            else:
                peer = NetPeer.guest(me, name, folder, player=player, options=options, say=say)
        if isinstance(peer, MeshPeer):
            peer.computer_player = replacement_player(args)
            peer.require_on_gone = args.on_gone
        try:
            if isinstance(peer, MeshPeer):
                session = await peer.run_guest(target, interfaces or interfaces_of(args), discovery=discovery,
                                               expect_fingerprint=expect_fp, game=game,
                                               variant=variant or "standard", players=seats)
            else:
                session = await peer.run_guest(target, expect_fingerprint=expect_fp, discovery=discovery,
                                               game=game, variant=variant or "standard")
        except (Declined, HandshakeError, LinkClosed, DiscoveryError) as e:
            fail(str(e))
        finally:
            if discovery is not None:
                await discovery.close()
        return 0 if session.phase == "over" else 1

    return asyncio.run(main())


def _role(meta_path) -> str:
    return _meta(meta_path).get("role", "")


def list_peers(args) -> int:
    """Print every Lanterne peer heard within --wait seconds: name, fingerprint, address, open table."""
    from protocol.net.discovery import Discovery, DiscoveryError

    if args.no_discovery:
        fail("--list needs zeroconf (drop --no-discovery)")
    interfaces = interfaces_of(args)

    async def main() -> list:
        try:
            async with Discovery(interfaces) as d:
                await d.browse()
                await asyncio.sleep(args.wait)
                return sorted(d.peers.values(), key=lambda a: (a.name, a.fingerprint))
        except DiscoveryError as e:
            fail(str(e))

    for a in asyncio.run(main()):
        table = f"{a.table.game} {a.table.variant} free={a.table.free}" if a.table else "no open table"
        say(f"{a.name}\t{a.fingerprint}\t{a.address}:{a.port}\t{table}")
    return 0
