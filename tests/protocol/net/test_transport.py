"""Framed TCP links over 127.0.0.1: data, keep-alive, read timeouts, closing, bad peers."""

import asyncio
import struct

import pytest

from lanterne.protocol.net.framing import DATA, PREFACE, encode_frame
from lanterne.protocol.net.tcp import bound_port, connect, serve
from lanterne.protocol.net.transport import LinkClosed, LinkOptions, LinkTimeout
from tests.support.clock import FakeClock
from tests.support.waiting import DEADLINE, until

LOCAL = "127.0.0.1"


async def echo_server(options=LinkOptions()):
    async def echo(link):
        while True:
            await link.send(await link.recv())

    server = await serve(echo, LOCAL, 0, options)
    return server, bound_port(server)


async def test_data_frames_arrive_in_order_and_intact():
    server, port = await echo_server()
    async with server:
        link = await connect(LOCAL, port)
        payloads = [b"", b"a", bytes(range(256)) * 40, b"\x00" * 70000]
        for p in payloads:
            await link.send(p)
        assert [await link.recv() for _ in payloads] == payloads
        await link.close()
        assert link.closed


async def test_ping_measures_a_round_trip():
    server, port = await echo_server()
    async with server:
        async with await connect(LOCAL, port) as link:
            rtt = await link.ping()
            assert 0 < rtt < 5


async def test_keepalive_keeps_an_idle_link_open_past_the_read_timeout():
    """On a fake clock, with the app's timings (20 s read timeout, a PING every 5 s), 50 s idle."""
    clock = FakeClock()
    opts = LinkOptions(read_timeout=20.0, keepalive=5.0)
    held = []

    async def echo(link):
        held.append(link)
        while True:
            await link.send(await link.recv())

    server = await serve(echo, LOCAL, 0, opts, clock=clock)
    async with server:
        link = await connect(LOCAL, bound_port(server), opts, clock)
        await until(lambda: held)
        for _ in range(10):       # idle for 2.5 read timeouts: only the keep-alive PINGs flow
            clock.advance(5.0)
            await until(lambda: link.last_received == clock() == held[0].last_received, what="both PINGs came")
        assert not link.closed and not held[0].closed
        await link.send(b"still here")
        assert await link.recv() == b"still here"
        await link.close()


async def test_silent_peer_times_out():
    """A peer that accepted but sends nothing (a closed laptop lid) is dropped at the read timeout, not before."""
    quiet, heard = asyncio.Event(), asyncio.Event()

    async def silent(reader, writer):
        await reader.readexactly(len(PREFACE))      # our preface came: our link is reading by now
        heard.set()
        await quiet.wait()

    clock = FakeClock()
    server = await asyncio.start_server(silent, LOCAL, 0)
    async with server:
        link = await connect(LOCAL, bound_port(server), LinkOptions(read_timeout=20.0, keepalive=None), clock)
        await asyncio.wait_for(heard.wait(), DEADLINE)
        clock.advance(19.9)
        assert not link.closed          # (nothing is due before 20 s: no wait of the link ended)
        clock.advance(0.1)
        with pytest.raises(LinkTimeout, match="nothing received for 20 s"):
            await link.recv()
        assert link.closed
        quiet.set()


async def test_bytes_that_came_while_our_loop_stalled_past_the_read_timeout_keep_the_link():
    """Our own loop stalled (a busy machine, a laptop waking up) past the read timeout while the peer's bytes
    came in: the timeout and the bytes are due together when the loop wakes, and the bytes win."""
    sent, writers = asyncio.Event(), []

    async def late(reader, writer):
        await reader.readexactly(len(PREFACE))
        writer.write(PREFACE)
        writers.append(writer)
        await sent.wait()

    clock = FakeClock()
    server = await asyncio.start_server(late, LOCAL, 0)
    async with server:
        link = await connect(LOCAL, bound_port(server), LinkOptions(read_timeout=20.0, keepalive=None), clock)
        await until(lambda: writers)
        writers[0].write(encode_frame(DATA, b"still here"))     # in our socket now, not read yet...
        clock.advance(25.0)                                    # ...when the timeout comes due
        assert await link.recv() == b"still here"
        assert not link.closed
        await link.close()
        sent.set()


