"""Encrypted links over real TCP on 127.0.0.1: relays between two honest peers, tampered records, big payloads.

A relay that runs its own Noise keys, or its own identity, makes the handshake
fail and nothing reaches the host's decision or the session. A relay that
forwards the bytes but injects, replays, reorders, drops or flips one byte
of an encrypted record makes that link close with a one-line reason, and
nothing of the tampered record (or after it) is delivered.
"""

from __future__ import annotations

import asyncio

import pytest
from noise.connection import Keypair, NoiseConnection

from lanterne.protocol.identity import Identity, fingerprint
from lanterne.protocol.net.framing import (CLOSE, DATA, PING, PONG, PREFACE, SEALED, FrameDecoder, encode_frame)
from lanterne.protocol.net.handshake import NET_VERSION, NOISE_PROTOCOL, HandshakeError, decode, encode
from lanterne.protocol.net.invite import Answer, ask, host_connection, join_request
from lanterne.protocol.net.tcp import bound_port, connect, serve
from lanterne.protocol.net.transport import Link, LinkClosed
from tests.support.waiting import DEADLINE, until

LOCAL = "127.0.0.1"
HOST, JOINER, EVE = (Identity.from_seed(s) for s in (b"secure/host", b"secure/joiner", b"secure/eve"))
MIB = 1 << 20


class Host:
    """A listener serving invitations like every peer's: it records what reached its decision and its session."""

    def __init__(self, messages: list[bytes] = ()):
        self.asked: list = []
        self.carried: list[Link] = []
        self.received: list[bytes] = []
        self.messages = list(messages)
        self.closed: list[str] = []

    async def decide(self, request):
        self.asked.append(request)
        return Answer(True, "welcome", have=0)

    async def on_accepted(self, request, link):
        self.carried.append(link)
        for m in self.messages:
            await link.send(m)
        try:
            while True:
                self.received.append(await link.recv())
        except LinkClosed:
            pass

    async def serve(self):
        async def handler(link):
            await host_connection(link, HOST, "Host", self.decide, self.on_accepted)
            self.closed.append(link.close_reason or "")
        server = await serve(handler, LOCAL, 0)
        return server, bound_port(server)


class Cut(Exception):
    """Raised by a tamper function: forward these bytes, then close the connection both ways."""


async def pipe_frames(reader, writer, tamper=None, seen=None, kinds=None, other=None):
    """Forward a Lanterne stream frame by frame; ``tamper(n, raw)`` gets each record (n from 1) and returns
    the bytes to forward instead (or raises Cut)."""
    decoder, n = FrameDecoder(), 0
    writer.write(PREFACE)
    try:
        while data := await reader.read(65536):
            if seen is not None:
                seen.extend(data)
            out = []
            for frame in decoder.feed(data):
                if kinds is not None:
                    kinds.append(frame.kind)
                raw = encode_frame(frame.kind, frame.payload)
                if frame.kind == SEALED:
                    n += 1
                    if tamper is not None:
                        try:
                            raw = tamper(n, raw)
                        except Cut as cut:
                            writer.write(b"".join(out) + cut.args[0])
                            await writer.drain()
                            if other is not None:
                                other.close()
                            return
                out.append(raw)
            writer.write(b"".join(out))
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


class TamperingRelay:
    """Forwards bytes between a joiner and the host; ``down`` may tamper with the records going to the joiner."""

    def __init__(self, target_port: int, down=None, up=None):
        self.target_port, self.down, self.up = target_port, down, up
        self.wire = {"up": bytearray(), "down": bytearray()}
        self.kinds: dict[str, list[int]] = {"up": [], "down": []}

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._on, LOCAL, 0)
        return bound_port(self.server)

    async def _on(self, reader, writer):
        up_r, up_w = await asyncio.open_connection(LOCAL, self.target_port)
        await asyncio.gather(pipe_frames(reader, up_w, self.up, self.wire["up"], self.kinds["up"], writer),
                             pipe_frames(up_r, writer, self.down, self.wire["down"], self.kinds["down"], up_w))


def raw_noise(initiator: bool) -> NoiseConnection:
    conn = NoiseConnection.from_name(NOISE_PROTOCOL)
    conn.set_keypair_from_private_bytes(Keypair.STATIC, Identity.generate().public)  # any 32 bytes
    conn.set_prologue(PREFACE)
    conn.set_as_initiator() if initiator else conn.set_as_responder()
    conn.start_handshake()
    return conn


# ---------------------------------------------------------------- relays in the handshake


