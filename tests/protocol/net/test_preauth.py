"""Bounded before authentication, over real TCP on 127.0.0.1.

A listener serving invitations (the path every peer's listener takes:
``serve`` + ``host_connection``) holds at most 16 links that have not
proven their key (the 17th is closed at once), takes frames of at most
4 KiB until the handshake is done (a bigger one closes the link), and drops
a stranger that does not finish the handshake within 5 s. After the
handshake the full limits are back.
"""

from __future__ import annotations

import asyncio
import struct

from lanterne.protocol.identity import Identity
from lanterne.protocol.net.framing import CLOSE, DATA, PREFACE, encode_frame
from lanterne.protocol.net.handshake import Handshake
from lanterne.protocol.net.clock import MONOTONIC
from lanterne.protocol.net.invite import HANDSHAKE_TIMEOUT, Answer, ask, host_connection, join_request
from lanterne.protocol.net.budgets import MAX_STRANGERS, PREAUTH_MAX_FRAME, PREAUTH_TIMEOUT
from lanterne.protocol.net.tcp import bound_port, serve
from tests.support.clock import FakeClock
from tests.support.waiting import DEADLINE, until

LOCAL = "127.0.0.1"
HOST, JOINER = Identity.from_seed(b"preauth/host"), Identity.from_seed(b"preauth/joiner")


class Table:
    def __init__(self, clock=MONOTONIC):
        self.clock = clock
        self.linked: asyncio.Queue = asyncio.Queue()
        self.opened: list = []
        self.closed: list[str] = []

    async def decide(self, request):
        return Answer(True, "welcome", have=0)

    async def on_accepted(self, request, link):
        await self.linked.put(link)
        await link.wait_closed()

    async def serve(self):
        async def handler(link):
            self.opened.append(link)
            await host_connection(link, HOST, "Host", self.decide, self.on_accepted)
            self.closed.append(link.close_reason or "")
        server = await serve(handler, LOCAL, 0, clock=self.clock)
        return server, bound_port(server)


async def stranger(port, first: bytes = b""):
    reader, writer = await asyncio.open_connection(LOCAL, port)
    if first:
        writer.write(first)
        await writer.drain()
    return reader, writer


async def closed_within(reader, seconds) -> bytes:
    """Everything the listener sent until it closed the connection (TimeoutError if it stays open).

    A listener that closes a socket holding bytes it did not read makes the kernel send a reset: what
    came before it counts, and the reset is a close too.
    """
    async def everything() -> bytes:
        got = b""
        try:
            while chunk := await reader.read(65536):
                got += chunk
        except ConnectionResetError:
            pass
        return got
    return await asyncio.wait_for(everything(), seconds)


async def still_open(reader) -> bool:
    """Nothing but bytes (the listener's preface) and no end of stream, for a moment."""
    try:
        while True:
            if not await asyncio.wait_for(reader.read(65536), 0.05):
                return False
    except asyncio.TimeoutError:
        return True
    except ConnectionResetError:
        return False


async def test_the_17th_unauthenticated_connection_is_closed_at_once():
    """The listener's clock never moves: no timeout of its can be what closes the 17th (it is closed at once)."""
    table = Table(FakeClock())
    server, port = await table.serve()
    async with server:
        idle = [await stranger(port, PREFACE) for _ in range(MAX_STRANGERS)]
        for reader, _ in idle:                      # each was served: the listener's preface came back
            assert await asyncio.wait_for(reader.readexactly(len(PREFACE)), DEADLINE) == PREFACE
        for first in (b"", PREFACE):
            reader, writer = await stranger(port, first)
            answer = await closed_within(reader, 5)
            if not first:    # (with bytes sent, the close may come as a reset before the reason)
                assert answer.startswith(PREFACE) and answer[len(PREFACE) + 4] == CLOSE and b"busy" in answer
            writer.close()
        for reader, _ in idle:                      # the 16 are still open
            assert await still_open(reader)
        idle[0][1].close()                          # one leaves: a real joiner gets in
        await until(lambda: server.connections == MAX_STRANGERS - 1, what="the listener saw the stranger leave")
        link, hs, _ = await ask(LOCAL, port, JOINER, "Jo", join_request("pagode", "standard", 2))
        assert hs.peer.key == HOST.public
        await link.close()
        for _, w in idle[1:]:
            w.close()


async def test_proven_links_do_not_count_against_the_cap():
    table = Table()
    server, port = await table.serve()
    async with server:
        links = []
        for _ in range(MAX_STRANGERS + 2):
            link, _, _ = await ask(LOCAL, port, JOINER, "Jo", join_request("pagode", "standard", 2))
            links.append(link)
        idle = [await stranger(port, PREFACE) for _ in range(MAX_STRANGERS)]
        for reader, _ in idle:
            assert await asyncio.wait_for(reader.readexactly(len(PREFACE)), DEADLINE) == PREFACE
            assert await still_open(reader)
        for link in links:
            await link.close()
        for _, w in idle:
            w.close()


