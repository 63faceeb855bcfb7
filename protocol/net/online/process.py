"""The wormhole process: magic-wormhole and Dilation under Twisted, apart from the app's event loop.

Run as ``python -m lanterne.protocol.net.online.process`` by :mod:`.code`,
one process per code. It reads its job from stdin (:mod:`.control`), then:

1. ``invite`` allocates a code, ``accept`` claims the one typed; the code's
   SPAKE2 gives both sides one key, and a wrong code fails both sides;
2. each side's identity key travels in the wormhole's app versions, which
   only the holder of the code can encrypt: the key that arrives is the one
   the code authenticated (``peer``);
3. Dilation connects the two (direct when a side is reachable, else through
   the transit relay, again by itself after a cut); the joiner opens one
   subchannel, :data:`SUBPROTOCOL`, and one more for each ``open`` its app
   sends (a link to resume);
4. each subchannel becomes a TCP listener on 127.0.0.1 (``stream``) that
   splices the first connection presenting the stream's token into the
   subchannel, bytes both ways, with back-pressure. The app's Noise link
   runs over it unchanged and accepts only the ``peer`` key, so the
   mailbox, the relay and this process carry nothing but ciphertext.

stdin closing ends it all: the wormhole closes (the nameplate is released)
and the process exits.
"""

from __future__ import annotations

import os
import socket
import sys
from typing import Callable, Protocol, cast

from twisted.internet import defer, endpoints, protocol, reactor, stdio
from twisted.internet.interfaces import ITransport
from twisted.python import failure
import wormhole
from wormhole import errors as wormhole_errors
from wormhole._dilation.connection import DilatedConnectionProtocol

from lanterne.protocol import wire

from . import control

SUBPROTOCOL = "lanterne/link/v1"
VERSION = 1
"""Of what a side says about itself in the wormhole's app versions: ``{"lanterne": {"v": 1, "key": hex}}``."""
CODE_WORDS = 2
SUBCHANNEL_CLOSE_WAIT = 3.0
"""Seconds the peer gets to confirm the subchannels' end before the wormhole closes anyway."""
END_WAIT = 6.0
"""Seconds from stdin's end to the process's, whatever the servers answer (the app, gone, cannot kill it)."""


def prompt_tcp() -> None:
    """Dilation's TCP connections send each record at once and acknowledge each one at once.

    magic-wormhole leaves Nagle on: a move written just after Dilation's own
    ACK record waits for the TCP acknowledgement of that record, which the
    other end delays by up to 40 ms (89 ms instead of a few per round trip
    through a local relay). Our sockets turn Nagle off; a stock transit relay
    keeps it on for its own, so our end also acknowledges every segment it
    reads at once (``TCP_QUICKACK``, re-armed on each read: Linux drops it when
    traffic looks interactive), which frees what the relay holds back.
    """
    if getattr(DilatedConnectionProtocol, "lanterne_prompt_tcp", False):
        return
    made = DilatedConnectionProtocol.connectionMade
    received = DilatedConnectionProtocol.dataReceived

    def connection_made(self) -> None:
        set_no_delay = getattr(self.transport, "setTcpNoDelay", None)
        if set_no_delay is not None:
            set_no_delay(True)
        made(self)

    def data_received(self, data: bytes) -> None:
        acknowledge_now(self.transport)
        received(self, data)

    DilatedConnectionProtocol.connectionMade = connection_made
    DilatedConnectionProtocol.dataReceived = data_received
    DilatedConnectionProtocol.lanterne_prompt_tcp = True


def acknowledge_now(transport: object) -> None:
    """Send the TCP acknowledgement of what was just read now, not up to 40 ms later (Linux; elsewhere, or
    on a transport that is no TCP socket, nothing)."""
    get_handle = getattr(transport, "getHandle", None)
    if QUICKACK is None or get_handle is None:
        return
    try:
        get_handle().setsockopt(socket.IPPROTO_TCP, QUICKACK, 1)
    except (OSError, AttributeError):
        pass


QUICKACK = getattr(socket, "TCP_QUICKACK", None)


class Pipe(Protocol):
    """What this process uses of a Twisted transport.

    Twisted declares its transports and its reactor as zope interfaces, whose methods
    mypy reads without ``self`` (it needs the mypy-zope plugin for them), so the calls
    made here go through these views (:func:`pipe`, :data:`loop`).
    """

    def write(self, data: bytes, /) -> None: ...
    def loseConnection(self) -> None: ...
    def registerProducer(self, _producer: object, _streaming: bool, /) -> None: ...


class TCPPipe(Pipe, Protocol):
    def setTcpNoDelay(self, _enabled: bool, /) -> None: ...


class Loop(Protocol):
    """What this process uses of the reactor (see :class:`Pipe`)."""

    running: bool

    def callLater(self, _delay: float, _call: Callable[[], object], /) -> object: ...
    def stop(self) -> None: ...


loop = cast(Loop, reactor)


def pipe(transport: ITransport | None) -> Pipe:
    """A protocol's transport, connected."""
    if transport is None:
        raise ConnectionError("the connection is not open")
    return cast(Pipe, transport)