async def test_close_reason_reaches_the_peer():
    got = asyncio.get_running_loop().create_future()

    async def handler(link):
        try:
            await link.recv()
        except LinkClosed as e:
            got.set_result(e.reason)

    server = await serve(handler, LOCAL, 0)
    async with server:
        link = await connect(LOCAL, bound_port(server))
        await link.close("game over")
        assert await asyncio.wait_for(got, DEADLINE) == "the peer closed the link: game over"
        with pytest.raises(LinkClosed):
            await link.send(b"late")


async def test_recv_keeps_failing_after_close():
    server, port = await echo_server()
    async with server:
        link = await connect(LOCAL, port)
        await link.close()
        for _ in range(2):
            with pytest.raises(LinkClosed, match="closed by us"):
                await link.recv()


async def test_oversize_frame_from_peer_closes_the_link_with_a_reason():
    reasons = asyncio.get_running_loop().create_future()

    async def handler(link):
        try:
            await link.recv()
        except LinkClosed as e:
            reasons.set_result(e.reason)

    server = await serve(handler, LOCAL, 0, LinkOptions(max_frame=1000))
    async with server:
        reader, writer = await asyncio.open_connection(LOCAL, bound_port(server))
        writer.write(PREFACE + struct.pack(">IB", 5000, DATA))
        await writer.drain()
        assert "exceeds the maximum of 1000" in await asyncio.wait_for(reasons, DEADLINE)
        answer = await asyncio.wait_for(reader.read(), DEADLINE)  # preface, CLOSE frame with the reason, EOF
        assert answer.startswith(PREFACE) and b"exceeds the maximum" in answer
        writer.close()


async def test_a_stranger_that_is_not_a_peer_is_dropped():
    reasons = asyncio.get_running_loop().create_future()

    async def handler(link):
        try:
            await link.recv()
        except LinkClosed as e:
            reasons.set_result(e.reason)

    server = await serve(handler, LOCAL, 0)
    async with server:
        reader, writer = await asyncio.open_connection(LOCAL, bound_port(server))
        writer.write(b"GET / HTTP/1.1\r\n\r\n")
        assert "not a Lanterne peer" in await asyncio.wait_for(reasons, DEADLINE)
        writer.close()


async def test_connect_to_a_closed_port_is_a_one_line_error():
    server = await asyncio.start_server(lambda r, w: None, LOCAL, 0)
    port = bound_port(server)
    server.close()
    await server.wait_closed()
    with pytest.raises(LinkClosed, match=f"cannot connect to 127.0.0.1:{port}"):
        await connect(LOCAL, port)


async def test_peer_vanishing_mid_frame_closes_the_link():
    reasons = asyncio.get_running_loop().create_future()

    async def handler(link):
        try:
            await link.recv()
        except LinkClosed as e:
            reasons.set_result(e.reason)

    server = await serve(handler, LOCAL, 0)
    async with server:
        reader, writer = await asyncio.open_connection(LOCAL, bound_port(server))
        assert await reader.readexactly(len(PREFACE)) == PREFACE  # nothing unread: a clean FIN
        writer.write(PREFACE + encode_frame(DATA, b"hello")[:6])
        await writer.drain()
        writer.close()
        assert await asyncio.wait_for(reasons, DEADLINE) == "the peer closed the connection"


def test_the_move_round_trip_benchmark_runs():
    from bench.net import move_round_trip_ms

    assert 0 < move_round_trip_ms(moves=20) < 1000


