"""``lanterne join HOST:PORT`` listens for the players seated after it on the interface that reaches the
host, not on every LAN interface (joining 127.0.0.1 listens on 127.0.0.1)."""

from __future__ import annotations

import re
import socket

from lanterne.client.commands.join import interface_towards
from tests.support.commands import lanterne


def test_joining_by_address_listens_where_the_host_is_reached():
    with socket.socket() as closed:          # a port nobody listens on: the join fails after saying where it listens
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    done = lanterne("join", f"127.0.0.1:{port}", "--name", "Zed", "--bot", "random", timeout=60)
    heard = done.stdout + done.stderr
    listening = re.findall(r"^listening on (\S+):\d+", heard, re.M)
    assert listening == ["127.0.0.1"], heard
    assert done.returncode != 0 and "cannot connect" in heard


def test_the_interface_towards_an_address_is_the_routing_tables_choice():
    assert interface_towards(("127.0.0.1", 9)) == "127.0.0.1"
    assert interface_towards(("not an address", 9)) is None
