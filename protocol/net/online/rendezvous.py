"""How two seats that met by a code meet again after a restart, without a new code: :class:`Rendezvous`.

A code's wormhole lives in its process, so a restart (of one app or of both)
loses it. But both sides of a code hold its *verifier*, the same 32 bytes on
each side, a hash of the key SPAKE2 agreed: nobody else has it (the mailbox
never learns that key; the table's spectators never see it). Each side keeps
a secret made from it in the game's ``<table>.meet`` file (owner-only, beside
the log and the seed), with the servers the code used.

Whenever the link to that seat is down, both sides make the same code from
the secret, the table's id and the current time window (:func:`meet_code`,
a new code every :data:`WINDOW` seconds) and take it at the mailbox; the
later seat dials over it (its ``Mesh.by_code`` entry), the earlier one
waits on it and admits what comes, as a host admits a resume. A code burnt
(a crashed process's claim left at the mailbox, a wrong guess) costs one
window: the next window has another. Whoever learns the secret can at most
make an attempt fail: the Noise handshake on the link still expects exactly
the key of the roster's seat.

Bounds: one attempt per window per pair on each side (one wormhole process,
one nameplate at the mailbox), only while that pair is not linked, until
the game ends; every wormhole that carried the pair's link before the
newest one is closed.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from typing import TYPE_CHECKING, Callable

from ..clock import nap
from ..files import write_private
from ..transport import Link
from . import control
from .code import OnlineError, Wormhole, accept, meet
from .servers import Servers, ServersError

if TYPE_CHECKING:
    from ..peer import Peer

WINDOW = 60.0
"""Seconds one rendezvous code lives: both machines' clocks must agree to well within it."""
LAST_CALL = 15.0
"""A window with less than this left is skipped for the next one (both sides need time to come)."""
GRACE = 3.0
"""Seconds a waiting seat leaves the old wormhole to bring its link back before it waits on a new code."""
REOPEN_WAIT = 10.0
"""Seconds a dialer gives a live Dilation for a new link before it meets on a new code instead."""
REOPEN_HELD = 30.0
"""A link the old Dilation gave that was lost again within this many seconds did not hold: meet on a new code.
(Dilation may say it is connected to a peer that is gone, and open a subchannel to nobody.)"""
FILE_MAX = 16384
SUFFIX = ".meet"


def secret_of(verifier: bytes) -> bytes:
    """The pair's secret, from the verifier of the code that first linked it (equal on both sides)."""
    return hashlib.sha256(b"lanterne rendezvous secret v1\0" + verifier).digest()


def meet_code(secret: bytes, table_id: bytes, window: int) -> str:
    """The code a pair of seats meets by in ``window`` (time // WINDOW): the same on both sides, a new one each
    window, nothing anyone without the secret can make."""
    digest = hmac.new(secret, b"lanterne rendezvous code v1\0" + table_id + window.to_bytes(8, "big"),
                      hashlib.sha256).digest()
    return control.derived_code(digest)


