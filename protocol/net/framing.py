"""Length-prefixed frames, sans-IO: bytes in, frames out (the h11 way).

A Lanterne TCP stream starts with an 8-byte preface (``PREFACE``) so that a
stray client (a browser, a port scanner) is told apart from a peer at once.
Then come frames::

    length: 4 bytes, big-endian, = 1 + len(payload)
    kind:   1 byte   (DATA, PING, PONG or CLOSE)
    payload

The decoder never buffers more than one maximum-size frame: a length above
``max_frame`` is an error before its bytes arrive. Every error is a
:class:`FrameError` with a one-line reason, and the decoder stays broken
after it (a stream that lied once is not trusted again).

Once the Noise handshake is done (:mod:`.handshake`), every frame of every
kind travels inside *records*: a frame of kind :data:`SEALED` whose payload
is one Noise transport message (at most 65535 bytes: ChaCha20-Poly1305 with
the link's cipher state, a 16-byte tag, the nonce counted on both sides).
The plaintext of a record is::

    kind:   1 byte, DATA, PING, PONG, CLOSE or CHAT, plus MORE (0x80) if the frame goes on in the next record
    chunk:  at most RECORD_CHUNK bytes of the frame's payload

A DATA payload longer than one record is cut into records, each but the
last with MORE set; the receiver delivers it only once the last record
opened. :class:`Sealer` and :class:`Opener` do this, sans-IO; a record that
does not open (injected, replayed, reordered, altered, cut) is a
:class:`FrameError` and the opener stays broken.
"""

from __future__ import annotations

import struct
from typing import Protocol
from dataclasses import dataclass

PREFACE = b"\x89LNT\r\n2\n"
"""First bytes of every connection, both ways (protocol family + framing version 2: Noise XX, then records).
It is also the Noise prologue, so both sides agree on it or the handshake fails."""
_PREFACE_FAMILY = PREFACE[:6]

DATA = 0
"""A session message (opaque bytes for this layer)."""
PING = 1
"""Keep-alive probe; the payload (at most CONTROL_MAX bytes) comes back in a PONG."""
PONG = 2
"""Answer to a PING, echoing its payload."""
CLOSE = 3
"""The sender is closing; the payload is a UTF-8 reason."""
SEALED = 4
"""A record: one Noise transport message holding (part of) a frame of any of the kinds above."""
CHAT = 5
"""A table chat message (:mod:`.chat`): only ever inside a record, one record, at most CHAT_MAX bytes.
Apart from DATA so that nothing of the game ever reads it (nor a spectator's player: chat is not "sending")."""

KINDS = {DATA: "data", PING: "ping", PONG: "pong", CLOSE: "close", SEALED: "sealed", CHAT: "chat"}
INNER_KINDS = (DATA, PING, PONG, CLOSE, CHAT)
MORE = 0x80
"""In a record's plaintext kind byte: the frame goes on in the next record (DATA only)."""
NOISE_MAX = 65535
"""Largest Noise message (the Noise specification's limit)."""
TAG = 16
"""Bytes the AEAD adds to each record."""
RECORD_CHUNK = NOISE_MAX - TAG - 1
"""Largest piece of a frame's payload in one record (65518 bytes)."""
RECORD_MAX_FRAME = 1 + NOISE_MAX
"""Largest frame on a secured link: the SEALED kind byte and one Noise message."""

DEFAULT_MAX_FRAME = (1 << 20) + 1
"""A kind byte plus the largest wire message (protocol.wire.MAX_MESSAGE, 1 MiB)."""
CONTROL_MAX = 125
"""Largest payload of a PING, PONG or CLOSE frame (as WebSocket control frames)."""
CHAT_MAX = 2048
"""Largest payload of a CHAT frame (a signed chat message of 200 characters fits with room to spare)."""


def payload_limit(kind: int) -> int:
    """The largest payload of a frame of ``kind`` that is not DATA or SEALED (those have their own limits)."""
    if kind in (DATA, SEALED):
        raise FrameError(f"a {KINDS[kind]} frame's limit is its link's, not its kind's")
    return CHAT_MAX if kind == CHAT else CONTROL_MAX

_HEADER = struct.Struct(">IB")
_LENGTH = struct.Struct(">I")


class FrameError(ValueError):
    """The byte stream is not valid Lanterne framing; the message says why."""


@dataclass(frozen=True)
class Frame:
    kind: int
    payload: bytes = b""

    def __repr__(self) -> str:
        return f"Frame({KINDS.get(self.kind, self.kind)}, {len(self.payload)} bytes)"


