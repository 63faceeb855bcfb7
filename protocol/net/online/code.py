"""A short code instead of a LAN: :func:`invite` makes one, :func:`accept` takes one; asyncio side.

Both start a wormhole process (:mod:`.process`) and follow what it reports
(:mod:`.control`). The result, :meth:`Wormhole.connected`, is the peer's
identity key as the code authenticated it and a :class:`~..transport.Link`
over a Dilation subchannel: the same link as over TCP, not yet
authenticated. Run the Noise handshake on it with ``expect=peer_key`` on
*both* sides (:func:`..invite.authenticate`): the link then belongs to
exactly the key the code vouched for, and no safety code needs comparing.

Nothing of the wormhole runs on this event loop: Twisted, SPAKE2 and
Dilation's own encryption run in the process; here there is one pipe and one
local TCP connection per stream.
"""

from __future__ import annotations

import asyncio
import collections
import sys
from dataclasses import dataclass

from lanterne.protocol import identity as ids

from ..clock import MONOTONIC, Clock
from ..transport import Link, LinkOptions, within
from . import control
from .servers import Servers

INVITE_WAIT = 600.0
"""Seconds an invitation waits for its friend; then the code is void (the table stays open on the LAN)."""
ACCEPT_WAIT = 30.0
"""Seconds a joiner waits for the code's other side: a live code's inviter is at the mailbox already."""
CONNECT_WAIT = 60.0
"""Seconds from the keys exchanged to the link (Dilation tries direct, then the relay)."""
CLOSE_WAIT = 8.0
"""Seconds the process gets to close its wormhole (releasing the nameplate) before it is killed."""
PROCESS = "lanterne.protocol.net.online.process"


class OnlineError(ConnectionError):
    """A code that did not make a link; one line for the user."""


@dataclass(frozen=True)
class Connected:
    """The other side of the code: its identity key (authenticated by the code) and a link to it."""

    peer_key: bytes
    verifier: bytes
    """The wormhole's verifier: equal on both sides (the code's key confirmation)."""
    link: Link

    @property
    def fingerprint(self) -> str:
        return ids.fingerprint(self.peer_key)