async def test_a_5_kib_first_frame_closes_the_link():
    table = Table()
    server, port = await table.serve()
    async with server:
        big = encode_frame(DATA, b"\x00" * (5 * 1024))
        reader, writer = await stranger(port, PREFACE + big)
        answer = await closed_within(reader, 2.0)
        assert answer.startswith(PREFACE) and f"maximum of {PREAUTH_MAX_FRAME}".encode() in answer
        writer.close()
        # the frame's header alone is enough: the listener does not wait for 5 KiB it will not take
        reader, writer = await stranger(port, PREFACE + struct.pack(">IB", 5 * 1024 + 1, DATA))
        assert b"exceeds the maximum" in await closed_within(reader, 2.0)
        writer.close()
        await until(lambda: any("exceeds the maximum of 4096" in reason for reason in table.closed))


async def test_a_flood_of_small_frames_before_the_handshake_closes_the_link():
    table = Table()
    server, port = await table.serve()
    async with server:
        flood = b"".join(encode_frame(DATA, b"\x90") for _ in range(50))
        reader, writer = await stranger(port, PREFACE + encode_frame(DATA, b"junk") + flood)
        answer = await closed_within(reader, 2.0)
        assert answer.startswith(PREFACE) and CLOSE in answer[len(PREFACE):]
        writer.close()


async def test_after_the_handshake_frames_of_any_size_pass():
    clock = FakeClock()
    table = Table(clock)
    server, port = await table.serve()
    async with server:
        link, _, _ = await ask(LOCAL, port, JOINER, "Jo", join_request("pagode", "standard", 2), clock=clock)
        host_side = await asyncio.wait_for(table.linked.get(), DEADLINE)
        assert link.proven and host_side.proven and link.secured and host_side.secured
        payload = bytes(range(256)) * 256            # 64 KiB
        await link.send(payload)
        assert await asyncio.wait_for(host_side.recv(), DEADLINE) == payload
        clock.advance(PREAUTH_TIMEOUT + 0.3)         # past the deadline before the proof
        await host_side.send(payload)                # (a round trip after it: both loops saw the time)
        assert await asyncio.wait_for(link.recv(), DEADLINE) == payload
        assert not link.closed and not host_side.closed      # no deadline once proven
        await link.close()


async def test_a_silent_stranger_is_dropped_at_the_handshake_timeout():
    """Nothing at all, a preface only, or a valid Noise message 1 and then silence (the listener answers with
    message 2 and waits for the third): each is closed at the handshake's 4 s, before the link's 5 s."""
    clock = FakeClock()
    table = Table(clock)
    server, port = await table.serve()
    hello = Handshake(Identity.from_seed(b"preauth/stranger"), "Stranger").opening()
    assert len(hello) == 32
    async with server:
        strangers = [await stranger(port, first) for first in (b"", PREFACE, PREFACE + encode_frame(DATA, hello))]
        await until(lambda: len(table.opened) == 3)
        clock.advance(HANDSHAKE_TIMEOUT - 0.01)
        assert all([await still_open(reader) for reader, _ in strangers]), "not before the handshake's 4 s"
        clock.advance(0.01)
        for reader, writer in strangers:
            answer = await closed_within(reader, 5)      # (the preface came before: still_open read it)
            assert answer.endswith(b"handshake timed out"), answer
            writer.close()
        assert HANDSHAKE_TIMEOUT < PREAUTH_TIMEOUT


async def test_the_link_itself_drops_a_guarded_stranger_after_5_s():
    """The backstop under any handshake: a link whose handshake began and never proved a key closes at 5 s."""
    from lanterne.protocol.net.transport import LinkClosed, LinkTimeout

    clock = FakeClock()
    reasons = asyncio.get_running_loop().create_future()
    guarded = []

    async def handler(link):
        link.guard()
        guarded.append(link)
        try:
            while True:
                await link.recv()
        except LinkClosed as e:
            reasons.set_result((type(e), e.reason, clock() - link.opened))

    server = await serve(handler, LOCAL, 0, clock=clock)
    async with server:
        reader, writer = await stranger(bound_port(server), PREFACE + encode_frame(DATA, b"hi"))
        await until(lambda: guarded)
        clock.advance(PREAUTH_TIMEOUT - 0.01)
        assert await still_open(reader) and not reasons.done()
        clock.advance(0.01)
        kind, reason, took = await asyncio.wait_for(reasons, DEADLINE)
        assert kind is LinkTimeout and reason == "no proof of identity within 5 s" and took == PREAUTH_TIMEOUT
        assert b"no proof of identity" in await closed_within(reader, 2)
        writer.close()
