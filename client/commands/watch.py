"""`lanterne watch NAME|HOST:PORT`: watch a running table on the LAN, headless, printing every move in words.

NAME is a player's display name or the start of its key fingerprint, found
with zeroconf (any player of the table serves spectators); HOST:PORT dials
directly. The spectator checks every entry as a player does and sees only
what is public (protocol/net/watchers.py); a table that does not let
spectators watch declines in one line.
"""

from __future__ import annotations

from lanterne.client.i18n import N_, _

import asyncio

from lanterne.client.cli import seconds
from lanterne.client.commands.host import Stopped, fail, identity_and_name, interfaces_of, say, stopped, until_signal
from lanterne.client.commands.join import target

NAME = "watch"
HELP = N_("watch a running table on the LAN (by a player's name or HOST:PORT), printing every move")


def add_arguments(p) -> None:
    p.add_argument("target", metavar="NAME|HOST:PORT", type=target,
                   help=_("a player's name or fingerprint (found by zeroconf), or its address"))
    p.add_argument("--wait", type=seconds, default=10.0, metavar="S",
                   help=_("seconds to look for the table on the LAN (default 10)"))
    p.add_argument("--name", default="", help=_("your display name, as the players see it (default: your user name)"))
    p.add_argument("--interface", action="append", default=[], metavar="IP",
                   help=_("IPv4 address of an interface to use (repeatable; default: the LAN interfaces)"))
    p.add_argument("--no-discovery", action="store_true", help=_("no zeroconf: HOST:PORT only"))
    p.add_argument("--patience", type=seconds, default=30.0, metavar="S",
                   help=_("give up after this long without a link to the table (default 30)"))
    p.epilog = "exit codes: 0 the game ended normally; 1 it ended early (an abort, a claim); 2 a user error"


def run(args) -> int:
    # what this command alone needs: --version and --help import every command module
    from lanterne.protocol.net.discovery import Discovery, DiscoveryError
    from lanterne.protocol.net.invite import Declined, parse_address
    from lanterne.protocol.net.watchers import Spectator

    me, name = identity_and_name(args)
    address = parse_address(args.target)
    if address is None and args.no_discovery:
        fail(_("{target!r} is not HOST:PORT, and --no-discovery forbids looking it up").format(target=args.target))
    interfaces = [] if address is not None or args.no_discovery else interfaces_of(args)

    async def main() -> int:
        where, expect = address, None
        if where is None:
            wanted = args.target.lower()
            say(f"looking for {args.target}'s table on {', '.join(interfaces)}")
            try:
                async with Discovery(interfaces) as discovery:
                    advert = await discovery.wait_for(
                        lambda a: (a.table is not None or a.running is not None) and (a.name.lower() == wanted or a.fingerprint.replace(
                            "-", "").startswith(wanted.replace("-", ""))), args.wait)
            except DiscoveryError:
                fail(_("no table of {target!r} found on the LAN within {wait:g} s").format(
                    target=args.target, wait=args.wait))
            where, expect = (advert.address, advert.port), advert.fingerprint
        spectator = Spectator(me, name, say=say, patience=args.patience)
        try:
            session = await spectator.watch(where[0], where[1], expect_fingerprint=expect)
        except Declined as e:
            fail(str(e))
        from lanterne.protocol.session.phases import Phase

        return 0 if session.phase == Phase.OVER else 1

    try:
        return asyncio.run(until_signal(main()))
    except Stopped as e:
        return stopped(e)
