"""Whole games by code across NAT, as a person runs them: `lanterne host GAME --invite` in one home,
`lanterne join CODE` in the other; only the relay joins them (bench/homes.py). Root: network namespaces."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.netns import output, wait_line
from tests.support.waiting import until_sync


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
    assert re.search(r"game over.*\nlog: ", host_out), host_out[-400:]
    # the code proved both keys: the table's safety code needs no comparing, and both say so
    for out in (host_out, guest_out):
        assert re.search(r"^table: pagode standard, seats Ana, Bob; safety code .* \(checked by the code\)$", out, re.M)
    assert re.search(r"^\S+ came with your code: its key is checked by the code$", host_out, re.M)


def test_a_used_code_and_an_unreachable_mailbox_are_one_line_each(internet):
    net = internet(homes=2)
    mailbox, relay = net.serve()
    a, b = net.homes
    # both at once: the joiner waits (5 s, not its 30) for a side nobody holds, meanwhile the host fails to reach
    # a mailbox
    gone = b.lanterne("join", "5-used-already", "--wait", "5", *common(b, mailbox, relay))
    nowhere = a.lanterne("host", "pagode", "--invite", *common(a, "ws://198.51.100.99:4000/v1", relay))
    out, err = output(gone, WAIT)
    assert gone.returncode == 2 and err.strip().splitlines() == [
        "lanterne: nobody is waiting on 5-used-already (it was used already, or it expired, or it was never made)"]
    out, err = output(nowhere, WAIT)
    assert nowhere.returncode == 2 and err.strip().splitlines() == [
        "lanterne: cannot reach the mailbox at ws://198.51.100.99:4000/v1: no internet here? on a LAN use the lobby"]


def test_a_table_of_three_across_two_homes_and_the_public_side_links_every_pair(internet):
    net = internet(homes=2, open_hosts=1)
    mailbox, relay = net.serve()
    (a, b), o = net.homes, net.open[0]
    pace = ("--move-delay", "0.2")     # a game of some 30 s: the guests' pair meets over its code meanwhile
    host = o.lanterne("host", "pueblo", "--players", "3", "--invite", "--name", "Olga", *pace,
                      *common(o, mailbox, relay))
    guests = []
    for home, name in ((a, "Ana"), (b, "Bob")):
        code = re.search(r"^code: (\S+) ", wait_line(host, r"^code: ", WAIT)).group(1)   # one per next guest
        guests.append(home.lanterne("join", code, "--name", name, *pace, *common(home, mailbox, relay)))
    # the two guests, neither reachable, link with each other (through the relay) by their pair's code
    fps = [re.search(r"\((\S+)\)$", wait_line(g, r"^listening on \S+ as ", WAIT)).group(1) for g in guests]
    for guest, other in zip(guests, reversed(fps)):
        wait_line(guest, rf"^linked with {other} ", WAIT)
    outs = [output(p, GAME) for p in (host, *guests)]
    assert [p.returncode for p in (host, *guests)] == [0, 0, 0], [err for _, err in outs]
    logs = [re.search(r"^log: (\S+)$", out, re.M).group(1) for out, _ in outs]
    contents = []
    for log in logs:
        with open(log, "rb") as f:
            contents.append(f.read())
    assert contents[0] == contents[1] == contents[2]


def entries(home) -> int:
    """How many entries the home's one game log holds (0 before it exists)."""
    from lanterne.protocol.log import read_log

    logs = list((home.home / "games").glob("*.log"))
    return len(read_log(logs[0])[0]) if logs else 0


def crash(proc) -> None:
    """As a machine that loses power does: the app and its wormhole processes die at once, closing nothing (the
    mailbox keeps their claims, the relay and the other side learn nothing)."""
    import os
    import signal

    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    for pid in (*children, proc.pid):
        os.kill(int(pid), signal.SIGKILL)
    proc.wait(WAIT)


def finished_alike(*procs, game: str = "pagode") -> list[tuple[str, str]]:
    outs = [output(p, GAME) for p in procs]
    assert [p.returncode for p in procs] == [0] * len(procs), [err for _, err in outs]
    logs = [re.search(r"^log: (\S+)$", out, re.M).group(1) for out, _ in outs]
    contents = [Path(log).read_bytes() for log in logs]
    assert all(c == contents[0] for c in contents)
    verified = subprocess.run([sys.executable, "-m", "lanterne", "verify", logs[0]], capture_output=True,
                              text=True, timeout=WAIT)
    assert verified.returncode == 0 and f": valid: {game}" in verified.stdout, verified
    return outs