def encode_frame(kind: int, payload: bytes = b"", max_frame: int = DEFAULT_MAX_FRAME) -> bytes:
    """The bytes of one frame; refuses what a peer's decoder would refuse."""
    if kind not in KINDS:
        raise FrameError(f"unknown frame kind {kind}")
    if kind == SEALED:
        if len(payload) > NOISE_MAX:
            raise FrameError(f"record of {len(payload)} bytes exceeds {NOISE_MAX}")
    elif kind != DATA and len(payload) > payload_limit(kind):
        raise FrameError(f"{KINDS[kind]} payload of {len(payload)} bytes exceeds {payload_limit(kind)}")
    if 1 + len(payload) > max_frame:
        raise FrameError(f"frame of {1 + len(payload)} bytes exceeds the maximum of {max_frame}")
    return _HEADER.pack(1 + len(payload), kind) + payload


def close_payload(reason: str) -> bytes:
    """A CLOSE frame's payload: the reason in UTF-8, cut to fit (on a character boundary)."""
    raw = reason.encode("utf-8")
    while len(raw) > CONTROL_MAX:
        reason = reason[:-1]
        raw = reason.encode("utf-8")
    return raw


def encode_close(reason: str) -> bytes:
    """A plaintext CLOSE frame; the reason is cut to fit (on a character boundary)."""
    return encode_frame(CLOSE, close_payload(reason))


class FrameDecoder:
    """Feed it received bytes; it returns the complete frames, in order.

    ``expect_preface``: the stream must start with :data:`PREFACE` (True for
    a socket; tests of the frame format alone may turn it off).
    """

    def __init__(self, max_frame: int = DEFAULT_MAX_FRAME, expect_preface: bool = True):
        if max_frame < 1:
            raise ValueError("max_frame must be at least 1")
        self.max_frame = max_frame
        self._buf = bytearray()
        self._need_preface = expect_preface
        self._error: FrameError | None = None

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a complete frame."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[Frame]:
        if self._error is not None:
            raise self._error
        self._buf += data
        try:
            return self._drain()
        except FrameError as e:
            self._error = e
            self._buf.clear()
            raise

    def _drain(self) -> list[Frame]:
        frames: list[Frame] = []
        buf = self._buf
        if self._need_preface:
            n = min(len(buf), len(PREFACE))
            if buf[:n] != PREFACE[:n]:
                family = n > 6 and buf[:6] == _PREFACE_FAMILY       # a Lanterne of another framing version?
                if family and n < len(PREFACE):
                    return frames
                if family and buf[7] == 0x0A:
                    theirs = chr(buf[6]) if 0x21 <= buf[6] < 0x7F else f"0x{buf[6]:02x}"
                    raise FrameError(f"the peer speaks framing version {theirs}, we speak {chr(PREFACE[6])}: "
                                     f"both sides need the same Lanterne")
                raise FrameError("not a Lanterne peer (bad connection preface)")
            if n < len(PREFACE):
                return frames
            del buf[: len(PREFACE)]
            self._need_preface = False
        pos = 0
        while len(buf) - pos >= 4:
            (length,) = _LENGTH.unpack_from(buf, pos)
            if length == 0:
                raise FrameError("frame of length 0 (no kind byte)")
            if length > self.max_frame:
                raise FrameError(f"frame of {length} bytes exceeds the maximum of {self.max_frame}")
            if len(buf) - pos < 5:
                break
            kind = buf[pos + 4]
            if kind not in KINDS:
                raise FrameError(f"unknown frame kind {kind}")
            if kind == SEALED:
                if length - 1 > NOISE_MAX:
                    raise FrameError(f"record of {length - 1} bytes exceeds {NOISE_MAX}")
            elif kind != DATA and length - 1 > payload_limit(kind):
                raise FrameError(f"{KINDS[kind]} frame of {length - 1} bytes exceeds {payload_limit(kind)}")
            end = pos + 4 + length
            if len(buf) < end:
                break
            frames.append(Frame(kind, bytes(buf[pos + 5:end])))
            pos = end
        del buf[:pos]
        return frames


class Cipher(Protocol):  # the part of noise.state.CipherState used here (for the type checker's eyes only)
    def encrypt_with_ad(self, _ad: bytes | None, _plaintext: bytes, /) -> bytes: ...
    def decrypt_with_ad(self, _ad: bytes | None, _ciphertext: bytes, /) -> bytes: ...


