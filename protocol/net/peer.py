"""A network peer: one session, its log file, and the links that carry it.

This is where the sans-IO :class:`protocol.session.Session` meets sockets.
A :class:`NetPeer` owns one game: it writes every entry to the game's log
file before it is sent (the session's ``store``), moves for its seat when
a player (a bot, or the UI) says what to play, and survives its link:

* a dropped link (timeout, reset, cable) leaves the session as it was; the
  guest reconnects (to the last address, or wherever discovery now lists
  the host's fingerprint) and asks to ``resume``; both sides then send each
  other the entries the other lacks (the handshake says how many each
  holds) and play on;
* a crash is survived by the files: ``<table>.log`` (the chain),
  ``<table>.seed`` (the session's secret seed, owner-only) and
  ``<table>.json`` (who the other peer is, where it was, our role).
  :meth:`GameFiles.unfinished` finds them and :meth:`NetPeer.from_files`
  rebuilds the session (``Session.from_log``) and resumes;
* a peer gone longer than ``claim_after`` seconds while we wait for it
  lets us claim the game: the session writes a signed ``abort`` entry
  naming the absent seat (``Session.tick``), logged like any other.

The table id is the hash of the first entry (the host's hello): it names a
game before the game id exists and is what a ``resume`` asks for.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Awaitable, Callable, Sequence

from engines.core import TABLE, Action, Game, Player, RulesError
from engines.registry import get_game
from protocol.identity import Identity, fingerprint
from protocol.log import LogFormatError, LogWriter, open_entry, read_log
from protocol.wire import ProtocolError
from protocol.session import Aborted, GameOver, Moved, Session, TableSet

from .discovery import Advert, Discovery, TableHint
from .handshake import HandshakeError
from .invite import Answer, Declined, Request, ask, host_connection, join_request, resume_request
from .transport import Link, LinkClosed, LinkOptions, bound_port, serve, within

Say = Callable[[str], None]


@dataclass(frozen=True)
class PeerOptions:
    link: LinkOptions = LinkOptions(read_timeout=20.0, keepalive=5.0, connect_timeout=3.0)
    claim_after: float = 300.0
    """Seconds we wait for an absent peer before claiming the game."""
    reconnect_every: float = 0.5
    linger: float = 10.0
    """Seconds a host stays up after the end, for a guest that missed the last entries."""
    move_delay: float = 0.0
    """Seconds a bot waits before each move (tests use it to act mid-game)."""


class ResumeError(RuntimeError):
    """An unfinished game's files cannot be resumed; one line."""


# --------------------------------------------------------------------------
# Files


class GameFiles:
    """The three files of one game in ``folder``, named after the table id."""

    def __init__(self, folder: Path | str):
        self.folder = Path(folder)
        self.table_id: bytes = b""
        self._writer: LogWriter | None = None
        self.meta: dict = {}

    @property
    def stem(self) -> Path:
        return self.folder / self.table_id.hex()[:16]

    @property
    def log_path(self) -> Path:
        return self.stem.with_suffix(".log")

    def store(self, seed: bytes, meta: dict) -> Callable[[bytes], None]:
        """The session's ``store``: the first entry fixes the table id and creates the files."""

        def append(raw: bytes) -> None:
            if self._writer is None:
                self.table_id = hashlib.sha256(raw).digest()
                self.folder.mkdir(parents=True, exist_ok=True)
                _write_private(self.stem.with_suffix(".seed"), seed)
                self.meta = dict(meta, **self.meta, table=self.table_id.hex())
                self.save_meta()
                self._writer = LogWriter(self.log_path)
            self._writer.append(raw)

        return append

    def attach(self, table_id: bytes, meta: dict) -> Callable[[bytes], None]:
        """Go on writing an existing game's files (after a restart)."""
        self.table_id, self.meta = table_id, meta
        self._writer = LogWriter(self.log_path)
        return self._writer.append

    def update(self, **fields) -> None:
        """Change the meta file (kept in memory until the first entry creates the files)."""
        self.meta.update(fields)
        if self.table_id:
            self.save_meta()

    def save_meta(self) -> None:
        tmp = self.stem.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(self.meta, sort_keys=True, indent=1))
        os.replace(tmp, self.stem.with_suffix(".json"))

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    @staticmethod
    def unfinished(folder: Path | str) -> list[Path]:
        """Meta files of games in ``folder`` that did not end (newest first)."""
        out = []
        for meta in Path(folder).glob("*.json"):
            try:
                data = json.loads(meta.read_text())
            except (OSError, ValueError):
                continue
            if not data.get("over"):
                out.append(meta)
        return sorted(out, key=lambda p: p.stat().st_mtime, reverse=True)


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