async def test_a_relay_with_its_own_noise_keys_cannot_pass_either_identity_along():
    """The relay runs Noise with each side and passes each side's identity payload on (re-encrypted): each
    side finds the identity signed over another static key. Nothing reaches the host's decision."""
    host = Host()
    server, port = await host.serve()
    # the joiner's identity payload from an honest earlier link, to pass on to the host later
    earlier = {}

    async def relay(link: Link) -> None:
        to_joiner = raw_noise(initiator=False)
        up = await connect(LOCAL, port)
        to_host = raw_noise(initiator=True)
        try:
            to_joiner.read_message(await link.recv())
            await up.send(bytes(to_host.write_message(b"")))
            host_id = bytes(to_host.read_message(await up.recv()))
            assert decode(host_id, "id")["key"] == HOST.public
            await link.send(bytes(to_joiner.write_message(host_id)))     # the host's identity, our keys
            await up.send(bytes(to_host.write_message(earlier["joiner_id"])))  # the joiner's, from before
            earlier["host_said"] = (await asyncio.wait_for(up.recv(), DEADLINE))
        except LinkClosed as e:
            earlier["host_said"] = e.reason
        finally:
            await up.close()

    relay_server = await serve(relay, LOCAL, 0)
    relay_port = bound_port(relay_server)
    async with server, relay_server:
        # the joiner's real signature, but over another of its Noise keys (another link of its own)
        from lanterne.protocol.net.handshake import STATIC_DOMAIN, Handshake
        earlier["joiner_id"] = encode("id", v=NET_VERSION, key=JOINER.public, name="Jo",
                                      sig=JOINER.sign(STATIC_DOMAIN, Handshake(JOINER, "Jo").static_public))
        with pytest.raises(HandshakeError, match="failed to prove its key") as e:
            await ask(LOCAL, relay_port, JOINER, "Jo", join_request("pagode", "standard", 2))
        assert "\n" not in str(e.value)
        await until(lambda: "host_said" in earlier, what="the host's side of the failed handshake")
        assert "failed to prove its key" in str(earlier["host_said"])
        assert host.asked == [] and host.carried == []


async def test_a_relay_with_its_own_identity_is_refused_by_the_expected_key():
    """The relay is a full honest Lanterne peer on each side (its own key): a joiner expecting the host's key
    refuses it before showing who it is; nothing reaches the host."""
    host = Host()
    server, port = await host.serve()
    seen: list = []

    async def relay(link: Link) -> None:
        from lanterne.protocol.net.invite import authenticate
        try:
            hs = await authenticate(link, EVE, "Host")
            seen.append(hs.peer)
        except HandshakeError as e:
            seen.append(str(e))

    relay_server = await serve(relay, LOCAL, 0)
    async with server, relay_server:
        with pytest.raises(HandshakeError, match=f"expected key {fingerprint(HOST.public)}, the peer has "
                                                 f"{fingerprint(EVE.public)}"):
            await ask(LOCAL, bound_port(relay_server), JOINER, "Jo", join_request("pagode", "standard", 2),
                      expect_fingerprint=fingerprint(HOST.public))
        await until(lambda: seen, what="the relay's handshake ended")
        assert len(seen) == 1 and isinstance(seen[0], str)     # the relay never learned the joiner's identity
        assert host.asked == []


async def test_a_wrong_expected_key_fails_and_nothing_is_asked():
    host = Host()
    server, port = await host.serve()
    async with server:
        with pytest.raises(HandshakeError, match="expected key"):
            await ask(LOCAL, port, JOINER, "Jo", join_request("pagode", "standard", 2), expect=EVE.public)
        await until(lambda: server.connections == 0, what="the host done with the refused connection")
        assert host.asked == []
        link, hs, _ = await ask(LOCAL, port, JOINER, "Jo", join_request("pagode", "standard", 2), expect=HOST.public)
        assert hs.peer.key == HOST.public and link.secured
        await link.close()


# ---------------------------------------------------------------- tampered records


MESSAGES = [b"entry %03d " % i + bytes(40) for i in range(12)]


async def run_tampered(down) -> tuple[list[bytes], str, TamperingRelay]:
    """The host sends the accept then MESSAGES through a relay that tampers with the records going down."""
    host = Host(MESSAGES)
    server, port = await host.serve()
    relay = TamperingRelay(port, down=down)
    async with server:
        relay_port = await relay.start()
        link, hs, _ = await ask(LOCAL, relay_port, JOINER, "Jo", join_request("pagode", "standard", 2))
        got = []
        with pytest.raises(LinkClosed) as closed:
            while True:
                got.append(await asyncio.wait_for(link.recv(), DEADLINE))
        relay.server.close()
    return got, closed.value.reason, relay


def at(n: int, change):
    def tamper(k, raw):
        return change(raw) if k == n else raw
    return tamper


def flip(raw: bytes) -> bytes:
    i = len(raw) - 20
    return raw[:i] + bytes([raw[i] ^ 0x01]) + raw[i + 1:]


async def test_a_flipped_byte_in_a_record_closes_the_link_and_nothing_of_it_is_delivered():
    # record 1 going down is the accept, 2.. are MESSAGES
    got, reason, _ = await run_tampered(at(5, flip))
    assert got == MESSAGES[:3]
    assert "record 5 does not decrypt" in reason and "\n" not in reason


