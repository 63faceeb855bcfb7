"""A table seated by codes: the host's :class:`Invitations`, the guest's :func:`join_by_code` and :class:`Pairs`.

A host makes one code at a time; each seats the next guest, and once that
guest holds its seat a fresh code is made for the next free seat (a code is
for one person: SPAKE2 lets exactly one side in). The code's link goes to
:meth:`Peer.admit <..seating.TableSeating.admit>` as if it had come to the
host's TCP server, with the key the code authenticated as the only key it
may prove. A guest joins over its code's link instead of dialing an address
(``Peer.run_guest(..., online=...)``) and gives the host no address: nobody
dials an online seat, its link is the code's. When that link closes (a cut
longer than its read timeout), the guest resumes as a LAN seat redials, over
a new subchannel of the same Dilation (``Peer.mesh.by_code``), and the
host admits it as it did the first. At a table of 3 or more, every pair of
guests without an address links by a code made from the table (:class:`Pairs`).

Each code's wormhole process lives as long as the table: closing it ends the
link it carries.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
from typing import TYPE_CHECKING, Callable

from ..clock import nap
from ..transport import Link, LinkOptions
from . import control
from .code import INVITE_WAIT, Connected, OnlineError, Wormhole, accept, invite, meet
from .rendezvous import Rendezvous
from .servers import Servers

if TYPE_CHECKING:
    from ..peer import Peer

CODE_LINKS = 4
"""Links open at once over one code's Dilation (a guest resuming opens one after another); the next is dropped."""
SEAT_WAIT = 30.0
"""Seconds from a code's link to its guest holding a seat (the Noise handshake and the join request)."""


class Invitations:
    """The host's codes, one at a time, until every seat is taken; the wormholes stay open for the game.

    ``on_code`` gets each code as it is made (a command prints it, the app shows it); ``on_error`` gets the
    one line of a code that made no link (the table stays open on the LAN: no code follows it).
    """

    def __init__(self, peer: "Peer", servers: Servers, *, on_code: Callable[[str], None],
                 on_error: Callable[[str], None], on_guest: Callable[[Connected], None] | None = None,
                 on_route: Callable[[str], None] | None = None, direct: bool = True,
                 options: LinkOptions | None = None, rendezvous: Rendezvous | None = None):
        self.peer = peer
        self.rendezvous = rendezvous
        """Keeps each guest's pair able to meet again after a restart (:mod:`.rendezvous`)."""
        self.on_route = on_route
        """Gets how each guest's link goes once Dilation says (``Wormhole.route``: direct or through the relay)."""
        self.on_guest = on_guest
        """Gets each code's link as it arrives (the guest's key, proven by the code), before the guest asks."""
        self.guests: set[bytes] = set()
        """The keys that came by our codes: the person who invited them need not decide again."""
        self.servers = servers
        self.on_code = on_code
        self.on_error = on_error
        self.direct = direct
        self.options = options or peer.options.link
        self.wormholes: list[Wormhole] = []
        self.code: str | None = None
        """The code waiting for a guest now (None when none is)."""
        self.open = True
        """Codes are still made or waited on (False once every seat is taken, or a code failed)."""
        self._resumes: list[asyncio.Task] = []

    async def first(self) -> str:
        """Make the first code (OnlineError, one line, if the mailbox cannot be reached): before the table opens,
        so that a command without internet says so and starts nothing."""
        try:
            return await self._make()
        except BaseException:
            self.open = False
            raise

    async def _make(self) -> str:
        wormhole = await invite(self.peer.me, self.servers, direct=self.direct, options=self.options,
                                clock=self.peer.clock)
        self.wormholes.append(wormhole)
        code = self.code = await wormhole.wait_code()
        self.on_code(code)
        return code

    def _free(self) -> int:
        """Seats no guest holds yet (the table's size is in the host's meta)."""
        if self.peer.seats:
            return 0
        return int(self.peer.files.meta.get("players", 2)) - 1 - self.peer.seated_joiners()

    async def run(self) -> None:
        """Seat guests by code while seats are free (the first code made already, by :meth:`first`)."""
        try:
            await self._seat_all()
        finally:
            self.open = False
            self.code = None

    async def _seat_all(self) -> None:
        while True:
            try:
                connected = await self.wormholes[-1].connected()
            except OnlineError as e:
                self.on_error(str(e))
                return
            self.code = None         # taken: the next guest gets a fresh one
            self.guests.add(connected.peer_key)
            if self.rendezvous is not None:
                self.rendezvous.met(connected.peer_key, connected.verifier, self.wormholes[-1])
            if self.on_guest is not None:
                self.on_guest(connected)
            before = self.peer.seated_joiners()
            self.peer.admit(connected.link, connected.peer_key)
            self._resumes.append(asyncio.ensure_future(self._admit_more(self.wormholes[-1], connected.peer_key)))
            if self.on_route is not None:
                self._resumes.append(asyncio.ensure_future(tell_route(self.wormholes[-1], self.on_route)))
            await self._seated(connected, before)
            if not self._free():
                return
            try:
                await self._make()
            except OnlineError as e:
                self.on_error(str(e))
                return

    async def _admit_more(self, wormhole: Wormhole, key: bytes) -> None:
        """Each further link over a guest's code is that guest resuming (its link closed; Dilation lives on)."""
        links: list[Link] = []
        while True:
            link = await wormhole.next_link()
            links = [known for known in links if not known.closed]
            if len(links) >= CODE_LINKS:
                link.drop(f"busy: {CODE_LINKS} links over this code are open; try again")
                continue
            links.append(link)
            self.peer.admit(link, key)

    async def _seated(self, connected: Connected, before: int) -> None:
        """Until the code's guest holds its seat (or the table is full, or its link closed)."""
        clock = self.peer.clock
        deadline = clock() + SEAT_WAIT
        while (self.peer.seated_joiners() <= before and not self.peer.seats and not connected.link.closed
               and clock() < deadline):
            await nap(clock, deadline - clock(), poll=0.05)

    async def close(self) -> None:
        """End every code's process (their links close with them)."""
        for task in self._resumes:
            task.cancel()
        await asyncio.gather(*(w.close() for w in self.wormholes), return_exceptions=True)


