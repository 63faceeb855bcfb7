"""Whole games by code across NAT, as a person runs them: `lanterne host GAME --invite` in one home,
`lanterne join CODE` in the other; only the relay joins them (bench/homes.py). Root: network namespaces."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from bench.netns import output, wait_line


pytestmark = pytest.mark.netns
WAIT = 120.0
GAME = 300.0


def common(home, mailbox: str, relay: str, *more: str) -> list[str]:
    return ["--bot", "random", "--no-discovery", "--interface", home.address, "--mailbox", mailbox,
            "--relay", relay, "--log-dir", str(home.home / "games"), *more]


def test_a_whole_game_between_two_homes_behind_nat_goes_through_the_relay(internet):
    net = internet(homes=2)
    mailbox, relay = net.serve()
    a, b = net.homes
    host = a.lanterne("host", "pagode", "--invite", "--name", "Ana", *common(a, mailbox, relay))
    code = re.search(r"^code: (\S+) ", wait_line(host, r"^code: ", WAIT)).group(1)
    guest = b.lanterne("join", code, "--name", "Bob", *common(b, mailbox, relay))
    assert wait_line(guest, r"^the code found ", WAIT).endswith("its key is checked by the code")
    assert wait_line(guest, r"^the link goes ", WAIT) == f"the link goes through the transit relay {relay}"
    assert wait_line(host, r"^the link goes ", WAIT) == f"the link goes through the transit relay {relay}"
    host_out, host_err = output(host, GAME)
    guest_out, guest_err = output(guest, GAME)
    assert host.returncode == guest.returncode == 0, (host_err, guest_err)
    logs = [re.search(r"^log: (\S+)$", out, re.M).group(1) for out in (host_out, guest_out)]
    with open(logs[0], "rb") as f, open(logs[1], "rb") as g:
        assert f.read() == g.read()
    verified = subprocess.run([sys.executable, "-m", "lanterne", "verify", logs[0]], capture_output=True,
                              text=True, timeout=WAIT)
    assert verified.returncode == 0 and ": valid: pagode" in verified.stdout, verified
    # the link is the code's: over 127.0.0.1 to the wormhole process, never to the other home's address
    assert "linked with " in host_out and b.address not in host_out and a.address not in guest_out
    assert "game over" in host_out.splitlines()[-2]


def test_a_used_code_and_an_unreachable_mailbox_are_one_line_each(internet):
    net = internet(homes=2)
    mailbox, relay = net.serve()
    a, b = net.homes
    gone = b.lanterne("join", "5-used-already", *common(b, mailbox, relay))
    out, err = output(gone, WAIT)
    assert gone.returncode == 2 and err.strip().splitlines() == [
        "lanterne: nobody is waiting on 5-used-already (it was used already, or it expired, or it was never made)"]
    nowhere = a.lanterne("host", "pagode", "--invite", *common(a, "ws://198.51.100.99:4000/v1", relay))
    out, err = output(nowhere, WAIT)
    assert nowhere.returncode == 2 and err.strip().splitlines() == [
        "lanterne: cannot reach the mailbox at ws://198.51.100.99:4000/v1: no internet here? on a LAN use the lobby"]


def test_a_table_of_three_across_two_homes_and_the_public_side_links_every_pair(internet):
    net = internet(homes=2, open_hosts=1)
    mailbox, relay = net.serve()
    (a, b), o = net.homes, net.open[0]
    host = o.lanterne("host", "pueblo", "--players", "3", "--invite", "--name", "Olga", *common(o, mailbox, relay))
    guests = []
    for home, name in ((a, "Ana"), (b, "Bob")):
        code = re.search(r"^code: (\S+) ", wait_line(host, r"^code: ", WAIT)).group(1)   # one per next guest
        guests.append(home.lanterne("join", code, "--name", name, *common(home, mailbox, relay)))
    outs = [output(p, GAME) for p in (host, *guests)]
    assert [p.returncode for p in (host, *guests)] == [0, 0, 0], [err for _, err in outs]
    logs = [re.search(r"^log: (\S+)$", out, re.M).group(1) for out, _ in outs]
    contents = []
    for log in logs:
        with open(log, "rb") as f:
            contents.append(f.read())
    assert contents[0] == contents[1] == contents[2]
    # the two guests, neither reachable, linked with each other (through the relay) by their pair's code
    fps = [re.search(r"^listening on \S+ as \S+ \((\S+)\)", out, re.M).group(1) for out, _ in outs]
    assert re.search(rf"^linked with {fps[2]} ", outs[1][0], re.M) and re.search(rf"^linked with {fps[1]} ",
                                                                                  outs[2][0], re.M)
