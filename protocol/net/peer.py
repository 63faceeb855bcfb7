"""A network peer: one seat of one game, carried over a full mesh of links (2 to MAX_SEATS seats).

This is where the sans-IO :class:`protocol.session.Session` meets sockets.
A two-player game is simply a table of two: every size runs this code.

How a table forms:

1. the host opens a table for N seats (:meth:`Peer.host`) and accepts N-1
   joiners, one at a time (each join request says the port the joiner
   listens on);
2. once every seat is taken the host starts the session with the guests'
   keys in join order (``Session(guests=...)``: nobody else may join, and
   the claim time is signed in the table) and sends each guest a
   ``roster``: the table id, every seat's key, name, address and port
   (hints: every link proves its key again);
3. each guest dials every peer seated before it (the later seat dials the
   earlier one, so a pair never races to link twice) with a ``resume`` for
   the table id; the listener accepts only keys of the roster.

Why a full mesh, and not the host relaying: the game goes on when any one
peer (the host included) is gone, and every peer forwards every entry it
accepted to every other, so a seat that shows different entries to
different peers is caught by its own two signatures.

What goes out on a link is read from the chain: a per-link count, one
sender task per link, entries the link's peer wrote itself skipped. Each
link therefore carries a contiguous copy of the sender's chain, so entries
never arrive out of order, and duplicates from other paths are harmless.
A move made while a link catches up waits its turn in that one sender.

A crash is survived by the files (:mod:`.files`); a dropped link by
dialing again (to the last address, or wherever discovery now lists the
key); a peer gone past the claim time by one claim, written by the lowest
present seat (:meth:`Peer.claimer`). The peer tells its user what happens
around the game as typed events (:mod:`.events`).
"""

from __future__ import annotations

import asyncio
import inspect
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Awaitable, Callable, Sequence

from engines.bots import RandomBot
from engines.core import TABLE, Action, Game, Player, RulesError, State
from engines.registry import get_game
from protocol.identity import Identity, fingerprint
from protocol.log import Entry, open_entry
from protocol.session import (COMPUTER_MARK, MAX_SEATS, ON_GONE_END, Aborted, GameOver, Moved, ReplaceAsked,
                              Replaced, SeatReplaced, Session, TableSet)
from protocol.wire import ProtocolError

from .discovery import Advert, Discovery, TableHint
from .events import (Advertised, JoinAsked, JoinRefused, LinkAsked, Linked, LinkLost, Listening, Note, PeerEvent,
                     Resumed, SeatFreed, SeatOffered, SeatTaken, Seated, JoinPending, JoinWithdrawn)
from .files import GameFiles, ResumeError, Say, Seat, read_game_files, read_meta, seats_of, write_private
from .handshake import HandshakeError, decode, encode
from .invite import Answer, Declined, Request, ask, host_connection, join_request, resume_request
from .transport import Link, LinkClosed, LinkOptions, bound_port, serve, within

ROSTER_WAIT = 3600.0
"""Seconds a seated guest waits for the others to join (a lobby may take a while)."""

Think = Callable[[Player, Game, State, int], Awaitable[Action]]
"""How a computer player's choice is computed without stalling the links (the app may use a process)."""


async def think_on_thread(player: Player, game: Game, view: State, seat: int) -> Action:
    """The default: the choice on a worker thread, so that links and heartbeats stay live."""
    return await asyncio.to_thread(player.choose, game, view, seat)


@dataclass(frozen=True)
class PeerOptions:
    link: LinkOptions = LinkOptions(read_timeout=20.0, keepalive=5.0, connect_timeout=3.0)
    claim_after: float = 300.0
    """Seconds we wait for an absent peer before claiming (the host's is signed in the table)."""
    reconnect_every: float = 0.5
    linger: float = 10.0
    """Seconds a peer stays up after the end, for a peer that missed the last entries."""
    move_delay: float = 0.0
    """Seconds a bot waits before each move (tests use it to act mid-game)."""


