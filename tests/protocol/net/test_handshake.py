"""The mutual key proof on a link, sans-IO: honest pairs agree, impostors and garbage are refused."""

import pytest
from hypothesis import given, settings, strategies as st

from protocol import wire
from protocol.identity import Identity, fingerprint, safety_code
from protocol.net.handshake import AUTH_DOMAIN, Handshake, HandshakeError, decode, encode


def exchange(a: Handshake, b: Handshake) -> None:
    a_auth = a.receive(b.opening())
    b_auth = b.receive(a.opening())
    assert a.receive(b_auth) is None and b.receive(a_auth) is None


ANA, BOB, EVE = (Identity.from_seed(s) for s in (b"ana", b"bob", b"eve"))


def test_honest_peers_learn_each_other_and_agree_on_the_safety_code():
    a, b = Handshake(ANA, "Ana"), Handshake(BOB, "Bob")
    exchange(a, b)
    assert a.done and b.done
    assert (a.peer.key, a.peer.name) == (BOB.public, "Bob")
    assert (b.peer.key, b.peer.name) == (ANA.public, "Ana")
    assert a.safety_code == b.safety_code == safety_code(ANA.public, BOB.public)
    assert a.peer.fingerprint == fingerprint(BOB.public)


def test_the_expected_key_is_enforced():
    a, e = Handshake(ANA, "Ana", expect=BOB.public), Handshake(EVE, "Bob")
    with pytest.raises(HandshakeError, match=f"expected key {fingerprint(BOB.public)}, the peer has"):
        a.receive(e.opening())
    a = Handshake(ANA, "Ana", expect_fingerprint=fingerprint(BOB.public))
    with pytest.raises(HandshakeError, match="expected key"):
        a.receive(Handshake(EVE, "Bob").opening())


def test_an_impostor_claiming_a_key_it_does_not_hold_fails_the_proof():
    """Eve sends Bob's public key in her hello but can only sign with her own."""
    a = Handshake(ANA, "Ana")
    hello = encode("hello", v=1, key=BOB.public, name="Bob", nonce=b"\x01" * 32)
    a.receive(hello)
    forged = encode("auth", sig=EVE.sign(AUTH_DOMAIN, a.nonce + ANA.public + BOB.public))
    with pytest.raises(HandshakeError, match="failed to prove its key"):
        a.receive(forged)
    assert not a.done


def test_a_relayed_signature_from_another_link_is_refused():
    """Eve relays Bob's auth from Bob's link with Ana (other nonce) into a new link."""
    a1, b1 = Handshake(ANA, "Ana"), Handshake(BOB, "Bob")
    a1.receive(b1.opening())
    bob_auth = b1.receive(a1.opening())
    a2 = Handshake(ANA, "Ana")
    a2.receive(encode("hello", v=1, key=BOB.public, name="Bob", nonce=b1.nonce))
    with pytest.raises(HandshakeError, match="failed to prove"):
        a2.receive(bob_auth)


def test_version_mismatch_and_own_key_are_refused():
    a = Handshake(ANA, "Ana")
    with pytest.raises(HandshakeError, match="network version 9"):
        a.receive(encode("hello", v=9, key=BOB.public, name="B", nonce=bytes(32)))
    with pytest.raises(HandshakeError, match="our own key"):
        Handshake(ANA, "Ana").receive(Handshake(ANA, "Ana2").opening())


def test_messages_out_of_order_are_refused():
    a = Handshake(ANA, "Ana")
    with pytest.raises(HandshakeError, match="expected hello, got 'auth'"):
        a.receive(encode("auth", sig=bytes(64)))
    with pytest.raises(HandshakeError, match="expected join or resume, got 'hello'"):
        decode(Handshake(BOB, "B").opening(), "join", "resume")


def test_names_are_made_printable():
    a = Handshake(ANA, "Ana")
    a.receive(encode("hello", v=1, key=BOB.public, name="B\x1b[2J\nob" + "x" * 200, nonce=bytes(32)))
    assert a.peer.name.startswith("B[2Job") and len(a.peer.name) <= 64


def test_extra_fields_are_refused():
    raw = wire.pack({"t": "hello", "v": 1, "key": BOB.public, "name": "B", "nonce": bytes(32), "x": 1})
    with pytest.raises(HandshakeError, match="unknown field 'x'"):
        Handshake(ANA, "Ana").receive(raw)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_garbage_is_a_handshake_error(raw):
    a = Handshake(ANA, "Ana")
    try:
        a.receive(raw)
    except HandshakeError as e:
        assert "\n" not in str(e)
    else:
        raise AssertionError("random bytes passed as a hello")