@pytest.mark.parametrize("crashed", ["guest", "both"])
def test_a_table_started_by_a_code_resumes_after_a_crash_with_the_same_commands_and_no_new_code(internet, crashed):
    """Mid-game, the guest's machine (or both) loses power; each is started again with the very command it ran
    (the code typed again is void by now): they meet again by the code's rendezvous, through the relay."""
    net = internet(homes=2)
    mailbox, relay = net.serve()
    a, b = net.homes
    # the host learns its guest's link is dead after the read timeout (20 s by default): 5 s here, both sides
    slow = ("--move-delay", "0.1", "--read-timeout", "5")
    host_cmd = ("host", "pagode", "--invite", "--name", "Ana", *common(a, mailbox, relay), *slow)
    host = a.lanterne(*host_cmd)
    code = re.search(r"^code: (\S+) ", wait_line(host, r"^code: ", WAIT)).group(1)
    guest_cmd = ("join", code, "--name", "Bob", *common(b, mailbox, relay), *slow)
    guest = b.lanterne(*guest_cmd)
    until_sync(lambda: entries(b) >= 20 or guest.poll() is not None, WAIT, "entry 20 of the guest's log")
    assert guest.poll() is None
    crash(guest)
    if crashed == "both":
        crash(host)
        host = a.lanterne(*host_cmd)
        assert wait_line(host, r"rendezvous", WAIT) == \
            "the seats that came by a code meet again by its rendezvous: no new code"
    guest = b.lanterne(*guest_cmd)
    assert wait_line(guest, r"rendezvous", WAIT) == \
        "the seats that came by a code meet again by its rendezvous: no new code"
    host_out, guest_out = (out for out, _ in finished_alike(host, guest))
    assert len(re.findall(r"^code: ", host_out, re.M)) == (0 if crashed == "both" else 1)    # no new code
    assert b.address not in host_out and a.address not in guest_out


@pytest.mark.parametrize("first", ["lan", "code"])
def test_a_mixed_table_two_on_one_lan_found_by_zeroconf_and_one_by_a_code_links_every_pair(internet, first):
    """Olga hosts in home a and invites; her neighbour Lena (same LAN) finds the table by zeroconf; Bob, in home b,
    comes by the code. Lena and Bob cannot reach each other's addresses: they link by their pair's code."""
    net = internet(homes=2, neighbours=1)
    mailbox, relay = net.serve()
    (a, b), n = net.homes, net.neighbours[0]

    def lan(home, *more):      # zeroconf on the home's LAN address only: never every interface
        return ["--bot", "random", "--interface", home.address, "--mailbox", mailbox, "--relay", relay,
                "--log-dir", str(home.home / "games"), *more]

    host = a.lanterne("host", "pueblo", "--players", "3", "--invite", "--name", "Olga", *lan(a, "--move-delay", "0.05"))
    code = re.search(r"^code: (\S+) ", wait_line(host, r"^code: ", WAIT)).group(1)
    joins = {"lan": lambda: n.lanterne("join", "Olga", "--name", "Lena", *lan(n, "--move-delay", "0.05")),
             "code": lambda: b.lanterne("join", code, "--name", "Bob", *common(b, mailbox, relay))}
    guests = {first: joins[first]()}
    assert wait_line(host, r"^accepted ", WAIT)
    other = "code" if first == "lan" else "lan"
    guests[other] = joins[other]()
    outs = finished_alike(host, guests["lan"], guests["code"], game="pueblo")
    fps = [re.search(r"^listening on \S+ as \S+ \((\S+)\)", out, re.M).group(1) for out, _ in outs]
    lena, bob = outs[1][0], outs[2][0]
    assert re.search(rf"^linked with {fps[2]} ", lena, re.M) and re.search(rf"^linked with {fps[1]} ", bob, re.M)
    assert n.address not in bob and b.address not in lena      # over the pair's code, never an address
