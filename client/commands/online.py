"""What `lanterne host --invite` and `lanterne join CODE` add to the LAN's commands: a table seated by a code.

Not a subcommand of its own (no NAME). The host prints a code that seats the
next guest (at a table of 3 or more, a fresh code follows once that guest holds
its seat); the friend types it. Both go through the mailbox and, when neither
side is reachable, the transit relay: the magic-wormhole project's public pair
by default (docs/online.md says what each can see), or ``--mailbox URL`` /
``--relay tcp:HOST:PORT``.
"""

from __future__ import annotations

from lanterne.client.i18n import _
from lanterne.protocol.net.online.control import CODE_FORM
from lanterne.protocol.net.online.servers import PUBLIC_MAILBOX, PUBLIC_RELAY, Servers, ServersError


def add_arguments(p) -> None:
    p.add_argument("--mailbox", default=PUBLIC_MAILBOX, metavar="URL",
                   help=_("the wormhole mailbox a code is made at (default: {url})").format(url=PUBLIC_MAILBOX))
    p.add_argument("--relay", default=PUBLIC_RELAY, metavar="tcp:HOST:PORT",
                   help=_("the transit relay that joins two sides behind NAT ('' for none; default: {url})").format(
                       url=PUBLIC_RELAY))
    p.add_argument("--relay-only", action="store_true",
                   help=_("a code's link goes through the relay only: the other side never learns your addresses"))


def is_code(text: str) -> bool:
    """Whether ``text`` has a code's shape (``7-crossover-clockwork``): a number, a dash, words; never HOST:PORT."""
    return bool(CODE_FORM.fullmatch(text.strip().lower()))


def route_line(via: str) -> str:
    """How a code's link goes, for a person: through the relay, or direct (then without any relay's help)."""
    if via.startswith("->relay:"):
        return _("the link goes through the transit relay {relay}").format(relay=via.removeprefix("->relay:"))
    return _("the link goes direct ({how}), no relay needed").format(how=via.removeprefix("->"))


def servers_of(args):
    from lanterne.client.commands.host import fail  # a cycle: host imports this module for its --code

    try:
        return Servers(mailbox=args.mailbox, relay=args.relay)
    except ServersError as e:
        fail(str(e))


def marking(peer) -> None:
    """The peer's table line (``table: GAME VARIANT, seats ...; safety code ...``) says when every other seat came
    by a code: that code proved their keys, so the safety code needs no comparing."""
    say = peer.say

    def marked(line: str) -> None:
        others = [s.key for s in peer.seats if s.key != peer.me.public]
        if line.startswith("table: ") and others and all(k in peer.mesh.came_by_code for k in others):
            line += " " + _("(checked by the code)")
        say(line)

    peer.say = marked


async def host(peer, servers, run_host, say, *, direct: bool = True):
    """Print the codes while ``run_host`` (the peer's ``run_host(...)`` coroutine) plays the table."""
    from lanterne.client.commands.host import fail  # a cycle: host imports this module for its --code
    # what this command alone needs: --version and --help import every command module
    from lanterne.protocol.net.online.code import OnlineError
    from lanterne.protocol.net.online.table import host_by_code

    def on_code(code: str) -> None:
        say(_("code: {code} (your friend types: lanterne join {code})").format(code=code))

    def on_error(line: str) -> None:
        say(_("{line}; the table stays open on the LAN").format(line=line))

    def on_guest(connected) -> None:
        say(_("{fp} came with your code: its key is checked by the code").format(fp=connected.fingerprint))

    marking(peer)
    try:
        return await host_by_code(peer, servers, run_host, on_code=on_code, on_error=on_error,
                                  on_route=lambda via: say(route_line(via)), on_guest=on_guest, direct=direct)
    except OnlineError as e:
        fail(str(e))


async def join(peer, code: str, servers, interfaces, say, *, direct: bool = True, players: int = 0,
               wait: float | None = None):
    """Take ``code`` and play the table over its link; every failure is one line."""
    from lanterne.client.commands.host import fail  # a cycle: host imports this module for its --code
    # what this command alone needs: --version and --help import every command module
    from lanterne.protocol.net.handshake import HandshakeError
    from lanterne.protocol.net.invite import Declined
    from lanterne.protocol.net.online.code import OnlineError
    from lanterne.protocol.net.online.table import join_by_code
    from lanterne.protocol.net.transport import LinkClosed

    def on_connected(connected) -> None:
        say(_("the code found {fp}: its key is checked by the code").format(fp=connected.fingerprint))

    marking(peer)

    try:
        return await join_by_code(peer, code, servers, interfaces, direct=direct, on_connected=on_connected,
                                  on_route=lambda via: say(route_line(via)), players=players, wait=wait)
    except (OnlineError, Declined, HandshakeError, LinkClosed) as e:
        fail(str(e))
