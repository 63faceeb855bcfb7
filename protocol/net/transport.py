"""asyncio TCP links carrying length-prefixed frames (see :mod:`framing`).

A :class:`Link` is one TCP connection with a reader task that never stops
reading: it answers PINGs, notes PONGs, and queues DATA frames for
:meth:`Link.recv`. Keep-alive PINGs go out every ``keepalive`` seconds, so
a healthy idle link always has traffic; ``read_timeout`` seconds without a
single byte means the link is dead (a pulled cable or a closed laptop lid
sends no FIN), and the link closes with :class:`LinkTimeout`.

Nothing here knows what a session message is: payloads are opaque bytes.

Encrypted once the handshake is done: :meth:`Link.secure` takes the two
Noise cipher states the handshake agreed, and from then on every frame we
send, of every kind (DATA, PING, PONG, CLOSE), goes out in records
(:class:`.framing.Sealer`), and every frame we take must come in records
(:class:`.framing.Opener`). A record that does not open closes the link
with a one-line reason, and nothing of it is delivered; so does a plaintext
DATA frame after the handshake. Before it, frames are plaintext (the
handshake's own messages, a CLOSE such as "busy").

Bounded before authentication and at every moment, proven or not: the budgets are
:mod:`.budgets` (docs/network.md, "Budgets"); what a link holds for its peer is
counted (:attr:`Link.held`).
"""


from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass
from typing import Callable

from lanterne.protocol.wire import printable

from .admission import Admission
from .budgets import (CLOSE_LINGER, PING_BURST, PING_RATE, PREAUTH_MAX_FRAME, PREAUTH_QUEUE, PREAUTH_TIMEOUT,
                      QUEUE_BYTES, WRITE_BUDGET, Pacing)
from .clock import MONOTONIC, Clock, within
from .framing import KINDS as KIND_NAMES
from .framing import (CHAT, CLOSE, DATA, DEFAULT_MAX_FRAME, PING, PONG, PREFACE, RECORD_MAX_FRAME, SEALED, Cipher,
                      Frame, FrameDecoder, FrameError, close_payload, encode_frame)
from .inbox import Inbox
from .records import Records


class LinkClosed(ConnectionError):
    """The link is closed; ``reason`` says who closed it and why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class LinkTimeout(LinkClosed):
    """Nothing was received for ``read_timeout`` seconds, or a write stalled as long."""


@dataclass(frozen=True)
class LinkOptions:
    max_frame: int = DEFAULT_MAX_FRAME
    read_timeout: float = 30.0
    """Seconds without any received byte before the link is declared dead."""
    keepalive: float | None = 10.0
    """Seconds between PINGs (None: none); keep it well under the peer's read_timeout."""
    connect_timeout: float = 5.0
    queue_frames: int = 256
    """DATA frames queued before the reader stops reading (TCP back-pressure)."""
    queue_bytes: int = QUEUE_BYTES
    """Bytes of DATA queued before the reader stops reading (TCP back-pressure)."""
    write_budget: int = WRITE_BUDGET
    """Bytes we may hold unsent for the peer (the transport's write buffer); past it the link is closed."""