async def test_an_injected_record_closes_the_link():
    fake = encode_frame(SEALED, bytes(60))
    got, reason, _ = await run_tampered(at(4, lambda raw: fake + raw))
    assert got == MESSAGES[:2] and "record 4 does not decrypt" in reason


async def test_a_replayed_record_closes_the_link():
    last = {}

    def replay(k, raw):
        if k == 3:
            last["raw"] = raw
        return raw + last["raw"] if k == 3 else raw
    got, reason, _ = await run_tampered(replay)
    assert got == MESSAGES[:2] and "record 4 does not decrypt" in reason   # the copy came as record 4


async def test_reordered_records_close_the_link():
    held = {}

    def reorder(k, raw):
        if k == 3:
            held["raw"] = raw
            return b""
        if k == 4:
            return raw + held["raw"]
        return raw
    got, reason, _ = await run_tampered(reorder)
    assert got == MESSAGES[:1] and "record 3 does not decrypt" in reason


async def test_a_dropped_record_closes_the_link():
    got, reason, _ = await run_tampered(at(6, lambda raw: b""))
    assert got == MESSAGES[:4] and "record 6 does not decrypt" in reason


async def test_injected_plaintext_after_the_handshake_is_never_delivered():
    for kind, payload in ((DATA, b"forged entry"), (CLOSE, b"bye")):
        got, reason, _ = await run_tampered(at(3, lambda raw: encode_frame(kind, payload) + raw))
        assert got == MESSAGES[:1] and reason == f"a plaintext {'data' if kind == DATA else 'close'} frame " \
                                                 f"among encrypted records", reason


async def test_a_cut_record_delivers_nothing_of_it():
    def cut(k, raw):
        if k == 5:
            raise Cut(raw[: len(raw) // 2])
        return raw
    got, reason, _ = await run_tampered(cut)
    assert got == MESSAGES[:3] and reason == "the peer closed the connection"


async def test_a_1_mib_payload_with_one_record_dropped_delivers_nothing_of_it():
    big = bytes(range(256)) * (MIB // 256)
    host = Host([b"first", big, b"after"])
    server, port = await host.serve()
    relay = TamperingRelay(port, down=at(6, lambda raw: b""))   # 1 accept, 2 first, 3.. the 17 records of big
    async with server:
        link, hs, _ = await ask(LOCAL, await relay.start(), JOINER, "Jo", join_request("pagode", "standard", 2))
        assert await asyncio.wait_for(link.recv(), DEADLINE) == b"first"
        with pytest.raises(LinkClosed, match="record 6 does not decrypt"):
            await asyncio.wait_for(link.recv(), DEADLINE)
        relay.server.close()


# ---------------------------------------------------------------- what an authenticated link carries


async def test_payloads_of_1_mib_cross_intact_both_ways_and_every_frame_is_a_record():
    big_down, big_up = bytes(range(256)) * (MIB // 256), bytes(reversed(range(256))) * (MIB // 256)
    host = Host([big_down, b"small"])
    server, port = await host.serve()
    relay = TamperingRelay(port)
    async with server:
        relay_port = await relay.start()
        link, hs, _ = await ask(LOCAL, relay_port, JOINER, "Josephine Marchetti",
                                join_request("pagode", "standard", 2))
        assert await asyncio.wait_for(link.recv(), DEADLINE) == big_down
        assert await asyncio.wait_for(link.recv(), DEADLINE) == b"small"
        await link.send(big_up)
        rtt = await link.ping(5)
        assert rtt > 0
        await until(lambda: host.received)
        assert host.received == [big_up]
        await link.close("a reason nobody on the wire may read")
        await until(lambda: host.carried[0].peer_reason == "a reason nobody on the wire may read",
                    what="the host read the closing reason")
        relay.server.close()
    wire = bytes(relay.wire["up"]) + bytes(relay.wire["down"])
    assert relay.wire["up"].startswith(PREFACE) and relay.wire["down"].startswith(PREFACE)
    assert b"a reason nobody" not in wire and b"Josephine" not in wire and JOINER.public not in wire
    assert bytes(range(64)) not in wire and HOST.public not in wire and b"welcome" not in wire
    # the handshake's messages are plaintext DATA frames (one down, two up); every frame after them, both
    # ways, is a record: PING, PONG and CLOSE included
    up, down = relay.kinds["up"], relay.kinds["down"]
    assert up[:2] == [DATA, DATA] and down[:1] == [DATA], (up[:5], down[:5])
    assert set(up[up.index(SEALED):]) == {SEALED} and set(down[down.index(SEALED):]) == {SEALED}
    assert not {PING, PONG, CLOSE} & set(up[:up.index(SEALED)] + down[:down.index(SEALED)])