# --------------------------------------------------------------------------
# The peer


@dataclass
class NetPeer:
    """One side of one network game. Make it with :meth:`host`, :meth:`guest` or :meth:`from_files`."""

    me: Identity
    name: str
    session: Session
    files: GameFiles
    player: Player | None
    options: PeerOptions = PeerOptions()
    say: Say = print
    peer_key: bytes | None = None
    address: tuple[str, int] | None = None
    link: Link | None = None
    discovery: Discovery | None = None
    _done: asyncio.Event = field(default_factory=asyncio.Event)
    on_events: Callable[[list], None] | None = None
    """Gets the session's events (Moved, TableSet, GameOver, Aborted...) for a UI."""
    _background: set = field(default_factory=set)
    _sent: int = 0

    # -- making one
    @classmethod
    def host(cls, me: Identity, name: str, game: Game, folder: Path | str, *, variant: str = "standard",
             player: Player | None = None, options: PeerOptions = PeerOptions(), say: Say = print,
             seed: bytes | None = None) -> "NetPeer":
        seed = seed or os.urandom(32)
        files = GameFiles(folder)
        meta = {"role": "host", "game": game.id, "variant": variant, "name": name}
        session = Session(me, host=True, name=name, game=game, players=2, variant=variant, seed=seed,
                          store=files.store(seed, meta), timeout=options.claim_after)
        peer = cls(me, name, session, files, player, options, say)
        peer._report(session.start())
        return peer

    @classmethod
    def guest(cls, me: Identity, name: str, folder: Path | str, *, player: Player | None = None,
              options: PeerOptions = PeerOptions(), say: Say = print, seed: bytes | None = None) -> "NetPeer":
        seed = seed or os.urandom(32)
        files = GameFiles(folder)
        session = Session(me, host=False, name=name, seed=seed, store=files.store(seed, {"role": "guest",
                                                                                          "name": name}),
                          timeout=options.claim_after)
        return cls(me, name, session, files, player, options, say)

    @classmethod
    def from_files(cls, me: Identity, meta_path: Path | str, *, player: Player | None = None,
                   options: PeerOptions = PeerOptions(), say: Say = print) -> "NetPeer":
        """Restart a game after a crash from its log, seed and meta files.

        Raises :class:`ResumeError` (one line) if they are missing or do not agree.
        """
        meta_path = Path(meta_path)
        meta, seed, table, raws = read_game_files(meta_path, say)
        files = GameFiles(meta_path.parent)
        store = files.attach(table, meta)  # what the session writes while it catches up is logged too
        try:
            game = get_game(meta["game"]) if meta.get("role") == "host" else None
            session = Session.from_log(raws, me, seed, store=store, timeout=options.claim_after,
                                       name=meta.get("name", ""), game=game, players=2,
                                       variant=meta.get("variant", "standard"))
        except (ProtocolError, RulesError, KeyError) as e:
            files.close()
            raise ResumeError(f"cannot resume {meta_path.stem}: {e}") from None
        peer = cls(me, meta.get("name", "?"), session, files, player, options, say)
        if meta.get("peer"):
            peer.peer_key = bytes.fromhex(meta["peer"])
        if meta.get("address"):
            peer.address = (meta["address"][0], int(meta["address"][1]))
        say(f"resuming table {meta['table'][:16]} from {len(raws)} logged entries")
        return peer

    @property
    def table_id(self) -> bytes:
        return self.files.table_id

    @property
    def role(self) -> str:
        return "host" if self.session.host else "guest"

    # -- the local player (a UI)
    async def act(self, action) -> None:
        """Play our seat's ``action`` (for a UI; bots move by themselves): logged, then sent if linked.

        Raises ``engines.core.IllegalAction`` (one line) if it cannot be played now.
        """
        self._report(self.session.act(action))
        link = self.link
        if link is not None and not link.closed:
            try:
                await self._send_out(link)
            except LinkClosed:
                pass  # the resume sends it

    # -- reporting
    def _report(self, events: list) -> None:
        if events and self.on_events is not None:
            self.on_events(list(events))
        for ev in events:
            line = event_line(ev, self.session)
            if line is not None:
                self.say(line)
        if self.session.over and not self._done.is_set():
            self.files.update(over=True)
            self.say(f"log: {self.files.log_path}")
            self._done.set()

    # -- one link
    async def _pump(self, link: Link, peer_have: int) -> None:
        """Carry the session over ``link`` until the game is over or the link drops.

        What goes out is read from the chain, not from the session's outbox:
        ``_sent`` counts the entries the peer holds or was sent on this link,
        so a link that replaces another one never loses an entry.
        """
        session = self.session
        self.link = link
        first = min(peer_have, len(session.chain))
        session.data_to_send()
        for entry in session.chain[first:]:  # all it lacks, whoever wrote them
            await link.send(entry.raw)
        self._sent = len(session.chain)
        self.say(f"linked with {fingerprint(self.peer_key)} at {link.peer[0]}:{link.peer[1]}; "
                 f"sent {self._sent - first} entries")
        while not session.over:
            if link is not self.link:
                raise LinkClosed("replaced by a newer link")
            if session.my_turn and self.player is not None:
                if self.options.move_delay:
                    await asyncio.sleep(self.options.move_delay)
                    if link is not self.link or session.over or not session.my_turn:
                        continue
                action = await think(self.player, session)
                if action is not None and link is self.link:
                    self._report(session.act(action))
                await self._send_out(link)
                continue
            try:
                raw = await within(link.recv(), 1.0)
            except asyncio.TimeoutError:
                self._tick()
                await self._send_out(link)
                continue
            await self._check_signed(link, raw)
            self._report(session.receive(raw, sender=self.peer_key))
            self._tick()
            await self._send_out(link)

    async def _check_signed(self, link: Link, raw: bytes) -> None:
        """Bytes not signed by the peer (or by us) are not the peer's: drop the link, not the game.

        The link proved the peer's key once, at the handshake; its frames
        carry no MAC, so bytes on it are not evidence against the peer
        (someone could inject them). An entry the peer *signed* is: the
        session judges it, and a breach ends the game with the evidence.
        """
        try:
            author = open_entry(raw).author
        except ProtocolError as e:
            reason = f"bytes not signed by the peer ({e})"
        else:
            if author in (self.peer_key, self.me.public):
                return
            reason = f"an entry signed by a stranger ({fingerprint(author)})"
        await link.close(reason[:120])
        raise LinkClosed(reason)

    async def _send_out(self, link: Link) -> None:
        """Send the chain's entries the peer lacks (not its own, which it has)."""
        session = self.session
        session.data_to_send()  # the chain is the outbox
        if link is not self.link:
            raise LinkClosed("replaced by a newer link")
        while self._sent < len(session.chain):
            entry = session.chain[self._sent]
            self._sent += 1
            if entry.author != self.peer_key:
                await link.send(entry.raw)

    def _tick(self) -> None:
        """Let time pass for the claim, when the claim clock runs.

        It runs while the other peer is *gone* (no link), and while it is
        linked but withholds an entry it writes without a choice (a fair-table
        step, its final reveal, its signature of the result): that is
        stalling. A linked player thinking over its move is not gone.
        """
        session = self.session
        linked = self.link is not None and not self.link.closed
        if linked and session.phase == "play" and session.game is not None \
                and not session.game.is_over(session.view) and session.game.next_actor(session.view) != TABLE:
            return
        self._report(session.tick(time.monotonic()))

    async def _idle_tick(self) -> None:
        """While no link is up: our moves are still made and logged (resume sends them), and
        time passes for the claim."""
        session = self.session
        while session.my_turn and self.player is not None and not session.over:
            action = await think(self.player, session)
            if action is not None:
                self._report(session.act(action))
        self._tick()
        session.data_to_send()  # no link: the next resume sends these

    # -- the host side
    async def run_host(self, interfaces: Sequence[str], port: int = 0, *, discover: bool = True,
                       accept: Callable[[Request], bool | Awaitable[bool]] | None = None) -> Session:
        """Open the table on ``interfaces``; play with the first accepted joiner to the end.

        ``accept`` decides on a join request (its proven name, fingerprint and
        safety code); it may be async, e.g. a dialog where a person compares
        the code aloud. None: the first joiner for this game takes the seat.
        """
        self._accept_policy = accept
        server = await self._listen(interfaces, port)
        port = bound_port(server)
        self.files.update(port=port)
        for ip in interfaces:
            self.say(f"listening on {ip}:{port} as {self.name} ({self.me.fingerprint})")
        if discover:
            self.discovery = Discovery(list(interfaces))
            free = 0 if self.peer_key else 1
            await self.discovery.advertise(Advert(self.name, self.me.fingerprint, port,
                                                  table=TableHint(self._game_id(), self._variant(), free)))
            await self._refresh_advert()  # a joiner may have come in while we were probing
            self.say("advertised on zeroconf")
        try:
            while not self.session.over:
                try:
                    await within(self._done.wait(), 1.0)
                except asyncio.TimeoutError:
                    if self.link is None or self.link.closed:
                        await self._idle_tick()
            await self._linger()
        finally:
            server.close()
            if self.link is not None:
                await self.link.close("game over" if self.session.over else "host leaving")
            if self.discovery is not None:
                await self.discovery.close()
            self.files.close()
        return self.session

    async def _listen(self, interfaces: Sequence[str], port: int) -> asyncio.AbstractServer:
        return await listen(self._on_connection, interfaces, port, self.options, self.say)

    async def _linger(self) -> None:
        """Stay reachable a while so a guest that missed the end can resume and finish."""
        deadline = time.monotonic() + self.options.linger
        while time.monotonic() < deadline:
            link = self.link
            if link is not None and link.closed and "game over" in (link.close_reason or ""):
                return  # the guest said goodbye after its own end
            if link is not None and not link.closed:
                try:
                    await within(link.wait_closed(), deadline - time.monotonic())
                except asyncio.TimeoutError:
                    pass
                return  # the guest closed after its own end: it has everything
            await asyncio.sleep(0.2)

    def _game_id(self) -> str:
        return self.session.game.id if self.session.game else self.files.meta.get("game", "")

    def _variant(self) -> str:
        return self.session.variant

    async def _on_connection(self, link: Link) -> None:
        await host_connection(link, self.me, self.name, self._decide, self._accepted)

    async def _decide(self, req: Request) -> Answer:
        have = len(self.session.chain)
        if self.session.over and req.kind == "join":
            return Answer(False, "this table's game is over")
        if req.kind == "resume":
            if req.game_id != self.table_id:
                return Answer(False, "no such game here")
            if req.peer.key != self.peer_key:
                return Answer(False, "you hold no seat in this game")
            self.say(f"resume request from {req.peer.name} ({req.peer.fingerprint}) holding {req.have} entries")
            return Answer(True, "welcome back", have)
        self.say(f"join request from {req.peer.name} ({req.peer.fingerprint}) at {req.address[0]}; "
                 f"safety code {req.safety_code}")
        if self.peer_key is not None:
            return Answer(False, "the table is full")
        if req.game and (req.game != self._game_id() or req.variant != self._variant()):
            return Answer(False, f"this table plays {self._game_id()} {self._variant()}")
        if req.players and req.players != 2:
            return Answer(False, f"this table seats 2, not {req.players}")
        verdict = self._accept_policy(req) if self._accept_policy is not None else True
        if inspect.isawaitable(verdict):
            verdict = await verdict
        if self.peer_key is not None:  # somebody else was seated while we were deciding
            return Answer(False, "the table is full")
        if not verdict:
            self.say(f"declined {req.peer.name}")
            return Answer(False, "the host declined")
        self.peer_key = req.peer.key
        self.files.update(peer=req.peer.key.hex(), address=list(req.address))
        self.say(f"accepted {req.peer.name}")
        task = asyncio.get_running_loop().create_task(self._refresh_advert())
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return Answer(True, "seat offered", have)

    async def _refresh_advert(self) -> None:
        """Advertise the seat as taken once a guest holds it."""
        current = self.discovery.advert if self.discovery is not None else None
        if current is None or current.table is None:
            return
        free = 0 if self.peer_key is not None else 1
        if current.table.free != free:
            await self.discovery.update_table(TableHint(current.table.game, current.table.variant, free))

    async def _accepted(self, req: Request, link: Link) -> None:
        old = self.link
        if old is not None and old is not link and not old.closed:
            await old.close("replaced by a new link from the same peer")
        try:
            await self._pump(link, req.have)
        except LinkClosed as e:
            self.say(f"link lost: {e.reason}")
            return
        # over: keep the link until the guest closes it (it has everything then)
        await link.wait_closed()

    # -- the guest side
    async def run_guest(self, address: tuple[str, int] | None = None, *, expect: bytes | None = None,
                        expect_fingerprint: str | None = None, discovery: Discovery | None = None,
                        game: str = "", variant: str = "standard") -> Session:
        """Join (or resume) the table at ``address`` and play to the end, reconnecting as needed.

        ``discovery`` (browsing) lets the guest find the host again at a new
        address after a restart, by its key's fingerprint.
        """
        if address is not None:
            self.address = address
        if expect is not None:
            self.peer_key = expect
        self.discovery = discovery
        if discovery is not None:
            await discovery.browse()
        self._join_game = (game, variant)
        try:
            while not self.session.over:
                target = self._target()
                if target is None:
                    await asyncio.sleep(self.options.reconnect_every)
                    await self._idle_tick()
                    continue
                try:
                    await self._connect_and_play(target, expect_fingerprint)
                except Declined:
                    raise  # the host said no: asking again will not change that
                except HandshakeError:
                    if not self.session.chain:
                        raise  # a fresh join to somebody who is not who we looked for
                    await asyncio.sleep(self.options.reconnect_every)  # not our host there (yet)
                except (LinkClosed, OSError) as e:
                    if not self.session.chain:
                        raise  # never linked: a wrong address, or no host there
                    reason = getattr(e, "reason", None) or str(e)
                    if self.link is not None:
                        self.say(f"link lost: {reason}")
                        self.link = None
                    await asyncio.sleep(self.options.reconnect_every)
                    await self._idle_tick()
            if self.link is not None:
                await self.link.close("game over")
        finally:
            if self.discovery is not None:
                await self.discovery.close()
            self.files.close()
        return self.session

    def _target(self) -> tuple[str, int] | None:
        """Where the host is now: discovery by its key's fingerprint first, else the last address."""
        if self.discovery is not None and self.peer_key is not None:
            fp = fingerprint(self.peer_key)
            for advert in self.discovery.peers.values():
                if advert.fingerprint == fp and advert.address:
                    return advert.address, advert.port
        return self.address

    async def _connect_and_play(self, target: tuple[str, int], expect_fingerprint: str | None) -> None:
        have = len(self.session.chain)
        if self.table_id:
            request = resume_request(self.table_id, have)
        else:
            game, variant = self._join_game
            request = join_request(game, variant, 2)
        link, hs, host_have = await ask(target[0], target[1], self.me, self.name, request,
                                        expect=self.peer_key, expect_fingerprint=expect_fingerprint,
                                        options=self.options.link)
        if self.peer_key is None:
            self.peer_key = hs.peer.key
            self.say(f"joined {hs.peer.name} ({hs.peer.fingerprint}); safety code {hs.safety_code}")
        self.address = target
        self.files.update(peer=self.peer_key.hex(), address=list(target))
        try:
            await self._pump(link, host_have)
        finally:
            if self.session.over:
                self.files.update(over=True)


