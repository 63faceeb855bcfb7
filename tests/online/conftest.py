"""A wormhole mailbox and a transit relay of our own, on 127.0.0.1, for the tests of links made by a code.

The real servers (``twist wormhole-mailbox``, ``twist transitrelay``), each
on a free port it picks itself and names in its log. Every test gets
:class:`~lanterne.protocol.net.online.servers.Servers` pointing at them, and
a guard refuses any wormhole whose mailbox or relay is not on 127.0.0.1: the
public defaults are never reached from here.
"""

from __future__ import annotations

import socket
from contextlib import ExitStack
from urllib.parse import urlparse

import pytest

from bench.homes import Internet, internet_unavailable_reason
from bench.netns import NetnsUnavailable
from bench.online import start_server, stop_server
from lanterne.protocol.net.online import code as online_code
from lanterne.protocol.net.online.servers import Servers, relay_host



@pytest.fixture(scope="session")
def mailbox(tmp_path_factory):
    """The mailbox's URL; one server for the session (each test's codes are its own)."""
    folder = tmp_path_factory.mktemp("mailbox")
    proc, port = start_server("wormhole-mailbox", "--channel-db", str(folder / "channels.sqlite"), cwd=folder)
    yield f"ws://127.0.0.1:{port}/v1"
    stop_server(proc)


@pytest.fixture(scope="session")
def relay(tmp_path_factory):
    """The transit relay, as ``tcp:127.0.0.1:PORT``."""
    folder = tmp_path_factory.mktemp("relay")
    proc, port = start_server("transitrelay", cwd=folder)
    yield f"tcp:127.0.0.1:{port}"
    stop_server(proc)


@pytest.fixture
def servers(mailbox, relay) -> Servers:
    return Servers(mailbox=mailbox, relay=relay)


@pytest.fixture
def refused_port():
    """A port of 127.0.0.1 that refuses connections: bound, never listening."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    yield sock.getsockname()[1]
    sock.close()


@pytest.fixture(autouse=True)
def only_local_servers(monkeypatch):
    """Every wormhole a test starts talks to 127.0.0.1 only, and never listens for direct connections
    (Dilation would offer the machine's other addresses to the peer)."""
    start = online_code.Wormhole.start

    async def local_start(self, kind, **fields):
        assert urlparse(self.servers.mailbox).hostname == "127.0.0.1", f"a test used the mailbox {self.servers.mailbox}"
        assert not self.servers.relay or relay_host(self.servers.relay)[0] == "127.0.0.1", \
            f"a test used the relay {self.servers.relay}"
        assert not self.direct, "a test let Dilation listen on every interface"
        await start(self, kind, **fields)

    monkeypatch.setattr(online_code.Wormhole, "start", local_start)


@pytest.fixture
def internet(tmp_path):
    """``make(homes, open_hosts, neighbours)`` builds a :class:`bench.homes.Internet`; each is torn down after the test."""
    reason = internet_unavailable_reason()
    if reason:
        pytest.skip(reason)
    with ExitStack() as built:
        def make(homes: int = 2, open_hosts: int = 0, neighbours: int = 0) -> Internet:
            try:
                return built.enter_context(Internet(tmp_path, homes, open_hosts, neighbours))
            except NetnsUnavailable as e:
                pytest.skip(f"cannot build the namespaces here: {e}")

        yield make
