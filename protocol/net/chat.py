"""Table chat, sans-IO: short signed messages to everyone at a table, never part of the game.

A chat message is a CHAT frame (:data:`.framing.CHAT`, only inside a
record of an authenticated link, at most :data:`.framing.CHAT_MAX` bytes),
never a DATA payload: the session, the log and ``lanterne verify`` never
see it. Its payload is canonical msgpack (:mod:`protocol.wire`)::

    {t: "chat", v: 1, table: 32 bytes, key: 32 bytes, name, ts, text, sig}
    sig = Ed25519 by ``key`` over "lanterne/chat/v1" || canonical msgpack of the map without sig

``table`` is the table id (SHA-256 of the game's first log entry), so a
message of one table is worth nothing at another; ``ts`` is the author's
clock in milliseconds, strictly increasing per author (it names the message:
a copy that comes again by another path is dropped as seen). Every peer
forwards each message it accepts, once, on every other link of the table
(players and the spectators it serves), so the signature is what says who
wrote it, not the link it came on: a relay cannot put words in a seat's
mouth. A spectator's message is accepted only where the table lets
spectators watch and the player it watches through relays spectators' chat.

Limits, the same for everyone: at most :data:`MAX_CHARS` characters after
cleaning (control and format characters removed, whitespace runs made one
space, NFC; a character is a code point of that text), at most
:data:`RATE` messages per :data:`WINDOW` seconds per author. Our own message
that breaks them is refused by :meth:`ChatBook.write` with a one-line
:class:`ChatError`. A message from a peer is checked for its shape before
anything of it is read; one that is malformed, not signed by its key, of
another table, already seen, too long or over its author's rate (twice ours,
since a link may bunch honest messages) is dropped with a one-line reason
(:meth:`ChatBook.read`), and nobody is named for it: chat is never evidence
against a seat.

Every budget is an author's own, never a link's: only its author can sign a
message, so relaying one never spends anybody else's. A spectator's message
enters the table at the player it watches through (from the spectator's own
link), which passes it to the other seats; they pass it to their own
spectators only. So the spectators' messages on a seat's link are that
seat's own spectators': at most :data:`LINK_AUTHORS` of them per
:data:`WINDOW`, and a seat that signs with fresh keys gets no more than a
player with that many spectators. A link whose messages keep being dropped
(:data:`LINK_STRIKES`) is not read for the rest of the window (its sender is
hostile: an honest relay passes only what it accepted). The time shown
beside a line is when we heard it (:attr:`ChatLine.at`), never what its
author signed.
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from lanterne.protocol.identity import Identity, fingerprint, verify
from lanterne.protocol.wire import ProtocolError, check, pack, unpack, visible

from .framing import CHAT_MAX

DOMAIN = b"lanterne/chat/v1"
VERSION = 1
MAX_CHARS = 200
"""Longest message, in characters of its cleaned text."""
MAX_NAME = 40
"""Longest author name carried (characters of the cleaned name)."""
RATE = 5
WINDOW = 10.0
"""At most RATE messages per WINDOW seconds per author (our own); a peer drops more than twice that."""
LINK_AUTHORS = 8
"""Most spectators whose messages one seat's link brings per WINDOW (its own spectators: the cap a player serves,
:data:`.watchers.MAX_PER_PLAYER`): a seat that signs with fresh keys, each a "spectator", gets no more."""
LINK_STRIKES = 20
"""Dropped messages on one link per WINDOW past which the link's chat is not read until the window is over."""

SCHEMA = {"t": "str", "v": "uint", "table": "bytes32", "key": "bytes32", "name": "str", "ts": "uint",
          "text": "str", "sig": "bytes64"}
MAX_WATCHERS = 16
"""Most spectators one player tells the table about (more are counted, not named)."""
WATCHERS_SCHEMA = {"t": "str", "v": "uint", "table": "bytes32", "key": "bytes32", "ts": "uint",
                   "names": ["list", "str", MAX_WATCHERS], "more": "uint", "sig": "bytes64"}
"""A player's signed word of who watches the table through it (a spectator links to one player only, so the
others learn it from this): on the same CHAT frames, never relayed, never shown as a chat line."""
_SPACES = re.compile(r"\s+")