def _truncate_log(path: Path, cut: int) -> None:
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate(size - cut)


__all__ = ["Declined", "GameFiles", "NetPeer", "PeerOptions", "ResumeError"]


def read_game_files(meta_path: Path, say: Say) -> tuple[dict, bytes, bytes, list[bytes]]:
    """A game's meta, seed, table id and log entries, for a restart (ResumeError: one line).

    A log cut mid-entry (a crash while writing) is trimmed to its last complete entry.
    """
    try:
        meta = json.loads(meta_path.read_text())
        seed = meta_path.with_suffix(".seed").read_bytes()
        table = bytes.fromhex(meta["table"])
        raws, cut = read_log(meta_path.with_suffix(".log"))
    except (OSError, ValueError, KeyError, TypeError, LogFormatError) as e:
        raise ResumeError(f"cannot resume {meta_path.stem}: {type(e).__name__}: {e}") from None
    if not raws or hashlib.sha256(raws[0]).digest() != table:
        raise ResumeError(f"cannot resume {meta_path.stem}: its log does not start with table {table.hex()[:16]}")
    if cut:
        say(f"log: {cut} bytes after the last complete entry were dropped")
        _truncate_log(meta_path.with_suffix(".log"), cut)
    return meta, seed, table, raws


async def think(player: Player, session: Session) -> Action | None:
    """The computer's choice, computed on a worker thread so that links, heartbeats and the app stay live.

    None when the position moved on meanwhile (an abort, a replacement):
    the caller looks again instead of playing a move chosen for a stale view.
    """
    view = session.view
    action = await asyncio.to_thread(player.choose, session.game, view, session.my_seat)
    if session.over or not session.my_turn or session.view is not view:
        return None
    return action