class Link:
    """One framed TCP connection. Make one with :func:`.tcp.connect` or :func:`.tcp.serve`.

    Its parts: ``records`` (plaintext, then encrypted records), ``inbox`` (received DATA not yet read),
    ``pacing`` (the write budget and the PONGs' bucket).
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 options: LinkOptions = LinkOptions(), initiator: bool = False, clock: Clock = MONOTONIC,
                 admission: Admission | None = None):
        self.options = options
        self.clock = clock
        """What the read timeout, the keep-alive, a stalled write and the deadline before the proof are timed by."""
        self.initiator = initiator
        """We opened this connection (:func:`.tcp.connect`): the Noise initiator."""
        self._reader = reader
        self._writer = writer
        self._decoder = FrameDecoder(options.max_frame)
        self.records = Records(options.max_frame)
        self.inbox = Inbox(options.queue_frames, options.queue_bytes)
        self.pacing = Pacing(options.write_budget, clock)
        self._pings: dict[bytes, asyncio.Future] = {}
        self._closed = asyncio.Event()
        self.close_reason: str | None = None
        self.peer_reason: str | None = None
        """The reason the peer's CLOSE frame gave, made printable (None: it did not close the link itself)."""
        self._close_error: LinkClosed | None = None
        self._reaper: asyncio.Task | None = None
        self.last_received = self.opened = clock()
        peer = writer.get_extra_info("peername") or ("?", 0)
        self.peer: tuple[str, int] = (peer[0], peer[1])
        local = writer.get_extra_info("sockname") or ("?", 0)
        self.local: tuple[str, int] = (local[0], local[1])
        self.proven = False
        """The handshake proved the peer's key (:meth:`prove`): the limits before authentication are lifted."""
        self._guarded = False
        self._admission = admission
        """The listener's slots before the proof (this link holds one until it proves itself or closes)."""
        self.on_chat: Callable[[bytes], None] | None = None
        """Gets each CHAT payload that came in a record (:mod:`.chat`), on the reader task; None: chat is dropped.
        Nothing it raises stops the link: chat is never worth a game's link."""
        self._writer.write(PREFACE)
        self._tasks = [asyncio.create_task(self._read_loop(), name=f"link-read {self.peer}")]
        if options.keepalive:
            self._tasks.append(asyncio.create_task(self._keepalive_loop(), name=f"link-ping {self.peer}"))

    def __repr__(self) -> str:
        state = f"closed: {self.close_reason}" if self.closed else "open"
        return f"<Link {self.local[0]}:{self.local[1]} -> {self.peer[0]}:{self.peer[1]} {state}>"

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    @property
    def unsent(self) -> int:
        """Bytes we wrote that the peer has not taken yet (the transport's write buffer; 0 once dropped)."""
        transport = self._writer.transport
        return 0 if transport is None else transport.get_write_buffer_size()

    @property
    def held(self) -> int:
        """Bytes this link holds for its peer: unsent, received DATA unread, partial frames being received."""
        return self.unsent + self.inbox.bytes + self._decoder.buffered + self.records.buffered

    @property
    def queued_bytes(self) -> int:
        """Bytes of DATA received and not yet read by :meth:`recv` (at most about ``queue_bytes``)."""
        return self.inbox.bytes

    @property
    def write_budget(self) -> int:
        """Bytes we may hold unsent for the peer now (smaller before the proof)."""
        return self.pacing.budget

    @property
    def pings_unanswered(self) -> int:
        """PINGs we left unanswered (too fast, or sent while the peer was not reading our answers)."""
        return self.pacing.unanswered

    @property
    def secured(self) -> bool:
        """Frames go out and must come in as encrypted records (:meth:`secure`)."""
        return self.records.secured

    def _frame(self, kind: int, payload: bytes = b"") -> bytes:
        return self.records.frame(kind, payload)

    # -- encryption
    def secure(self, send_cipher: Cipher, recv_cipher: Cipher, last: bytes | None = None) -> None:
        """The handshake is done: encrypt every frame from now on, both ways.

        ``send_cipher`` / ``recv_cipher``: the Noise cipher states of each
        direction. ``last``: our last handshake message, written in
        plaintext just before the switch (nothing can slip in between).
        A plaintext DATA frame still unread now did not come from the
        handshake: the link closes and it is never delivered.
        """
        if self.closed:
            raise self._error()
        if last is not None and not self.records.secured:
            self._writer.write(encode_frame(DATA, last, self.options.max_frame))
        self.records.secure(send_cipher, recv_cipher)
        if self.inbox.discard():
            reason = "plaintext data after the handshake"
            self._send_close_nowait(reason)
            self._shutdown(reason)
            raise self._error()

    # -- before authentication
    def guard(self, max_frame: int = PREAUTH_MAX_FRAME, timeout: float = PREAUTH_TIMEOUT) -> None:
        """The handshake begins: frames of at most ``max_frame`` bytes, at most PREAUTH_QUEUE unread, and the
        link is closed ``timeout`` seconds after it opened unless :meth:`prove` comes first."""
        if self._guarded or self.proven or self.closed:
            return
        self._guarded = True
        self._decoder.max_frame = min(self._decoder.max_frame, max_frame)
        self.pacing.guard()
        self._tasks.append(asyncio.create_task(self._deadline(timeout), name=f"link-deadline {self.peer}"))

    def prove(self) -> None:
        """The handshake proved the peer's key: the full frame size, and no deadline."""
        if self.proven:
            return
        self.proven = True
        self._decoder.max_frame = min(self.options.max_frame, RECORD_MAX_FRAME) if self.secured \
            else self.options.max_frame
        self.pacing.prove()
        if self._admission is not None:
            self._admission.proven(self._writer)
        current = asyncio.current_task()
        for task in self._tasks:
            if task.get_name().startswith("link-deadline") and task is not current:
                task.cancel()

    async def _deadline(self, timeout: float) -> None:
        await self.clock.sleep(self.opened + timeout - self.clock())
        if not self.proven and not self.closed:
            reason = f"no proof of identity within {timeout:g} s"
            self._send_close_nowait(reason)
            self._shutdown(reason, LinkTimeout)

    # -- sending
    async def send(self, payload: bytes) -> None:
        """Send one DATA frame; raises LinkClosed if the link is (or goes) down."""
        await self._write(self._frame(DATA, payload))

    async def send_chat(self, payload: bytes) -> None:
        """Send one CHAT frame (only on a secured link: chat never travels in plaintext)."""
        if not self.secured:
            raise LinkClosed("chat needs a secured link")
        await self._write(self._frame(CHAT, payload))

    async def ping(self, timeout: float | None = None) -> float:
        """Round-trip time of one PING/PONG exchange, in seconds."""
        token = os.urandom(8)
        fut = asyncio.get_running_loop().create_future()
        self._pings[token] = fut
        started = time.perf_counter()
        try:
            await self._write(self._frame(PING, token))
            await within(self._until_closed(fut), timeout or self.options.read_timeout, self.clock)
        finally:
            self._pings.pop(token, None)
        return time.perf_counter() - started

    async def _until_closed(self, fut: asyncio.Future) -> None:
        closed = asyncio.ensure_future(self._closed.wait())
        try:
            await asyncio.wait([fut, closed], return_when=asyncio.FIRST_COMPLETED)
        finally:
            closed.cancel()
        if not fut.done():
            raise self._error()

    def _within_budget(self, size: int) -> bool:
        """Whether ``size`` more bytes fit in what we may hold unsent; if not, the link is closed (and dropped)."""
        unsent = self.unsent
        if self.pacing.fits(unsent, size):
            return True
        self._shutdown(f"the peer does not read: {unsent + size} bytes would wait unsent (at most "
                       f"{self.pacing.budget})", abort=True)
        return False

    async def _write(self, data: bytes) -> None:
        if self.closed:
            raise self._error()
        if not self._within_budget(len(data)):
            raise self._error()
        try:
            self._writer.write(data)
            await within(self._writer.drain(), self.options.read_timeout, self.clock)
        except asyncio.TimeoutError:
            self._shutdown(f"a write stalled for {self.options.read_timeout:g} s", LinkTimeout)
            raise self._error() from None
        except (ConnectionError, OSError) as e:
            self._shutdown(f"connection lost: {e}")
            raise self._error() from None
        if self.closed:
            raise self._error()     # the link went down while we waited: what we wrote may have been dropped

    # -- receiving
    async def recv(self) -> bytes:
        """The next DATA payload; raises LinkClosed (or LinkTimeout) once the link is down."""
        if self.closed and self.inbox.empty():
            raise self._error()
        payload = await self.inbox.get()
        if payload is None:
            raise self._error()
        return payload

    def _error(self) -> LinkClosed:
        return self._close_error or LinkClosed(self.close_reason or "closed")

    async def _read_within(self, chunk: int, seconds: float) -> bytes:
        """Up to ``chunk`` bytes, or TimeoutError after ``seconds`` of silence. If our own loop stalled past
        the deadline (a busy machine, a laptop waking up), the deadline and the peer's bytes are due together
        when it wakes: what came meanwhile is read before the peer is called silent."""
        try:
            return await within(self._reader.read(chunk), seconds, self.clock)
        except asyncio.TimeoutError:
            return await within(self._reader.read(chunk), 0, self.clock)    # only what is here already

    async def _read_loop(self) -> None:
        opts = self.options
        try:
            while True:
                try:
                    # a stranger's bytes a handshake frame at a time: a flood of tiny frames is never
                    # decoded by the thousand into memory before its link is closed
                    chunk = 65536 if self.proven or self._admission is None else PREAUTH_MAX_FRAME
                    data = await self._read_within(chunk, opts.read_timeout)
                except asyncio.TimeoutError:
                    self._shutdown(f"nothing received for {opts.read_timeout:g} s", LinkTimeout)
                    return
                if not data:
                    self._shutdown("the peer closed the connection")
                    return
                self.last_received = self.clock()
                try:
                    frames = self._decoder.feed(data)
                except FrameError as e:
                    self._send_close_nowait(str(e))
                    self._shutdown(f"bad framing from the peer: {e}")
                    return
                for frame in frames:
                    if not await self._frame_in(frame):
                        return
        except (ConnectionError, OSError) as e:
            self._shutdown(f"connection lost: {e}")
        except asyncio.CancelledError:
            self._shutdown(self.close_reason or "closed")
            raise

    async def _frame_in(self, frame: Frame) -> bool:
        """One frame off the wire, a record opened first; False once the link is closed."""
        records = self.records
        if frame.kind == SEALED:
            if not records.secured and not self._guarded:
                self._refuse("an encrypted record on a link without a handshake")
                return False
            if not await records.wait() or self.closed:     # the handshake ends on what is already queued
                return False
            try:
                inner = records.open(frame.payload)
            except FrameError as e:
                self._send_close_nowait(str(e))
                self._shutdown(f"bad record from the peer: {e}")
                return False
            return inner is None or await self._take(inner, authentic=True)
        if records.seen:
            self._refuse(f"a plaintext {KIND_NAMES.get(frame.kind, frame.kind)} frame among encrypted records")
            return False
        return await self._take(frame, authentic=not records.secured)

    def _refuse(self, reason: str) -> None:
        self._send_close_nowait(reason)
        self._shutdown(reason)

    async def _take(self, frame: Frame, authentic: bool) -> bool:
        """Handle one frame; False once the link is closed. ``authentic``: it came in a record, or before
        any handshake ended (a plaintext frame after :meth:`secure` proves nothing about its sender)."""
        if frame.kind == DATA:
            if not authentic:
                self._refuse("plaintext data after the handshake")
                return False
            if self._guarded and not self.proven and self.inbox.frames >= PREAUTH_QUEUE:
                self._refuse(f"more than {PREAUTH_QUEUE} frames before the handshake is done")
                return False
            return await self.inbox.put(frame.payload, lambda: self.closed)
        if frame.kind == PING:
            return self._answer_ping(frame.payload)
        if frame.kind == PONG:
            fut = self._pings.get(frame.payload) if authentic else None
            if fut is not None and not fut.done():
                fut.set_result(None)
        elif frame.kind == CHAT:
            if not self.records.seen:
                self._refuse("a chat frame outside the encrypted records")
                return False
            if self.on_chat is not None:
                try:
                    self.on_chat(frame.payload)
                except Exception:   # a chat handler's bug never costs the link
                    pass
        elif frame.kind == CLOSE:
            reason = printable(frame.payload.decode("utf-8", "replace")) or "no reason"  # anyone's words
            if not authentic:   # the peer's handshake failed after ours ended (its reason), or an injection
                self._shutdown(f"the link was closed before any encrypted record (unauthenticated): {reason}")
                return False
            self.peer_reason = reason
            self._shutdown(f"the peer closed the link: {reason}")
            return False
        return True

    def _answer_ping(self, token: bytes) -> bool:
        """A PONG, if the bucket allows it and the peer read our earlier writes; False once the link is closed."""
        if self._writer.is_closing():
            return True     # the connection is going (its loss ends the reader soon): nothing to answer on
        answer = self.pacing.answer(self.unsent)
        if answer is None:
            self._refuse(f"more than {PING_BURST} PINGs in a row unanswered (at most {PING_RATE:g} a second are, "
                         f"and only while ours are read)")
            return False
        if answer:
            pong = self._frame(PONG, token)
            if not self._within_budget(len(pong)):
                return False
            self._writer.write(pong)
        return True

    async def _keepalive_loop(self) -> None:
        interval = self.options.keepalive or 0.0     # (started only when there is one)
        try:
            while not self.closed:
                await self.clock.sleep(interval)
                if self.closed:
                    return
                ping = self._frame(PING, b"")
                if not self._within_budget(len(ping)):
                    return
                self._writer.write(ping)
        except (ConnectionError, OSError) as e:
            self._shutdown(f"connection lost: {e}")

    # -- closing
    def _send_close_nowait(self, reason: str) -> None:
        try:
            if not self._writer.is_closing():
                close = self._frame(CLOSE, close_payload(reason))
                if self.pacing.fits(self.unsent, len(close)):
                    self._writer.write(close)
        except (ConnectionError, OSError, RuntimeError, FrameError):
            pass

    def _shutdown(self, reason: str, error: type[LinkClosed] = LinkClosed, abort: bool = False) -> None:
        """Close: what is unsent may still go for :data:`CLOSE_LINGER` seconds, or is dropped now (``abort``)."""
        if self.closed:
            return
        self.close_reason = reason
        self._close_error = error(reason)
        self._closed.set()
        self.records.release()
        if self._admission is not None:
            self._admission.leave(self._writer)
            self._admission = None
        self.inbox.close()
        for fut in self._pings.values():
            if not fut.done():
                fut.cancel()
        current = asyncio.current_task()
        for task in self._tasks:
            if task is not current:
                task.cancel()
        if abort or self.unsent > self.pacing.budget:
            self._drop()
            return
        self._writer.close()
        if self.unsent:
            self._reaper = asyncio.ensure_future(self._drop_later())

    def _drop(self) -> None:
        """Drop the connection and everything it could not send (RST, no drain)."""
        transport = self._writer.transport
        if transport is not None and (not transport.is_closing() or transport.get_write_buffer_size()):
            transport.abort()

    async def _drop_later(self) -> None:
        await self.clock.sleep(CLOSE_LINGER)
        self._drop()

    def drop(self, reason: str) -> None:
        """Tell the peer why if that fits in what it may be sent, and drop the connection now (a closed link
        that still lingers over what it could not send too)."""
        if not self.closed:
            self._send_close_nowait(reason)
            self._shutdown(reason, abort=True)
        self._drop()

    async def close(self, reason: str = "closed by us") -> None:
        """Tell the peer why, then close. Safe to call twice."""
        if not self.closed:
            self._send_close_nowait(reason)
            self._shutdown(reason)
        await self.wait_closed()

    async def wait_closed(self) -> None:
        await self._closed.wait()
        others = [t for t in self._tasks if t is not asyncio.current_task()]
        await asyncio.gather(*others, return_exceptions=True)  # our own cancellation still propagates
        try:
            await self._writer.wait_closed()
        except (ConnectionError, OSError):
            pass

    async def __aenter__(self) -> "Link":
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()
