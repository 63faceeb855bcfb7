"""A host that stops, or whose table ends, leaves none of the connections it accepted open, over real TCP.

The strangers here never give up: each opens a connection (from its own
loopback address), sends the preface and then PINGs as fast as the host
takes them, and never reads a byte. Whatever the host was doing with a
connection (not yet handed to a link, before the proof, past it), once it
is done no socket of its port is left open: counted by the host's own
accounting (``Listener.connections``, ``Admission.served``,
``Admission.open_links``) and by the kernel's table of TCP sockets
(``/proc/net/tcp``), where a socket the host still holds is ESTABLISHED or
CLOSE_WAIT on its side. A closed one is gone (reset: it held bytes nobody
read) or on its way out.
"""

from __future__ import annotations

import asyncio
import socket

from lanterne.engines.bots import make_bot
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity
from lanterne.protocol.net.budgets import CLOSE_LINGER, PREAUTH_TIMEOUT
from lanterne.protocol.net.framing import PING, PREFACE, encode_frame
from lanterne.protocol.net.peer import Peer
from lanterne.protocol.net.tcp import bound_port, serve
from lanterne.protocol.session import GameOver
from tests.support.clock import FakeClock
from tests.support.waiting import until

from .harness import LOCAL, ON_A_FAKE_CLOCK, Table

SOURCES = [f"127.0.0.{i}" for i in range(2, 6)]
HELD_OPEN = {"01": "ESTABLISHED", "03": "SYN_RECV", "08": "CLOSE_WAIT"}
"""The states of /proc/net/tcp in which the host's side of a connection is still open."""


def host_sockets(port: int) -> list[tuple[str, str]]:
    """The host's side of every connection to ``port`` it still holds open: (remote address, state)."""
    rows = []
    with open("/proc/net/tcp", encoding="ascii") as table:
        for line in table.read().splitlines()[1:]:
            fields = line.split()
            local, remote, state = fields[1], fields[2], fields[3]
            if int(local.split(":")[1], 16) == port and state in HELD_OPEN:
                rows.append((remote, HELD_OPEN[state]))
    return rows


class Strangers:
    """Connections that never read, until the host ends them (they never give up): flooding ones send PINGs
    as fast as the host takes them (the host closes them for it soon), quiet ones the preface only."""

    def __init__(self) -> None:
        self.writers: list[asyncio.StreamWriter] = []
        self.tasks: list[asyncio.Task] = []

    def open(self, port: int, flooding: bool, sources=SOURCES) -> None:
        self.tasks += [asyncio.ensure_future(self._connect(port, s, flooding)) for s in sources]

    async def _connect(self, port: int, source: str, flooding: bool) -> None:
        try:
            reader, writer = await asyncio.open_connection(LOCAL, port, local_addr=(source, 0))
        except OSError:
            return
        self.writers.append(writer)
        writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        writer.transport.pause_reading()
        batch = encode_frame(PING, b"flooding") * 500
        try:
            writer.write(PREFACE)
            while flooding:
                writer.write(batch)
                await writer.drain()
        except (ConnectionError, OSError):
            pass

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for writer in self.writers:
            writer.transport.abort()


def nothing_open(port: int):
    return lambda: host_sockets(port) == []


def still_open(port: int):
    return lambda: f"the host's sockets closed: {host_sockets(port)}"


async def test_connections_accepted_in_the_turn_the_listener_closes_are_closed_at_once():
    """The kernel completed them and they sent bytes; the listener accepts them, and closes before their
    tasks ever ran: none is left open (nobody waits for a garbage collector)."""
    async def handler(link):
        await link.wait_closed()

    server = await serve(handler, LOCAL, 0)
    port = bound_port(server)
    clients = []
    for source in SOURCES:
        client = socket.socket()
        client.bind((source, 0))
        client.connect((LOCAL, port))       # (the kernel completes it: it waits for the accept)
        client.sendall(encode_frame(PING, b"x") * 100)
        clients.append(client)
    try:
        await until(lambda: server.connections == len(SOURCES), every=0)     # at the turn of the accept
        assert not server.admission.served, "no connection is a link yet"
        server.close()
        await until(lambda: server.connections == 0, what="every accepted connection ended")
        await until(nothing_open(port), what=still_open(port))
    finally:
        for client in clients:
            client.close()