class Wormhole:
    """One code and its process. Make one with :func:`invite` or :func:`accept`."""

    def __init__(self, me: ids.Identity, servers: Servers, *, joiner: bool, direct: bool = True,
                 options: LinkOptions = LinkOptions(), clock: Clock = MONOTONIC):
        self.me = me
        self.clock = clock
        """What times this code's waits and links (the peer's clock: a code's link is timed as a LAN link is)."""
        self.servers = servers
        self.joiner = joiner
        """We took the code: the Noise initiator, as the side that connects over TCP."""
        self.direct = direct
        """Dilation may listen and offer this machine's addresses to the peer (False: through the relay only)."""
        self.options = options
        self.code: str | None = None
        self.peer_key: bytes | None = None
        self.route: str = ""
        """How Dilation reaches the peer now (``->tcp:HOST:PORT``, ``->relay:tcp:...``; "" before)."""
        self.connected_route = asyncio.Event()
        self._process: asyncio.subprocess.Process | None = None
        self._decoder = control.Decoder(*control.PROCESS_SENDS)
        loop = asyncio.get_running_loop()
        self._code = loop.create_future()
        self._peer = loop.create_future()
        self._result = loop.create_future()
        self._verifier = b""
        self._errors: collections.deque[str] = collections.deque(maxlen=5)
        self._tasks: list[asyncio.Task] = []
        self._links: list[Link] = []
        self._more: asyncio.Queue[Link] = asyncio.Queue()
        """The links of the subchannels after the first (a link to resume), as they come."""
        self._opening = False

    async def start(self, kind: str, **fields) -> None:
        """Start the process on its job: ``invite``, or ``accept`` with the ``code``."""
        job = control.encode(kind, mailbox=self.servers.mailbox, relay=self.servers.relay,
                             appid=self.servers.appid, key=self.me.public, direct=self.direct, **fields)
        process = self._process = await asyncio.create_subprocess_exec(
            sys.executable, "-P", "-m", PROCESS, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, start_new_session=True)
        # -P: nothing from the current folder shadows a module; a new session: the terminal's Ctrl-C is the app's
        stdin, stdout, stderr = process.stdin, process.stdout, process.stderr
        assert stdin is not None and stdout is not None and stderr is not None     # (all three are pipes)
        stdin.write(job)
        self._tasks = [asyncio.create_task(self._read_events(process, stdout), name="wormhole-events"),
                       asyncio.create_task(self._read_errors(stderr), name="wormhole-stderr")]

    # -- what the process says
    async def _read_events(self, process: asyncio.subprocess.Process, stdout: asyncio.StreamReader) -> None:
        try:
            while data := await stdout.read(65536):
                for msg in self._decoder.feed(data):
                    await self._take(msg)
            await process.wait()
            last = self._errors[-1][:200] if self._errors else f"exit status {process.returncode}"
            self._fail(f"the wormhole process stopped ({last})")
        except control.ControlError as e:
            self._fail(str(e))

    async def _take(self, msg: dict) -> None:
        kind = msg["t"]
        if kind == "code":
            self.code = msg["code"]
            if not self._code.done():
                self._code.set_result(self.code)
        elif kind == "peer":
            self.peer_key, self._verifier = msg["key"], msg["verifier"]
            if not self._peer.done():
                self._peer.set_result(self.peer_key)
        elif kind == "stream":
            await self._open_stream(msg["port"], msg["token"])
        elif kind == "route":
            self.route = msg["via"] if msg["connected"] else ""
            if msg["connected"]:
                self.connected_route.set()
            else:
                self.connected_route.clear()
        elif kind == "failed":
            self._fail(control.failure_text(msg["why"], msg["detail"], self.servers.mailbox))

    async def _open_stream(self, port: int, token: bytes) -> None:
        if self.peer_key is None:
            return      # a stream before the key is a process bug, never used
        try:
            reader, writer = await within(
                asyncio.open_connection("127.0.0.1", port, limit=self.options.max_frame + 16),
                self.options.connect_timeout)
        except (OSError, asyncio.TimeoutError) as e:
            self._fail(f"cannot reach the wormhole process's stream on 127.0.0.1:{port}: {e}")
            return
        writer.write(token)             # before the link's preface: proves this is the app
        link = Link(reader, writer, self.options, initiator=self.joiner, clock=self.clock)
        self._links.append(link)
        if not self._result.done():
            self._result.set_result(Connected(self.peer_key, self._verifier, link))
        else:
            self._opening = False
            self._more.put_nowait(link)

    async def _read_errors(self, stderr: asyncio.StreamReader) -> None:
        while line := await stderr.readline():
            text = line.decode("utf-8", "replace").strip()
            if text:
                self._errors.append(text)

    def _fail(self, reason: str) -> None:
        for future in (self._code, self._peer, self._result):
            if not future.done():
                future.set_exception(OnlineError(reason))
                future.exception()      # read here too: a failure nobody awaited is no warning

    # -- the user's side
    @property
    def process_id(self) -> int | None:
        """The wormhole process's pid (None before it started)."""
        return self._process.pid if self._process is not None else None

    @property
    def running(self) -> bool:
        """The wormhole process has not ended."""
        return self._process is not None and self._process.returncode is None

    async def wait_code(self) -> str:
        return await asyncio.shield(self._code)

    async def connected(self, timeout: float | None = None, connect_timeout: float = CONNECT_WAIT) -> Connected:
        """The peer and the link to it; OnlineError (one line) if the code fails or nobody comes in time.

        ``timeout``: seconds for the other side to come (default INVITE_WAIT for an invitation,
        ACCEPT_WAIT for a joiner); the connection then has ``connect_timeout`` more.
        """
        if timeout is None:
            timeout = ACCEPT_WAIT if self.joiner else INVITE_WAIT
        for future, seconds in ((self._peer, timeout), (self._result, connect_timeout)):
            try:
                await within(asyncio.shield(future), seconds, self.clock)
            except asyncio.TimeoutError:
                await self.close()
                raise OnlineError(self._timeout_reason(seconds)) from None
        return self._result.result()

    async def next_link(self) -> Link:
        """The next link over this code's Dilation after the first (the inviter: a guest resuming)."""
        return await self._more.get()

    async def open_link(self, timeout: float = CONNECT_WAIT) -> Link:
        """A new link to the peer over the same Dilation (the joiner, once its link closed: it resumes as a LAN
        seat redials). One subchannel is asked for at a time; OnlineError if none came within ``timeout``."""
        process, key = self._process, self.peer_key
        if not self.running or not self._result.done() or process is None or process.stdin is None or key is None:
            raise OnlineError("the code's link is not up")
        if not self._opening:
            self._opening = True
            process.stdin.write(control.encode("open"))
        try:
            return await within(self._more.get(), timeout, self.clock)
        except asyncio.TimeoutError:
            raise OnlineError(f"no new link to {ids.fingerprint(key)} within {timeout:g} s") from None

    def _timeout_reason(self, timeout: float) -> str:
        if self.peer_key is not None:
            return (f"the code found {ids.fingerprint(self.peer_key)}, but no connection to it came within "
                    f"{timeout:g} s (is the transit relay {self.servers.relay or 'off'} reachable?)")
        if self.joiner:
            return f"nobody is waiting on {self.code} (it was used already, or it expired, or it was never made)"
        return f"nobody came with {self.code} within {timeout:g} s: the code is void now"

    async def close(self) -> None:
        """End the process: its wormhole closes (the nameplate is released). The link, if any, goes too."""
        process = self._process
        if process is None:
            return
        for link in self._links:
            await link.close("the code's link is closed")     # the peer reads why, then the end
        if process.returncode is None:
            if process.stdin is not None and not process.stdin.is_closing():
                process.stdin.close()
            try:
                await within(process.wait(), CLOSE_WAIT)
            except asyncio.TimeoutError:
                process.kill()
                await process.wait()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._fail("the code was closed")

    async def __aenter__(self) -> "Wormhole":
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()