class Sealer:
    """Frames into records with one direction's cipher state (sans-IO: frames in, wire bytes out).

    Each call encrypts with the next nonces, so the bytes must be written in
    the order they were made, and none dropped.
    """

    def __init__(self, cipher: Cipher, max_frame: int = DEFAULT_MAX_FRAME):
        self._cipher = cipher
        self.max_frame = max_frame

    def seal(self, kind: int, payload: bytes = b"") -> bytes:
        """The wire bytes of one frame of ``kind`` (one or more SEALED frames)."""
        if kind not in INNER_KINDS:
            raise FrameError(f"cannot seal a frame of kind {kind}")
        if kind != DATA and len(payload) > payload_limit(kind):
            raise FrameError(f"{KINDS[kind]} payload of {len(payload)} bytes exceeds {payload_limit(kind)}")
        if 1 + len(payload) > self.max_frame:
            raise FrameError(f"frame of {1 + len(payload)} bytes exceeds the maximum of {self.max_frame}")
        out = []
        view = memoryview(payload)
        pos = 0
        while True:
            chunk = view[pos:pos + RECORD_CHUNK]
            pos += len(chunk)
            more = pos < len(payload)
            record = self._cipher.encrypt_with_ad(None, bytes([kind | (MORE if more else 0)]) + chunk)
            out.append(_HEADER.pack(1 + len(record), SEALED))
            out.append(record)
            if not more:
                return b"".join(out)


class Opener:
    """Records back into frames with the other direction's cipher state (sans-IO).

    :meth:`open` takes one SEALED frame's payload and returns the frame it
    completes, or None while a DATA frame continues in later records. Any
    record that does not decrypt under the next nonce (injected, replayed,
    reordered, altered, cut), a bad kind byte, a control frame that is too
    long or split, or a DATA frame over ``max_frame`` is a FrameError; the
    opener stays broken after it and nothing of the frame under way is
    delivered.
    """

    def __init__(self, cipher: Cipher, max_frame: int = DEFAULT_MAX_FRAME):
        self._cipher = cipher
        self.max_frame = max_frame
        self._parts: list[bytes] = []
        self._size = 0
        self._error: FrameError | None = None
        self.opened = 0
        """Records opened so far."""

    def open(self, record: bytes) -> Frame | None:
        if self._error is not None:
            raise self._error
        try:
            return self._open(record)
        except FrameError as e:
            self._error = e
            self._parts.clear()
            raise

    def _open(self, record: bytes) -> Frame | None:
        if len(record) > NOISE_MAX:
            raise FrameError(f"record of {len(record)} bytes exceeds {NOISE_MAX}")
        try:
            plain = self._cipher.decrypt_with_ad(None, record)
        except Exception:   # InvalidTag from cryptography, a worn-out nonce from noise: all the same to us
            raise FrameError(f"record {self.opened + 1} does not decrypt (injected, replayed, reordered "
                             f"or altered)") from None
        self.opened += 1
        if not plain:
            raise FrameError(f"record {self.opened} holds no kind byte")
        kind, more = plain[0] & ~MORE, bool(plain[0] & MORE)
        if kind not in INNER_KINDS:
            raise FrameError(f"record {self.opened} holds an unknown frame kind {plain[0]}")
        if self._parts and kind != DATA:
            raise FrameError(f"record {self.opened}: a {KINDS[kind]} frame inside a split data frame")
        if kind != DATA:
            if more:
                raise FrameError(f"record {self.opened}: a {KINDS[kind]} frame cannot be split")
            if len(plain) - 1 > payload_limit(kind):
                raise FrameError(f"{KINDS[kind]} frame of {len(plain) - 1} bytes exceeds {payload_limit(kind)}")
            return Frame(kind, bytes(plain[1:]))
        self._size += len(plain) - 1
        if 1 + self._size > self.max_frame:
            raise FrameError(f"frame of {1 + self._size} bytes exceeds the maximum of {self.max_frame}")
        self._parts.append(plain[1:])
        if more:
            return None
        payload = b"".join(self._parts)
        self._parts.clear()
        self._size = 0
        return Frame(DATA, payload)

    @property
    def pending(self) -> bool:
        """A DATA frame is under way (some of its records came, not the last)."""
        return bool(self._parts)

    @property
    def buffered(self) -> int:
        """Bytes of the DATA frame under way held so far (at most ``max_frame``)."""
        return self._size
