"""Whole Pagode games between two hosts in network namespaces: found by mDNS, played over TCP.

Each test builds its own throw-away network (bench/netns.py): real kernels'
TCP and multicast, real `lanterne host` / `lanterne join` processes, and at
the end `lanterne verify` on both logs, which must be identical.
"""

import re
import signal
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support.commands import REPO
from bench.netns import Host, output, printed, wait_line

pytestmark = [pytest.mark.netns, pytest.mark.slow]

FAST = ["--read-timeout", "2", "--claim-after", "120"]
MID_GAME = r"^move (6\d|[7-9]\d|\d{3,}):"  # the log holds 60 entries or more (a game has ~330)
LATE_GAME = r"^move (1[4-9]\d|[2-9]\d\d):"  # 140 entries or more


def host_cmd(host: Host, *extra: str) -> list[str]:
    return ["host", "pagode", "--bot", "random", "--name", "Ana", "--interface", host.address,
            "--log-dir", str(host.home / "games"), *FAST, *extra]


def join_cmd(guest: Host, target: str, *extra: str) -> list[str]:
    return ["join", target, "--bot", "greedy", "--name", "Bob", "--interface", guest.address,
            "--log-dir", str(guest.home / "games"), "--wait", "20", *FAST, *extra]


def finish(proc: subprocess.Popen, timeout: float = 90) -> str:
    out, err = output(proc, timeout)
    assert proc.returncode == 0, f"exit {proc.returncode}: {err[-2000:]}\n{out[-2000:]}"
    return out


def log_path(output: str) -> Path:
    return Path(re.findall(r"^log: (.+)$", output, re.M)[-1])


