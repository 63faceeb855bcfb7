"""What a listener on the wire sees of a real game: every byte of a two-peer and a three-peer TCP game.

The test makes a network namespace of its own, captures its loopback with
an AF_PACKET raw socket (a sniffer process inside the namespace) while
``lanterne selfplay GAME --net tcp`` plays a whole game inside it (one
process per seat), then reassembles every TCP stream and looks for what
the game's own files say was said: no player name, no message kind, no
identity public key, no seed, no entry (move) and no signature may appear.
What does appear is checked too: each stream starts with the plaintext
preface, then carries the handshake's three Noise messages as plaintext
DATA frames (32 bytes of ephemeral key first), then only records.
Needs root (``ip netns``); skipped with the reason otherwise.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lanterne.protocol.identity import Identity
from lanterne.protocol.log import open_entry, read_log
from lanterne.protocol.net.framing import DATA, PREFACE, SEALED, FrameDecoder
from tests.support.capture import streams_of
from lanterne.protocol.wire import pack
from bench.netns import unavailable_reason

REPO = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.netns

SNIFFER = r"""
import signal, socket, struct, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
try:
    s.setsockopt(socket.SOL_SOCKET, 33, 16 << 20)   # SO_RCVBUFFORCE (root): no packet dropped under load
except OSError:
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 20)
s.bind(("lo", 0))
s.settimeout(0.1)
stop = []
signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
out = open(sys.argv[1], "wb")
print("ready", flush=True)
def keep(packet, address):
    if address[2] != socket.PACKET_OUTGOING:   # on lo each packet passes twice: keep the incoming copy
        out.write(struct.pack(">I", len(packet)) + packet)
while not stop:
    try:
        keep(*s.recvfrom(1 << 18))
    except socket.timeout:
        continue
s.setblocking(False)              # stopped: what the socket already holds is the end of the game's traffic
while True:
    try:
        keep(*s.recvfrom(1 << 18))
    except BlockingIOError:
        break
out.close()
"""

KIND_STRINGS = [b"hello", b"move", b"join", b"roster", b"resume", b"accept", b"decline", b"table", b"genesis",
                b"fair_", b"agree", b"name", b"game", b"author", b"body"]
"""Message kinds and field names of at least 4 bytes (a shorter one turns up by chance in 100 KB of ciphertext)."""


@pytest.fixture
def namespace():
    reason = unavailable_reason()
    if reason:
        pytest.skip(reason)
    name = f"lnt-{os.getpid()}-cap"
    subprocess.run(["ip", "netns", "del", name], capture_output=True)
    made = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot make a network namespace: {made.stderr.strip()}")
    try:
        subprocess.run(["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"], check=True)
        yield name
    finally:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


def play_captured(namespace: str, tmp_path: Path, game: str, players: int) -> tuple[dict, Path]:
    capture_file = tmp_path / "capture.bin"
    sniffer = subprocess.Popen(["ip", "netns", "exec", namespace, sys.executable, "-c", SNIFFER,
                                str(capture_file)], stdout=subprocess.PIPE, text=True)
    try:
        assert sniffer.stdout.readline().strip() == "ready"
        folder = tmp_path / "games"
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        played = subprocess.run(["ip", "netns", "exec", namespace, sys.executable, "-m", "lanterne", "selfplay",
                                 game, "--net", "tcp", "--players", str(players), "--games", "1",
                                 "--log-dir", str(folder)],
                                cwd=REPO, env=env, capture_output=True, text=True, timeout=240)
        assert played.returncode == 0, played.stdout + played.stderr
    finally:
        sniffer.send_signal(signal.SIGTERM)
        sniffer.wait(10)
    return streams_of(capture_file.read_bytes()), folder / "game0"


def secrets_of(game_folder: Path, players: int) -> dict[str, list[bytes]]:
    """What the game's own files say was said: names, keys, seeds, entries, signatures, move bodies."""
    secrets: dict[str, list[bytes]] = {"names": [], "keys": [], "seeds": [], "entries": [], "signatures": [],
                                       "bodies": []}
    for i in range(1, players + 1):
        secrets["keys"].append(Identity.load_or_create(game_folder / f"home{i}").public)
        seat = game_folder / f"seat{i}"
        for meta in seat.glob("*.json"):
            data = json.loads(meta.read_text())
            secrets["names"] += [s["name"].encode() for s in data.get("seats", []) if s.get("name")]
        for seed in seat.glob("*.seed"):
            secrets["seeds"].append(seed.read_bytes())
        for log in seat.glob("*.log"):
            for raw in read_log(log)[0]:
                entry = open_entry(raw)
                secrets["entries"].append(raw)
                secrets["signatures"].append(entry.sig)
                body = pack(entry.body)
                if len(body) >= 12:
                    secrets["bodies"].append(body)
    secrets["names"] = sorted(set(secrets["names"]))
    return secrets


def check_capture(streams: dict, secrets: dict, links: int) -> dict:
    # each link: one stream each way. At least each guest's link to the host; the guests' links to each
    # other (a fast game may end before a guest dials) and links made again after a drop add more
    assert len(streams) % 2 == 0 and len(streams) >= 2 * links, sorted(streams)
    links = len(streams) // 2
    wire = b"".join(streams.values())
    assert len(wire) > 5_000
    for what in ("names", "keys", "seeds", "entries", "signatures", "bodies"):
        assert secrets[what], f"the game's files hold no {what}"
        for secret in secrets[what]:
            assert secret not in wire, f"one of the {what} is readable on the wire: {secret[:40]!r}"
    for kind in KIND_STRINGS:
        assert kind not in wire, f"{kind!r} is readable on the wire"
    seen = {"handshake": [], "records": 0, "record_bytes": 0}
    for flow, stream in streams.items():
        assert stream.startswith(PREFACE), flow
        frames = FrameDecoder(max_frame=1 << 21).feed(stream)
        first_record = next(i for i, f in enumerate(frames) if f.kind == SEALED)
        plain = frames[:first_record]
        assert all(f.kind == DATA for f in plain) and 1 <= len(plain) <= 2, (flow, plain)   # Noise messages
        assert all(f.kind == SEALED for f in frames[first_record:]), flow
        seen["handshake"] += [len(f.payload) for f in plain]
        seen["records"] += len(frames) - first_record
        seen["record_bytes"] += sum(len(f.payload) for f in frames[first_record:])
    assert seen["handshake"].count(32) == links     # message 1: the initiator's ephemeral key, nothing else
    return seen


def test_a_two_peer_game_shows_nothing_of_the_game_on_the_wire(namespace, tmp_path):
    streams, folder = play_captured(namespace, tmp_path, "pagode", 2)
    seen = check_capture(streams, secrets_of(folder, 2), links=1)
    print(f"2 peers: {len(streams)} streams, handshake messages {sorted(seen['handshake'])} bytes, "
          f"{seen['records']} records, {seen['record_bytes']} bytes of records")


def test_a_three_peer_game_shows_nothing_of_the_game_on_the_wire(namespace, tmp_path):
    streams, folder = play_captured(namespace, tmp_path, "pueblo", 3)
    seen = check_capture(streams, secrets_of(folder, 3), links=2)
    print(f"3 peers: {len(streams)} streams, handshake messages {sorted(seen['handshake'])} bytes, "
          f"{seen['records']} records, {seen['record_bytes']} bytes of records")
