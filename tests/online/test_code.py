"""Two sides linked by a code, with a real mailbox and transit relay on 127.0.0.1 (conftest.py)."""

from __future__ import annotations

import asyncio
import os

import pytest

from lanterne.protocol import identity as ids
from lanterne.protocol.net.invite import authenticate
from lanterne.protocol.net.online import control
from lanterne.protocol.net.online.code import OnlineError, accept, invite
from bench.online import start_server, stop_server
from lanterne.protocol.net.online.servers import Servers
from lanterne.protocol.net.handshake import HandshakeError
from lanterne.protocol.net.transport import LinkClosed

from tests.support.waiting import until

ANN = ids.Identity.from_seed(b"ann")
BOB = ids.Identity.from_seed(b"bob")
EVE = ids.Identity.from_seed(b"eve")


async def linked(servers: Servers):
    """Ann invites, Bob types the code: both Connected, and both wormholes (closed by the caller)."""
    host = await invite(ANN, servers, direct=False)
    guest = await accept(host.code, BOB, servers, direct=False)
    return host, guest, await asyncio.gather(host.connected(), guest.connected())


async def test_a_code_exchanges_the_two_keys_and_links_them_through_dilation(servers):
    host, guest, (at_host, at_guest) = await linked(servers)
    async with host, guest:
        assert control.CODE_FORM.fullmatch(host.code)
        assert (at_host.peer_key, at_guest.peer_key) == (BOB.public, ANN.public)
        assert at_host.verifier == at_guest.verifier
        noise = await asyncio.gather(authenticate(at_host.link, ANN, "Ann", expect=at_host.peer_key),
                                     authenticate(at_guest.link, BOB, "Bob", expect=at_guest.peer_key))
        assert [hs.peer.name for hs in noise] == ["Bob", "Ann"]
        big = os.urandom(300_000)                      # several Noise records, several Dilation frames
        await at_guest.link.send(b"hello")
        await at_guest.link.send(big)
        assert [await at_host.link.recv(), await at_host.link.recv()] == [b"hello", big]
        await at_host.link.send(b"and back")
        assert await at_guest.link.recv() == b"and back"
        await until(lambda: host.route and guest.route, what="Dilation's route")
        assert host.route.startswith("->relay:") and guest.route.startswith("->relay:")


async def test_the_link_accepts_only_the_key_the_code_authenticated(servers):
    host, guest, (at_host, at_guest) = await linked(servers)
    async with host, guest:
        results = await asyncio.gather(authenticate(at_host.link, ANN, "Ann", expect=EVE.public),
                                       authenticate(at_guest.link, BOB, "Bob", expect=at_guest.peer_key),
                                       return_exceptions=True)
        assert isinstance(results[0], HandshakeError)
        assert f"expected key {ids.fingerprint(EVE.public)}" in str(results[0])
        # the guest (the Noise initiator) was done first; the host's refusal closes its link
        with pytest.raises(LinkClosed, match="expected key"):
            await at_guest.link.recv()


async def test_a_wrong_code_fails_both_sides_in_one_line(servers):
    host = await invite(ANN, servers, direct=False)
    nameplate = host.code.split("-")[0]
    guess = await accept(f"{nameplate}-wrong-guess", EVE, servers, direct=False)
    async with host, guess:
        failures = await asyncio.gather(host.connected(), guess.connected(), return_exceptions=True)
    assert [str(f) for f in failures] == ["that code is wrong or was used already"] * 2
    assert all(isinstance(f, OnlineError) for f in failures)


async def test_a_mailbox_that_cannot_be_reached_fails_in_one_line(refused_port, relay):
    servers = Servers(mailbox=f"ws://127.0.0.1:{refused_port}/v1", relay=relay)
    expected = (f"cannot reach the mailbox at ws://127.0.0.1:{refused_port}/v1: no internet here? "
                f"on a LAN use the lobby")
    with pytest.raises(OnlineError) as made:
        await invite(ANN, servers, direct=False)
    assert str(made.value) == expected
    guest = await accept("7-crossover-clockwork", BOB, servers, direct=False)
    async with guest:
        with pytest.raises(OnlineError) as taken:
            await guest.connected()
    assert str(taken.value) == expected