@dataclass
class Peer:
    """One seat of a network game. Make it with :meth:`host`, :meth:`guest` or :meth:`from_files`."""

    me: Identity
    name: str
    files: GameFiles
    player: Player | None
    options: PeerOptions = PeerOptions()
    say: Say = print
    session: Session | None = None
    seats: list[Seat] = field(default_factory=list)
    """Every member in seat order (the host first); empty until the table is full."""
    links: dict[bytes, Link] = field(default_factory=dict)
    discovery: Discovery | None = None
    on_events: Callable[[list], None] | None = None
    """Gets the session's events (Moved, TableSet, GameOver, Aborted...) for a UI."""
    on_peer_event: Callable[[PeerEvent], None] | None = None
    """Gets the table's and the links' events (:mod:`.events`) for a UI."""
    think: Think = think_on_thread
    port: int = 0
    _sent: dict[Link, int] = field(default_factory=dict)
    """Per link: how far into the chain its sender got (a replaced link never moves the new one's count)."""
    _wake: dict[bytes, asyncio.Event] = field(default_factory=dict)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _done: asyncio.Event = field(default_factory=asyncio.Event)
    _full: asyncio.Event = field(default_factory=asyncio.Event)
    _tasks: set = field(default_factory=set)
    _game: Game | None = None
    _players: int = 0
    _variant: str = "standard"
    _seed: bytes = b""
    _joiners: list = field(default_factory=list)
    _accept_policy: Callable | None = None
    _dialing: set = field(default_factory=set)
    _computers: list = field(default_factory=list)
    _computers_seated: asyncio.Event = field(default_factory=asyncio.Event)
    on_gone: str = ON_GONE_END
    """The host's policy for a seat gone past the claim time (``end`` or ``computer``), signed in the table."""
    computer_player: Callable[[int], Player] | None = None
    """Makes the player of a computer we host for a replaced seat (by seat); None: a random player."""
    _former: list = field(default_factory=list)
    """Seats whose peer was replaced by a computer: still linked, so that a returning one learns it."""
    _dial_all: bool = False
    """A computer that took over a seat mid-game dials every peer (none has its address)."""
    _interfaces: Sequence[str] = ()
    _replacements: list = field(default_factory=list)
    require_on_gone: str | None = None
    """A guest's condition: leave (resign) a table whose on-gone policy is not this one."""

    # ------------------------------------------------------------ making one
    @classmethod
    def host(cls, me: Identity, name: str, game: Game, players: int, folder: Path | str, *,
             variant: str = "standard", player: Player | None = None, options: PeerOptions = PeerOptions(),
             say: Say = print, seed: bytes | None = None, on_gone: str = ON_GONE_END) -> "Peer":
        """A table for ``players`` seats; the session starts once every seat is taken.

        ``on_gone``: ``computer`` lets the present seats give a seat gone past
        the claim time to a computer the claimer hosts; ``end`` ends the game.
        """
        if not 2 <= players <= MAX_SEATS:
            raise RulesError(f"a table seats 2 to {MAX_SEATS} players, not {players}")
        game.check_options(players, variant)
        peer = cls(me, name, GameFiles(folder), player, options, say, on_gone=on_gone)
        peer._game, peer._players, peer._variant, peer._seed = game, players, variant, seed or os.urandom(32)
        peer.files.update(role="host", game=game.id, variant=variant, name=name, players=players)
        return peer

    @classmethod
    def guest(cls, me: Identity, name: str, folder: Path | str, *, player: Player | None = None,
              options: PeerOptions = PeerOptions(), say: Say = print, seed: bytes | None = None) -> "Peer":
        seed = seed or os.urandom(32)
        files = GameFiles(folder)
        meta = {"role": "guest", "name": name}
        session = Session(me, host=False, name=name, seed=seed, store=files.store(seed, meta),
                          timeout=options.claim_after)
        return cls(me, name, files, player, options, say, session=session)

    @classmethod
    def from_files(cls, me: Identity, meta_path: Path | str, *, player: Player | None = None,
                   options: PeerOptions = PeerOptions(), say: Say = print) -> "Peer":
        """Restart after a crash from the log, seed and meta files (ResumeError: one line).

        Games of two seats from before one peer served every size are read too (:func:`.files.seats_of`).
        """
        meta_path = Path(meta_path)
        meta, seed, table, raws = read_game_files(meta_path, say)
        seats = seats_of(meta, me.public, meta_path)
        files = GameFiles(meta_path.parent)
        store = files.attach(table, meta)
        host = meta.get("role") == "host"
        guests = [s.key for s in seats[1:]] if host else None
        try:
            game = get_game(meta["game"]) if host else None
            session = Session.from_log(raws, me, seed, store=store, timeout=options.claim_after,
                                       name=meta.get("name", ""), game=game, players=len(seats),
                                       variant=meta.get("variant", "standard"), guests=guests)
        except (ProtocolError, RulesError, KeyError) as e:
            files.close()
            raise ResumeError(f"cannot resume {meta_path.stem}: {e}") from None
        peer = cls(me, meta.get("name", "?"), files, player, options, say, session=session, seats=seats)
        peer.port = int(meta.get("port", 0) or 0)
        peer._dial_all = bool(meta.get("replaces"))   # a computer that took over a seat mid-game
        peer._full.set()
        peer._save_roster()
        peer._emit(Resumed(meta["table"], len(raws)))
        return peer

    # ------------------------------------------------------------ facts
    @property
    def table_id(self) -> bytes:
        return self.files.table_id

    @property
    def is_host(self) -> bool:
        return self.files.meta.get("role") == "host"

    def keys(self) -> list[bytes]:
        return [s.key for s in self.seats]

    def _index(self, key: bytes) -> int:
        return self.keys().index(key)

    def _others(self) -> list[Seat]:
        return [s for s in self.seats if s.key != self.me.public]

    def linked(self, key: bytes) -> bool:
        link = self.links.get(key)
        return link is not None and not link.closed

    # ------------------------------------------------------------ the local player (a UI)
    def play(self, action) -> None:
        """Play our seat's ``action`` now (a UI): logged at once; every link's sender sends it in its turn.

        Raises ``engines.core.IllegalAction`` (one line) if it cannot be played now.
        """
        self._report(self.session.act(action))

    async def act(self, action) -> None:
        """:meth:`play` for callers that await (IllegalAction: one line)."""
        self.play(action)

    # ------------------------------------------------------------ reporting
    def _report(self, events: list) -> None:
        session = self.session
        session.data_to_send()  # the chain is the outbox: every sender reads it
        for event in self._wake.values():
            event.set()
        self._changed.set()
        if events and self.on_events is not None:
            self.on_events(list(events))
        for ev in events:
            line = event_line(ev, session)
            if line is not None:
                self.say(line)
            if isinstance(ev, (ReplaceAsked, SeatReplaced, Replaced)):
                self._on_replacement(ev)
            if isinstance(ev, Aborted):
                scores = list(ev.scores) if ev.scores is not None else self.scores_so_far()
                if scores is not None:
                    self._emit(Note(f"scores so far: {scores}"))
        if session.over and not self._done.is_set():
            self.files.update(over=True)
            self._emit(Note(f"log: {self.files.log_path}"))
            self._done.set()

    def _emit(self, event: PeerEvent) -> None:
        """Tell the user what happens around the game: the UI gets the event, a headless peer its line."""
        if self.on_peer_event is not None:
            self.on_peer_event(event)
        self.say(str(event))

    # ------------------------------------------------------------ a gone seat replaced by a computer
    def _on_replacement(self, ev) -> None:
        session = self.session
        if isinstance(ev, Replaced):
            self._emit(Note(f"replaced: {ev.reason}"))
            return
        if isinstance(ev, SeatReplaced):
            self._emit(Note(f"seat {ev.seat + 1} is now {ev.name} ({fingerprint(ev.key)}); every hidden card re-dealt"))
            return
        scores = " ".join(str(x) for x in ev.scores)
        self._emit(Note(f"replace: seat {ev.by + 1} asks to give seat {ev.seat + 1} to {ev.name} "
                        f"({fingerprint(ev.key)}); scores so far: {scores}"))
        if ev.seat < len(self.seats) and self.seats[ev.seat].key != ev.key:
            self._former.append(self.seats[ev.seat])
            self.seats[ev.seat] = Seat(ev.key, ev.name)
            self._save_roster()
        if ev.by == session.my_seat:
            self._spawn_replacement(ev.seat, ev.name)

    def _spawn_replacement(self, seat: int, name: str) -> "Peer":
        """Host the computer that takes over ``seat``: its own key, log and links, in this process."""
        identity, seed = self.session.computer_secrets(seat)
        folder = self.files.folder / "computers" / f"{self.me.fingerprint}-r{seat + 1}-{identity.fingerprint}"
        folder.mkdir(parents=True, exist_ok=True)
        write_private(folder / "computer.key", self.session.computer_key_material(seat))
        files = GameFiles(folder)
        meta = {"role": "guest", "name": name, "replaces": seat + 1}
        store = files.store(seed, meta)
        raws = [e.raw for e in self.session.chain]
        for raw in raws:
            store(raw)
        session = Session.from_log(raws, identity, seed, store=store, timeout=self.options.claim_after, name=name)
        player = self.computer_player(seat) if self.computer_player is not None else RandomBot(f"replace-{seat}")
        peer = Peer(identity, name, files, player, self.options, lambda line: None, session=session,
                    seats=[Seat(s.key, s.name, s.address) for s in self.seats], port=0, think=self.think)
        peer.seats[self._index(self.me.public)].address = ((self._interfaces or ["127.0.0.1"])[0], self.port)
        peer._full.set()
        peer._dial_all = True
        peer._save_roster()
        self._computers.append(peer)
        self._replacements.append(self._spawn(peer.run_guest(None, list(self._interfaces[:1]) or ["127.0.0.1"])))
        self._emit(Note(f"hosting {name} ({identity.fingerprint}) for seat {seat + 1}"))
        return peer

    def _save_roster(self) -> None:
        self.files.update(seats=[s.to_data() for s in self.seats])

    # ------------------------------------------------------------ running
    async def run_host(self, interfaces: Sequence[str], port: int = 0, *, discover: bool = True,
                       accept: Callable[[Request], bool | Awaitable[bool]] | None = None) -> Session:
        """Open the table, seat N-1 joiners, then play to the end over the mesh."""
        self._accept_policy = accept
        return await self._run(interfaces, port, discover)

    def add_computer(self, player: Player, say: Say | None = None) -> "Peer":
        """A seat for a computer player this host runs: a peer of its own (own key, own log, own
        links), seated first, and named ``[computer] <host name> <n>`` so every peer sees what it is.

        Its key is kept (owner-only) in its own folder under ``computers/``, so that
        :meth:`resume_computers` brings it back after the host's crash.
        """
        if self.session is not None or not self.is_host:
            raise RulesError("computer seats are added to a host before its table opens")
        if len(self._computers) >= self._players - 1:  # at least one person: the host
            raise RulesError(f"a table of {self._players} has no seat left for a computer")
        n = len(self._computers) + 1
        seed = os.urandom(32)
        folder = self.files.folder / "computers" / f"{self.me.fingerprint}-{os.urandom(4).hex()}-{n}"
        folder.mkdir(parents=True, exist_ok=True)
        write_private(folder / "computer.key", seed)
        peer = Peer.guest(Identity.from_seed(seed), f"{COMPUTER_MARK}{self.name} {n}", folder, player=player,
                          options=self.options, say=say or (lambda line: None))
        peer.think = self.think
        self._computers.append(peer)
        return peer

    def resume_computers(self, make_player: Callable[[int], Player], say: Say | None = None) -> list["Peer"]:
        """After a restart: the computer seats of this game, each from its own files."""
        found = []
        for key_file in sorted((self.files.folder / "computers").glob(f"{self.me.fingerprint}-*/computer.key")):
            for meta in GameFiles.unfinished(key_file.parent):
                if read_meta(meta).get("table") != self.table_id.hex():
                    continue
                try:
                    me = Identity.from_seed(key_file.read_bytes())
                except (OSError, ValueError):
                    continue
                n = len(found) + 1
                peer = Peer.from_files(me, meta, player=make_player(n), options=self.options,
                                       say=say or (lambda line: None))
                peer.think = self.think
                found.append(peer)
        self._computers = found
        self._computers_seated.set()
        return found

    async def _seat_computers(self, interfaces: Sequence[str]) -> list[asyncio.Task]:
        tasks = []
        for peer in self._computers:
            tasks.append(self._spawn(peer.run_guest(
                (interfaces[0], self.port), interfaces[:1], game=self._game.id, variant=self._variant)))
            while not any(j.peer.key == peer.me.public for j in self._joiners) and not tasks[-1].done():
                await asyncio.sleep(0.01)
        self._computers_seated.set()
        return tasks

    async def run_guest(self, address: tuple[str, int] | None, interfaces: Sequence[str], port: int = 0, *,
                        expect_fingerprint: str | None = None, discovery: Discovery | None = None,
                        game: str = "", variant: str = "standard", players: int = 0) -> Session:
        """Join the table at ``address`` (or resume from files) and play to the end over the mesh.

        ``interfaces``: where we listen for the peers seated after us.
        """
        self.discovery = discovery
        self._join = (address, expect_fingerprint, game, variant, players)
        return await self._run(interfaces, port, False)

    async def _run(self, interfaces: Sequence[str], port: int, discover: bool) -> Session:
        self._interfaces = list(interfaces)
        if self.session is not None and self.require_on_gone:
            self.session.require_on_gone = self.require_on_gone
        server = await self._listen(interfaces, port or self.port)
        self.port = bound_port(server)
        self.files.update(port=self.port)
        for ip in interfaces:
            self._emit(Listening(ip, self.port, self.name, self.me.fingerprint))
        try:
            if discover:
                self.discovery = Discovery(list(interfaces))
                free = self._players - 1 - len(self._joiners) if self.session is None else 0
                table = TableHint(self._game.id, self._variant, max(free, 0), self._players) if self._game else None
                await self.discovery.advertise(Advert(self.name, self.me.fingerprint, self.port, table=table))
                self._emit(Advertised())
            elif self.discovery is not None:
                await self.discovery.browse()
                self._spawn(self._advertise_self())
            if self.session is None and self.is_host:
                computers = await self._seat_computers(interfaces)
            else:  # resumed computer seats (if any) come back with their host
                computers = [self._spawn(c.run_guest(None, interfaces[:1])) for c in self._computers]
            if self.session is None and self.is_host:
                await self._full.wait()
            elif not self._full.is_set():
                await self._join_host()
            self._spawn(self._dial_loop())
            self._spawn(self._play_loop())
            await self._done.wait()
            await self._linger()
            computers += self._replacements
            if computers:
                await asyncio.wait(computers, timeout=self.options.linger)
        finally:
            server.close()
            for task in list(self._tasks):
                task.cancel()
            for link in list(self.links.values()):
                await link.close("game over" if self.session is not None and self.session.over else "leaving")
            if self.discovery is not None:
                await self.discovery.close()
            self.files.close()
        return self.session

    async def _advertise_self(self) -> None:
        """A guest advertises itself (no table): restarted on another port, the others still find it."""
        try:
            await self.discovery.advertise(Advert(self.name, self.me.fingerprint, self.port))
        except Exception as e:  # a hint only: the roster's address still works
            self._emit(Note(f"not advertised on zeroconf: {e}"))

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _listen(self, interfaces: Sequence[str], port: int) -> asyncio.AbstractServer:
        """Serve on ``port``, or on any free port (said) if that one is busy: a restart keeps its table."""
        try:
            return await serve(self._on_connection, list(interfaces), port, self.options.link)
        except OSError as e:
            if port:
                self._emit(Note(f"port {port} is busy ({e.strerror}); listening on another"))
                return await serve(self._on_connection, list(interfaces), 0, self.options.link)
            raise

    async def _linger(self) -> None:
        """After our end: until every link is closed (each peer says goodbye once over), or ``linger`` s."""
        deadline = time.monotonic() + self.options.linger
        while time.monotonic() < deadline:
            if all(not self.linked(s.key) for s in self._others()) and self._drained():
                return
            await asyncio.sleep(0.05)

    def _drained(self) -> bool:
        return all(self._sent.get(link, 0) >= len(self.session.chain) for link in self.links.values())

    # ------------------------------------------------------------ incoming links
    async def _on_connection(self, link: Link) -> None:
        await host_connection(link, self.me, self.name, self._decide, self._accepted)

    async def _decide(self, req: Request) -> Answer:
        if req.kind == "resume":
            if not self.table_id and req.peer.key in self.keys():
                # a seat after us dials as soon as it has the roster; the host's hello may still be
                # on its way to us: wait for it rather than send the dialer off to try again
                deadline = time.monotonic() + 5.0
                while not self.table_id and time.monotonic() < deadline:
                    await asyncio.sleep(0.01)
            if not self.table_id or req.game_id != self.table_id:
                return Answer(False, "no such game here")
            former = any(s.key == req.peer.key for s in self._former)
            if (req.peer.key not in self.keys() and not former) or req.peer.key == self.me.public:
                return Answer(False, "you hold no seat in this game")
            self._emit(LinkAsked(req.peer.name, req.peer.fingerprint, req.have))
            if req.port and not former:
                seat = self.seats[self._index(req.peer.key)]
                seat.address = (req.address[0], req.port)
                self._save_roster()
            return Answer(True, "linked", len(self.session.chain))
        if not self.is_host:
            return Answer(False, "no open table here")
        self._emit(JoinAsked(req.peer.name, req.peer.fingerprint, req.address[0], req.safety_code))
        try:
            answer = await self._decide_join(req)
        except asyncio.CancelledError:   # the joiner left while we decided: its request is withdrawn
            self._emit(JoinWithdrawn(req.peer.name, req.peer.fingerprint))
            raise
        if answer.accept:    # the seat is held for it; the table starts once its link proves it is there
            self._emit(SeatTaken(req.peer.name, req.peer.fingerprint, len(self._joiners) + 1, self._players))
        else:
            self._emit(JoinRefused(req.peer.name, answer.reason))
        return answer

    async def _decide_join(self, req: Request) -> Answer:
        """The host's answer to a join: the table's conditions first, then its policy (a person, maybe)."""
        if self._full.is_set() or len(self._joiners) >= self._players - 1:
            return Answer(False, "the table is full")
        if req.game and (req.game != self._game.id or req.variant != self._variant):
            return Answer(False, f"this table plays {self._game.id} {self._variant}")
        if req.players and req.players != self._players:
            return Answer(False, f"this table seats {self._players}, not {req.players}")
        if any(j.peer.key == req.peer.key for j in self._joiners):
            return Answer(False, "you already hold a seat here")
        ours = any(c.me.public == req.peer.key for c in self._computers)
        if not ours:
            await self._computers_seated.wait()  # the host's computers take the first seats
            if self._full.is_set():
                return Answer(False, "the table is full")
        verdict = self._accept_policy(req) if self._accept_policy is not None and not ours else True
        if inspect.isawaitable(verdict):
            verdict = await verdict
        if self._full.is_set() or len(self._joiners) >= self._players - 1:
            return Answer(False, "the table is full")
        if not verdict:
            return Answer(False, "the host declined")
        if any(j.peer.key == req.peer.key for j in self._joiners):
            return Answer(False, "you already hold a seat here")
        self._joiners.append(req)       # seat order is the order of acceptance
        return Answer(True, "seat offered", 0)

    def _seat_everyone(self) -> None:
        """Every seat is taken: start the session with the guests in join order."""
        self.seats = [Seat(self.me.public, self.name)] + [
            Seat(j.peer.key, j.peer.name, (j.address[0], j.port) if j.port else None) for j in self._joiners]
        guests = [j.peer.key for j in self._joiners]
        meta = dict(self.files.meta)
        self.session = Session(self.me, host=True, name=self.name, game=self._game, variant=self._variant,
                               seed=self._seed, store=self.files.store(self._seed, meta),
                               timeout=self.options.claim_after, guests=guests, on_gone=self.on_gone)
        self._report(self.session.start())
        self._save_roster()
        self._full.set()
        self._emit(Seated(0, tuple(s.name for s in self.seats)))
        if self.discovery is not None:
            self._spawn(self._refresh_advert())

    async def _refresh_advert(self) -> None:
        current = self.discovery.advert if self.discovery is not None else None
        if current is None or current.table is None:
            return
        free = 0 if self._full.is_set() else self._players - 1 - len(self._joiners)
        if current.table.free != free:
            await self.discovery.update_table(TableHint(current.table.game, current.table.variant, free,
                                                        current.table.seats))

    def _roster(self) -> bytes:
        return encode("roster", table=self.table_id, keys=self.keys(), names=[s.name for s in self.seats],
                      addrs=[s.address[0] if s.address else "" for s in self.seats],
                      ports=[s.address[1] if s.address else 0 for s in self.seats])

    async def _accepted(self, req: Request, link: Link) -> None:
        if req.kind == "join":
            if not link.closed and len(self._joiners) == self._players - 1 and not self._full.is_set():
                self._seat_everyone()      # the last seat's accept reached a joiner still there
            elif self.discovery is not None and not link.closed:
                self._spawn(self._refresh_advert())
            if not await self._full_or_gone(link):
                self._joiners.remove(req)  # its seat is free again for somebody else
                self._emit(SeatFreed(req.peer.name, req.peer.fingerprint, len(self._joiners) + 1, self._players))
                if self.discovery is not None:
                    self._spawn(self._refresh_advert())
                return
            try:
                await link.send(self._roster())
            except LinkClosed:
                return
        await self._carry_quietly(req.peer.key, link, self._resume_from(req.peer.key, req.have))

    async def _full_or_gone(self, link: Link) -> bool:
        """Wait until every seat is taken (True) or this joiner's link closed before that (False)."""
        full = asyncio.ensure_future(self._full.wait())
        gone = asyncio.ensure_future(link.wait_closed())
        try:
            await asyncio.wait([full, gone], return_when=asyncio.FIRST_COMPLETED)
        finally:
            full.cancel()
            gone.cancel()
        return self._full.is_set()

    def _resume_from(self, key: bytes, have: int) -> int:
        """Where to start sending to ``key``: a replaced peer gets everything from its replacement on
        (its log may hold entries of its own that never left it)."""
        if self.session is not None and any(s.key == key for s in self._former):
            return min(have, self.session.replaced_at)
        return have

    # ------------------------------------------------------------ outgoing links
    async def _join_host(self) -> None:
        """Ask the host for a seat, wait for the roster, then carry that link."""
        address, expect_fp, game, variant, players = self._join
        link, hs, _ = await ask(address[0], address[1], self.me, self.name,
                                join_request(game, variant, players, self.port),
                                expect_fingerprint=expect_fp, options=self.options.link,
                                on_proven=lambda hs: self._emit(JoinPending(hs.peer.name, hs.peer.fingerprint,
                                                                            hs.safety_code)))
        self._emit(SeatOffered(hs.peer.name, hs.peer.fingerprint, hs.safety_code))
        try:
            roster = decode(await within(link.recv(), ROSTER_WAIT), "roster")
        except (asyncio.TimeoutError, LinkClosed, HandshakeError) as e:
            await link.close("no roster")
            raise Declined(f"{hs.peer.name} never filled the table: {e}") from None
        except asyncio.CancelledError:  # we leave before the table is full: the host frees our seat
            await link.close("left before the table was full")
            raise
        keys = roster["keys"]
        if not keys or keys[0] != hs.peer.key or self.me.public not in keys or len(set(keys)) != len(keys) \
                or not (len(keys) == len(roster["names"]) == len(roster["addrs"]) == len(roster["ports"])):
            await link.close("bad roster")
            raise Declined(f"{hs.peer.name} sent a roster without us or without itself first")
        self.seats = [Seat(k, n, (a, p) if a and p else None)
                      for k, n, a, p in zip(keys, roster["names"], roster["addrs"], roster["ports"])]
        self.seats[0].address = address
        self._save_roster()
        self._full.set()
        self._emit(Seated(self._index(self.me.public), tuple(s.name for s in self.seats)))
        self._spawn(self._carry_quietly(hs.peer.key, link, 0))

    async def _dial_loop(self) -> None:
        """Keep a link to every peer seated before us (they dial the ones seated after them)."""
        while not self.session.over:
            mine = self._index(self.me.public)
            targets = [s for s in self.seats if s.key != self.me.public] if self._dial_all else \
                self.seats[:mine] + [s for s in self._former if s.address and s.key != self.me.public]
            for seat in targets:
                if not self.linked(seat.key) and seat.key not in self._dialing:
                    self._dialing.add(seat.key)
                    self._spawn(self._dial(seat))
            await asyncio.sleep(self.options.reconnect_every)

    def _target(self, seat: Seat) -> tuple[str, int] | None:
        if self.discovery is not None:
            fp = fingerprint(seat.key)
            for advert in self.discovery.peers.values():
                if advert.fingerprint == fp and advert.address:
                    return advert.address, advert.port
        return seat.address

    async def _dial(self, seat: Seat) -> None:
        try:
            target = self._target(seat)
            if target is None or not self.table_id:
                return
            link, hs, have = await ask(target[0], target[1], self.me, self.name,
                                       resume_request(self.table_id, len(self.session.chain), self.port),
                                       expect=seat.key, options=self.options.link, timeout=10.0)
        except (Declined, HandshakeError, LinkClosed, OSError, asyncio.TimeoutError):
            return
        finally:
            self._dialing.discard(seat.key)
        seat.address = target
        await self._carry_quietly(seat.key, link, self._resume_from(seat.key, have))

    # ------------------------------------------------------------ one link
    async def _carry_quietly(self, key: bytes, link: Link, have: int) -> None:
        try:
            await self._carry(key, link, have)
        except LinkClosed:
            pass

    async def _carry(self, key: bytes, link: Link, have: int) -> None:
        """Carry the session over ``link`` to ``key`` until it drops or both sides are over."""
        old = self.links.get(key)
        if old is not None and old is not link and not old.closed:
            await old.close("replaced by a newer link")
        session = self.session
        self.links[key] = link
        self._sent[link] = min(have, len(session.chain))
        wake = self._wake[key] = asyncio.Event()
        wake.set()
        self._emit(Linked(key, fingerprint(key), link.peer[0], link.peer[1]))
        sender = self._spawn(self._send_loop(key, link, wake))
        try:
            while True:
                raw = await link.recv()
                if session.over:
                    continue  # what comes after our end changes nothing
                await self._check_signed(link, raw)
                self._report(session.receive(raw, sender=key))
                self._tick()
        except LinkClosed as e:
            if not session.over:
                self._emit(LinkLost(key, fingerprint(key), e.reason))
            raise
        finally:
            sender.cancel()
            self._sent.pop(link, None)
            if self.links.get(key) is link:
                del self.links[key]
            self._changed.set()

    async def _send_loop(self, key: bytes, link: Link, wake: asyncio.Event) -> None:
        """Send the chain's entries ``key`` lacks, in order; say goodbye once both are done."""
        session = self.session
        try:
            while not link.closed:
                await wake.wait()
                wake.clear()
                while self._sent[link] < len(session.chain):
                    entry = session.chain[self._sent[link]]
                    self._sent[link] += 1
                    if entry.author != key:
                        await link.send(self._outgoing(key, entry))
                if session.over:
                    await link.close("game over")
                    return
        except LinkClosed:
            pass

    def _outgoing(self, key: bytes, entry: Entry) -> bytes:
        """The bytes of ``entry`` as sent to ``key`` (a cheat test overrides this to lie to one peer)."""
        return entry.raw

    async def _check_signed(self, link: Link, raw: bytes) -> bytes:
        """Bytes not signed by a member of the table drop the link, not the game (see peer.py)."""
        try:
            author = open_entry(raw).author
        except ProtocolError as e:
            reason = f"bytes not signed by the peer ({e})"
        else:
            if author in self.keys() or any(s.key == author for s in self._former):
                return author     # a replaced peer's late entries: the session drops them
            reason = f"an entry signed by a stranger ({fingerprint(author)})"
        await link.close(reason[:120])
        raise LinkClosed(reason)

    # ------------------------------------------------------------ our moves, the clock
    async def _play_loop(self) -> None:
        session = self.session
        while not session.over:
            if session.my_turn and self.player is not None:
                if self.options.move_delay:
                    await asyncio.sleep(self.options.move_delay)
                    if session.over or not session.my_turn:
                        continue
                action = await choose(self)
                if action is not None:
                    self._report(session.act(action))
                await asyncio.sleep(0)  # let the senders run
                continue
            self._changed.clear()
            try:
                await within(self._changed.wait(), 1.0)
            except asyncio.TimeoutError:
                self._tick()

    def _tick(self) -> None:
        """Let time pass for the claim, when the claim clock runs and we speak for the rest.

        The clock runs while the awaited peer is not linked to us, or while
        it is linked but withholds a step without a choice (stalling). When
        it runs out, ONE peer writes the claim: the lowest seat among us and
        the peers linked to us, the absent seat left out. Every present peer
        applies the same rule, so the rest agree on one signed ``abort``
        (no two claims race for one place in the chain); the game ends with
        the scores so far, signed in the claim and checked by every peer.
        """
        session = self.session
        seat = session.waiting_for()
        if seat is None or seat == session.my_seat:
            return
        linked = self.linked(session.seats[seat])
        if linked and session.phase == "play" and not session.game.is_over(session.view) \
                and session.next_actor() != TABLE:
            return
        if self.claimer(seat) != session.my_seat:
            return
        if any(c.me.public == session.seats[seat] and not c.session.over for c in self._computers
               if c.session is not None):
            return   # a computer we run in this process: it is slow, not gone
        self._report(session.tick(time.monotonic()))

    def claimer(self, absent: int) -> int:
        """The seat that writes the claim against ``absent``: the lowest present seat we are linked to."""
        present = [i for i, s in enumerate(self.seats)
                   if i != absent and (s.key == self.me.public or self.linked(s.key))]
        return min(present)

    def scores_so_far(self) -> list[int] | None:
        """The public scores of the position reached (what an ended game is worth), if the game has started."""
        session = self.session
        if session is None or session.game is None or session.view is None:
            return None
        try:
            return list(session.game.scores(session.view))
        except Exception:  # an engine that scores only finished games
            return None


