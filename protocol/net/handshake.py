"""Who is on the other end of a link: Noise XX bound to the identity keys, sans-IO.

TXT records and addresses are hints; this is where identity is proven and
the link's keys are agreed. The pattern is ``Noise_XX_25519_ChaChaPoly_SHA256``
(the ``noiseprotocol`` package) with the connection preface as prologue::

    -> e                                  (initiator: the side that connected)
    <- e, ee, s, es + payload
    -> s, se + payload

Each side's Noise static key is a fresh X25519 key made for this link only.
What ties it to a Lanterne identity is the payload (encrypted by Noise, so
a passive listener sees neither side's identity): canonical msgpack
``{t: "id", v, key, name, sig}``, ``key`` the 32-byte Ed25519 identity key
and ``sig`` its signature over ``"lanterne/noise-static/v1" || the Noise
static public key`` (libp2p's identity binding). The receiver checks the
signature against the static key the handshake itself authenticated, so an
identity cannot be claimed over somebody else's Noise keys: a relay that
runs Noise with each side holds neither identity key, and a relay that uses
its own identity is just a stranger with another key (``expect`` and the
safety code catch it).

The initiator checks the responder's identity (``expect``) before it sends
its own, so a joiner that expects a key shows its identity to nobody else.

Then the joiner says what it wants (``join`` a table or ``resume`` a game,
with how many log entries it holds) and the host answers ``accept`` (with
how many it holds: each side then sends what the other lacks) or
``decline``; those travel inside the link's records (:mod:`.framing`).
Every message is canonical msgpack checked against its schema
(:mod:`protocol.wire`); anything else is a :class:`HandshakeError` with a
one-line reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from noise.connection import Keypair, NoiseConnection
from noise import exceptions as noise_errors

from lanterne.protocol import identity as ids
from lanterne.protocol import wire

from .framing import NOISE_MAX, PREFACE, Cipher

NET_VERSION = 2
"""2: Noise XX and encrypted records (1 was a plaintext key proof)."""
NOISE_PROTOCOL = b"Noise_XX_25519_ChaChaPoly_SHA256"
STATIC_DOMAIN = b"lanterne/noise-static/v1"
"""The identity key signs this || the link's Noise static public key."""
MAX_NAME = 64
MAX_PAYLOAD = 1024
"""Largest identity payload (a name of 64 characters fits many times over)."""

SCHEMAS: dict[str, dict] = {
    "id": {"t": "str", "v": "uint", "key": "bytes32", "name": "str", "sig": "bytes64"},
    "join": {"t": "str", "game": "str", "variant": "str", "players": "uint", "port?": "uint"},
    "resume": {"t": "str", "game_id": "bytes", "have": "uint", "port?": "uint"},
    "watch": {"t": "str", "have": "uint"},
    "accept": {"t": "str", "note": "str", "have": "uint"},
    "decline": {"t": "str", "reason": "str"},
    # every table (protocol/net/peer.py): once every seat is taken the host tells
    # each guest who sits where and where they listen (addresses are hints;
    # every mesh link proves its key again).
    "roster": {"t": "str", "table": "bytes32", "keys": ["list", "bytes32", 16], "names": ["list", "str", 16],
               "addrs": ["list", "str", 16], "ports": ["list", "uint", 16], "claim_ms?": "uint", "move_ms?": "uint"},
}

_NOISE_ERRORS = (InvalidTag, ValueError, TypeError, IndexError, KeyError, AttributeError,
                 noise_errors.NoiseValueError, noise_errors.NoiseHandshakeError, noise_errors.NoiseInvalidMessage,
                 noise_errors.NoiseMaxNonceError, noise_errors.NoiseValidationError)


class HandshakeError(wire.ProtocolError):
    """The peer failed to prove who it is, or broke the handshake; one line."""


@dataclass(frozen=True)
class PeerIdentity:
    """A peer whose key was proven on this link."""

    key: bytes
    name: str

    @property
    def fingerprint(self) -> str:
        return ids.fingerprint(self.key)


def encode(kind: str, **fields: Any) -> bytes:
    msg = {"t": kind, **fields}
    wire.check(SCHEMAS[kind], msg, kind)
    return wire.pack(msg)


