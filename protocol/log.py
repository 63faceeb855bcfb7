"""Signed, hash-chained envelopes and the append-only log file of a game.

An *entry* is one envelope: a canonical msgpack map

    {author, body, game, kind, prev, seq, sig, v}

signed by ``author`` (a raw 32-byte Ed25519 key) over ``"lanterne/envelope/v1"``
followed by the canonical encoding of the same map without ``sig``. The hash
of an entry is SHA-256 of its exact bytes; the next entry's ``prev`` is that
hash (the first entry's ``prev`` is 32 zero bytes). We hash and check the
bytes we received: the unsigned bytes are cut out of them, never re-encoded.

A log file is the magic line ``LANTERNE-LOG 1\\n`` and then, per entry, its
length as 4 big-endian bytes and its bytes. Each append is fsynced before the
entry is sent; a file cut off in the middle of an entry keeps every entry
before the cut (:func:`read_log` reports the cut).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from lanterne.protocol import identity as ids
from lanterne.protocol.wire import ProtocolError, WireError, check, pack, unpack, unpack_own

VERSION = 1
ENVELOPE_DOMAIN = b"lanterne/envelope/v1"
FIRST_PREV = bytes(32)
MAGIC = b"LANTERNE-LOG 1\n"
MAX_ENTRY = 1 << 20

ENVELOPE_SCHEMA = {"v": "uint", "game": "bytes", "seq": "uint", "prev": "bytes32", "author": "bytes32",
                   "kind": "str", "body": "any", "sig": "bytes64"}


class SignatureError(ProtocolError):
    """An envelope whose signature is not its author's."""


@dataclass(frozen=True)
class Entry:
    """One signed envelope, with the exact bytes it was read from."""

    raw: bytes
    v: int
    game: bytes
    seq: int
    prev: bytes
    author: bytes
    kind: str
    body: Any
    sig: bytes
    hash: bytes = field(repr=False)

    def describe(self) -> str:
        return f"entry {self.seq} ({self.kind}) by {ids.fingerprint(self.author)}"


def entry_hash(raw: bytes) -> bytes:
    return hashlib.sha256(raw).digest()


def _key(name: str) -> bytes:
    return msgpack.packb(name)


_AUTHOR, _BODY, _GAME, _KIND, _PREV, _SEQ, _SIG = map(_key, ("author", "body", "game", "kind", "prev", "seq", "sig"))
_VERSION_PAIR = _key("v") + msgpack.packb(VERSION)
"""The envelope's last pair: ``v`` sorts after every other key, and ``sig`` comes right before it."""
_SIG_PAIR = len(_SIG) + 2 + 64
"""The bytes of the ``sig`` pair: its key, a bin 8 header and the 64 bytes."""


def seal(identity: ids.Identity, *, game: bytes, seq: int, prev: bytes, kind: str, body: Any) -> Entry:
    """A new entry authored and signed by ``identity``.

    The body is packed once; the envelope is laid out around it in its canonical order (the keys sorted,
    each value as :func:`pack` encodes it), and the signed entry is those bytes with the ``sig`` pair put in
    before ``v``: the bytes ``pack`` gives for the same maps, without packing the body three times.
    """
    body_bytes = pack(body)
    unsigned = b"".join((b"\x87", _AUTHOR, msgpack.packb(identity.public), _BODY, body_bytes,
                         _GAME, msgpack.packb(game), _KIND, msgpack.packb(kind), _PREV, msgpack.packb(prev),
                         _SEQ, msgpack.packb(seq), _VERSION_PAIR))
    if len(unsigned) + _SIG_PAIR > MAX_ENTRY:
        raise WireError(f"an entry of {len(unsigned) + _SIG_PAIR} bytes is over the {MAX_ENTRY}-byte limit")
    sig = identity.sign(ENVELOPE_DOMAIN, unsigned)
    raw = b"".join((b"\x88", unsigned[1:-len(_VERSION_PAIR)], _SIG, msgpack.packb(sig), _VERSION_PAIR))
    return Entry(raw, VERSION, game, seq, prev, identity.public, kind, unpack_own(body_bytes), sig, entry_hash(raw))