async def invite(me: ids.Identity, servers: Servers = Servers(), *, direct: bool = True,
                 options: LinkOptions = LinkOptions(), clock: Clock = MONOTONIC) -> Wormhole:
    """Make a code for one friend: returns once the code is known (``.code``); OnlineError if it cannot be."""
    wormhole = Wormhole(me, servers, joiner=False, direct=direct, options=options, clock=clock)
    await wormhole.start("invite")
    try:
        await wormhole.wait_code()
    except BaseException:
        await wormhole.close()
        raise
    return wormhole


async def accept(code: str, me: ids.Identity, servers: Servers = Servers(), *, direct: bool = True,
                 options: LinkOptions = LinkOptions(), clock: Clock = MONOTONIC) -> Wormhole:
    """Take a friend's code (ValueError with one line if it is not one); then await ``.connected()``."""
    code = control.clean_code(code)
    wormhole = Wormhole(me, servers, joiner=True, direct=direct, options=options, clock=clock)
    wormhole.code = code
    await wormhole.start("accept", code=code)
    return wormhole


async def meet(code: str, me: ids.Identity, servers: Servers = Servers(), *, direct: bool = True,
               options: LinkOptions = LinkOptions(), clock: Clock = MONOTONIC) -> Wormhole:
    """Take a code both sides know already (made from their table, :func:`.table.pair_code`), waiting for the
    other side's subchannel as an inviter does; then await ``.connected()``."""
    wormhole = Wormhole(me, servers, joiner=False, direct=direct, options=options, clock=clock)
    wormhole.code = control.clean_code(code)
    await wormhole.start("meet", code=wormhole.code)
    return wormhole