def decode(payload: bytes, *expected: str) -> dict:
    """One handshake message of one of the ``expected`` kinds, schema-checked; its text (a reason, names)
    made :func:`~protocol.wire.printable`, as the other side's words are shown."""
    try:
        msg = wire.unpack(payload, max_size=4096)
    except wire.WireError as e:
        raise HandshakeError(f"handshake: {e}") from None
    kind = msg.get("t") if isinstance(msg, dict) else None
    if kind not in expected:
        raise HandshakeError(f"handshake: expected {' or '.join(expected)}, got {kind!r}"[:200])
    try:
        wire.check(SCHEMAS[kind], msg, kind)
    except wire.SchemaError as e:
        raise HandshakeError(f"handshake: {e}") from None
    for field, value in msg.items():
        if isinstance(value, str):
            msg[field] = wire.printable(value)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            msg[field] = [wire.printable(v) for v in value]
    return msg


def clean_name(name: str) -> str:
    """A display name safe to print (:func:`~protocol.wire.printable`), at most MAX_NAME."""
    return wire.printable(name)[:MAX_NAME].strip() or "?"


def identity_payload(me: ids.Identity, name: str, static_public: bytes) -> bytes:
    """What a side says about itself inside the Noise handshake (bound to its static key by ``sig``)."""
    return encode("id", v=NET_VERSION, key=me.public, name=name, sig=me.sign(STATIC_DOMAIN, static_public))


