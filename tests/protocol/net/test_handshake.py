"""Noise XX bound to the identity keys, sans-IO: honest pairs agree, impostors, relays and garbage are refused."""

import pytest
from hypothesis import given, settings, strategies as st
from noise.connection import Keypair, NoiseConnection

from lanterne.protocol import wire
from lanterne.protocol.identity import Identity, fingerprint, safety_code
from lanterne.protocol.net.framing import PREFACE, Opener, Sealer, FrameDecoder, DATA
from lanterne.protocol.net.handshake import (NET_VERSION, NOISE_PROTOCOL, STATIC_DOMAIN, Handshake, HandshakeError, decode,
                                    encode)

ANA, BOB, EVE = (Identity.from_seed(s) for s in (b"ana", b"bob", b"eve"))


def exchange(a: Handshake, b: Handshake) -> list[bytes]:
    """a connects to b; returns the three Noise messages."""
    m1 = a.opening()
    m2 = b.receive(m1)
    m3 = a.receive(m2)
    assert b.receive(m3) is None
    return [m1, m2, m3]


def raw_noise(initiator: bool, static: bytes | None = None) -> NoiseConnection:
    """A Noise peer of our own, to say whatever we like inside a correct handshake."""
    conn = NoiseConnection.from_name(NOISE_PROTOCOL)
    conn.set_keypair_from_private_bytes(Keypair.STATIC, static or bytes(range(1, 33)))
    conn.set_prologue(PREFACE)
    conn.set_as_initiator() if initiator else conn.set_as_responder()
    conn.start_handshake()
    return conn


def static_of(conn: NoiseConnection) -> bytes:
    return conn.noise_protocol.keypairs["s"].public_bytes


def test_honest_peers_learn_each_other_and_agree_on_the_safety_code_and_the_keys():
    a, b = Handshake(ANA, "Ana"), Handshake(BOB, "Bob", initiator=False)
    m1, m2, m3 = exchange(a, b)
    assert a.done and b.done
    assert (a.peer.key, a.peer.name) == (BOB.public, "Bob")
    assert (b.peer.key, b.peer.name) == (ANA.public, "Ana")
    assert a.safety_code == b.safety_code == safety_code(ANA.public, BOB.public)
    assert a.peer.fingerprint == fingerprint(BOB.public)
    assert a.handshake_hash == b.handshake_hash and len(a.handshake_hash) == 32
    assert a.remote_static == b.static_public and b.remote_static == a.static_public
    assert len(m1) == 32                              # -> e: the initiator's ephemeral key, nothing else
    for m in (m1, m2, m3):                            # neither identity, nor name, in any message
        for secret in (ANA.public, BOB.public, b"Ana", b"Bob", b"id"):
            assert secret not in m
    # the two cipher states carry records both ways
    record = Sealer(a.send_cipher).seal(DATA, b"join")
    frame = FrameDecoder(expect_preface=False).feed(record)[0]
    assert Opener(b.recv_cipher).open(frame.payload).payload == b"join"
    back = FrameDecoder(expect_preface=False).feed(Sealer(b.send_cipher).seal(DATA, b"accept"))[0]
    assert Opener(a.recv_cipher).open(back.payload).payload == b"accept"


def test_a_fresh_noise_static_key_per_link():
    a1, a2 = Handshake(ANA, "Ana"), Handshake(ANA, "Ana")
    assert a1.static_public != a2.static_public


def test_the_expected_key_is_enforced_before_we_show_ours():
    a, e = Handshake(ANA, "Ana", expect=BOB.public), Handshake(EVE, "Bob", initiator=False)
    with pytest.raises(HandshakeError, match=f"expected key {fingerprint(BOB.public)}, the peer has"):
        a.receive(e.receive(a.opening()))
    assert not a.done and a.peer is None
    a = Handshake(ANA, "Ana", expect_fingerprint=fingerprint(BOB.public))
    e = Handshake(EVE, "Bob", initiator=False)
    with pytest.raises(HandshakeError, match="expected key"):
        a.receive(e.receive(a.opening()))
    # the responder may expect a key too
    b, e = Handshake(BOB, "Bob", expect=ANA.public, initiator=False), Handshake(EVE, "Ana")
    with pytest.raises(HandshakeError, match="expected key"):
        b.receive(e.receive(b.receive(e.opening())))


def test_an_identity_claimed_over_another_noise_key_fails():
    """Eve runs Noise with her own static key and claims Bob's identity with Bob's signature of *his* static key
    (seen on another link): the signature does not cover the key this handshake authenticated."""
    a0, b0 = Handshake(ANA, "Ana"), Handshake(BOB, "Bob", initiator=False)
    exchange(a0, b0)
    bobs_sig_elsewhere = BOB.sign(STATIC_DOMAIN, b0.static_public)
    eve = raw_noise(initiator=False)
    a = Handshake(ANA, "Ana")
    eve.read_message(a.opening())
    m2 = eve.write_message(encode("id", v=NET_VERSION, key=BOB.public, name="Bob", sig=bobs_sig_elsewhere))
    with pytest.raises(HandshakeError, match="failed to prove its key"):
        a.receive(bytes(m2))
    assert not a.done and a.peer is None
    # nor can she sign Bob's key binding with her own identity key
    eve = raw_noise(initiator=False)
    a = Handshake(ANA, "Ana")
    eve.read_message(a.opening())
    forged = EVE.sign(STATIC_DOMAIN, static_of(eve))
    with pytest.raises(HandshakeError, match="failed to prove its key"):
        a.receive(bytes(eve.write_message(encode("id", v=NET_VERSION, key=BOB.public, name="Bob", sig=forged))))


