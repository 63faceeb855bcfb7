"""The TCP edge of the links: dialing a peer, and a listener that owns every connection it accepts.

A :class:`Listener` counts a connection the moment ``accept`` returns, in
the same turn of the event loop, gives it a slot before its proof or
refuses it (:class:`.admission.Admission`), makes it a :class:`.transport.Link`
for its handler, and ends it: when the handler returns, when the listener
closes (a connection that is not a link yet is dropped), or when
:meth:`Listener.drop_links` drops the links it still serves. Whatever
the stranger sends meanwhile, nothing accepted stays open and unread once
the listener is done with it. (asyncio's own server hands a connection to
its handler a turn after accepting it; on Python 3.11 a connection
accepted in the turn that server closes is handed to nobody and stays
open, unread, until the garbage collector finds it.)
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass
from typing import Awaitable, Callable, Sequence

from .admission import Admission
from .budgets import MAX_STRANGERS, READ_LIMIT, SOCKET_BUFFER
from .clock import MONOTONIC, Clock, within
from .framing import PREFACE, encode_close
from .transport import Link, LinkClosed, LinkOptions, LinkTimeout

BACKLOG = 100
"""Connections the kernel completes for a listener before it accepts them (each accept takes them all)."""
ACCEPT_RETRY = 1.0
"""Seconds a listener out of descriptors or memory waits before it accepts again (the kernel keeps the rest)."""


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


@dataclass
class Accepted:
    """One accepted connection: its socket, then its transport, then its link."""

    sock: socket.socket
    transport: asyncio.Transport | None = None
    link: Link | None = None

    def drop(self) -> None:
        """Gone now, whatever it held: the transport aborted, or the bare socket closed."""
        if self.transport is not None:
            self.transport.abort()
        else:
            self.sock.close()


class Listener:
    """Listening sockets and every connection they accepted that is still open (see the module)."""

    def __init__(self, sockets: list[socket.socket], handler: Handler, options: LinkOptions, clock: Clock,
                 admission: Admission):
        self.sockets = sockets
        """The listening sockets (none once closed)."""
        self.admission = admission
        self._handler, self._options, self._clock = handler, options, clock
        self._accepted: dict[asyncio.Task, Accepted] = {}
        self._loop = asyncio.get_running_loop()
        for sock in sockets:
            self._loop.add_reader(sock.fileno(), self._accept, sock)

    @property
    def connections(self) -> int:
        """Connections accepted and not yet closed (links or not)."""
        return len(self._accepted)

    def _accept(self, sock: socket.socket) -> None:
        for _ in range(BACKLOG):
            try:
                conn, _ = sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError:     # out of descriptors or memory: the kernel holds the rest a moment
                self._loop.remove_reader(sock.fileno())
                self._loop.call_later(ACCEPT_RETRY, self._listen_again, sock)
                return
            conn.setblocking(False)
            accepted = Accepted(conn)
            task = self._loop.create_task(self._serve(accepted), name="accepted connection")
            self._accepted[task] = accepted
            task.add_done_callback(self._ended)

    def _listen_again(self, sock: socket.socket) -> None:
        if sock in self.sockets:
            self._loop.add_reader(sock.fileno(), self._accept, sock)

    def _ended(self, task: asyncio.Task) -> None:
        """Every accepted connection ends here, its task done or cancelled before it ever ran."""
        accepted = self._accepted.pop(task)
        if accepted.link is not None:
            self.admission.served.discard(accepted.link)
        accepted.drop()
        if not task.cancelled() and task.exception() is not None:     # a handler's bug: said, as asyncio does
            self._loop.call_exception_handler({"message": "a connection's handler failed",
                                               "exception": task.exception(), "task": task})

    async def _serve(self, accepted: Accepted) -> None:
        reader = asyncio.StreamReader(limit=READ_LIMIT)
        protocol = asyncio.StreamReaderProtocol(reader)
        try:
            transport, _ = await self._loop.connect_accepted_socket(lambda: protocol, accepted.sock)
        except OSError:     # (gone already: reset before we took it)
            return
        accepted.transport = transport
        writer = asyncio.StreamWriter(transport, protocol, reader, self._loop)
        address = (writer.get_extra_info("peername") or ("?", 0))[0]
        refusal = self.admission.enter(writer, address)
        if refusal is not None:
            try:
                writer.write(PREFACE + encode_close(refusal))
            except (ConnectionError, OSError, RuntimeError):
                pass
            return      # (then dropped: what the kernel did not take of the refusal is not worth waiting for)
        link = accepted.link = Link(reader, writer, self._options, clock=self._clock, admission=self.admission)
        self.admission.served.add(link)
        try:
            try:
                await self._handler(link)
            except LinkClosed:
                pass
            await link.close("the host is done with this connection")
        except asyncio.CancelledError:
            link.drop("the host is shutting down")   # (nobody awaits this task: the cancellation ends here)

    def close(self) -> None:
        """Stop listening; a connection accepted that is not a link yet is dropped."""
        for sock in self.sockets:
            self._loop.remove_reader(sock.fileno())
            sock.close()
        self.sockets = []
        for task, accepted in list(self._accepted.items()):
            if accepted.link is None:
                task.cancel()

    def drop_links(self, reason: str) -> None:
        """Drop every link still served on this account (``admission.served``: ours, and any other a peer
        serves on it), told ``reason`` if it has room for it; our handlers are cancelled."""
        for link in list(self.admission.served):
            link.drop(reason)
        for task in list(self._accepted):
            task.cancel()

    async def wait_closed(self) -> None:
        """Until every connection accepted has ended."""
        if self._accepted:
            await asyncio.wait(list(self._accepted))

    async def __aenter__(self) -> "Listener":
        return self

    async def __aexit__(self, *_exc: object) -> None:
        self.close()
        self.drop_links("the listener closed")
        await self.wait_closed()


async def listening(hosts: str | Sequence[str], port: int) -> list[socket.socket]:
    """Sockets listening on ``port`` at each of ``hosts`` (port 0: a free port, the same at every host once the
    first has one), with the accepted connections' kernel buffers set (each takes them from its listener)."""
    loop = asyncio.get_running_loop()
    sockets: list[socket.socket] = []
    try:
        for host in [hosts] if isinstance(hosts, str) else hosts:
            port = port or (sockets[0].getsockname()[1] if sockets else 0)
            infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
            for family, kind, proto, _, address in dict.fromkeys(infos):
                sock = socket.socket(family, kind, proto)
                sockets.append(sock)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SOCKET_BUFFER)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
                sock.bind(address)
                sock.listen(BACKLOG)
                sock.setblocking(False)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


async def serve(handler: Handler, host: str | Sequence[str], port: int = 0,
                options: LinkOptions = LinkOptions(), max_strangers: int | None = MAX_STRANGERS,
                clock: Clock = MONOTONIC, admission: Admission | None = None) -> Listener:
    """Listen on ``host:port`` (port 0: any free port; see :func:`bound_port`).

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
    return Listener(await listening(host, port), handler, options, clock, admission)


def bound_port(server: Listener | asyncio.Server) -> int:
    """The TCP port a listener listens on (useful after ``port=0``)."""
    return server.sockets[0].getsockname()[1]
