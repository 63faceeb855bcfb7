"""The TCP edge of the links: dialing a peer, and listening with a slot count before each proof."""

from __future__ import annotations

import asyncio
import socket
from typing import Awaitable, Callable, Sequence

from .admission import Admission
from .budgets import MAX_STRANGERS, READ_LIMIT, SOCKET_BUFFER
from .clock import MONOTONIC, Clock, within
from .framing import PREFACE, encode_close
from .transport import Link, LinkClosed, LinkOptions, LinkTimeout


async def connect(host: str, port: int, options: LinkOptions = LinkOptions(), clock: Clock = MONOTONIC) -> Link:
    """Open a link to ``host:port``; raises LinkClosed with a one-line reason on failure."""
    try:
        reader, writer = await within(
            asyncio.open_connection(host, port, limit=READ_LIMIT), options.connect_timeout)
    except asyncio.TimeoutError:
        raise LinkTimeout(f"no answer from {host}:{port} within {options.connect_timeout:g} s") from None
    except OSError as e:
        raise LinkClosed(f"cannot connect to {host}:{port}: {e.strerror or e}") from None
    return Link(reader, writer, options, initiator=True, clock=clock)


Handler = Callable[[Link], Awaitable[None]]


async def serve(handler: Handler, host: str | Sequence[str], port: int = 0,
                options: LinkOptions = LinkOptions(), max_strangers: int | None = MAX_STRANGERS,
                clock: Clock = MONOTONIC, admission: Admission | None = None) -> asyncio.Server:
    """Listen on ``host:port`` (port 0: any free port; see ``server.sockets``).

    Each connection becomes a :class:`Link` passed to ``handler``; the link
    is closed when the handler returns. A connection that finds no slot
    before the proof (``admission``: counted per address and in total, a
    share kept for the roster's addresses; by default ``max_strangers``
    shared slots and no known address; None: no cap) is told why in a
    CLOSE frame and closed at once. ``admission.served`` holds the links
    open now.
    """
    if admission is None:   # one shared count only (a peer's listener passes its whole account)
        cap = max_strangers if max_strangers is not None else 1 << 30
        admission = Admission(shared=cap, per_address=cap, links=1 << 30, links_per_address=1 << 30)
    links = admission.served

    async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        address = (writer.get_extra_info("peername") or ("?", 0))[0]
        refusal = admission.enter(writer, address)
        if refusal is not None:
            try:
                writer.write(PREFACE + encode_close(refusal))
                writer.transport.abort() if writer.transport.get_write_buffer_size() else writer.close()
            except (ConnectionError, OSError, RuntimeError):
                pass
            return
        link = Link(reader, writer, options, clock=clock)
        link._admission = admission     # (the slot is the connection's: the link gives it back)
        links.add(link)
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
        finally:
            links.discard(link)

    server = await asyncio.start_server(on_connect, host, port, limit=READ_LIMIT)
    for sock in server.sockets:     # an accepted connection takes its buffers from the listener's
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SOCKET_BUFFER)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
    return server


def bound_port(server: asyncio.Server) -> int:
    """The TCP port a server listens on (useful after ``port=0``)."""
    return server.sockets[0].getsockname()[1]
