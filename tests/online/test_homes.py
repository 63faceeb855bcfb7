"""Codes across NAT: two homes that cannot reach each other meet through the relay; an open host directly.

Each side runs ``side.py`` (one side of a code) inside its namespace; the
mailbox and the relay run on the public side (homes.py). Nothing here
touches an address outside the namespaces the test made.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.netns import output, wait_line

from .homes import internet  # noqa: F401  (the fixture)

pytestmark = pytest.mark.netns
SIDE = str(Path(__file__).with_name("side.py"))
WAIT = 120.0
CUT = 20.0


def said(proc, key: str) -> dict:
    return json.loads(wait_line(proc, rf'^\{{"({key}|error)"', WAIT))


def play_a_code(inviter, joiner, mailbox: str, relay: str) -> tuple[dict, dict]:
    """The inviter's and the joiner's ``peer`` lines, once a message went both ways between them."""
    host = inviter.python(SIDE, "invite", mailbox, relay, stdin=subprocess.DEVNULL)
    code = said(host, "code")
    assert "code" in code, code
    guest = joiner.python(SIDE, "accept", mailbox, relay, code["code"])
    at_host, at_guest = said(host, "peer"), said(guest, "peer")
    assert "peer" in at_host and "peer" in at_guest, (at_host, at_guest)
    assert said(host, "echoed") == {"echoed": True}
    assert said(guest, "echoed") == {"echoed": True}
    assert said(guest, "closed") == {"closed": "the peer closed the link: the code's link is closed"}
    for proc in (host, guest):
        output(proc, WAIT)
    return at_host, at_guest


def test_two_homes_behind_nat_meet_through_the_transit_relay(internet):
    net = internet(homes=2)
    mailbox, relay = net.serve()
    at_host, at_guest = play_a_code(net.homes[0], net.homes[1], mailbox, relay)
    assert at_host["route"] == at_guest["route"] == f"->relay:{relay}"


def test_a_home_reaches_an_open_host_directly_with_no_relay_at_all(internet):
    # with a relay too, Dilation races the relay's connection against the direct one (2 s' head start for
    # the direct one, less than a loaded machine may need to swap hints): without it, only direct can win
    net = internet(homes=1, open_hosts=1)
    mailbox, _ = net.serve()
    at_host, at_guest = play_a_code(net.open[0], net.homes[0], mailbox, "")
    assert at_guest["route"].startswith(f"->tcp:{net.open[0].address}:"), (at_host, at_guest)


def test_a_cut_of_20_s_between_a_home_and_the_relay_loses_nothing(internet):
    net = internet(homes=2)
    mailbox, relay = net.serve()
    host = net.homes[0].python(SIDE, "invite", mailbox, relay, stdin=subprocess.PIPE)
    guest = net.homes[1].python(SIDE, "accept", mailbox, relay, said(host, "code")["code"])
    assert said(host, "echoed") == said(guest, "echoed") == {"echoed": True}
    net.homes[1].link_down()           # the joiner's router loses its uplink: no FIN, no RST, silence
    host.stdin.write("during the cut\n")
    host.stdin.flush()
    time.sleep(CUT)                    # the cut's length is the point, not a wait for something
    net.homes[1].link_up()
    assert said(guest, "echoed") == said(host, "echoed") == {"echoed": True}
    host.stdin.write("after the cut\n")
    host.stdin.close()
    assert said(guest, "echoed") == said(host, "echoed") == {"echoed": True}
    assert said(guest, "closed") == {"closed": "the peer closed the link: the code's link is closed"}