def assert_identical_and_verified(host_out: str, guest_out: str) -> bytes:
    a, b = log_path(host_out), log_path(guest_out)
    assert a.read_bytes() == b.read_bytes()
    check = subprocess.run([sys.executable, "-m", "lanterne", "verify", str(a), str(b)], cwd=REPO,
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.count(": valid: pagode") == 2
    return a.read_bytes()


ATTACK = textwrap.dedent("""
    import asyncio, os, sys
    from noise.connection import Keypair, NoiseConnection
    from lanterne.protocol.identity import Identity
    from lanterne.protocol.net.framing import PREFACE, encode_frame, DATA
    from lanterne.protocol.net.handshake import NET_VERSION, NOISE_PROTOCOL, STATIC_DOMAIN, HandshakeError, encode
    from lanterne.protocol.net.invite import Declined, ask, join_request, resume_request
    from lanterne.protocol.net.tcp import connect

    host, port, victim = sys.argv[1], int(sys.argv[2]), bytes.fromhex(sys.argv[3])
    eve = Identity.generate()

    async def main():
        try:
            await ask(host, port, eve, "Eve", join_request("pagode", "standard", 2))
            print("JOINED")
        except Declined as e:
            print("join:", e)
        try:
            await ask(host, port, eve, "Bob", resume_request(bytes(32), 0))
            print("RESUMED")
        except Declined as e:
            print("resume:", e)
        # pass for the seated guest: claim its public key over our own Noise key, signed with ours
        link = await connect(host, port)
        noise = NoiseConnection.from_name(NOISE_PROTOCOL)
        noise.set_keypair_from_private_bytes(Keypair.STATIC, os.urandom(32))
        noise.set_prologue(PREFACE)
        noise.set_as_initiator()
        noise.start_handshake()
        await link.send(bytes(noise.write_message(b"")))
        noise.read_message(await link.recv())  # the host's identity
        static = noise.noise_protocol.keypairs["s"].public_bytes
        await link.send(bytes(noise.write_message(encode("id", v=NET_VERSION, key=victim, name="Bob",
                                                         sig=eve.sign(STATIC_DOMAIN, static)))))
        try:
            await link.recv()
            print("IMPERSONATED")
        except Exception as e:
            print("impersonation:", type(e).__name__, e)
        # raw bytes: a forged entry straight after the preface
        r, w = await asyncio.open_connection(host, port)
        w.write(PREFACE + encode_frame(DATA, b"\\x88" + bytes(300)))
        await w.drain()
        print("garbage:", (await r.read())[-60:])
    asyncio.run(main())
""")


def test_two_hosts_find_each_other_play_pagode_and_a_third_cannot_get_in(netns_network):
    net = netns_network(3)
    a, b, c = net.hosts
    host = a.lanterne(*host_cmd(a, "--move-delay", "0.01"))
    listening = wait_line(host, r"^listening on", 30)
    port = int(listening.split(":")[1].split()[0])
    # the guest thinks a while before each move, so the game outlasts the intruder's attempts
    guest = b.lanterne(*join_cmd(b, "Ana", "--move-delay", "0.06"))
    found = wait_line(guest, r"^found Ana", 30)
    assert f"at {a.address}:{port}: pagode standard" in found
    wait_line(guest, r"^table: pagode", 30)
    from lanterne.protocol.identity import Identity
    victim = Identity.load_or_create(b.home).public.hex()
    attack = c.python("-c", ATTACK, a.address, str(port), victim)
    # meanwhile the stranger's lookup by name finds no open table (the TXT says the seat is taken)
    late = c.lanterne(*join_cmd(c, "Ana"), "--wait", "3")
    out, err = output(attack, 60)
    assert "join: Ana declined: the table is full" in out, err
    assert "resume: Ana declined: no such game here" in out
    assert "impersonation: LinkClosed" in out and "failed to prove its key" in out
    assert "garbage:" in out and "JOINED" not in out and "RESUMED" not in out and "IMPERSONATED" not in out
    _, late_err = output(late, 60)
    # refused either way: by the advert (the seat is taken) or, before that update reaches it, by the host
    assert late.returncode == 2
    assert "no open table of 'Ana'" in late_err or "Ana declined: the table is full" in late_err, late_err
    assert host.poll() is None and guest.poll() is None, "the game was still on during the attempts"
    guest_out, host_out = finish(guest), finish(host)
    log = assert_identical_and_verified(host_out, guest_out)
    from lanterne.protocol.log import open_entry, parse_log
    authors = {open_entry(raw).author for raw in parse_log(log)[0]}
    assert authors == {Identity.load_or_create(a.home).public, Identity.load_or_create(b.home).public}


def test_the_link_goes_down_mid_game_and_comes_back(netns_network):
    net = netns_network(2)
    a, b = net.hosts
    host = a.lanterne(*host_cmd(a, "--move-delay", "0.02"))
    wait_line(host, r"^advertised", 30)
    guest = b.lanterne(*join_cmd(b, "Ana", "--move-delay", "0.02"))
    wait_line(guest, MID_GAME, 60)
    b.link_down()
    wait_line(guest, r"^link lost", 20)  # the read timeout (2 s) notices the silence
    b.link_up()
    guest_out, host_out = finish(guest), finish(host)
    assert "link request from Bob" in host_out
    assert_identical_and_verified(host_out, guest_out)


def test_each_peer_is_killed_mid_game_in_turn_and_restarts_from_its_log(netns_network):
    net = netns_network(2)
    a, b = net.hosts
    host = a.lanterne(*host_cmd(a, "--move-delay", "0.02"))
    wait_line(host, r"^advertised", 30)
    guest = b.lanterne(*join_cmd(b, "Ana", "--move-delay", "0.02"))
    wait_line(host, MID_GAME, 60)
    os.killpg(host.pid, signal.SIGKILL)
    host.wait(10)
    wait_line(guest, r"^link lost", 20)
    # the same command finds its unfinished game; on another port, so that the guest must find
    # it again by its key's fingerprint through zeroconf (the last address is dead)
    old_port = int(re.search(r"listening on [\d.]+:(\d+)", printed(host)).group(1))
    new_port = old_port + 1 if old_port < 65000 else old_port - 1
    again = a.lanterne(*host_cmd(a, "--move-delay", "0.02"), "--port", str(new_port))
    wait_line(again, r"^resuming table", 30)
    wait_line(guest, rf"^linked with .* at {a.address}:{new_port}$", 30)
    # now the guest dies; the same command brings it back into the same game
    wait_line(guest, LATE_GAME, 60)
    os.killpg(guest.pid, signal.SIGKILL)
    guest.wait(10)
    back = b.lanterne(*join_cmd(b, "Ana", "--move-delay", "0.02"))
    wait_line(back, r"^resuming table", 30)
    guest_out, host_out = finish(back), finish(again)
    assert host_out.count("link request from Bob") >= 2
    assert_identical_and_verified(host_out, guest_out)