class ChatError(ValueError):
    """A message of ours that cannot be sent (too long, too many, empty); one line for the user."""


class ChatOverBudget(ProtocolError):
    """A sound message past its author's rate or its link's spectators: dropped, but no sign its sender lies
    (an honest relay's clock may bunch what it passed on), so no strike against the link."""


class ChatSeen(ProtocolError):
    """A message we already have (another path's copy, or our own come back): dropped without a word."""


def clean(text: str, limit: int | None = None) -> str:
    """``text`` with no control, format or private character, nothing that draws a blank, at most
    ``wire.MAX_MARKS`` combining marks on a character (:func:`~protocol.wire.visible`), whitespace runs as one
    space, NFC.

    What is left can neither move a terminal's cursor (no ESC, no C1 codes)
    nor break a line, nor pad or hide words; Rich markup is the UI's to escape
    (it shows a ``rich.text.Text``, never a markup string).
    """
    text = unicodedata.normalize("NFC", text)
    kept = "".join(" " if c.isspace() else c for c in text if c.isspace() or unicodedata.category(c)[0] != "C")
    kept = _SPACES.sub(" ", visible(kept)).strip()
    return kept if limit is None else kept[:limit]


@dataclass(frozen=True)
class ChatLine:
    """One message as shown: who wrote it (``seat``: its seat, None for a spectator), what, and ``at`` when we
    heard it (our wall clock, ms; ``ts`` is the author's, what names the message)."""

    key: bytes
    name: str
    ts: int
    text: str
    seat: int | None = None
    mine: bool = False
    at: int = 0

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)

    @property
    def who(self) -> str:
        return self.name if self.seat is not None else f"{self.name} (watching)"

    def __str__(self) -> str:
        return f"chat: {self.who}: {self.text}"

    def to_data(self) -> dict:
        """A line of the companion file (``<table>.chat``, JSON lines)."""
        return {"ts": self.ts, "at": self.at or self.ts, "key": self.key.hex(), "name": self.name, "seat": self.seat,
                "text": self.text}


HISTORY = 200
"""Chat lines a resumed game reads back from its file (the newest)."""


def read_chat(path: Path, me: bytes, keep: int = HISTORY) -> list[ChatLine]:
    """The last ``keep`` lines of a game's chat file, ours marked (``mine``), cleaned again.

    The file is ours but not signed, and a crash can cut its last line: a line that is not a chat
    line's shape is skipped, and a file that cannot be read is no chat, never an error.
    """
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            raw = deque(f, maxlen=keep)
    except OSError:
        return []
    lines = []
    for text in raw:
        try:
            d = json.loads(text)
        except ValueError:
            continue
        if not (isinstance(d, dict) and isinstance(d.get("key"), str) and isinstance(d.get("ts"), int)
                and isinstance(d.get("name"), str) and isinstance(d.get("text"), str)
                and (d.get("seat") is None or isinstance(d.get("seat"), int) and 0 <= d["seat"] < 64)):
            continue            # not a chat line's shape: nothing of it is read
        try:
            key = bytes.fromhex(d["key"])
        except ValueError:
            continue
        if len(key) != 32:
            continue
        seat = d.get("seat")
        said = clean(d["text"], MAX_CHARS)
        at: int = d["at"] if isinstance(d.get("at"), int) else d["ts"]     # a line kept before there was "at"
        if said:
            lines.append(ChatLine(key, clean(d["name"], MAX_NAME) or "?", d["ts"], said, seat, mine=key == me, at=at))
    return lines


@dataclass(frozen=True)
class WatchersNote:
    """Who watches through the seat ``seat`` (signed by that seat's key): its whole list, the newest wins."""

    key: bytes
    seat: int
    names: tuple[str, ...]
    more: int = 0