async def choose(peer: Peer) -> Action | None:
    """Our computer's choice, computed off the event loop (``peer.think``) so that links and the app stay live.

    None when the position moved on meanwhile (an abort, a replacement):
    the caller looks again instead of playing a move chosen for a stale view.
    """
    session = peer.session
    view = session.view
    action = await peer.think(peer.player, session.game, view, session.my_seat)
    if session.over or not session.my_turn or session.view is not view:
        return None
    return action


def event_line(ev: object, session: Session) -> str | None:
    """The line a headless peer prints for a session event (None: nothing to say)."""
    if isinstance(ev, Moved):
        return f"move {ev.entry + 1}: seat {ev.seat + 1} {ev.text}"
    if isinstance(ev, TableSet):
        return f"table: {ev.game} {ev.variant}, seats {', '.join(ev.names)}; safety code {ev.safety_code}"
    if isinstance(ev, GameOver):
        return f"game over: scores {list(ev.scores)} winners {', '.join(f'seat {w + 1}' for w in ev.winners)}"
    if isinstance(ev, Aborted):
        if ev.by == session.my_seat and ev.culprit is not None and ev.culprit != ev.by:
            return f"claimed: {ev.reason}"
        return f"game ended: {ev.reason}"
    return None


__all__ = ["Declined", "GameFiles", "Peer", "PeerOptions", "ResumeError", "Seat", "Think", "think_on_thread"]