class Handshake:
    """One side of Noise XX with identity binding. Bytes in, bytes out; no I/O.

    The initiator (the side that connected) sends :meth:`opening` (Noise
    message 1); each side then feeds the peer's messages to :meth:`receive`,
    which returns the next message to send (None when there is none). When
    :attr:`done`, :attr:`peer` is the proven identity and
    :attr:`send_cipher` / :attr:`recv_cipher` are the link's two Noise
    cipher states (:class:`.framing.Sealer` / :class:`.framing.Opener`).

    ``expect``: the key we mean to reach (from a saved game or a fingerprint
    heard on the LAN); another key is an error. ``expect_fingerprint`` does
    the same with a fingerprint. ``static``: the 32 private bytes of the
    Noise static key (default: a fresh one for this link).
    """

    def __init__(self, me: ids.Identity, name: str, expect: bytes | None = None,
                 expect_fingerprint: str | None = None, *, initiator: bool = True,
                 static: bytes | None = None, prologue: bytes = PREFACE):
        self.me = me
        self.name = clean_name(name)
        self.expect = expect
        self.expect_fingerprint = expect_fingerprint
        self.initiator = initiator
        self.peer: PeerIdentity | None = None
        self.done = False
        self._ciphers: tuple[Cipher, Cipher] | None = None
        self.handshake_hash: bytes = b""
        self._failed: HandshakeError | None = None
        private = static if static is not None else X25519PrivateKey.generate().private_bytes_raw()
        self._noise = NoiseConnection.from_name(NOISE_PROTOCOL)
        self._noise.set_keypair_from_private_bytes(Keypair.STATIC, private)
        self._noise.set_prologue(prologue)
        if initiator:
            self._noise.set_as_initiator()
        else:
            self._noise.set_as_responder()
        self._noise.start_handshake()
        # noiseprotocol drops its handshake state once the last message is read; keep our own reference
        # to read the remote static key it authenticated (``rs``) after that
        self._state = self._noise.noise_protocol.handshake_state
        self.static_public: bytes = self._state.s.public_bytes
        self._step = 0     # messages done so far (1, 2, 3)
        self._opened = False

    # -- the three messages
    def opening(self) -> bytes | None:
        """Our first message: Noise message 1 for the initiator, nothing for the responder."""
        if not self.initiator:
            return None
        if self._opened:
            raise HandshakeError("handshake: already opened")
        self._opened = True
        self._step = 1
        return bytes(self._noise.write_message(b""))

    def receive(self, message: bytes) -> bytes | None:
        """Feed the peer's next Noise message; returns our answer (None once done)."""
        if self._failed is not None:
            raise self._failed
        if self.done:
            raise HandshakeError("handshake: already done")
        try:
            return self._receive(bytes(message))
        except HandshakeError as e:
            self._failed = e
            raise

    def _receive(self, message: bytes) -> bytes | None:
        if len(message) > NOISE_MAX:
            raise HandshakeError(f"handshake: a Noise message of {len(message)} bytes (at most {NOISE_MAX})")
        if self.initiator:
            if not self._opened:
                raise HandshakeError("handshake: the initiator speaks first")
            payload = self._read(message, 2)           # <- e, ee, s, es + the responder's identity
            self._check_identity(payload)
            answer = self._write(identity_payload(self.me, self.name, self.static_public), 3)
            self._finish()
            return answer
        if self._step == 0:                             # -> e
            if len(message) != 32:
                raise HandshakeError(f"handshake: Noise message 1 must be a 32-byte key, got {len(message)} bytes")
            self._read(message, 1)
            return self._write(identity_payload(self.me, self.name, self.static_public), 2)
        payload = self._read(message, 3)               # -> s, se + the initiator's identity
        self._check_identity(payload)
        self._finish()
        return None

    def _read(self, message: bytes, number: int) -> bytes:
        try:
            payload = bytes(self._noise.read_message(message))
        except _NOISE_ERRORS:
            raise HandshakeError(f"handshake: Noise message {number} does not open (not from the key exchange "
                                 f"under way, or altered)") from None
        self._step = number
        return payload

    def _write(self, payload: bytes, number: int) -> bytes:
        try:
            message = bytes(self._noise.write_message(payload))
        except _NOISE_ERRORS:       # e.g. a peer's ephemeral key of small order: no shared secret
            raise HandshakeError(f"handshake: cannot write Noise message {number} (the peer's key is "
                                 f"unusable)") from None
        self._step = number
        return message

    def _finish(self) -> None:
        protocol = self._noise.noise_protocol
        self._ciphers = (protocol.cipher_state_encrypt, protocol.cipher_state_decrypt)
        self.handshake_hash = bytes(protocol.handshake_hash)
        self.done = True

    def _check_identity(self, payload: bytes) -> None:
        if len(payload) > MAX_PAYLOAD:
            raise HandshakeError(f"handshake: an identity of {len(payload)} bytes (at most {MAX_PAYLOAD})")
        msg = decode(payload, "id")
        if msg["v"] != NET_VERSION:
            raise HandshakeError(f"handshake: peer speaks network version {msg['v']}, we speak {NET_VERSION}")
        key = msg["key"]
        if key == self.me.public:
            raise HandshakeError("handshake: the peer uses our own key")
        if self.expect is not None and key != self.expect:
            raise HandshakeError(f"handshake: expected key {ids.fingerprint(self.expect)}, "
                                 f"the peer has {ids.fingerprint(key)}")
        if self.expect_fingerprint is not None and ids.fingerprint(key) != self.expect_fingerprint:
            raise HandshakeError(f"handshake: expected key {self.expect_fingerprint}, "
                                 f"the peer has {ids.fingerprint(key)}")
        remote_static = self._state.rs.public_bytes      # the static key this handshake authenticated
        if not ids.verify(key, msg["sig"], STATIC_DOMAIN, remote_static):
            raise HandshakeError(f"handshake: {ids.fingerprint(key)} failed to prove its key "
                                 f"(its signature does not cover this link's Noise key)")
        self.peer = PeerIdentity(key, clean_name(msg["name"]))

    @property
    def send_cipher(self) -> Cipher:
        """The Noise cipher state we send with (a :class:`.framing.Sealer`'s), once :attr:`done`."""
        return self._keys()[0]

    @property
    def recv_cipher(self) -> Cipher:
        """The Noise cipher state we receive with (an :class:`.framing.Opener`'s), once :attr:`done`."""
        return self._keys()[1]

    def _keys(self) -> tuple[Cipher, Cipher]:
        if self._ciphers is None:
            raise HandshakeError("handshake: not done, so there are no link keys yet")
        return self._ciphers

    @property
    def remote_static(self) -> bytes | None:
        """The peer's Noise static public key, once the handshake authenticated it."""
        rs = getattr(self._state, "rs", None)
        return getattr(rs, "public_bytes", None)

    @property
    def safety_code(self) -> str:
        if self.peer is None:
            raise HandshakeError("handshake: no peer yet")
        return ids.safety_code(self.me.public, self.peer.key)


def run_locally(initiator: Handshake, responder: Handshake) -> tuple[bytes, bytes, bytes]:
    """Both sides of one handshake in this process (benchmarks, fuzzing): its three Noise messages."""
    m1 = initiator.opening()
    m2 = responder.receive(m1) if m1 is not None else None
    m3 = initiator.receive(m2) if m2 is not None else None
    if m1 is None or m2 is None or m3 is None:
        raise HandshakeError("handshake: run locally needs an initiator and a responder")
    responder.receive(m3)
    return m1, m2, m3
