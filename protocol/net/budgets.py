"""What a link or a listener may hold for a peer or a stranger, and at what rate it answers.

Bounded before authentication: a listener's slots for links that have not
proven their key are counted per source address and in total, with a share
kept for the roster's addresses (:class:`.admission.Admission`; a connection
that finds no room gets a CLOSE saying so and is closed at once); a link
whose handshake has begun (:meth:`Link.guard`) takes frames of at most
:data:`PREAUTH_MAX_FRAME` bytes and at most :data:`PREAUTH_QUEUE` unread DATA
frames, may have at most :data:`PREAUTH_WRITE_BUDGET` bytes unsent, and is
closed :data:`PREAUTH_TIMEOUT` seconds after it opened unless the handshake
proved the peer's key by then (:meth:`Link.prove`).

Bounded at every moment, proven or not (docs/network.md, "Budgets"): what
a link holds for its peer is counted (:attr:`Link.held`). Bytes we wrote
that the peer has not read are at most ``write_budget`` (a peer that does
not read has its link closed, and a closed link drops what it could not
send: the transport is aborted, never left waiting for a drain that never
comes); received DATA waiting to be read is at most ``queue_bytes`` (then
the reader stops reading: TCP back-pressure); PINGs are answered at most
:data:`PING_RATE` a second after a burst of :data:`PING_BURST` (a token
bucket on the link's clock), and only while the peer has read our earlier
answers, so nobody is answered faster than it reads; a peer that keeps
sending PINGs nobody answers loses its link.
"""

from __future__ import annotations

from .clock import Clock
from .framing import DEFAULT_MAX_FRAME


MAX_STRANGERS = 16
"""Links a listener holds at once that have not proven their key, beyond the roster's share (see
:mod:`.admission`); the next one is closed at once."""
PREAUTH_MAX_FRAME = 4096
"""Largest frame (kind byte and payload) before the handshake is done; a bigger one closes the link."""
PREAUTH_QUEUE = 8
"""Unread DATA frames a link may hold before the handshake is done (the handshake reads them one by one)."""
PREAUTH_TIMEOUT = 5.0
"""Seconds from the connection to the end of the handshake; a stranger still unproven then is dropped."""
PREAUTH_WRITE_BUDGET = 16 << 10
"""Bytes a link may hold unsent before the handshake is done (its messages are a few hundred bytes)."""
WRITE_BUDGET = DEFAULT_MAX_FRAME + (256 << 10)
"""Bytes a proven link may hold unsent: the largest frame, the transport's high-water mark and room for the
small frames sent meanwhile (every send waits for the drain, so an honest backlog never comes near it)."""
QUEUE_BYTES = 256 << 10
"""Bytes of received DATA a link holds unread before its reader stops reading (then one more frame at most)."""
READ_LIMIT = 64 << 10
"""The stream reader's limit: it stops taking bytes from the socket past twice this much unread."""
PING_RATE = 16.0
"""PINGs answered per second on one link, after a burst of :data:`PING_BURST`."""
PING_BURST = 64
"""PINGs answered at once (a round-trip measurement sends them one after the other)."""
SOCKET_BUFFER = 256 << 10
"""The kernel's send and receive buffers of every accepted connection (the kernel doubles it for its own
bookkeeping): what anyone who connects makes the kernel hold for it, outside our own counts. A table's
traffic is small frames; 256 KiB still carries a LAN's bandwidth at its round trip."""
CLOSE_LINGER = 5.0
"""Seconds a closed link may still try to send what it holds (its CLOSE frame); then it is dropped."""


class Bucket:
    """A token bucket on a clock: at most ``burst`` at once, ``rate`` a second after that."""

    def __init__(self, rate: float, burst: int, clock: Clock):
        self.rate, self.burst, self.clock = rate, burst, clock
        self._tokens = float(burst)
        self._at = clock()

    def take(self) -> bool:
        now = self.clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True


class Pacing:
    """What one link may write for its peer: at most :attr:`budget` bytes unsent (smaller before the proof),
    and PINGs answered from a :class:`Bucket`, only while the peer has read our earlier writes."""

    def __init__(self, budget: int, clock: Clock):
        self.full = budget
        self.budget = budget
        """Bytes we may hold unsent for the peer now (past it the link is closed)."""
        self.unanswered = 0
        """PINGs left unanswered (too fast, or sent while the peer was not reading our answers)."""
        self._pongs = Bucket(PING_RATE, PING_BURST, clock)
        self._in_a_row = 0

    def guard(self) -> None:
        """Before the proof: :data:`PREAUTH_WRITE_BUDGET` at most."""
        self.budget = min(self.budget, PREAUTH_WRITE_BUDGET)

    def prove(self) -> None:
        self.budget = self.full

    def fits(self, unsent: int, size: int) -> bool:
        return unsent + size <= self.budget

    def answer(self, unsent: int) -> bool | None:
        """Whether a PING gets its PONG now (True) or none (False); None: more than :data:`PING_BURST` in a
        row went unanswered, and the link is closed."""
        if unsent == 0 and self._pongs.take():
            self._in_a_row = 0
            return True
        self.unanswered += 1
        self._in_a_row += 1
        return None if self._in_a_row > PING_BURST else False
