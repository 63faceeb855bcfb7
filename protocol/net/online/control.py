"""The messages between the app and its wormhole process, sans-IO.

The app writes one job (``invite`` or ``accept``) on the process's stdin (then,
a joiner, ``open`` for each further subchannel: a link to resume); the process answers on its stdout with what happens, in order: the ``code``, the
``peer`` whose key the code authenticated, each ``stream`` it opens to the
app on 127.0.0.1, the ``route`` Dilation found (direct or through the relay),
and at most one ``failed``. The app closing stdin ends the process (its
wormhole closes, the nameplate is released), so a crashed app leaves no
process behind.

Each message is canonical msgpack (:mod:`protocol.wire`) in a DATA frame
(:mod:`..framing`), checked against :data:`SCHEMAS` on arrival: the same
rules as every other byte Lanterne reads.
"""

from __future__ import annotations

import re
from typing import Any

from lanterne.protocol import wire

from ..framing import DATA, FrameDecoder, FrameError, encode_frame

MAX_MESSAGE = 4096
SCHEMAS: dict[str, dict] = {
    # app -> process, once
    "invite": {"t": "str", "mailbox": "str", "relay": "str", "appid": "str", "key": "bytes32", "direct": "bool"},
    "accept": {"t": "str", "mailbox": "str", "relay": "str", "appid": "str", "key": "bytes32", "direct": "bool",
               "code": "str"},
    # app -> process, once: both sides of a pair of guests take the same code, made from their table (neither
    # allocates it); the "meet" side waits for the "accept" side's subchannel
    "meet": {"t": "str", "mailbox": "str", "relay": "str", "appid": "str", "key": "bytes32", "direct": "bool",
             "code": "str"},
    # app -> process, any time after the job: the joiner asks for one more subchannel (a link to resume)
    "open": {"t": "str"},
    # process -> app
    "code": {"t": "str", "code": "str"},
    "peer": {"t": "str", "key": "bytes32", "verifier": "bytes"},
    "stream": {"t": "str", "port": "uint", "token": "bytes"},
    "route": {"t": "str", "connected": "bool", "via": "str"},
    "failed": {"t": "str", "why": "str", "detail": "str"},
}
APP_SENDS = ("invite", "accept", "meet", "open")
PROCESS_SENDS = ("code", "peer", "stream", "route", "failed")

TOKEN_BYTES = 16
"""The app proves it is the app (not another local program) by writing a stream's token first."""

WRONG_CODE = "wrong-code"
MAILBOX_DOWN = "mailbox"
NOT_LANTERNE = "not-lanterne"
CLOSED = "closed"
FAILURES = {
    WRONG_CODE: "that code is wrong or was used already",
    MAILBOX_DOWN: "cannot reach the mailbox at {mailbox}: no internet here? on a LAN use the lobby",
    NOT_LANTERNE: "the other side of that code is not a Lanterne table ({detail})",
    CLOSED: "the wormhole closed: {detail}",
}
"""What the user reads for each ``failed`` the process reports; one line each."""

CODE_FORM = re.compile(r"[0-9]+(-[a-z]+)+")


class ControlError(wire.ProtocolError):
    """A message that breaks this protocol (a bug or a stranger on the pipe); one line."""


def encode(kind: str, **fields: Any) -> bytes:
    msg = {"t": kind, **fields}
    wire.check(SCHEMAS[kind], msg, kind)
    return encode_frame(DATA, wire.pack(msg))


class Decoder:
    """Bytes from the pipe in, checked messages out (those of the ``expected`` kinds)."""

    def __init__(self, *expected: str):
        self.expected = expected
        self._frames = FrameDecoder(MAX_MESSAGE, expect_preface=False)

    def feed(self, data: bytes) -> list[dict]:
        try:
            frames = self._frames.feed(data)
        except FrameError as e:
            raise ControlError(f"wormhole process: {e}") from None
        return [self._message(frame.payload) for frame in frames if frame.kind == DATA]

    def _message(self, payload: bytes) -> dict:
        try:
            msg = wire.unpack(payload, max_size=MAX_MESSAGE)
        except wire.WireError as e:
            raise ControlError(f"wormhole process: {e}") from None
        kind = msg.get("t") if isinstance(msg, dict) else None
        if kind not in self.expected:
            raise ControlError(f"wormhole process: unexpected message {kind!r}"[:200])
        try:
            wire.check(SCHEMAS[kind], msg, kind)
        except wire.SchemaError as e:
            raise ControlError(f"wormhole process: {e}") from None
        return msg


def failure_text(why: str, detail: str = "", mailbox: str = "") -> str:
    """The one line a user reads for a ``failed`` message."""
    template = FAILURES.get(why, FAILURES[CLOSED])
    return template.format(detail=wire.printable(detail)[:200] or "no reason given", mailbox=mailbox)


def derived_code(digest: bytes) -> str:
    """A code both sides make from a digest they share (at least 20 bytes), never allocated: a nameplate above the
    mailbox's small allocated ones, and 128 bits of letters (the mailbox accepts any nameplate of digits)."""
    nameplate = 1_000_000 + int.from_bytes(digest[:4], "big") % 9_000_000
    letters = "".join(chr(ord("a") + (byte >> 4)) + chr(ord("a") + (byte & 15)) for byte in digest[4:20])
    return f"{nameplate}-{letters[:16]}-{letters[16:]}"


def clean_code(text: str) -> str:
    """A typed code made canonical (spaces to dashes, lower case), or ValueError with one line."""
    code = "-".join(text.strip().lower().replace("_", " ").replace("-", " ").split())
    if not CODE_FORM.fullmatch(code):
        raise ValueError(f"{wire.printable(text)[:60]!r} is not a code: a code looks like 7-crossover-clockwork")
    return code
