"""Invitations over real links on 127.0.0.1: accept, decline, full table, impostors, strangers."""

import asyncio

import pytest

from lanterne.protocol.identity import Identity, fingerprint, safety_code
from lanterne.protocol.net.handshake import HandshakeError
from lanterne.protocol.net.invite import (Answer, Declined, ask, host_connection, join_request, parse_address,
                                 resume_request)
from lanterne.protocol.net.tcp import bound_port, serve
from lanterne.protocol.net.transport import LinkClosed
from tests.support.waiting import DEADLINE

LOCAL = "127.0.0.1"
HOST, JOINER, THIRD = (Identity.from_seed(s) for s in (b"host", b"joiner", b"third"))


class Table:
    """A host with one free seat: the first joiner is accepted, the rest declined."""

    def __init__(self):
        self.requests = []
        self.seated = None
        self.linked = asyncio.Queue()

    async def decide(self, request):
        self.requests.append(request)
        if request.kind == "resume":
            ok = self.seated is not None and request.peer.key == self.seated
            return Answer(ok, "welcome back" if ok else "you hold no seat in this game")
        if self.seated is not None:
            return Answer(False, "the table is full")
        if request.game != "pagode":
            return Answer(False, f"this table plays pagode, not {request.game}")
        self.seated = request.peer.key
        return Answer(True, "seat 2", have=1)

    async def on_accepted(self, request, link):
        await self.linked.put(link)
        await link.wait_closed()  # hold the link until the joiner closes it

    async def serve(self):
        async def handler(link):
            await host_connection(link, HOST, "Host", self.decide, self.on_accepted)
        server = await serve(handler, LOCAL, 0)
        return server, bound_port(server)


async def test_join_is_accepted_and_the_host_sees_name_and_safety_code():
    table = Table()
    server, port = await table.serve()
    async with server:
        link, hs, have = await ask(LOCAL, port, JOINER, "Jo", join_request("pagode", "standard", 2))
        assert hs.peer.key == HOST.public and hs.peer.name == "Host" and have == 1
        req = table.requests[0]
        assert (req.kind, req.peer.name, req.peer.key, req.game) == ("join", "Jo", JOINER.public, "pagode")
        assert req.safety_code == hs.safety_code == safety_code(HOST.public, JOINER.public)
        host_side = await asyncio.wait_for(table.linked.get(), DEADLINE)
        await link.send(b"first session bytes")
        assert await host_side.recv() == b"first session bytes"
        await link.close()


async def test_a_second_joiner_is_declined_with_the_reason():
    table = Table()
    server, port = await table.serve()
    async with server:
        link, _, _ = await ask(LOCAL, port, JOINER, "Jo", join_request("pagode", "standard", 2))
        with pytest.raises(Declined, match="Host declined: the table is full"):
            await ask(LOCAL, port, THIRD, "Eve", join_request("pagode", "standard", 2))
        await link.close()


async def test_wrong_game_is_declined():
    table = Table()
    server, port = await table.serve()
    async with server:
        with pytest.raises(Declined, match="not pueblo"):
            await ask(LOCAL, port, JOINER, "Jo", join_request("pueblo", "standard", 2))


async def test_resume_only_from_the_seated_key():
    table = Table()
    server, port = await table.serve()
    async with server:
        link, _, _ = await ask(LOCAL, port, JOINER, "Jo", join_request("pagode", "standard", 2))
        await link.close()
        with pytest.raises(Declined, match="you hold no seat"):
            await ask(LOCAL, port, THIRD, "Jo", resume_request(b"g" * 32, 10))
        link, _, _ = await ask(LOCAL, port, JOINER, "Jo", resume_request(b"g" * 32, 10))
        assert table.requests[-1].have == 10
        await link.close()


async def test_joiner_refuses_a_host_with_another_key_than_advertised():
    """TXT said the host is HOST's fingerprint; an impostor answering there is refused."""
    table = Table()
    server, port = await table.serve()
    async with server:
        with pytest.raises(HandshakeError, match="expected key"):
            await ask(LOCAL, port, JOINER, "Jo", join_request("pagode", "standard", 2),
                      expect_fingerprint=fingerprint(THIRD.public))
        assert table.requests == []


async def test_a_silent_stranger_is_dropped_and_the_host_keeps_serving():
    table = Table()

    async def handler(link):
        await host_connection(link, HOST, "Host", table.decide, table.on_accepted, timeout=0.3)

    server = await serve(handler, LOCAL, 0)
    async with server:
        port = bound_port(server)
        reader, writer = await asyncio.open_connection(LOCAL, port)
        closed = await asyncio.wait_for(reader.read(), DEADLINE)  # the host gives up on it: EOF
        assert b"handshake" in closed
        writer.close()
        link, _, _ = await ask(LOCAL, port, JOINER, "Jo", join_request("pagode", "standard", 2))
        await link.close()


async def test_connecting_nowhere_is_a_one_line_error():
    server = await asyncio.start_server(lambda r, w: None, LOCAL, 0)
    port = bound_port(server)
    server.close()
    await server.wait_closed()
    with pytest.raises(LinkClosed, match="cannot connect"):
        await ask(LOCAL, port, JOINER, "Jo", join_request("pagode", "standard", 2))


def test_parse_address():
    assert parse_address("10.254.1.2:4000") == ("10.254.1.2", 4000)
    assert parse_address("[::1]:80") == ("::1", 80)
    assert parse_address("Ana") is None
    assert parse_address("host:99999") is None
    assert parse_address("host:\u00b2") is None and parse_address("host:\u0663") is None  # "²", "٣": isdigit()
    assert parse_address(":80") is None