async def test_with_the_relay_down_and_nobody_reachable_the_code_finds_the_peer_but_no_link(mailbox, refused_port):
    servers = Servers(mailbox=mailbox, relay=f"tcp:127.0.0.1:{refused_port}")
    host = await invite(ANN, servers, direct=False)
    guest = await accept(host.code, BOB, servers, direct=False)
    async with host, guest:
        failures = await asyncio.gather(host.connected(connect_timeout=2.0), guest.connected(connect_timeout=2.0),
                                        return_exceptions=True)
    assert [str(f) for f in failures] == [
        f"the code found {ids.fingerprint(key)}, but no connection to it came within 2 s "
        f"(is the transit relay tcp:127.0.0.1:{refused_port} reachable?)" for key in (BOB.public, ANN.public)]


async def test_a_code_nobody_waits_on_times_out_and_its_process_ends(servers):
    guest = await accept("99-crossover-clockwork", BOB, servers, direct=False)
    with pytest.raises(OnlineError) as waited:
        await guest.connected(timeout=1.0)
    assert str(waited.value) == ("nobody is waiting on 99-crossover-clockwork (it was used already, or it expired, "
                                 "or it was never made)")
    assert not guest.running


async def test_an_invitation_nobody_takes_expires(servers):
    host = await invite(ANN, servers, direct=False)
    with pytest.raises(OnlineError) as waited:
        await host.connected(timeout=1.0)
    assert str(waited.value) == f"nobody came with {host.code} within 1 s: the code is void now"


async def test_a_code_used_already_takes_nobody_else_in(servers):
    host, guest, (at_host, at_guest) = await linked(servers)
    async with host, guest:
        late = await accept(host.code, EVE, servers, direct=False)
        with pytest.raises(OnlineError) as refused:
            await late.connected(timeout=2.0)
        assert str(refused.value) in ("that code is wrong or was used already",     # while both hold it
                                      f"nobody is waiting on {host.code} (it was used already, or it expired, "
                                      f"or it was never made)")                 # once they released it
        await exchange(at_guest.link, at_host.link, b"still ours")


@pytest.mark.parametrize("typed, code", [("7-crossover-clockwork", "7-crossover-clockwork"),
                                         ("  7 Crossover  clockwork ", "7-crossover-clockwork")])
def test_a_typed_code_is_made_canonical(typed, code):
    assert control.clean_code(typed) == code


@pytest.mark.parametrize("typed", ["", "crossover-clockwork", "7", "7-cross0ver", "HOST:1234"])
def test_what_is_not_a_code_is_refused_in_one_line(typed):
    with pytest.raises(ValueError, match="a code looks like 7-crossover-clockwork"):
        control.clean_code(typed)


@pytest.fixture
def own_servers(tmp_path):
    """A mailbox and a relay for this test alone (it stops them)."""
    mailbox, mailbox_port = start_server("wormhole-mailbox", "--channel-db", str(tmp_path / "channels.sqlite"),
                                         cwd=tmp_path)
    relay, relay_port = start_server("transitrelay", cwd=tmp_path)
    yield {"mailbox": mailbox, "relay": relay,
           "servers": Servers(mailbox=f"ws://127.0.0.1:{mailbox_port}/v1", relay=f"tcp:127.0.0.1:{relay_port}")}
    for proc in (mailbox, relay):
        stop_server(proc)


async def secured(servers: Servers):
    host, guest, (at_host, at_guest) = await linked(servers)
    await asyncio.gather(authenticate(at_host.link, ANN, "Ann", expect=at_host.peer_key),
                         authenticate(at_guest.link, BOB, "Bob", expect=at_guest.peer_key))
    return host, guest, at_host.link, at_guest.link


async def exchange(a, b, text: bytes) -> None:
    await a.send(text)
    assert await b.recv() == text
    await b.send(text[::-1])
    assert await a.recv() == text[::-1]


async def test_play_goes_on_when_the_mailbox_stops_after_the_link_is_made(own_servers):
    host, guest, at_host, at_guest = await secured(own_servers["servers"])
    async with host, guest:
        await exchange(at_guest, at_host, b"before")
        stop_server(own_servers["mailbox"])
        for n in range(20):
            await exchange(at_guest, at_host, b"move %d" % n)

