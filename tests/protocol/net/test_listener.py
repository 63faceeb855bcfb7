"""A listener over real TCP on loopback: one port at every address it listens on, and every connection it
accepted counted until it ended (``Listener.connections``), refused ones included."""

from __future__ import annotations

import asyncio

from lanterne.protocol.net.framing import CLOSE, FrameDecoder
from lanterne.protocol.net.tcp import bound_port, serve
from tests.support.waiting import until


async def test_a_listener_on_two_addresses_has_one_port():
    async def handler(link):
        await link.wait_closed()

    async with await serve(handler, ["127.0.0.1", "127.0.0.2"], 0) as listener:
        ports = {sock.getsockname()[1] for sock in listener.sockets}
        assert ports == {bound_port(listener)}
        for host in ("127.0.0.1", "127.0.0.2"):
            reader, writer = await asyncio.open_connection(host, bound_port(listener))
            writer.close()
    assert listener.sockets == [] and listener.connections == 0


async def test_a_refused_connection_is_told_why_and_ends():
    async def handler(link):
        await link.wait_closed()

    async with await serve(handler, "127.0.0.1", 0, max_strangers=1) as listener:
        first = await asyncio.open_connection("127.0.0.1", bound_port(listener))
        await until(lambda: listener.connections == 1 and listener.admission.served)
        reader, writer = await asyncio.open_connection("127.0.0.1", bound_port(listener))
        got = b""
        while chunk := await reader.read(65536):
            got += chunk
        [close] = [f for f in FrameDecoder().feed(got) if f.kind == CLOSE]
        assert close.payload.startswith(b"busy: ")
        await until(lambda: listener.connections == 1, what="the refused connection ended")
        writer.close()
        first[1].close()
    assert listener.connections == 0
