"""Who is on the other end of a link: a mutual key proof, sans-IO.

TXT records and addresses are hints; this is where identity is proven. Both
sides send ``hello`` (protocol version, public key, display name, a fresh
32-byte nonce), then ``auth``: an Ed25519 signature over

    "lanterne/net-auth/v1" || peer's nonce || peer's key || own key

so each side proves it holds its key *now* (the peer chose the nonce) and
for *this* pair of keys (a signature cannot be relayed to a third party).
Then the joiner says what it wants (``join`` a table or ``resume`` a game,
with how many log entries it holds) and the host answers ``accept`` (with
how many it holds: each side then sends what the other lacks) or
``decline``. Every message is canonical
msgpack checked against its schema (:mod:`protocol.wire`); anything else is
a :class:`HandshakeError` with a one-line reason.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from protocol import identity as ids
from protocol import wire

NET_VERSION = 1
AUTH_DOMAIN = b"lanterne/net-auth/v1"
MAX_NAME = 64

SCHEMAS: dict[str, dict] = {
    "hello": {"t": "str", "v": "uint", "key": "bytes32", "name": "str", "nonce": "bytes32"},
    "auth": {"t": "str", "sig": "bytes64"},
    "join": {"t": "str", "game": "str", "variant": "str", "players": "uint", "port?": "uint"},
    "resume": {"t": "str", "game_id": "bytes", "have": "uint", "port?": "uint"},
    "accept": {"t": "str", "note": "str", "have": "uint"},
    "decline": {"t": "str", "reason": "str"},
    # every table (protocol/net/peer.py): once every seat is taken the host tells
    # each guest who sits where and where they listen (addresses are hints;
    # every mesh link proves its key again).
    "roster": {"t": "str", "table": "bytes32", "keys": ["list", "bytes32", 16], "names": ["list", "str", 16],
               "addrs": ["list", "str", 16], "ports": ["list", "uint", 16]},
}


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
    """One handshake message of one of the ``expected`` kinds, schema-checked."""
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
    return msg


def clean_name(name: str) -> str:
    """A display name safe to print: printable characters, at most MAX_NAME."""
    return "".join(c for c in name if c.isprintable())[:MAX_NAME].strip() or "?"


class Handshake:
    """One side of the key proof. Send :meth:`opening`, then feed what comes.

    ``expect``: the key we mean to reach (from a saved game or a fingerprint
    heard on the LAN); another key is an error. ``expect_fingerprint`` does
    the same with a fingerprint.
    """

    def __init__(self, me: ids.Identity, name: str, expect: bytes | None = None,
                 expect_fingerprint: str | None = None, nonce: bytes | None = None):
        self.me = me
        self.name = clean_name(name)
        self.expect = expect
        self.expect_fingerprint = expect_fingerprint
        self.nonce = nonce or os.urandom(32)
        self.peer: PeerIdentity | None = None
        self._peer_nonce: bytes | None = None
        self.done = False

    def opening(self) -> bytes:
        return encode("hello", v=NET_VERSION, key=self.me.public, name=self.name, nonce=self.nonce)

    def receive(self, payload: bytes) -> bytes | None:
        """Feed the peer's next message; returns our answer (or None once done)."""
        if self.done:
            raise HandshakeError("handshake: already done")
        if self.peer is None:
            msg = decode(payload, "hello")
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
            self.peer = PeerIdentity(key, clean_name(msg["name"]))
            self._peer_nonce = msg["nonce"]
            sig = self.me.sign(AUTH_DOMAIN, self._peer_nonce + key + self.me.public)
            return encode("auth", sig=sig)
        msg = decode(payload, "auth")
        if not ids.verify(self.peer.key, msg["sig"], AUTH_DOMAIN, self.nonce + self.me.public + self.peer.key):
            raise HandshakeError(f"handshake: {self.peer.fingerprint} failed to prove its key")
        self.done = True
        return None

    @property
    def safety_code(self) -> str:
        if self.peer is None:
            raise HandshakeError("handshake: no peer yet")
        return ids.safety_code(self.me.public, self.peer.key)
