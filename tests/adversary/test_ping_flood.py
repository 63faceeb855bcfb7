"""Strangers and spectators that flood PINGs and never read, over real TCP on 127.0.0.1.

What a peer holds for anyone who connects is bounded by the link's budgets
(protocol/net/transport.py, docs/network.md "Budgets"): PINGs are answered
from a token bucket and only while the answers are read, a peer that keeps
sending PINGs nobody answers loses its link, and bytes we hold unsent pass
no link's write budget (past it the link is closed and what it held is
dropped). Every bound is checked on the peer's own counters
(``Admission.held``, ``Link.unsent``), sampled at every turn of the event
loop while honest players join and play; never on wall time.
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import replace

from lanterne.protocol.identity import Identity
from lanterne.protocol.net.framing import PING, PONG, PREFACE, FrameDecoder, encode_frame
from bench.net import flood_pings
from lanterne.protocol.net.invite import ask, watch_request
from lanterne.protocol.net.budgets import CLOSE_LINGER, PING_BURST, PING_RATE, SOCKET_BUFFER
from lanterne.protocol.net.tcp import bound_port, serve
from lanterne.protocol.net.transport import LinkClosed, LinkOptions
from lanterne.protocol.session import GameOver
from tests.support.clock import FakeClock
from tests.support.waiting import until

from .harness import FAST, LOCAL, Table, assert_no_honest_seat_named, lanterne_verify

FLOOD = 20_000
"""PINGs one flooding connection sends (a flood of a fixed size: 260 kB of frames), never reading, then it
waits for the host to end its link (``bench.flood_pings``, the ``net.ping_flood_rss`` row's stranger)."""
HELD_BOUND = 1 << 20
"""What the host may hold for all the links it serves at any moment during the flood (it held hundreds of
megabytes when PINGs were answered without back-pressure)."""
SOURCES = [f"127.0.0.{i}" for i in range(2, 6)]
"""The strangers' addresses (all loopback: the table's own players are at 127.0.0.1)."""


class Sampler:
    """At every turn of the event loop: what the host's listener holds, and each link a stranger opened."""

    def __init__(self, peer):
        self.peer = peer
        self.most = 0
        self.seen: set = set()
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while True:
            door = self.peer.door
            held = door.held()
            self.most = max(self.most, held)
            assert held <= HELD_BOUND, f"the host holds {held} bytes for the links it serves"
            for link in door.served:
                assert link.unsent <= link.write_budget, link
                if link.peer[0] != LOCAL:
                    self.seen.add(link)
            await asyncio.sleep(0)

    def stop(self) -> None:
        if self._task.done():
            self._task.result()     # a bound broken: its assertion
        self._task.cancel()


async def never_reading(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection with a small window (set before it opens) that reads nothing."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (LOCAL, port))
    reader, writer = await asyncio.open_connection(sock=sock)
    writer.transport.pause_reading()
    return reader, writer


async def holding_server(clock: FakeClock):
    """A listener on ``clock`` whose handler holds each link until it closes; the links it was given."""
    served: list = []

    async def handler(link):
        served.append(link)
        await link.wait_closed()

    return await serve(handler, LOCAL, 0, LinkOptions(keepalive=None), clock=clock), served


async def keep_flooding(peer, stop: asyncio.Event, rounds: list[int]) -> None:
    await until(lambda: peer.port)
    while not stop.is_set():
        sent = await asyncio.gather(*(flood_pings(peer.port, s, FLOOD) for s in SOURCES))
        if not any(sent):
            return
        rounds.append(sum(sent))


async def test_strangers_flooding_pings_without_reading_are_closed_while_the_table_plays(tmp_path):
    table = Table(tmp_path, 3, hostile=-1)
    host = table.peers[0]
    stop, rounds = asyncio.Event(), []
    flood = asyncio.ensure_future(keep_flooding(host, stop, rounds))
    sampler = Sampler(host)
    try:
        sessions = await table.play(timeout=120)
    finally:
        stop.set()
        await flood
        sampler.stop()
    assert all(isinstance(s.result, GameOver) for s in sessions), [s.result for s in sessions]
    assert len(rounds) >= 2, "the flood went on while the players joined and played"
    strangers = [link for link in sampler.seen if link.peer[0] in SOURCES]
    assert len(strangers) >= 2 * len(SOURCES), "every flooding connection got a link of its own"
    await until(lambda: all(link.closed for link in strangers), what="every stranger's link closed")
    assert all(link.unsent == 0 for link in strangers), "a closed link keeps nothing unsent"
    assert any(link.pings_unanswered for link in strangers), {link.close_reason for link in strangers}
    assert any("PINGs in a row unanswered" in (link.close_reason or "") for link in strangers), \
        {link.close_reason for link in strangers}
    assert sampler.most <= HELD_BOUND
    assert_no_honest_seat_named(table)
    status, out = lanterne_verify(*(p.files.log_path for p in table.peers))
    assert status == 0 and "at fault" not in out, out


async def test_a_spectator_flooding_pings_without_reading_loses_its_link_and_the_game_goes_on(tmp_path):
    table = Table(tmp_path, 2, hostile=-1, options=replace(FAST, spectators="everyone"))   # anyone may watch
    host = table.peers[0]
    sampler = Sampler(host)
    game = asyncio.ensure_future(table.play(timeout=120))
    try:
        await until(lambda: host.session is not None and len(host.session.chain) >= 5, what="the game under way")
        link, _, _ = await ask(LOCAL, host.port, Identity.generate(), "Eve", watch_request(),
                               options=LinkOptions(keepalive=None))
        watcher = await until(lambda: host.watchers.links[0], what="the spectator's link at the host")
        link._writer.transport.pause_reading()      # a spectator's key, proven; it never reads
        sent = 0
        try:
            while sent < FLOOD and not link.closed:
                for _ in range(250):     # each one sealed in a record, as the link itself would
                    link._writer.write(link._frame(PING, b"flooding"))
                await link._writer.drain()
                sent += 250
        except (ConnectionError, OSError):
            pass
        await until(lambda: watcher.closed, what="the spectator's link closed")
        assert watcher.unsent == 0 and watcher.pings_unanswered > 0, watcher
        link._writer.transport.abort()
        sessions = await game
    finally:
        sampler.stop()
        game.cancel()
    assert all(isinstance(s.result, GameOver) for s in sessions), [s.result for s in sessions]
    assert sampler.most <= HELD_BOUND
    assert_no_honest_seat_named(table)


async def test_a_peer_that_never_reads_has_its_link_closed_once_its_unsent_bytes_pass_the_budget():
    budget = 256 << 10
    served: list = []
    buffers: list[int] = []

    async def handler(link):
        served.append(link)
        accepted = link._writer.get_extra_info("socket")
        buffers.extend(accepted.getsockopt(socket.SOL_SOCKET, o) for o in (socket.SO_SNDBUF, socket.SO_RCVBUF))
        sends = []
        while not link.closed and len(sends) < 1000:    # each send waits for the drain; many wait at once
            sends.append(asyncio.ensure_future(link.send(b"x" * 65_000)))
            await asyncio.sleep(0)
        await asyncio.gather(*sends, return_exceptions=True)

    server = await serve(handler, LOCAL, 0, LinkOptions(write_budget=budget, keepalive=None))
    async with server:
        reader, writer = await never_reading(bound_port(server))
        link = await until(lambda: served and served[0])
        await until(lambda: link.closed, what="the link of a peer that does not read closed")
        assert "the peer does not read" in link.close_reason and f"at most {budget}" in link.close_reason
        assert link.unsent == 0, "what it could not send is dropped, not kept for a drain that never comes"
        assert max(buffers) <= 2 * SOCKET_BUFFER, "the kernel's share is bounded too (it doubles the value)"
        writer.transport.abort()


async def test_pings_are_answered_from_a_bucket_on_the_links_clock():
    """PING_BURST answered at once, then PING_RATE a second as the clock moves; too many unanswered: closed."""
    clock = FakeClock()
    server, served = await holding_server(clock)
    async with server:
        reader, writer = await asyncio.open_connection(LOCAL, bound_port(server))
        decoder, pongs = FrameDecoder(), []

        async def read() -> None:
            while data := await reader.read(65536):
                pongs.extend(f for f in decoder.feed(data) if f.kind == PONG)
        reading = asyncio.ensure_future(read())

        async def pings(n: int) -> None:
            writer.write(encode_frame(PING, b"12345678") * n)
            await writer.drain()
        writer.write(PREFACE)
        await pings(PING_BURST + 10)
        link = await until(lambda: served and served[0])
        await until(lambda: link.pings_unanswered == 10, what="the PINGs past the burst unanswered")
        assert len(pongs) == PING_BURST
        clock.advance(1.0)
        await pings(int(PING_RATE) + 5)
        await until(lambda: link.pings_unanswered == 15, what="a second's worth answered, the rest not")
        await until(lambda: len(pongs) == PING_BURST + int(PING_RATE))
        await pings(PING_BURST)     # too many unanswered in a row: the link goes
        await until(lambda: link.closed, what="the link of a peer sending unanswered PINGs closed")
        assert "PINGs in a row unanswered" in link.close_reason
        writer.close()
        await reading


async def test_a_link_closed_with_bytes_its_peer_never_reads_drops_them_after_the_linger():
    """A close waits for nothing that never comes: what is still unsent CLOSE_LINGER seconds later (on the
    link's clock) is dropped with the connection, and ``wait_closed`` returns."""
    clock = FakeClock()
    server, served = await holding_server(clock)
    async with server:
        reader, writer = await never_reading(bound_port(server))
        link = await until(lambda: served and served[0])
        sending = asyncio.ensure_future(link.send(b"x" * 1_000_000))     # within the budget, beyond the kernel's
        await until(lambda: link.unsent > 0, what="bytes waiting unsent")
        closing = asyncio.ensure_future(link.close("done"))
        await until(lambda: link.closed)
        assert link.unsent > 0 and not closing.done(), "the close still tries to send them"
        clock.advance(CLOSE_LINGER)
        await until(lambda: closing.done(), what="the close done once the linger passed")
        assert link.unsent == 0
        assert isinstance(sending.exception(), LinkClosed), "the send under way learns the link is down"
        writer.transport.abort()