def event_line(ev: object, session: Session) -> str | None:
    """The line a headless peer prints for a session event (None: nothing to say)."""
    if isinstance(ev, Moved):
        return f"move {len(session.chain)}: seat {ev.seat + 1} {ev.text}"
    if isinstance(ev, TableSet):
        return f"table: {ev.game} {ev.variant}, seats {', '.join(ev.names)}; safety code {ev.safety_code}"
    if isinstance(ev, GameOver):
        return f"game over: scores {list(ev.scores)} winners {', '.join(f'seat {w + 1}' for w in ev.winners)}"
    if isinstance(ev, Aborted):
        if ev.by == session.my_seat and ev.culprit is not None and ev.culprit != ev.by:
            return f"claimed: {ev.reason}"
        return f"game ended: {ev.reason}"
    return None


async def listen(on_connection, interfaces: Sequence[str], port: int, options: PeerOptions,
                 say: Say) -> asyncio.AbstractServer:
    """Serve on ``port``, or on any free port (said) if that one is busy: a restart keeps its table."""
    try:
        return await serve(on_connection, list(interfaces), port, options.link)
    except OSError as e:
        if port:
            say(f"port {port} is busy ({e.strerror}); listening on another")
            return await serve(on_connection, list(interfaces), 0, options.link)
        raise
