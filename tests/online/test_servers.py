"""Where the mailbox and the relay are: the public defaults, and a self-hosted pair given by URL."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from lanterne.protocol.net.online.servers import APPID, PUBLIC_MAILBOX, PUBLIC_RELAY, Servers, ServersError, relay_host


def test_the_defaults_are_the_public_servers_under_lanternes_own_appid():
    assert Servers() == Servers(PUBLIC_MAILBOX, PUBLIC_RELAY, APPID)
    assert urlparse(Servers().mailbox).hostname == "relay.magic-wormhole.io"
    assert relay_host(PUBLIC_RELAY) == ("transit.magic-wormhole.io", 4001)


def test_a_self_hosted_pair_and_no_relay_at_all():
    servers = Servers(mailbox="wss://mailbox.example:443/v1", relay="")
    assert (urlparse(servers.mailbox).hostname, servers.relay) == ("mailbox.example", "")


@pytest.mark.parametrize("mailbox, relay, reason", [
    ("http://mailbox.example/v1", "", "the mailbox must be a ws:// or wss:// URL"),
    ("ws:///v1", "", "the mailbox must be a ws:// or wss:// URL"),
    ("ws://m/v1", "transit.example:4001", "the transit relay must look like tcp:HOST:PORT"),
    ("ws://m/v1", "tcp:transit.example:0", "the transit relay must look like tcp:HOST:PORT"),
])
def test_an_address_that_cannot_be_used_is_refused_in_one_line(mailbox, relay, reason):
    with pytest.raises(ServersError, match=reason):
        Servers(mailbox=mailbox, relay=relay)