def open_entry(raw: bytes) -> Entry:
    """Decode and check an entry's form and signature (not its place in a chain).

    Raises WireError, SchemaError or SignatureError with a one-line reason.
    """
    value = unpack(raw, MAX_ENTRY)
    check(ENVELOPE_SCHEMA, value, "envelope")
    if value["v"] != VERSION:
        raise WireError(f"protocol version {value['v']} is not {VERSION}")
    unsigned = _without_sig(raw, value["sig"])
    if not ids.verify(value["author"], value["sig"], ENVELOPE_DOMAIN, unsigned):
        raise SignatureError(f"entry {value['seq']} ({value['kind']}): the signature is not its author's")
    return Entry(bytes(raw), value["v"], value["game"], value["seq"], value["prev"], value["author"],
                 value["kind"], value["body"], value["sig"], entry_hash(raw))


def _without_sig(raw: bytes, sig: bytes) -> bytes:
    """The canonical bytes of the envelope minus its ``sig`` pair, cut from ``raw``.

    ``raw`` was checked canonical, with exactly the envelope's 8 fields and ``v`` the version: a one-byte
    fixmap header (0x88), the keys sorted, so its last two pairs are ``sig`` and ``v``. The unsigned form has
    header 0x87 and every pair but ``sig``, unchanged.
    """
    end = len(raw) - len(_VERSION_PAIR)
    start = end - _SIG_PAIR
    if raw[:1] != b"\x88" or raw[start:end] != _SIG + msgpack.packb(sig) or raw[end:] != _VERSION_PAIR:
        raise WireError("an envelope must be the canonical map of its 8 fields")
    return b"\x87" + raw[1:start] + raw[end:]


# --------------------------------------------------------------------------
# Log files


class LogWriter:
    """An append-only log file; every append is flushed and fsynced before returning."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        self._file: BinaryIO = open(self.path, "ab")
        if fresh:
            self._write(MAGIC)

    def append(self, raw: bytes) -> None:
        self._write(len(raw).to_bytes(4, "big") + raw)

    def retract(self, raw: bytes) -> None:
        """Take back the last entry, ``raw`` (a claim that lost its race: see protocol.session.claims); nothing
        if the file does not end with it."""
        record = len(raw).to_bytes(4, "big") + raw
        self._file.flush()
        size = os.fstat(self._file.fileno()).st_size
        if size < len(MAGIC) + len(record):
            return
        with open(self.path, "rb") as f:
            f.seek(size - len(record))
            if f.read(len(record)) != record:
                return
        self._file.truncate(size - len(record))
        os.fsync(self._file.fileno())

    def _write(self, data: bytes) -> None:
        self._file.write(data)
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> "LogWriter":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class LogFormatError(Exception):
    """A file that is not a Lanterne log at all."""


def parse_log(data: bytes) -> tuple[list[bytes], int]:
    """The complete entries of a log file's bytes, and how many bytes trail after them."""
    if not data.startswith(MAGIC):
        raise LogFormatError("not a Lanterne log (bad magic line)")
    pos, out = len(MAGIC), []
    while pos + 4 <= len(data):
        size = int.from_bytes(data[pos:pos + 4], "big")
        if size > MAX_ENTRY or pos + 4 + size > len(data):
            break
        out.append(data[pos + 4:pos + 4 + size])
        pos += 4 + size
    return out, len(data) - pos


def read_log(path: Path | str) -> tuple[list[bytes], int]:
    """The complete entries of a log file, and how many bytes trail after them (a cut)."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise LogFormatError(f"cannot read {path}: {e.strerror or e}") from None
    return parse_log(data)