class NotLanterne(Exception):
    """The other side of the code said nothing a Lanterne says about itself."""


def peer_key(versions: object) -> bytes:
    """The identity key in the peer's app versions, or NotLanterne."""
    mine = versions.get("lanterne") if isinstance(versions, dict) else None
    if not isinstance(mine, dict) or mine.get("v") != VERSION:
        raise NotLanterne("it says no Lanterne version 1")
    try:
        key = bytes.fromhex(mine.get("key", ""))
    except (TypeError, ValueError):
        raise NotLanterne("its key is not hexadecimal") from None
    if len(key) != 32:
        raise NotLanterne(f"its key has {len(key)} bytes, not 32")
    return key


def failure_of(reason: failure.Failure) -> tuple[str, str]:
    """A Twisted failure as a ``failed`` message's (why, detail)."""
    e = reason.value
    detail = wire.printable(" ".join(str(a) for a in getattr(e, "args", ())) or type(e).__name__)[:200]
    if isinstance(e, wormhole_errors.WrongPasswordError):
        return control.WRONG_CODE, detail
    if isinstance(e, wormhole_errors.ServerConnectionError):
        return control.MAILBOX_DOWN, detail
    if isinstance(e, wormhole_errors.ServerError) and "crowded" in detail:
        return control.WRONG_CODE, detail        # a third side on a nameplate: the code was used already
    if isinstance(e, NotLanterne):
        return control.NOT_LANTERNE, detail
    return control.CLOSED, detail


class Splice(protocol.Protocol):
    """One end of a spliced pair: what it reads goes to ``other``; when it goes, ``other`` goes too."""

    def __init__(self) -> None:
        self.other: Splice | None = None
        self.pending: list[bytes] = []

    def join(self, other: "Splice") -> None:
        """Splice ``self`` (the app's local connection) with ``other`` (its subchannel)."""
        self.other, other.other = other, self
        # A full Dilation queue pauses the app's reads. Not the other way: in magic-wormhole 0.24 a
        # subchannel cannot pause (its resumeProducing ends in DilatedConnectionProtocol.resumeProducing,
        # which does not exist), so what the peer sends waits in this process until the app reads it.
        pipe(other.transport).registerProducer(self.transport, True)
        for side, to in ((self, other), (other, self)):
            for data in side.pending:
                pipe(to.transport).write(data)
            side.pending.clear()

    def dataReceived(self, data: bytes) -> None:
        if self.other is None:
            self.pending.append(data)
        else:
            pipe(self.other.transport).write(data)

    def connectionLost(self, reason=None) -> None:
        if self.other is not None and self.other.transport is not None:
            pipe(self.other.transport).loseConnection()


class SubchannelEnd(Splice):
    """A Dilation subchannel; on arrival it asks for its local stream (:class:`LocalEnd`)."""

    def __init__(self, session: "Session"):
        super().__init__()
        self.session = session

    def connectionMade(self) -> None:
        self.session.subchannels.add(self)
        self.session.offer(self)

    def connectionLost(self, reason=None) -> None:
        super().connectionLost(reason)
        self.session.subchannels.discard(self)
        self.session.subchannel_closed()


class Subchannels(protocol.Factory):
    def __init__(self, session: "Session"):
        self.session = session

    def buildProtocol(self, _addr: object) -> SubchannelEnd:
        return SubchannelEnd(self.session)


class LocalEnd(Splice):
    """A connection from 127.0.0.1; it joins its subchannel once it wrote the stream's token."""

    def __init__(self, offer: "Offer"):
        super().__init__()
        self.offer = offer
        self.head = b""

    def connectionMade(self) -> None:
        cast(TCPPipe, pipe(self.transport)).setTcpNoDelay(True)    # a move is one small write: never held for Nagle

    def dataReceived(self, data: bytes) -> None:
        if self.other is not None:
            return super().dataReceived(data)
        self.head += data
        if len(self.head) < control.TOKEN_BYTES:
            return
        token, rest = self.head[:control.TOKEN_BYTES], self.head[control.TOKEN_BYTES:]
        if not self.offer.take(self, token):
            pipe(self.transport).loseConnection()    # not the app: another program on this machine
            return
        if rest:
            super().dataReceived(rest)


class Offer(protocol.Factory):
    """A 127.0.0.1 listener for one subchannel, closed once the app's connection arrived."""

    def __init__(self, subchannel: SubchannelEnd):
        self.subchannel = subchannel
        self.token = os.urandom(control.TOKEN_BYTES)
        self.port = None

    def buildProtocol(self, _addr: object) -> LocalEnd:
        return LocalEnd(self)

    def take(self, local: LocalEnd, token: bytes) -> bool:
        if self.subchannel.other is not None or token != self.token:
            return False
        local.join(self.subchannel)
        if self.port is not None:
            self.port.stopListening()
        return True