async def test_frames_sent_before_a_close_are_all_delivered():
    """A peer that sends its last entries and closes at once: every frame comes before the close."""
    opts = LinkOptions(queue_frames=4)

    async def burst(link):
        for i in range(10):
            await link.send(b"entry %d" % i)
        await link.close("game over")

    server = await serve(burst, LOCAL, 0, opts)
    async with server:
        link = await connect(LOCAL, bound_port(server), opts)
        await until(lambda: link.inbox.frames >= 4, what="the reader filled the queue and waits (back-pressure)")
        got = []
        with pytest.raises(LinkClosed, match="game over"):
            while True:
                got.append(await link.recv())
        assert got == [b"entry %d" % i for i in range(10)]


# ---------------------------------------------------------------- secured links


async def secured_pair(server_handler):
    """A link pair over 127.0.0.1, both sides secured with the cipher states of a real sans-IO handshake."""
    from lanterne.protocol.identity import Identity
    from lanterne.protocol.net.handshake import Handshake

    a = Handshake(Identity.from_seed(b"transport/a"), "A")
    b = Handshake(Identity.from_seed(b"transport/b"), "B", initiator=False)
    b.receive(a.receive(b.receive(a.opening())))

    async def handler(link):
        link.secure(b.send_cipher, b.recv_cipher)
        await server_handler(link)

    server = await serve(handler, LOCAL, 0)
    link = await connect(LOCAL, bound_port(server))
    link.secure(a.send_cipher, a.recv_cipher)
    return server, link


async def test_a_secured_link_carries_data_pings_and_the_close_reason():
    got = asyncio.get_running_loop().create_future()

    async def echo(link):
        try:
            while True:
                await link.send(await link.recv())
        except LinkClosed as e:
            got.set_result((link.peer_reason, e.reason))

    server, link = await secured_pair(echo)
    async with server:
        assert link.initiator and link.secured
        for p in (b"", b"x", bytes(200_000)):
            await link.send(p)
            assert await asyncio.wait_for(link.recv(), DEADLINE) == p
        assert await link.ping(5) > 0
        await link.close("done here")
        assert await asyncio.wait_for(got, DEADLINE) == ("done here", "the peer closed the link: done here")


async def test_a_record_on_a_link_that_never_had_a_handshake_is_refused():
    from lanterne.protocol.net.framing import SEALED
    reasons = asyncio.get_running_loop().create_future()

    async def handler(link):
        try:
            await link.recv()
        except LinkClosed as e:
            reasons.set_result(e.reason)

    server = await serve(handler, LOCAL, 0)
    async with server:
        reader, writer = await asyncio.open_connection(LOCAL, bound_port(server))
        writer.write(PREFACE + encode_frame(SEALED, bytes(40)))
        assert await asyncio.wait_for(reasons, DEADLINE) == "an encrypted record on a link without a handshake"
        writer.close()


async def test_plaintext_data_waiting_when_the_link_is_secured_is_never_delivered():
    from lanterne.protocol.identity import Identity
    from lanterne.protocol.net.handshake import Handshake

    a = Handshake(Identity.from_seed(b"transport/a"), "A")
    b = Handshake(Identity.from_seed(b"transport/b"), "B", initiator=False)
    b.receive(a.receive(b.receive(a.opening())))
    arrived = asyncio.Event()
    outcome = asyncio.get_running_loop().create_future()

    async def handler(link):
        link.guard()
        await until(lambda: not link.inbox.empty())
        try:
            link.secure(b.send_cipher, b.recv_cipher)
        except LinkClosed as e:
            outcome.set_result(e.reason)
        arrived.set()

    server = await serve(handler, LOCAL, 0)
    async with server:
        reader, writer = await asyncio.open_connection(LOCAL, bound_port(server))
        writer.write(PREFACE + encode_frame(DATA, b"an injected entry"))
        assert await asyncio.wait_for(outcome, DEADLINE) == "plaintext data after the handshake"
        writer.close()
