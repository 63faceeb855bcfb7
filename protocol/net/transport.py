"""asyncio TCP links carrying length-prefixed frames (see :mod:`framing`).

A :class:`Link` is one TCP connection with a reader task that never stops
reading: it answers PINGs, notes PONGs, and queues DATA frames for
:meth:`Link.recv`. Keep-alive PINGs go out every ``keepalive`` seconds, so
a healthy idle link always has traffic; ``read_timeout`` seconds without a
single byte means the link is dead (a pulled cable or a closed laptop lid
sends no FIN), and the link closes with :class:`LinkTimeout`.

Nothing here knows what a session message is: payloads are opaque bytes.

Bounded before authentication: a listener holds at most
:data:`MAX_STRANGERS` links that have not proven their key (the next one gets
a CLOSE saying so and is closed at once); a link whose handshake has begun
(:meth:`Link.guard`) takes frames of at most :data:`PREAUTH_MAX_FRAME` bytes
and at most :data:`PREAUTH_QUEUE` unread DATA frames, and is closed
:data:`PREAUTH_TIMEOUT` seconds after it opened unless the handshake proved
the peer's key by then (:meth:`Link.prove`).
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass
from typing import Awaitable, Callable

from .framing import (CLOSE, DATA, DEFAULT_MAX_FRAME, PING, PONG, PREFACE, FrameDecoder,
                      FrameError, encode_close, encode_frame)


MAX_STRANGERS = 16
"""Links a listener holds at once that have not proven their key; the next one is closed at once."""
PREAUTH_MAX_FRAME = 4096
"""Largest frame (kind byte and payload) before the handshake is done; a bigger one closes the link."""
PREAUTH_QUEUE = 8
"""Unread DATA frames a link may hold before the handshake is done (the handshake reads them one by one)."""
PREAUTH_TIMEOUT = 5.0
"""Seconds from the connection to the end of the handshake; a stranger still unproven then is dropped."""


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


async def within(awaitable, seconds: float | None):
    """``await awaitable`` with a time limit (TimeoutError after it).

    Unlike ``asyncio.wait_for`` on Python 3.11, a cancellation that comes
    while the awaitable finishes is never lost (a crash test depends on it).
    """
    async with asyncio.timeout(seconds):
        return await awaitable


_CLOSED = object()


class Link:
    """One framed TCP connection. Make one with :func:`connect` or :func:`serve`."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 options: LinkOptions = LinkOptions()):
        self.options = options
        self._reader = reader
        self._writer = writer
        self._decoder = FrameDecoder(options.max_frame)
        self._queue: asyncio.Queue = asyncio.Queue(options.queue_frames)
        self._pings: dict[bytes, asyncio.Future] = {}
        self._closed = asyncio.Event()
        self.close_reason: str | None = None
        self.peer_reason: str | None = None
        """The reason the peer's CLOSE frame gave, exactly as sent (None: it did not close the link itself)."""
        self._close_error: LinkClosed | None = None
        self.last_received = time.monotonic()
        peer = writer.get_extra_info("peername") or ("?", 0)
        self.peer: tuple[str, int] = (peer[0], peer[1])
        local = writer.get_extra_info("sockname") or ("?", 0)
        self.local: tuple[str, int] = (local[0], local[1])
        self.opened = time.monotonic()
        self.proven = False
        """The handshake proved the peer's key (:meth:`prove`): the limits before authentication are lifted."""
        self._guarded = False
        self._strangers: set | None = None
        """The listener's set of links not yet proven (this link is in it until it proves itself or closes)."""
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

    # -- before authentication
    def guard(self, max_frame: int = PREAUTH_MAX_FRAME, timeout: float = PREAUTH_TIMEOUT) -> None:
        """The handshake begins: frames of at most ``max_frame`` bytes, at most PREAUTH_QUEUE unread, and the
        link is closed ``timeout`` seconds after it opened unless :meth:`prove` comes first."""
        if self._guarded or self.proven or self.closed:
            return
        self._guarded = True
        self._decoder.max_frame = min(self._decoder.max_frame, max_frame)
        self._tasks.append(asyncio.create_task(self._deadline(timeout), name=f"link-deadline {self.peer}"))

    def prove(self) -> None:
        """The handshake proved the peer's key: the full frame size, and no deadline."""
        if self.proven:
            return
        self.proven = True
        self._decoder.max_frame = self.options.max_frame
        self._leave_strangers()
        current = asyncio.current_task()
        for task in self._tasks:
            if task.get_name().startswith("link-deadline") and task is not current:
                task.cancel()

    async def _deadline(self, timeout: float) -> None:
        await asyncio.sleep(max(0.0, self.opened + timeout - time.monotonic()))
        if not self.proven and not self.closed:
            reason = f"no proof of identity within {timeout:g} s"
            self._send_close_nowait(reason)
            self._shutdown(reason, LinkTimeout)

    def _leave_strangers(self) -> None:
        if self._strangers is not None:
            self._strangers.discard(self)
            self._strangers = None

    # -- sending
    async def send(self, payload: bytes) -> None:
        """Send one DATA frame; raises LinkClosed if the link is (or goes) down."""
        await self._write(encode_frame(DATA, payload, self.options.max_frame))

    async def ping(self, timeout: float | None = None) -> float:
        """Round-trip time of one PING/PONG exchange, in seconds."""
        token = os.urandom(8)
        fut = asyncio.get_running_loop().create_future()
        self._pings[token] = fut
        started = time.perf_counter()
        try:
            await self._write(encode_frame(PING, token))
            await within(self._until_closed(fut), timeout or self.options.read_timeout)
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

    async def _write(self, data: bytes) -> None:
        if self.closed:
            raise self._error()
        try:
            self._writer.write(data)
            await within(self._writer.drain(), self.options.read_timeout)
        except asyncio.TimeoutError:
            self._shutdown(f"a write stalled for {self.options.read_timeout:g} s", LinkTimeout)
            raise self._error() from None
        except (ConnectionError, OSError) as e:
            self._shutdown(f"connection lost: {e}")
            raise self._error() from None

    # -- receiving
    async def recv(self) -> bytes:
        """The next DATA payload; raises LinkClosed (or LinkTimeout) once the link is down."""
        if self.closed and self._queue.empty():
            raise self._error()
        item = await self._queue.get()
        if item is _CLOSED:
            raise self._error()
        return item

    def _error(self) -> LinkClosed:
        return self._close_error or LinkClosed(self.close_reason or "closed")

    async def _read_loop(self) -> None:
        opts = self.options
        try:
            while True:
                try:
                    data = await within(self._reader.read(65536), opts.read_timeout)
                except asyncio.TimeoutError:
                    self._shutdown(f"nothing received for {opts.read_timeout:g} s", LinkTimeout)
                    return
                if not data:
                    self._shutdown("the peer closed the connection")
                    return
                self.last_received = time.monotonic()
                try:
                    frames = self._decoder.feed(data)
                except FrameError as e:
                    self._send_close_nowait(str(e))
                    self._shutdown(f"bad framing from the peer: {e}")
                    return
                for frame in frames:
                    if frame.kind == DATA:
                        if self._guarded and not self.proven and self._queue.qsize() >= PREAUTH_QUEUE:
                            reason = f"more than {PREAUTH_QUEUE} frames before the handshake is done"
                            self._send_close_nowait(reason)
                            self._shutdown(reason)
                            return
                        await self._queue.put(frame.payload)
                    elif frame.kind == PING:
                        self._writer.write(encode_frame(PONG, frame.payload))
                    elif frame.kind == PONG:
                        fut = self._pings.get(frame.payload)
                        if fut is not None and not fut.done():
                            fut.set_result(None)
                    elif frame.kind == CLOSE:
                        reason = frame.payload.decode("utf-8", "replace") or "no reason"
                        self.peer_reason = reason
                        self._shutdown(f"the peer closed the link: {reason}")
                        return
        except (ConnectionError, OSError) as e:
            self._shutdown(f"connection lost: {e}")
        except asyncio.CancelledError:
            self._shutdown(self.close_reason or "closed")
            raise

    async def _keepalive_loop(self) -> None:
        interval = self.options.keepalive
        try:
            while not self.closed:
                await asyncio.sleep(interval)
                if self.closed:
                    return
                self._writer.write(encode_frame(PING, b""))
        except (ConnectionError, OSError) as e:
            self._shutdown(f"connection lost: {e}")

    # -- closing
    def _send_close_nowait(self, reason: str) -> None:
        try:
            if not self._writer.is_closing():
                self._writer.write(encode_close(reason))
        except (ConnectionError, OSError, RuntimeError):
            pass

    def _shutdown(self, reason: str, error: type[LinkClosed] = LinkClosed) -> None:
        if self.closed:
            return
        self.close_reason = reason
        self._close_error = error(reason)
        self._closed.set()
        self._leave_strangers()
        if not self._queue.full():  # wakes a waiting recv; frames queued before it still come first
            self._queue.put_nowait(_CLOSED)
        for fut in self._pings.values():
            if not fut.done():
                fut.cancel()
        current = asyncio.current_task()
        for task in self._tasks:
            if task is not current:
                task.cancel()
        self._writer.close()

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

    async def __aexit__(self, *exc) -> None:
        await self.close()


