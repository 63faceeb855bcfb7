"""A network peer: one seat of one game, carried over a full mesh of links (2 to MAX_SEATS seats).

Where the sans-IO :class:`protocol.session.Session` meets sockets. :class:`Peer`
is the front door and owns small parts, each handed a narrow context, never
the peer (docs/architecture.md lists them); every timing decision is made on
the one clock it is given. How a table forms, resume, claims: docs/network.md.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
from pathlib import Path
from typing import Callable, Sequence

from lanterne.engines.core import Game, IllegalAction, Player, RulesError
from lanterne.engines.registry import get_game
from lanterne.protocol.session.phases import Phase
from lanterne.protocol.identity import Identity
from lanterne.protocol.log import Entry
from lanterne.protocol.session import (MAX_SEATS, ON_GONE_COMPUTER, ON_GONE_END, Aborted, ClaimRefused, Dropped,
                                       ReplaceAsked, Replaced, SeatReplaced, Session, TableSet)
from lanterne.protocol.wire import ProtocolError

from .admission import Admission, known_addresses
from .clock import MONOTONIC, Clock, nap
from .computers import Computer, ComputerHost, Think, quiet, think_on_thread
from .discovery import Discovery
from .events import Listening, Note, PeerEvent, Resumed, event_line
from .files import GameFiles, ResumeError, Say, SeatedPeer, read_game_files, read_signed, seats_of
from .invite import Answer, Declined, Request, host_connection
from .carrier import LEFT_PAUSED, LEFT_RESIGNED, Carrier
from .linkset import GOODBYE, LinkSet
from .mesh import Mesh
from .options import PeerOptions
from .presence import Presence
from .online.code import Connected
from .seating import TABLE_CLOSED, Accept, HostTable, JoinAt, TableSeating
from .tablechat import ChatRelay
from .turns import Turns
from .tcp import Listener, bound_port, serve
from .transport import Link
from .watchers import SpectatorServer, advertise_running


class Peer:
    """One seat of a network game. Make it with :meth:`host`, :meth:`guest` or :meth:`from_files`.

    Its parts: ``links`` (the other seats' links, what each was sent), ``presence`` (who is here, since when
    who is gone), ``carrier`` (each link while it lasts), ``mesh`` (who sits where, whom we dial),
    ``seating`` (how the table fills), ``computers`` (the computers we run), ``turns`` (our turns and our
    claim clock), ``watchers`` (the spectators we serve), ``table_chat`` (the table chat we say, hear, pass on).
    """

    def __init__(self, me: Identity, name: str, files: GameFiles, player: Player | None,
                 options: PeerOptions = PeerOptions(), say: Say = print, session: Session | None = None,
                 seats: Sequence[SeatedPeer] = (), *, think: Think = think_on_thread, port: int = 0,
                 clock: Clock = MONOTONIC, table: HostTable | None = None, dial_all: bool = False):
        self.me, self.name, self.files, self.player, self.options, self.say = me, name, files, player, options, say
        self.session, self.think, self.port, self.clock = session, think, port, clock
        """``clock``: what every timing decision of this peer and its parts is made by (a test's: numbers, no waits)."""
        self.discovery: Discovery | None = None
        self.on_events: Callable[[list], None] | None = None
        """Gets the session's events (Moved, TableSet, GameOver, Aborted...) for a UI."""
        self.on_peer_event: Callable[[PeerEvent], None] | None = None
        """Gets the table's and the links' events (:mod:`.events`) for a UI."""
        self._done = asyncio.Event()
        self._tasks: set[asyncio.Task] = set()
        self.links = LinkSet()
        self.presence = Presence(me.public)
        self.door = Admission(known=known_addresses(lambda: self.mesh.seats + self.mesh.former),
                              on_refused=lambda address, known: self.presence.refused(self.clock()))
        """Our listener's slots before the proof: the roster's addresses have a share of their own."""
        self.carrier = Carrier(session=lambda: self.session, links=self.links, presence=self.presence, clock=clock,
                               member=self._member, greet=self._greet,
                               outgoing=lambda key, entry: self._outgoing(key, entry), deliver=self._deliver,
                               wake=lambda: self.turns.wake(), emit=self._emit, spawn=self._spawn)
        self.mesh = Mesh(me, name, options=lambda: self.options, clock=clock, table_id=lambda: self.table_id,
                         session=lambda: self.session, port=lambda: self.port, discovery=lambda: self.discovery,
                         linked=self.links.linked, carry=self.carrier.carry,
                         keep=lambda seats: self.files.update(seats=seats), emit=self._emit, spawn=self._spawn,
                         turned_away=lambda key: self.presence.turned_away(key, self.clock()),
                         seats=list(seats), dial_all=dial_all)
        self.seating = TableSeating(me, name, files, table=table, options=lambda: self.options, clock=clock,
                                    port=lambda: self.port, table_id=lambda: self.table_id,
                                    discovery=lambda: self.discovery, seat=self.mesh.seat,
                                    seats=lambda: self.mesh.seats, begin=self._begin,
                                    ours=lambda key: self.computers.ours(key),
                                    computers_seated=lambda: self.computers.seated.wait(), emit=self._emit,
                                    spawn=self._spawn)
        if seats:
            self.seating.full.set()
        self.computers = ComputerHost(me, name, files, options=lambda: self.options, clock=clock,
                                      think=lambda: self.think, session=lambda: self.session, port=lambda: self.port,
                                      seats=lambda: self.mesh.seats, replace=self.mesh.replace,
                                      restore=self.mesh.restore, taking_over=self._computer_taking_over,
                                      guest=lambda me, name, folder, player, say: type(self).guest(
                                          me, name, folder, player=player, options=self.options, say=say, clock=clock),
                                      resumed=lambda me, meta, player, say: type(self).from_files(
                                          me, meta, player=player, options=self.options, say=say, clock=clock),
                                      emit=self._emit, spawn=self._spawn)
        self.turns = Turns(player=lambda: self.player, think=lambda: self.think, options=lambda: self.options,
                           clock=clock, presence=self.presence, seats=self.keys, linked=self.links.linked_keys,
                           runs_here=self.computers.runs, report=self._report)
        self.watchers = SpectatorServer(lambda: self.session, self._emit,
                                        lambda raw, link, key: self.table_chat.heard(raw, link, key),
                                        lambda names: self.table_chat.tell_watchers(names), clock=clock)
        self.table_chat = ChatRelay(me, name, table_id=lambda: self.table_id, session=lambda: self.session,
                                    relay_spectators=lambda: self.options.spectator_chat, seat_links=self.links,
                                    spectator_links=lambda: self.watchers.links, keep=files.append_chat,
                                    emit=self._emit, spawn=self._spawn)

    # ------------------------------------------------------------ making one
    @classmethod
    def host(cls, me: Identity, name: str, game: Game, players: int, folder: Path | str, *,
             variant: str = "standard", player: Player | None = None, options: PeerOptions = PeerOptions(),
             say: Say = print, seed: bytes | None = None, on_gone: str = ON_GONE_END,
             clock: Clock = MONOTONIC) -> "Peer":
        """A table for ``players`` seats; the session starts once every seat is taken.

        ``on_gone``: ``computer`` lets the present seats give a seat gone past
        the claim time to a computer the claimer hosts; ``end`` ends the game.
        """
        if not 2 <= players <= MAX_SEATS:
            raise RulesError(f"a table seats 2 to {MAX_SEATS} players, not {players}")
        game.check_options(players, variant)
        table = HostTable(game, players, variant, seed or os.urandom(32), on_gone)
        peer = cls(me, name, GameFiles(folder), player, options, say, clock=clock, table=table)
        peer.files.update(role="host", game=game.id, variant=variant, name=name, players=players)
        return peer

    @classmethod
    def guest(cls, me: Identity, name: str, folder: Path | str, *, player: Player | None = None,
              options: PeerOptions = PeerOptions(), say: Say = print, seed: bytes | None = None,
              clock: Clock = MONOTONIC) -> "Peer":
        seed = seed or os.urandom(32)
        files = GameFiles(folder)
        meta = {"role": "guest", "name": name}
        session = Session(me, host=False, name=name, seed=seed, store=files.store(seed, meta),
                          timeout=options.claim_after)
        return cls(me, name, files, player, options, say, session=session, clock=clock)

    @classmethod
    def from_files(cls, me: Identity, meta_path: Path | str, *, player: Player | None = None,
                   options: PeerOptions = PeerOptions(), say: Say = print, clock: Clock = MONOTONIC) -> "Peer":
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
                                       variant=meta.get("variant", "standard"), guests=guests,
                                       signed=read_signed(meta_path))
        except (ProtocolError, RulesError, KeyError) as e:
            files.close()
            raise ResumeError(f"cannot resume {meta_path.stem}: {e}") from None
        peer = cls(me, meta.get("name", "?"), files, player, options, say, session=session, seats=seats,
                   port=int(meta.get("port", 0) or 0), clock=clock,
                   dial_all=bool(meta.get("replaces")))   # a computer that took over a seat mid-game
        peer.mesh.save()
        peer._emit(Resumed(meta["table"], len(raws)))
        return peer

    def _computer_taking_over(self, me: Identity, name: str, files: GameFiles, player: Player, session: Session,
                              seats: list[SeatedPeer]) -> Computer:
        """A computer that takes over a seat mid-game: it dials every seat (none has its address)."""
        peer = type(self)(me, name, files, player, self.options, quiet, session, seats, think=self.think,
                          clock=self.clock, dial_all=True)
        peer.mesh.save()
        return peer

    @property
    def table_id(self) -> bytes:
        return self.files.table_id

    @property
    def is_host(self) -> bool:
        return self.files.meta.get("role") == "host"

    @property
    def ticked_at(self) -> float:
        """When our claim clock last let time pass (on our clock): a test that moves the clock waits for it."""
        return self.turns.ticked_at

    @property
    def seats(self) -> list[SeatedPeer]:
        """Every member in seat order (the host first); empty until the table is full."""
        return self.mesh.seats

    @property
    def on_gone(self) -> str:
        """The host's policy for a seat gone past the claim time (``end`` or ``computer``), signed in the table."""
        return self.seating.table.on_gone if self.seating.table is not None else ON_GONE_END

    @on_gone.setter
    def on_gone(self, policy: str) -> None:     # (a host's, before its table is set: the policy it signs)
        if self.seating.table is not None:
            self.seating.table = dataclasses.replace(self.seating.table, on_gone=policy)

    @property
    def require_on_gone(self) -> str | None:
        """A guest's condition: leave (resign) a table whose on-gone policy is not this one."""
        return self.session.require_on_gone if self.session is not None else None

    @require_on_gone.setter
    def require_on_gone(self, policy: str | None) -> None:
        if self.session is not None and policy:
            self.session.require_on_gone = policy

    @property
    def computer_player(self) -> Callable[[int], Player] | None:
        """Makes the player of a computer we host for a replaced seat (by seat); None: a random player."""
        return self.computers.make_player

    @computer_player.setter
    def computer_player(self, make: Callable[[int], Player] | None) -> None:
        self.computers.make_player = make

    def seated_joiners(self) -> int:
        """How many joiners a host holds a seat for (every seat but its own once the table is full)."""
        return self.seating.seated_joiners()

    def keys(self) -> list[bytes]:
        return self.mesh.keys()

    def linked(self, key: bytes) -> bool:
        return self.links.linked(key)

    def add_computer(self, player: Player, say: Say | None = None) -> Computer:
        """A seat for a computer player this host runs: a peer of its own (own key, log and links, the key kept
        owner-only under ``computers/`` for :meth:`resume_computers`), named ``[computer] <host name> <n>``."""
        if self.session is not None or not self.is_host:
            raise RulesError("computer seats are added to a host before its table opens")
        return self.computers.add(player, say, self.seating.players)

    def resume_computers(self, make_player: Callable[[int], Player], say: Say | None = None) -> list[Computer]:
        """After a restart: the computer seats of this game, each from its own files."""
        return self.computers.resume(make_player, say)

    def _begin(self, session: Session) -> None:
        """The host's table is full: its session starts."""
        self.session = session
        self._report(session.start())

    def chat(self, text: str):
        """Say ``text`` to everyone at the table (:class:`.chat.ChatError`, one line, if it cannot go)."""
        return self.table_chat.say(text)

    def chat_book(self):
        """Our chat of this table (None until the table is set)."""
        return self.table_chat.book()

    # ------------------------------------------------------------ the local player (a UI)
    def play(self, action) -> None:
        """Play our seat's ``action`` now (IllegalAction, one line, if it cannot be): logged, then sent by each link."""
        self._report(self._set().act(action))

    def takeback(self, yes: bool | None = None) -> None:
        """Ask the others to take back our last move (``yes`` None) or answer theirs (IllegalAction, one line)."""
        self._report(self._set().ask_takeback() if yes is None else self._set().answer_takeback(yes))

    def pause(self) -> None:
        """The player leaves on purpose and will come back: when this peer stops, its links say so."""
        if self.links.leaving is None:
            self.links.leaving = LEFT_PAUSED

    def resign(self, reason: str = "left the table: resigned") -> None:
        """The player gives up for good. On a table whose policy gives a gone seat to a computer, during play:
        our links say so as they close (:data:`LEFT_RESIGNED`) and the others give our seat to a computer at
        once; the game goes on without us. Otherwise a signed abort naming our seat ends the game."""
        session = self.session
        if session is None:
            return
        if session.on_gone == ON_GONE_COMPUTER and session.phase == Phase.PLAY and not session.over \
                and any(s.key != self.me.public for s in self.seats):
            self.links.leaving = LEFT_RESIGNED
            self.files.update(over=True, resigned=True)     # nothing to resume: the seat is the others' to give
            self._done.set()
            return
        self._report(session.resign(reason))

    async def act(self, action) -> None:
        """:meth:`play` for callers that await (IllegalAction: one line)."""
        self.play(action)

    def _set(self) -> Session:
        """The session of a table that is set (IllegalAction, one line, before)."""
        if self.session is None:
            raise IllegalAction("the table is not set yet")
        return self.session

    def _report(self, events: list) -> None:
        session = self._set()
        self.links.wake_all()      # the chain is the outbox: every sender reads it
        self.watchers.wake_all()
        self.turns.wake()
        if events and self.on_events is not None:
            self.on_events(list(events))
        for ev in events:
            line = event_line(ev, session)
            if line is not None:
                self.say(line)
            if isinstance(ev, (ReplaceAsked, SeatReplaced, Replaced, ClaimRefused)):
                self.computers.on_replacement(ev)
            if isinstance(ev, ClaimRefused):     # our claim may have been taken back: resend from where it stood
                self.links.rewind(len(session.chain))
            if isinstance(ev, TableSet) and self.files.meta.get("game") != ev.game:
                self.files.update(game=ev.game, variant=ev.variant)   # a guest learns them from the table
            if isinstance(ev, Dropped):
                self.carrier.dropped(ev, len(session.chain))
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

    # ------------------------------------------------------------ running
    async def run_host(self, interfaces: Sequence[str], port: int = 0, *, discover: bool = True,
                       accept: Accept | None = None) -> Session | None:
        """Open the table, seat N-1 joiners, then play to the end over the mesh."""
        self.seating.accept = accept
        return await self._run(interfaces, port, discover)

    async def run_guest(self, address: tuple[str, int] | None, interfaces: Sequence[str], port: int = 0, *,
                        expect_fingerprint: str | None = None, discovery: Discovery | None = None,
                        game: str = "", variant: str = "standard", players: int = 0,
                        online: Connected | None = None) -> Session | None:
        """Join the table at ``address`` (or resume from files) and play to the end over the mesh.

        ``interfaces``: where we listen for the peers seated after us. ``online``: join over a code's link
        instead (``address`` None; :mod:`.online.table`).
        """
        self.discovery = discovery
        at = address is not None or online is not None
        join = JoinAt(address, expect_fingerprint, game, variant, players, online) if at else None
        return await self._run(interfaces, port, False, join)

    async def _run(self, interfaces: Sequence[str], port: int, discover: bool, join: JoinAt | None = None
                   ) -> Session | None:
        if self.session is not None:
            self.session.min_claim = self.options.least_claim
        server = await self._listen(interfaces, port or self.port)
        self.port = bound_port(server)
        self.files.update(port=self.port)
        for ip in interfaces:
            self._emit(Listening(ip, self.port, self.name, self.me.fingerprint))
        try:
            if discover:
                self.discovery = Discovery(list(interfaces))
                await self.seating.advertise(self.discovery)
            elif self.discovery is not None:
                await self.discovery.browse()
                self._spawn(self.mesh.advertise(self.discovery))
            table = self.seating.table      # (a host's, until its session starts)
            if self.session is None and table is not None:
                await self.computers.seat(interfaces, table.game.id, table.variant, self.seating.holds)
                await self.seating.full.wait()
            else:  # resumed computer seats (if any) come back with their host
                self.computers.come_back(interfaces)
                if not self.seating.full.is_set():
                    if join is None:
                        raise Declined("no table to join: give the host's address")
                    key, link = await self.seating.join(join)
                    self._spawn(self.carrier.carry(key, link, 0))
            session = self.session
            assert session is not None
            session.consent = lambda seat: self.turns.consent(session, seat)
            session.takeback_consent = self.turns.takeback_consent      # a computer says yes, a person answers
            self.presence.start(self.clock())
            self._spawn(self.mesh.dial_loop(session))
            self._spawn(self.turns.run(session))
            self._spawn(advertise_running(lambda: self.session, lambda: self.table_id, lambda: self.discovery))
            await self._done.wait()
            await self._linger(session)
            if self.computers.tasks:
                await asyncio.wait(self.computers.tasks, timeout=self.options.linger)
        finally:
            server.close()      # no new connection, and the ones not yet links are dropped
            for task in list(self._tasks):
                task.cancel()
            reason, seated = self._closing_reason(), [*self.links.values(), *self.seating.waiting_links]
            try:    # the seats' links with their reason, then every other one we serve dropped (strangers...)
                await asyncio.gather(*(link.close(reason) for link in seated))
            finally:
                server.drop_links(reason)
            await server.wait_closed()
            if self.discovery is not None:
                await self.discovery.close()
            self.files.close()
        return self.session

    def _closing_reason(self) -> str:
        """What our links say as we stop: the end, a table that never filled, or why we leave early."""
        if self.session is None:
            return TABLE_CLOSED if self.is_host else self.links.leaving or "leaving"
        return GOODBYE if self.session.over else self.links.leaving or "leaving"

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _listen(self, interfaces: Sequence[str], port: int) -> Listener:
        """Serve on ``port``, or on any free port (said) if that one is busy: a restart keeps its table."""
        try:
            return await serve(self._on_connection, list(interfaces), port, self.options.link, clock=self.clock,
                               admission=self.door)
        except OSError as e:
            if not port:
                raise
            self._emit(Note(f"port {port} is busy ({e.strerror}); listening on another"))
        return await self._listen(interfaces, 0)

    async def _linger(self, session: Session) -> None:
        """After our end: until every other seat and spectator has the end (a goodbye on its link), or ``linger``
        seconds: a peer whose cable was out at the end may come back meanwhile and learn it."""
        deadline, links = self.clock() + self.options.linger, self.links
        while self.clock() < deadline:      # (one who resigned waits only until the others have all it wrote)
            if (links.leaving == LEFT_RESIGNED or all(s.key in links.finished for s in self.mesh.others())) \
                    and links.drained(len(session.chain)) and self.watchers.idle:
                return
            await nap(self.clock, deadline - self.clock(), poll=0.05)

    async def _on_connection(self, link: Link) -> None:
        await host_connection(link, self.me, self.name, self._decide, self._accepted)

    def admit(self, link: Link, key: bytes) -> None:
        """Serve a code's link as if it had come to our server; its peer must prove the key the code proved."""
        self.door.served.add(link)      # (counted as served, dropped once served or when we stop)
        self._spawn(self._serve(link, key))

    async def _serve(self, link: Link, key: bytes) -> None:
        try:
            await host_connection(link, self.me, self.name, self._decide, self._accepted, expect=key)
        finally:
            self.door.served.discard(link)
            link.drop(self._closing_reason())

    async def _decide(self, req: Request) -> Answer:
        """Our answer to a proven peer: a spectator's watch, a member's resume, a joiner's join."""
        if req.kind == "watch":
            return await self.watchers.decide(req)
        if req.kind == "resume":
            return await self.mesh.answer(req)
        return await self.seating.answer(req)

    async def _accepted(self, req: Request, link: Link) -> None:
        if req.kind == "watch":
            await self.watchers.serve(req, link)
        elif req.kind != "join" or await self.seating.hold(req, link):
            await self.carrier.carry(req.peer.key, link, self.mesh.resume_from(req.peer.key, req.have))

    def _outgoing(self, key: bytes, entry: Entry) -> bytes:
        """The bytes of ``entry`` as sent to ``key`` (a cheat test overrides this to lie to one peer)."""
        return entry.raw

    def _member(self, author: bytes) -> bool:
        """Whether ``author`` may sign entries of this table: a seat, a former seat, or our replacement."""
        return (author in self.keys() or self.mesh.was_seated(author)
                or (self.session is not None and self.session.replacing_us(author)))

    def _greet(self, link: Link) -> None:
        """A seat's link is up: its chat comes to us, and it learns who watches through us."""
        link.on_chat = lambda raw: self.table_chat.heard(raw, link)
        if self.watchers.names:
            self.table_chat.tell_watchers(self.watchers.names, only=link)

    def _deliver(self, entry: Entry, sender: bytes) -> None:
        """Hand an opened entry from ``sender`` to the session: the one way a received entry goes in."""
        session = self._set()
        self._report(session.receive(entry, sender=sender))
        self.turns.tick(session)

    def cut_off(self, absent: int) -> bool:
        """Whether we are linked with none of the seats but ``absent`` and ourselves (when the table has any)."""
        return self.presence.cut_off(self.keys(), absent, self.links.linked_keys())

    def scores_so_far(self) -> list[int] | None:
        """The public scores of the position reached (what an ended game is worth), if the game has started."""
        scores = self.session.scores_so_far() if self.session is not None else None
        return None if scores is None else list(scores)


__all__ = ["Declined", "GOODBYE", "GameFiles", "LEFT_PAUSED", "LEFT_RESIGNED", "Peer", "PeerOptions", "ResumeError",
           "SeatedPeer", "Think", "think_on_thread"]
