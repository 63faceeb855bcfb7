"""Three to five hosts in network namespaces on one bridge: found by mDNS, a full mesh, whole games.

Real `lanterne host --players N` / `lanterne join NAME` processes, one per
namespace; every guest finds the host by zeroconf, the host seats them and
sends the roster, the guests link with each other; the game is played with
computer players and every log must be identical and pass `lanterne verify`.
One whole game per player count keeps the suite's time sane.
"""

import os
import re
import signal

import pytest

from tests.support.lan_tables import NAMES, assert_identical_and_verified, finish, host_cmd, join_cmd
from bench.netns import printed, wait_line

pytestmark = [pytest.mark.netns, pytest.mark.slow]


def start_table(net, game: str, players: int, *extra: str):
    hosts = net.hosts
    host = hosts[0].lanterne(*host_cmd(hosts[0], game, players, *extra))
    wait_line(host, r"^advertised", 30)
    guests = [h.lanterne(*join_cmd(h, NAMES[i + 1], *extra)) for i, h in enumerate(hosts[1:players])]
    return host, guests


def play_whole_game(net, game: str, players: int, timeout: float) -> list[str]:
    # a short think per move, so that every pair has linked before a quick game (Pueblo) is over
    host, guests = start_table(net, game, players, "--move-delay", "0.01")
    for g in guests:
        wait_line(g, r"^seated \d of %d" % players, 60)
    outs = [finish(p, timeout) for p in [host, *guests]]
    for i, out in enumerate(outs):  # every peer linked with every other one
        linked = set(re.findall(r"^linked with (\S+) at", out, re.M))
        assert len(linked) == players - 1, (i, out[-2000:])
    assert_identical_and_verified(outs, game)
    return outs


def test_three_hosts_play_pandoria(netns_network):
    play_whole_game(netns_network(3), "pandoria", 3, 240)


def test_four_hosts_play_pueblo(netns_network):
    play_whole_game(netns_network(4), "pueblo", 4, 240)


def test_five_hosts_play_pacals_rocket(netns_network):
    play_whole_game(netns_network(5), "pacal", 5, 400)


def test_a_peer_killed_mid_game_restarts_and_the_four_logs_end_identical(netns_network):
    net = netns_network(4)
    slow = ("--move-delay", "0.03")
    host, guests = start_table(net, "pueblo", 4, *slow)
    victim = guests[0]  # seat 2: it dials the host, seats 3 and 4 dial it
    # every peer must hold a link with it, or it has no link to lose (until a pair links, the
    # host relays their entries: on a loaded machine seat 3 may link late)
    for _ in range(3):
        wait_line(victim, r"^linked with ", 60)
    wait_line(victim, r"^move (3\d|[4-9]\d|\d{3,}):", 60)
    os.killpg(victim.pid, signal.SIGKILL)
    victim.wait(10)
    for other in (host, *guests[1:]):
        wait_line(other, r"^link lost with", 20)
    b = net.hosts[1]
    # its old port is taken meanwhile: it listens on another (seats 3 and 4 may find it by mDNS)
    old_port = int(re.search(r"listening on [\d.]+:(\d+)", printed(victim)).group(1))
    squatter = b.python("-c", "import socket, time; s = socket.socket(); "
                        "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); "
                        f"s.bind(('0.0.0.0', {old_port})); s.listen(); print('bound', flush=True); time.sleep(600)")
    wait_line(squatter, r"^bound", 20)
    back = b.lanterne(*join_cmd(b, NAMES[1], *slow))
    wait_line(back, r"^resuming table", 30)
    wait_line(back, rf"^port {old_port} is busy", 30)
    outs = [finish(p, 240) for p in [host, back, *guests[1:]]]
    assert_identical_and_verified(outs, "pueblo")
    assert re.search(r"^linked with \S+ at", outs[1].split("resuming table")[-1], re.M)
    # (whether seats 3 and 4 re-link to it before the end depends on timing: mDNS probing takes
    # about a second, and until then the host relays its entries; the logs are identical either way)


def test_four_hosts_play_pandoria(netns_network):
    play_whole_game(netns_network(4), "pandoria", 4, 300)


def test_one_of_three_loses_its_cable_mid_game_and_comes_back(netns_network):
    net = netns_network(3)
    slow = ("--move-delay", "0.03")
    host, guests = start_table(net, "pueblo", 3, *slow)
    wait_line(guests[1], r"^move (2\d|[3-9]\d|\d{3,}):", 60)
    net.hosts[1].link_down()  # seat 2's cable: it can reach nobody, the two others still reach each other
    wait_line(guests[0], r"^link lost with", 20)
    net.hosts[1].link_up()
    outs = [finish(p, 240) for p in [host, *guests]]
    assert "link request from Bob" in outs[0]  # seat 2 dialed the host again (its first link was the join)
    assert_identical_and_verified(outs, "pueblo")