@dataclass
class ChatBook:
    """Our side of one table's chat: writes our messages, reads the others', remembers what it saw.

    ``seats``: the table's keys in seat order (a message by one of them
    shows its seat); ``spectators``: whether a message by a key of no seat
    (a spectator's) is accepted at all.
    """

    me: Identity
    name: str
    table: bytes
    seats: list[bytes] = field(default_factory=list)
    spectators: bool = True
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time
    _last_ts: dict = field(default_factory=dict)
    """Per author: the last ``ts`` accepted (a message must come after it)."""
    _times: dict = field(default_factory=dict)
    """Per author: when (our clock) its recent messages came, for the rate (and per link, its strikes)."""
    _link_authors: dict = field(default_factory=dict)
    """Per link: the spectators it brought lately, for :data:`LINK_AUTHORS`."""

    def seat_of(self, key: bytes) -> int | None:
        return self.seats.index(key) if key in self.seats else None

    def write(self, text: str) -> tuple[bytes, ChatLine]:
        """Our message to the table: (its signed CHAT payload, the line to show); ChatError in one line."""
        text = clean(text)
        if not text:
            raise ChatError("nothing to say: the message is empty")
        if len(text) > MAX_CHARS:
            raise ChatError(f"a chat message is at most {MAX_CHARS} characters; this one has {len(text)}")
        now = self.clock()
        recent = self._recent(self.me.public, now)
        if len(recent) >= RATE:
            wait = WINDOW - (now - recent[0])
            raise ChatError(f"at most {RATE} messages every {WINDOW:g} s: wait {max(wait, 0.1):.0f} s")
        ts = max(int(self.wall() * 1000), self._last_ts.get(self.me.public, 0) + 1)
        body = {"t": "chat", "v": VERSION, "table": self.table, "key": self.me.public,
                "name": clean(self.name, MAX_NAME) or "?", "ts": ts, "text": text}
        raw = pack({**body, "sig": self.me.sign(DOMAIN, pack(body))})
        if len(raw) > CHAT_MAX:     # 200 characters of 4 bytes each still fit; a guard all the same
            raise ChatError("the message is too long to send")
        recent.append(now)
        self._last_ts[self.me.public] = ts
        return raw, ChatLine(self.me.public, body["name"], ts, text, self.seat_of(self.me.public), mine=True, at=ts)

    def write_watchers(self, names: list[str]) -> bytes:
        """Our word to the other seats of who watches through us now (the whole list; signed)."""
        shown = [clean(n, MAX_NAME) or "?" for n in sorted(names)[:MAX_WATCHERS]]
        ts = max(int(self.wall() * 1000), self._last_ts.get(("watchers", self.me.public), 0) + 1)
        self._last_ts[("watchers", self.me.public)] = ts
        body = {"t": "watchers", "v": VERSION, "table": self.table, "key": self.me.public, "ts": ts,
                "names": shown, "more": max(0, len(names) - len(shown))}
        return pack({**body, "sig": self.me.sign(DOMAIN, pack(body))})

    def read(self, raw: bytes, via: object = None, sender: bytes | None = None) -> "ChatLine | WatchersNote":
        """A message from a peer, checked; ProtocolError (one line) if it is to be dropped.

        ``via``: the link it came on (anything hashable); ``sender``: the key at that link's far end (a seat's,
        or the spectator's we serve). A message by somebody else is relayed: if its author holds no seat, it
        is one of the sender's spectators, and counts for :data:`LINK_AUTHORS`."""
        now = self.clock()
        strikes = self._recent(("strikes", via), now) if via is not None else None
        if strikes is not None and len(strikes) >= LINK_STRIKES:
            raise ProtocolError(f"more than {LINK_STRIKES} bad chat messages in {WINDOW:g} s on this link: "
                                f"its chat is not read until then")
        try:
            return self._read(raw, now, via, sender)
        except (ChatSeen, ChatOverBudget):
            raise
        except ProtocolError:
            if strikes is not None:
                strikes.append(now)
            raise

    def _read(self, raw: bytes, now: float, via: object, sender: bytes | None) -> "ChatLine | WatchersNote":
        if len(raw) > CHAT_MAX:
            raise ProtocolError(f"a chat message of {len(raw)} bytes (at most {CHAT_MAX})")
        msg = unpack(raw, CHAT_MAX)
        if isinstance(msg, dict) and msg.get("t") == "watchers":
            return self._read_watchers(msg)
        if not isinstance(msg, dict) or msg.get("t") != "chat" or set(msg) != set(SCHEMA):
            raise ProtocolError("not a chat message")
        check(SCHEMA, msg, "chat")
        if msg["v"] != VERSION:
            raise ProtocolError(f"chat version {msg['v']}, we speak {VERSION}")
        if msg["table"] != self.table:
            raise ProtocolError("a chat message of another table")
        key = msg["key"]
        if key == self.me.public:
            raise ChatSeen("our own chat message, come back")
        if msg["ts"] <= self._last_ts.get(key, 0):
            raise ChatSeen("a chat message already seen (or older than one seen)")
        seat = self.seat_of(key)
        if seat is None and not self.spectators:
            raise ProtocolError("a spectator's chat at a table without spectators' chat")
        authors = self._authors(via, now) if seat is None and via is not None and sender != key else None
        if authors is not None and key not in authors and len(authors) >= LINK_AUTHORS:
            raise ChatOverBudget(f"chat of more than {LINK_AUTHORS} spectators in {WINDOW:g} s through one seat")
        recent = self._recent(key, now)
        if len(recent) >= 2 * RATE:
            raise ChatOverBudget(f"more than {2 * RATE} chat messages in {WINDOW:g} s from {fingerprint(key)}")
        body = {k: v for k, v in msg.items() if k != "sig"}
        if not verify(key, msg["sig"], DOMAIN, pack(body)):
            raise ProtocolError("a chat message not signed by its author")
        text = clean(msg["text"])
        if not text or len(text) > MAX_CHARS or text != msg["text"]:
            raise ProtocolError(f"a chat message that is empty, longer than {MAX_CHARS} characters or not clean")
        recent.append(now)
        if authors is not None:
            authors[key] = now
        self._last_ts[key] = msg["ts"]
        return ChatLine(key, clean(msg["name"], MAX_NAME) or "?", msg["ts"], text, seat,
                        at=int(self.wall() * 1000))

    def _authors(self, via: object, now: float) -> dict:
        """The spectators whose messages ``via`` brought in the last WINDOW (their last time)."""
        authors = self._link_authors.setdefault(via, {})
        for key in [k for k, t in authors.items() if now - t >= WINDOW]:
            del authors[key]
        return authors

    def _read_watchers(self, msg: dict) -> WatchersNote:
        """A seat's list of its spectators: only a seat speaks for itself, the newest ``ts`` wins."""
        check(WATCHERS_SCHEMA, msg, "watchers")
        if set(msg) != set(WATCHERS_SCHEMA) or msg["v"] != VERSION or msg["table"] != self.table:
            raise ProtocolError("a watchers notice of another version or table")
        key = msg["key"]
        seat = self.seat_of(key)
        if key == self.me.public or seat is None:
            raise ProtocolError("a watchers notice not from another seat of the table")
        body = {k: v for k, v in msg.items() if k != "sig"}
        if not verify(key, msg["sig"], DOMAIN, pack(body)):
            raise ProtocolError("a watchers notice not signed by its seat")
        if msg["ts"] <= self._last_ts.get(("watchers", key), 0):
            raise ChatSeen("a watchers notice older than one seen")
        self._last_ts[("watchers", key)] = msg["ts"]
        return WatchersNote(key, seat, tuple(clean(n, MAX_NAME) or "?" for n in msg["names"]), msg["more"])

    def _recent(self, key: object, now: float) -> deque:
        if len(self._times) > 4096:      # authors and links long quiet are forgotten (their last ts is kept)
            for old in [k for k, t in self._times.items() if not t or now - t[-1] >= WINDOW]:
                del self._times[old]
        times = self._times.setdefault(key, deque())
        while times and now - times[0] >= WINDOW:
            times.popleft()
        return times


__all__ = ["ChatBook", "ChatError", "ChatLine", "ChatOverBudget", "ChatSeen", "WatchersNote", "CHAT_MAX", "LINK_AUTHORS", "LINK_STRIKES",
           "MAX_CHARS", "RATE", "WINDOW", "clean"]
