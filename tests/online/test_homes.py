"""Codes across NAT: two homes that cannot reach each other meet through the relay; an open host directly.

Each side runs ``side.py`` (one side of a code) inside its namespace; the
mailbox and the relay run on the public side (bench/homes.py). Nothing here
touches an address outside the namespaces the test made.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lanterne.protocol.net.framing import PREFACE

from bench.netns import output, wait_line
from tests.support.waiting import until_sync
from tests.support.capture import streams_of


pytestmark = pytest.mark.netns
SIDE = str(Path(__file__).with_name("side.py"))
SNIFF = str(Path(__file__).with_name("sniff.py"))
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
    for proc in (host, guest):
        output(proc, WAIT)


def test_the_wire_on_the_relays_side_shows_no_key_name_or_move(internet, tmp_path):
    """Everything between a home and the public side, captured on the public side's port for that home.

    The relay's streams are the point (what it forwards is raw TCP); the mailbox's are WebSocket frames,
    whose client half is masked (not encrypted: a reader unmasks it), so a plaintext there could hide."""
    net = internet(homes=2)
    mailbox, relay = net.serve()
    capture = tmp_path / "capture.bin"
    sniffer = net.public.popen(sys.executable, SNIFF, net.homes[1].switch_port, str(capture))
    wait_line(sniffer, "ready", WAIT)
    at_host, at_guest = play_a_code(net.homes[0], net.homes[1], mailbox, relay)
    sniffer.send_signal(signal.SIGTERM)
    output(sniffer, WAIT)
    relay_port = int(relay.rsplit(":", 1)[1])
    streams = streams_of(capture.read_bytes())
    through_relay = b"".join(data for (sport, dport), data in streams.items() if relay_port in (sport, dport))
    everything = b"".join(streams.values())
    assert len(through_relay) > 10_000                 # the move, twice, and the handshakes went this way
    secrets = [bytes.fromhex(at_host["me"]), bytes.fromhex(at_guest["me"]), at_host["me"].encode(),
               at_guest["me"].encode(), b"Annabelle", b"Bartholomew", b"e2-e4", b"plaintext", PREFACE]
    for secret in secrets:
        assert secret not in through_relay and secret not in everything, secret


def test_a_wormhole_process_whose_app_died_behind_a_dead_link_still_ends(internet):
    # the app killed while the network is silent (no FIN, no RST from anywhere): its process ends by
    # itself (process.END_WAIT bounds it, whatever the servers answer or not)
    net = internet(homes=1)
    mailbox, relay = net.serve()
    side = net.homes[0].python(SIDE, "accept", mailbox, relay, "5-nobody-here")
    process = said(side, "process")["process"]
    net.homes[0].link_down()
    os.kill(side.pid, signal.SIGKILL)
    until_sync(lambda: not alive(process), what="the orphaned wormhole process's end")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split()[2] != "Z"        # a zombie has ended (its parent, init, reaps it later)