def test_messages_of_another_handshake_do_not_open():
    """A relay passes message 2 of Bob's handshake with Ana into Ana's second handshake: it does not open."""
    a1, b1 = Handshake(ANA, "Ana"), Handshake(BOB, "Bob", initiator=False)
    m2 = b1.receive(a1.opening())
    a2 = Handshake(ANA, "Ana")
    a2.opening()
    with pytest.raises(HandshakeError, match="Noise message 2 does not open"):
        a2.receive(m2)
    # and message 3 of one link into the responder of another
    a3, b3 = Handshake(ANA, "Ana"), Handshake(BOB, "Bob", initiator=False)
    a4, b4 = Handshake(ANA, "Ana"), Handshake(BOB, "Bob", initiator=False)
    m3 = a3.receive(b3.receive(a3.opening()))
    b4.receive(a4.opening())
    with pytest.raises(HandshakeError, match="Noise message 3 does not open"):
        b4.receive(m3)


def test_a_different_prologue_fails():
    a = Handshake(ANA, "Ana", prologue=b"\x89LNT\r\n1\n")
    b = Handshake(BOB, "Bob", initiator=False)
    with pytest.raises(HandshakeError, match="does not open"):
        a.receive(b.receive(a.opening()))


def test_version_mismatch_and_own_key_are_refused():
    for payload, reason in ((encode("id", v=9, key=BOB.public, name="B", sig=bytes(64)), "network version 9"),
                            (None, "our own key")):
        peer = raw_noise(initiator=False)
        a = Handshake(ANA, "Ana")
        peer.read_message(a.opening())
        if payload is None:
            payload = encode("id", v=NET_VERSION, key=ANA.public, name="Me", sig=ANA.sign(STATIC_DOMAIN,
                                                                                         static_of(peer)))
        with pytest.raises(HandshakeError, match=reason):
            a.receive(bytes(peer.write_message(payload)))
    with pytest.raises(HandshakeError, match="our own key"):
        exchange(Handshake(ANA, "Ana"), Handshake(ANA, "Ana2", initiator=False))


def test_messages_out_of_order_are_refused():
    b = Handshake(BOB, "Bob", initiator=False)
    assert b.opening() is None
    with pytest.raises(HandshakeError, match="Noise message 1 must be a 32-byte key"):
        b.receive(bytes(80))
    a = Handshake(ANA, "Ana")
    with pytest.raises(HandshakeError, match="the initiator speaks first"):
        a.receive(bytes(32))
    with pytest.raises(HandshakeError, match="expected join or resume, got 'id'"):
        decode(encode("id", v=NET_VERSION, key=BOB.public, name="B", sig=bytes(64)), "join", "resume")
    a, b = Handshake(ANA, "Ana"), Handshake(BOB, "Bob", initiator=False)
    exchange(a, b)
    with pytest.raises(HandshakeError, match="already done"):
        a.receive(bytes(32))


def test_a_failed_handshake_stays_failed():
    a = Handshake(ANA, "Ana")
    a.opening()
    with pytest.raises(HandshakeError) as first:
        a.receive(bytes(100))
    with pytest.raises(HandshakeError) as again:
        a.receive(Handshake(BOB, "Bob", initiator=False).receive(Handshake(ANA, "x").opening()))
    assert str(first.value) == str(again.value)


def test_names_are_made_printable():
    peer = raw_noise(initiator=False)
    a = Handshake(ANA, "Ana")
    peer.read_message(a.opening())
    payload = encode("id", v=NET_VERSION, key=BOB.public, name="B\x1b[2J\nob" + "x" * 200,
                     sig=BOB.sign(STATIC_DOMAIN, static_of(peer)))
    a.receive(bytes(peer.write_message(payload)))
    assert a.peer.name.startswith("B [2J ob") and len(a.peer.name) <= 64


def test_extra_fields_are_refused():
    peer = raw_noise(initiator=True)
    b = Handshake(BOB, "Bob", initiator=False)
    peer.read_message(b.receive(bytes(peer.write_message(b""))))
    raw = wire.pack({"t": "id", "v": NET_VERSION, "key": ANA.public, "name": "A",
                     "sig": ANA.sign(STATIC_DOMAIN, static_of(peer)), "x": 1})
    with pytest.raises(HandshakeError, match="unknown field 'x'"):
        b.receive(bytes(peer.write_message(raw)))


def test_a_small_order_ephemeral_key_is_a_handshake_error():
    with pytest.raises(HandshakeError, match="cannot write Noise message 2"):
        Handshake(BOB, "Bob", initiator=False).receive(bytes(32))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400), st.sampled_from([1, 2, 3]))
def test_garbage_is_a_handshake_error(raw, step):
    a, b = Handshake(ANA, "Ana"), Handshake(BOB, "Bob", initiator=False)
    try:
        if step == 1:
            b.receive(raw)
        elif step == 2:
            a.opening()
            a.receive(raw)
        else:
            b.receive(a.opening())
            b.receive(raw)
    except HandshakeError as e:
        assert "\n" not in str(e)
    else:
        assert step == 1 and len(raw) == 32, "random bytes passed as a Noise message"