async def tell_route(wormhole: Wormhole, on_route: Callable[[str], None]) -> None:
    """``on_route`` gets the route of ``wormhole``'s Dilation once it is connected (once: a new route after a cut
    is not told)."""
    await wormhole.connected_route.wait()
    on_route(wormhole.route)


async def host_by_code(peer: "Peer", servers: Servers, run_host, *, on_code: Callable[[str], None],
                       on_error: Callable[[str], None], on_route: Callable[[str], None] | None = None,
                       on_guest: Callable[[Connected], None] | None = None, direct: bool = True):
    """Make the first code (OnlineError if it cannot be), then run ``run_host`` (the peer's ``run_host(...)``
    coroutine) with guests seated by code meanwhile; the codes' processes end with the table."""
    rendezvous = Rendezvous(peer, servers, direct)
    invitations = Invitations(peer, servers, on_code=on_code, on_error=on_error, on_route=on_route,
                              on_guest=on_guest, direct=direct, rendezvous=rendezvous)
    try:
        await invitations.first()
    except BaseException:
        run_host.close()
        await invitations.close()
        raise
    tasks = [asyncio.ensure_future(invitations.run()), asyncio.ensure_future(rendezvous.run())]
    try:
        return await run_host
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await rendezvous.close()
        await invitations.close()


async def join_by_code(peer: "Peer", code: str, servers: Servers, interfaces, *, direct: bool = True,
                       on_connected: Callable[[Connected], None] | None = None,
                       on_route: Callable[[str], None] | None = None, wait: float | None = None, **join):
    """Take ``code`` (ValueError or OnlineError, one line, if it makes no link), then play the table over its
    link (``join``: ``Peer.run_guest``'s other options); the code's process ends with the game. ``wait``:
    seconds for the code's maker to answer (default ``ACCEPT_WAIT``). At a table of 3 or more, the guests
    without an address link with each other by :class:`Pairs`."""
    wormhole = await accept(code, peer.me, servers, direct=direct, options=peer.options.link, clock=peer.clock)
    rendezvous = Rendezvous(peer, servers, direct)
    pairs = Pairs(peer, servers, direct, rendezvous)
    tasks = [asyncio.ensure_future(pairs.run()), asyncio.ensure_future(rendezvous.run())]
    try:
        connected = await wormhole.connected(timeout=wait)
        if on_connected is not None:
            on_connected(connected)
        if on_route is not None:
            tasks.append(asyncio.ensure_future(tell_route(wormhole, on_route)))
        peer.mesh.by_code[connected.peer_key] = wormhole.open_link   # a closed link resumes over the code's
        rendezvous.met(connected.peer_key, connected.verifier, wormhole)      # (and, once seated, by rendezvous)
        return await peer.run_guest(None, interfaces, online=connected, **join)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await rendezvous.close()
        await pairs.close()
        await wormhole.close()