async def connect(host: str, port: int, options: LinkOptions = LinkOptions()) -> Link:
    """Open a link to ``host:port``; raises LinkClosed with a one-line reason on failure."""
    try:
        reader, writer = await within(
            asyncio.open_connection(host, port, limit=options.max_frame + 16), options.connect_timeout)
    except asyncio.TimeoutError:
        raise LinkTimeout(f"no answer from {host}:{port} within {options.connect_timeout:g} s") from None
    except OSError as e:
        raise LinkClosed(f"cannot connect to {host}:{port}: {e.strerror or e}") from None
    return Link(reader, writer, options)


Handler = Callable[[Link], Awaitable[None]]


async def serve(handler: Handler, host: str, port: int = 0,
                options: LinkOptions = LinkOptions(), max_strangers: int | None = MAX_STRANGERS) -> asyncio.Server:
    """Listen on ``host:port`` (port 0: any free port; see ``server.sockets``).

    Each connection becomes a :class:`Link` passed to ``handler``; the link
    is closed when the handler returns. While ``max_strangers`` links are
    open that have not proven their key (:meth:`Link.prove`), a new
    connection is told so in a CLOSE frame and closed at once (None: no cap).
    """
    strangers: set[Link] = set()

    async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if max_strangers is not None and len(strangers) >= max_strangers:
            try:
                writer.write(PREFACE + encode_close(f"busy: {max_strangers} connections are still proving who "
                                                    f"they are; try again"))
                writer.close()
            except (ConnectionError, OSError, RuntimeError):
                pass
            return
        link = Link(reader, writer, options)
        strangers.add(link)
        link._strangers = strangers
        try:
            try:
                await handler(link)
            except LinkClosed:
                pass
            await link.close("the host is done with this connection")
        except asyncio.CancelledError:
            # The loop is shutting down. Nobody awaits this task, and on Python
            # 3.11 asyncio's own done-callback raises on a cancelled handler task.
            link._shutdown("the host is shutting down")

    return await asyncio.start_server(on_connect, host, port, limit=options.max_frame + 16)


def bound_port(server: asyncio.Server) -> int:
    """The TCP port a server listens on (useful after ``port=0``)."""
    return server.sockets[0].getsockname()[1]
