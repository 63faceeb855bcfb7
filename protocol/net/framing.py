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
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

PREFACE = b"\x89LNT\r\n1\n"
"""First bytes of every connection, both ways (protocol family + framing version 1)."""

DATA = 0
"""A session message (opaque bytes for this layer)."""
PING = 1
"""Keep-alive probe; the payload (at most CONTROL_MAX bytes) comes back in a PONG."""
PONG = 2
"""Answer to a PING, echoing its payload."""
CLOSE = 3
"""The sender is closing; the payload is a UTF-8 reason."""

KINDS = {DATA: "data", PING: "ping", PONG: "pong", CLOSE: "close"}

DEFAULT_MAX_FRAME = (1 << 20) + 1
"""A kind byte plus the largest wire message (protocol.wire.MAX_MESSAGE, 1 MiB)."""
CONTROL_MAX = 125
"""Largest payload of a PING, PONG or CLOSE frame (as WebSocket control frames)."""

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
    if kind != DATA and len(payload) > CONTROL_MAX:
        raise FrameError(f"{KINDS[kind]} payload of {len(payload)} bytes exceeds {CONTROL_MAX}")
    if 1 + len(payload) > max_frame:
        raise FrameError(f"frame of {1 + len(payload)} bytes exceeds the maximum of {max_frame}")
    return _HEADER.pack(1 + len(payload), kind) + payload


def encode_close(reason: str) -> bytes:
    """A CLOSE frame; the reason is cut to fit (on a character boundary)."""
    raw = reason.encode("utf-8")
    while len(raw) > CONTROL_MAX:
        reason = reason[:-1]
        raw = reason.encode("utf-8")
    return encode_frame(CLOSE, raw)


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
            if kind != DATA and length - 1 > CONTROL_MAX:
                raise FrameError(f"{KINDS[kind]} frame of {length - 1} bytes exceeds {CONTROL_MAX}")
            end = pos + 4 + length
            if len(buf) < end:
                break
            frames.append(Frame(kind, bytes(buf[pos + 5:end])))
            pos = end
        del buf[:pos]
        return frames