def pair_code(table_id: bytes, first: bytes, second: bytes) -> str:
    """The code two guests of a table meet by (``first`` seated before ``second``): made from the table's id,
    which only its members (and its spectators) hold, so neither allocates it nor has to send it. Knowing it
    lets nobody in (each side's Noise handshake expects the other's key, from the roster); at worst a
    spectator could burn it. Its number is above the mailbox's small allocated ones."""
    return control.derived_code(hashlib.sha256(b"lanterne pair code v1\0" + table_id + first + second).digest())


async def guest_with_pairs(peer: "Peer", servers: Servers, run, *, direct: bool = True):
    """Run ``run`` (a LAN guest's ``run_guest(...)`` coroutine) with :class:`Pairs`: at a mixed table, the guests
    that came by a code have no address this guest can reach, nor it one they can; each such pair links by its
    pair's code, at ``servers`` (this guest's own setting: the code's guests must use the same mailbox)."""
    rendezvous = Rendezvous(peer, servers, direct)
    pairs = Pairs(peer, servers, direct, rendezvous)
    tasks = [asyncio.ensure_future(pairs.run()), asyncio.ensure_future(rendezvous.run())]
    try:
        return await run
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await rendezvous.close()
        await pairs.close()


class Pairs:
    """A guest's links with the other guests when one of the pair came by a code (it has no address, or the
    other's is on a LAN it cannot reach): a code per pair, from the table (:func:`pair_code`). The later seat dials the earlier one, as on a LAN: it takes the pair's code when
    its ``_dial`` asks (``Peer.mesh.by_code``); the earlier one waits on it and admits what comes."""

    def __init__(self, peer: "Peer", servers: Servers, direct: bool, rendezvous: Rendezvous | None = None):
        self.peer = peer
        self.rendezvous = rendezvous
        self.servers = servers
        self.direct = direct
        self.wormholes: list[Wormhole] = []
        self._waiting: list[asyncio.Task] = []

    async def run(self) -> None:
        peer = self.peer
        while not (peer.seats and peer.table_id):        # the roster, then the host's hello (the table's id)
            await nap(peer.clock, 1.0, poll=0.05)
        mine = peer.keys().index(peer.me.public)
        for index, seat in enumerate(peer.seats[1:], 1):
            if index == mine or (seat.address is not None and peer.seats[mine].address is not None):
                continue        # (a pair of LAN seats; a pair with a seat that came by a code takes the pair's)
            first, second = (seat.key, peer.me.public) if index < mine else (peer.me.public, seat.key)
            code = pair_code(peer.table_id, first, second)
            if index < mine:
                peer.mesh.by_code[seat.key] = functools.partial(self._dial, code, seat.key)
            else:
                self._waiting.append(asyncio.ensure_future(self._wait(code, seat.key)))

    async def _dial(self, code: str, key: bytes) -> Link:
        """A link to an earlier guest: over the pair's code, taken once (then a new subchannel of it, or the
        rendezvous once the pair met)."""
        for wormhole in self.wormholes:
            if wormhole.code == code and wormhole.running and wormhole.peer_key is not None:
                return await wormhole.open_link()
        wormhole = await accept(code, self.peer.me, self.servers, direct=self.direct, options=self.peer.options.link,
                                    clock=self.peer.clock)
        self.wormholes.append(wormhole)
        try:
            connected = await wormhole.connected()
        except OnlineError:
            self.wormholes.remove(wormhole)
            raise
        if self.rendezvous is not None and connected.peer_key == key:
            self.rendezvous.met(key, connected.verifier, wormhole)
        return connected.link

    async def _wait(self, code: str, key: bytes) -> None:
        """Wait on the pair's code for the later guest; admit its first link and every one after."""
        while True:
            wormhole = await meet(code, self.peer.me, self.servers, direct=self.direct,
                                      options=self.peer.options.link, clock=self.peer.clock)
            self.wormholes.append(wormhole)
            try:
                connected = await wormhole.connected(timeout=INVITE_WAIT)
            except OnlineError:
                self.wormholes.remove(wormhole)
                await wormhole.close()
                continue
            if connected.peer_key != key:      # not the guest of this pair: its Noise would fail anyway
                await wormhole.close()
                continue
            if self.rendezvous is not None:
                self.rendezvous.met(key, connected.verifier, wormhole)
            while True:
                self.peer.admit(connected.link, key)
                connected = Connected(key, connected.verifier, await wormhole.next_link())

    async def close(self) -> None:
        for task in self._waiting:
            task.cancel()
        await asyncio.gather(*self._waiting, return_exceptions=True)
        await asyncio.gather(*(w.close() for w in self.wormholes), return_exceptions=True)