class Session:
    """One wormhole, from the job to the end; reports each step on ``send``."""

    def __init__(self, job: dict, send):
        self.job = job
        self.send = send
        self.wormhole = None
        self.route: tuple[bool, str] | None = None
        self.ended = False
        self.subchannels: set[SubchannelEnd] = set()
        self.dilated = None
        self._all_closed: defer.Deferred | None = None

    def start(self) -> None:
        defer.ensureDeferred(self._run()).addErrback(self.fail)

    async def _run(self) -> None:
        job = self.job
        versions = {"lanterne": {"v": VERSION, "key": job["key"].hex()}}
        self.wormhole = w = wormhole.create(job["appid"], job["mailbox"], reactor, versions=versions,
                                            dilation=True)
        if job["t"] == "invite":
            w.allocate_code(CODE_WORDS)
        else:
            w.set_code(job["code"])
        self.send("code", code=await w.get_code())
        key = peer_key(await w.get_versions())          # their versions opened: the code was right
        verifier = await w.get_verifier()
        self.send("peer", key=key, verifier=verifier)
        dilated = w.dilate(transit_relay_location=job["relay"] or None, no_listen=not job["direct"],
                           on_status_update=self._dilation_status)
        await dilated.listener_for(SUBPROTOCOL).listen(Subchannels(self))
        self.dilated = dilated
        if job["t"] == "accept":
            await dilated.connector_for(SUBPROTOCOL).connect(Subchannels(self))

    def open(self) -> None:
        """The joiner's app asks for one more subchannel (its link to the peer closed: it resumes over a new
        one, on the same Dilation). Dilation opens it once it is connected; a failure is the app's timeout."""
        if self.dilated is None or self.ended or self.job["t"] != "accept":
            return
        opening = defer.ensureDeferred(self.dilated.connector_for(SUBPROTOCOL).connect(Subchannels(self)))
        opening.addErrback(lambda reason: print(f"no new subchannel: {reason.getErrorMessage()}", file=sys.stderr))

    def offer(self, subchannel: SubchannelEnd) -> None:
        """A new subchannel: listen for the app's connection to it, and tell the app where."""
        offer = Offer(subchannel)

        def listening(port) -> None:
            offer.port = port
            self.send("stream", port=port.getHost().port, token=offer.token)

        endpoint = endpoints.TCP4ServerEndpoint(reactor, 0, interface="127.0.0.1")
        endpoint.listen(offer).addCallbacks(listening, self.fail)

    def _dilation_status(self, status) -> None:
        peer = status.peer_connection
        connected = type(peer).__name__ == "ConnectedPeer"
        route = (connected, getattr(peer, "hint_description", "") if connected else type(peer).__name__)
        if route != self.route and (connected or self.route is not None):
            self.route = route
            self.send("route", connected=route[0], via=route[1])

    def fail(self, reason: failure.Failure) -> None:
        if self.ended:
            return
        why, detail = failure_of(reason)
        self.send("failed", why=why, detail=detail)
        self.end()

    def subchannel_closed(self) -> None:
        if not self.subchannels and self._all_closed is not None and not self._all_closed.called:
            self._all_closed.callback(None)

    def end(self) -> defer.Deferred:
        """Close the subchannels (the peer sees its link end, not a silence), then the wormhole
        (releasing the nameplate), and stop."""
        if self.ended:
            return defer.succeed(None)
        self.ended = True
        loop.callLater(END_WAIT, stop)       # a mailbox gone never confirms the close: end anyway
        self._all_closed = defer.Deferred()
        self._all_closed.addTimeout(SUBCHANNEL_CLOSE_WAIT, reactor)      # a peer gone never confirms
        for subchannel in list(self.subchannels):
            try:
                pipe(subchannel.transport).loseConnection()
            except Exception:       # closing already (its local stream went first)
                pass
        self.subchannel_closed()
        closing = self._all_closed.addErrback(lambda _: None)
        if self.wormhole is not None:
            closing.addCallback(lambda _: self.wormhole.close())
        closing.addErrback(lambda _: None)       # a wormhole that never met its peer closes "lonely"
        closing.addBoth(lambda _: loop.callLater(0, stop))
        return closing


class Control(protocol.Protocol):
    """stdin and stdout: the job comes in, the steps go out; stdin closing is the end."""

    def __init__(self) -> None:
        self.decoder = control.Decoder(*control.APP_SENDS)
        self.session: Session | None = None

    def write(self, kind: str, **fields) -> None:
        if self.transport is not None:
            pipe(self.transport).write(control.encode(kind, **fields))

    def dataReceived(self, data: bytes) -> None:
        try:
            messages = self.decoder.feed(data)
        except control.ControlError as e:
            self.write("failed", why=control.CLOSED, detail=str(e))
            stop()
            return
        for job in messages:
            if self.session is None and job["t"] != "open":
                self.session = Session(job, self.write)
                self.session.start()
            elif self.session is not None and job["t"] == "open":
                self.session.open()

    def connectionLost(self, reason=None) -> None:
        if self.session is None:
            stop()
        else:
            self.session.end()


def stop() -> None:
    if loop.running:
        loop.stop()


def main() -> None:
    prompt_tcp()
    stdio.StandardIO(Control())
    # IReactorCore.run declares no installSignalHandlers, which every reactor's run takes
    reactor.run(installSignalHandlers=False)  # type: ignore[call-arg,misc]
    sys.stdout.flush()


if __name__ == "__main__":
    main()
