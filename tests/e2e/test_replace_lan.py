"""Three hosts in network namespaces: one peer killed for good mid-game, the two others give its seat to a
computer by a signed agreement (``--on-gone computer``), and play Pandoria to the end; logs identical, valid."""

import os
import re
import signal

import pytest

from bench.netns import wait_line
from tests.support.lan_tables import assert_identical_and_verified, finish, host_cmd, join_cmd

pytestmark = [pytest.mark.netns, pytest.mark.slow]

GONE = ["--on-gone", "computer", "--claim-after", "3", "--move-delay", "0.03"]


def test_a_peer_killed_for_good_is_replaced_by_a_computer_and_the_game_ends_normally(netns_network):
    net = netns_network(3)
    hosts = net.hosts
    host = hosts[0].lanterne(*host_cmd(hosts[0], "pandoria", 3, *GONE))
    wait_line(host, r"^advertised", 30)
    # the joiners' own --claim-after 3 (the policy is the host's, signed in the table)
    guests = [h.lanterne(*join_cmd(h, name, "--claim-after", "3", "--move-delay", "0.03"))
              for h, name in zip(hosts[1:], ["Bob", "Cy"])]
    victim = guests[1]   # Cy: seat 2 or 3, whichever joined first
    for _ in range(2):   # linked with both others, so both see it go
        wait_line(victim, r"^linked with ", 90)
    wait_line(victim, r"^move (4\d|[5-9]\d|\d{3,}):", 120)
    os.killpg(victim.pid, signal.SIGKILL)
    victim.wait(10)
    wait_line(host, r"^hosting \[computer\] Cy ", 120)
    wait_line(guests[0], r"^seat [23] is now \[computer\] Cy ", 120)   # the join order decides Cy's seat
    outs = [finish(p, 400) for p in (host, guests[0])]
    assert re.search(r"^replace: seat 1 asks to give seat [23] to \[computer\] Cy .*; scores so far: ", outs[1], re.M)
    assert re.search(r"^game over: scores ", outs[0], re.M) and re.search(r"^game over: scores ", outs[1], re.M)
    assert_identical_and_verified(outs, "pandoria")
    assert "link lost with" in outs[0]