async def test_strangers_that_never_read_leave_nothing_open_once_the_table_ended(tmp_path):
    table = Table(tmp_path, 2, hostile=-1)
    host = table.peers[0]
    strangers = Strangers()

    async def flood_while_it_plays() -> None:
        await until(lambda: host.port)
        strangers.open(host.port, flooding=True)
        await until(lambda: host.session is not None and host.session.over, what="the game over")
        strangers.open(host.port, flooding=True)       # and while it lingers at the end
        strangers.open(host.port, flooding=False)
    flooding = asyncio.ensure_future(flood_while_it_plays())
    try:
        sessions = await table.play(timeout=120)
        await flooding
        assert all(isinstance(s.result, GameOver) for s in sessions), [s.result for s in sessions]
        port = host.port
        assert host.door.served == set() and host.door.open_links() == 0 and host.door.count() == 0
        await until(nothing_open(port), what=still_open(port))
    finally:
        flooding.cancel()
        await strangers.stop()


async def test_a_host_that_stops_before_its_table_fills_closes_every_connection_it_accepted(tmp_path):
    """On a clock nobody moves: no deadline ends them, the host's stop does."""
    clock = FakeClock()
    host = Peer.host(Identity.from_seed(b"stopped/host"), "Host", get_game("pueblo"), 2, tmp_path / "host",
                     player=make_bot("random", 1), options=ON_A_FAKE_CLOCK, say=lambda line: None, clock=clock)
    running = asyncio.ensure_future(host.run_host([LOCAL], 0, discover=False))
    strangers = Strangers()
    try:
        await until(lambda: host.port)
        strangers.open(host.port, flooding=True)       # (closed for their PINGs, lingering on the clock)
        strangers.open(host.port, flooding=False)      # (before their proof, on the clock: no deadline)
        await until(lambda: host.door.open_links() >= len(SOURCES), what="the quiet strangers' links at the host")
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        assert host.door.served == set() and host.door.open_links() == 0
        await until(nothing_open(host.port), what=still_open(host.port))
    finally:
        running.cancel()
        await strangers.stop()


async def test_a_stranger_that_never_reads_is_closed_by_the_deadline_before_the_proof(tmp_path):
    """While the host goes on: PREAUTH_TIMEOUT on the host's clock, then what it could not send is dropped
    within CLOSE_LINGER, and its socket is gone."""
    clock = FakeClock()
    host = Peer.host(Identity.from_seed(b"stopped/host"), "Host", get_game("pueblo"), 2, tmp_path / "host",
                     player=make_bot("random", 1), options=ON_A_FAKE_CLOCK, say=lambda line: None, clock=clock)
    running = asyncio.ensure_future(host.run_host([LOCAL], 0, discover=False))
    strangers = Strangers()
    try:
        await until(lambda: host.port)
        strangers.open(host.port, flooding=False)
        await until(lambda: host.door.open_links() == len(SOURCES), what="every stranger's link at the host")
        links = list(host.door.served)
        clock.advance(PREAUTH_TIMEOUT)
        await until(lambda: all(link.closed for link in links), what="the strangers' links closed")
        assert all("no proof of identity" in link.close_reason for link in links), [l.close_reason for l in links]
        clock.advance(CLOSE_LINGER)
        await until(nothing_open(host.port), what=still_open(host.port))
        assert all(link.unsent == 0 for link in links) and host.door.open_links() == 0
        assert not running.done(), "the host goes on"
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        await strangers.stop()