class Rendezvous:
    """A seat's pairs that came by a code: their secrets, the wormhole carrying each now, the attempts to meet
    again. ``run()`` lives as long as the table; ``met()`` records a pair as its code links it."""

    def __init__(self, peer: "Peer", servers: Servers, direct: bool, *, wall: Callable[[], float] = time.time,
                 secrets: dict[bytes, bytes] | None = None):
        self.peer = peer
        self.servers = servers
        self.direct = direct
        self.wall = wall
        """The wall clock the windows are counted on (both sides' must agree; the peer's clock need not)."""
        self.secrets: dict[bytes, bytes] = dict(secrets or {})
        self.wormholes: dict[bytes, Wormhole] = {}
        """The wormhole carrying each pair's link now (the code's, or the newest rendezvous')."""
        self._tried: dict[bytes, int] = {}
        """The last window a dialer tried for each pair."""
        self._reopened: dict[bytes, float] = {}
        """When a dialer last took a link from a pair's old Dilation (on the peer's clock)."""
        self._ours: list[Wormhole] = []
        self._tasks: list[asyncio.Task] = []
        self._admitting: dict[bytes, asyncio.Task] = {}
        """The earlier seat's admission of each pair's links over its newest wormhole (the one before is closed)."""
        self._started: set[bytes] = set()
        peer.mesh.came_by_code.update(self.secrets)

    # -- the file
    @classmethod
    def load(cls, peer: "Peer") -> "Rendezvous | None":
        """The rendezvous a restarted seat's files keep (None: no seat of this table came by a code)."""
        path = peer.files.stem.with_suffix(SUFFIX)
        try:
            data = json.loads(path.read_bytes()[:FILE_MAX])
            servers = Servers(mailbox=data["mailbox"], relay=data["relay"], appid=data["appid"])
            secrets = {bytes.fromhex(k): bytes.fromhex(v) for k, v in data["pairs"].items()}
            direct = bool(data["direct"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, AttributeError, ServersError) as e:
            peer.say(f"{path.name}: cannot read the codes' rendezvous ({type(e).__name__}: {e}); the seats that "
                     f"came by a code need a new one")
            return None
        if not all(len(k) == 32 and len(v) == 32 for k, v in secrets.items()):
            peer.say(f"{path.name}: a rendezvous entry is not 32 bytes; the seats that came by a code need a new one")
            return None
        return cls(peer, servers, direct, secrets=secrets)

    def save(self) -> None:
        """Write the secrets (owner-only) once the table has its files."""
        if not self.peer.table_id or not self.secrets:
            return
        data = {"mailbox": self.servers.mailbox, "relay": self.servers.relay, "appid": self.servers.appid,
                "direct": self.direct, "pairs": {k.hex(): v.hex() for k, v in self.secrets.items()}}
        write_private(self.peer.files.stem.with_suffix(SUFFIX), json.dumps(data, sort_keys=True).encode())

    # -- recording a pair
    def met(self, key: bytes, verifier: bytes, wormhole: Wormhole) -> None:
        """A code linked us with ``key``: keep its secret (the first code's: both sides keep that one)."""
        self.secrets.setdefault(key, secret_of(verifier))
        self.peer.mesh.came_by_code.add(key)
        self.wormholes.setdefault(key, wormhole)
        self.save()
        self._watch(key)

    # -- running
    async def run(self) -> None:
        """Until cancelled: once the table is set, keep every pair that came by a code able to meet again."""
        peer = self.peer
        while not (peer.seats and peer.table_id):
            await nap(peer.clock, 1.0, poll=0.05)
        self.save()
        for key in list(self.secrets):
            self._watch(key)
        await asyncio.Event().wait()

    def _watch(self, key: bytes) -> None:
        """The later seat of the pair dials over the rendezvous; the earlier one waits on it."""
        peer = self.peer
        keys = peer.keys()
        if key in self._started or key not in keys or not peer.table_id or peer.me.public not in keys:
            return
        self._started.add(key)
        if keys.index(key) < keys.index(peer.me.public):
            peer.mesh.by_code[key] = lambda: self.link(key)
        else:
            self._tasks.append(asyncio.ensure_future(self._wait(key)))

    def _window(self) -> tuple[int, float]:
        """The window to meet in now, and the seconds it has left (a window nearly over gives way to the next)."""
        now = self.wall()
        window = int(now // WINDOW)
        if (window + 1) * WINDOW - now < LAST_CALL:
            window += 1
        return window, (window + 1) * WINDOW - now

    def _code(self, key: bytes, window: int) -> str:
        return meet_code(self.secrets[key], self.peer.table_id, window)

    async def link(self, key: bytes) -> Link:
        """The dialer's new link to ``key`` (``Mesh.by_code``): over the live Dilation if there is one, else over
        this window's code (one attempt per window: a second call in the same window waits for the next)."""
        old, clock = self.wormholes.get(key), self.peer.clock
        held = clock() - self._reopened.get(key, -REOPEN_HELD) >= REOPEN_HELD
        if old is not None and old.running and old.connected_route.is_set() and held:
            try:
                link = await old.open_link(timeout=REOPEN_WAIT)
                self._reopened[key] = clock()
                return link
            except OnlineError:
                self.wormholes.pop(key, None)      # a Dilation that says it is up but opens nothing: meet anew
                await old.close()
        window, left = self._window()
        if self._tried.get(key) == window:
            await nap(self.peer.clock, left, poll=min(left, 1.0))
            window, left = self._window()
        self._tried[key] = window
        wormhole = await accept(self._code(key, window), self.peer.me, self.servers, direct=self.direct,
                                options=self.peer.options.link, clock=self.peer.clock)
        try:
            connected = await wormhole.connected(timeout=left)
            if connected.peer_key != key:
                raise OnlineError("the rendezvous code was taken by another key")
        except BaseException:
            await wormhole.close()
            raise
        await self._carrying(key, wormhole)
        return connected.link

    async def _wait(self, key: bytes) -> None:
        """The earlier seat: while ``key`` is not linked (past :data:`GRACE`), wait on each window's code and admit
        every link that comes over it, as a resume."""
        peer, clock = self.peer, self.peer.clock
        down_since: float | None = None
        while peer.session is None or not peer.session.over:
            if peer.linked(key):
                down_since = None
                await nap(clock, 0.5, poll=0.5)
                continue
            if down_since is None:
                down_since = clock()
            if key in self.wormholes and clock() - down_since < GRACE:     # the old Dilation may bring it back
                await nap(clock, 0.5, poll=0.5)
                continue
            window, left = self._window()
            try:
                wormhole = await meet(self._code(key, window), peer.me, self.servers, direct=self.direct,
                                      options=peer.options.link, clock=clock)
            except OSError:          # no process could start: try again in the next window
                await self._until_after(window)
                continue
            try:
                connected = await wormhole.connected(timeout=left)
            except OnlineError:
                await wormhole.close()
                await self._until_after(window)          # one attempt per window: a burnt code waits for the next
                continue
            if connected.peer_key != key:
                await wormhole.close()
                await self._until_after(window)
                continue
            await self._carrying(key, wormhole)
            before = self._admitting.get(key)
            if before is not None:
                before.cancel()
            self._admitting[key] = asyncio.ensure_future(self._admit_all(wormhole, connected.link, key))
            down_since = None

    async def _until_after(self, window: int) -> None:
        left = (window + 1) * WINDOW - self.wall()
        if left > 0:
            await nap(self.peer.clock, left, poll=min(left, 1.0))

    async def _admit_all(self, wormhole: Wormhole, link: Link, key: bytes) -> None:
        while True:
            self.peer.admit(link, key)
            link = await wormhole.next_link()

    async def _carrying(self, key: bytes, wormhole: Wormhole) -> None:
        """``wormhole`` carries the pair's link now; the one before it, if we made it, is closed."""
        old = self.wormholes.get(key)
        self.wormholes[key] = wormhole
        self._ours.append(wormhole)
        if old is not None and old in self._ours:
            self._ours.remove(old)
            await old.close()

    async def close(self) -> None:
        tasks = self._tasks + list(self._admitting.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(w.close() for w in self._ours), return_exceptions=True)


async def resume_by_code(peer: "Peer", run):
    """Run ``run`` (a restarted peer's ``run_host``/``run_guest`` coroutine) with the pairs its files say came by a
    code meeting again by rendezvous (none: ``run`` alone)."""
    rendezvous = Rendezvous.load(peer)
    if rendezvous is None:
        return await run
    keeping = asyncio.ensure_future(rendezvous.run())
    try:
        return await run
    finally:
        keeping.cancel()
        await asyncio.gather(keeping, return_exceptions=True)
        await rendezvous.close()


def came_by_code(meta_path) -> bool:
    """Whether a game's files keep a rendezvous (a seat of it came by a code): it resumes without a new code."""
    from pathlib import Path

    return Path(meta_path).with_suffix(SUFFIX).exists()
