"""A network peer: one seat of one game, carried over a full mesh of links (2 to MAX_SEATS seats).

This is where the sans-IO :class:`protocol.session.Session` meets sockets;
a two-player game is simply a table of two. :class:`Peer` is the front
door (:meth:`Peer.host`, :meth:`Peer.guest`, :meth:`Peer.from_files`, then
``run_host`` / ``run_guest``) and owns its parts: :class:`.presence.Presence`
(who is here, who claims, our consent: sans-IO), :class:`.linkset.LinkSet`
(the links and what each was sent of the chain), the spectators it serves
and the table chat; every timing decision is made on the one clock it is
given. How a table forms, why a full mesh (every peer forwards every entry,
so a seat that shows different entries to different peers is caught by its
own two signatures), resume and claims: docs/network.md.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Awaitable, Callable, Sequence

from lanterne.engines.core import Action, Game, Player, RulesError, State
from lanterne.engines.registry import get_game
from lanterne.protocol.session.phases import Phase
from lanterne.protocol.identity import Identity, fingerprint
from lanterne.protocol.log import Entry, open_entry
from lanterne.protocol.session import (MAX_SEATS, ON_GONE_COMPUTER, ON_GONE_END, Aborted, ClaimRefused, Dropped,
                                       ReplaceAsked, Replaced, SeatReplaced, Session, TableSet)
from lanterne.protocol.wire import ProtocolError

from .clock import MONOTONIC, Clock, nap, within
from .computers import Computers
from .linkset import GOODBYE, LinkSet
from .tablechat import ChatRelay
from .watchers import SpectatorServer, advertise_running
from .discovery import Advert, Discovery, TableHint
from .events import Advertised, Linked, LinkLost, Listening, Note, PeerEvent, PeerLeft, Resumed, event_line
from .presence import Presence, claim_step
from .files import GameFiles, ResumeError, Say, Seat, read_game_files, read_signed, seats_of
from .invite import Declined, Request
from .seating import TABLE_CLOSED, TableSeating
from .transport import Link, LinkClosed, LinkOptions, bound_port, serve

LEFT_PAUSED = "left on purpose: back later"
"""The CLOSE reason of a player who pauses: the others show it left, not that its link broke."""

LEFT_RESIGNED = "left for good: a computer may take my seat"
"""The CLOSE reason of a player who resigns on a table whose policy gives a gone seat to a computer: the others
claim its seat when the game waits for it, without the claim time (the link is authenticated: only that peer
could say it; the others' answers to the claim are what the log keeps)."""

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
    min_claim: float = 10.0
    """The shortest claim time or move clock we accept from a table (or our own ``claim_after``, if shorter):
    a table that signs less is left at once, in one line, before any move."""
    move_clock: float | None = None
    """The host's move clock, signed in the table: a seat linked but silent this long may be claimed against."""
    spectators: bool | str | None = None
    """Who may watch the host's table (signed in it): one of ``protocol.session.WATCH_MODES`` (True: everyone,
    False: off), None the game's default; each player serves those who ask it by that rule."""
    spectator_chat: bool = True
    """We accept and relay spectators' chat (where the table lets them watch); our own table chat is always on."""
    reconnect_every: float = 0.5
    linger: float = 10.0
    """Seconds a peer stays up after the end, for a peer that missed the last entries."""
    move_delay: float = 0.0
    """Seconds a bot waits before each move (tests use it to act mid-game)."""


@dataclass
class Peer(TableSeating, Computers):
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
    links: LinkSet = field(default_factory=LinkSet)
    """The other seats' links by key, and what each was sent of the chain."""
    discovery: Discovery | None = None
    on_events: Callable[[list], None] | None = None
    """Gets the session's events (Moved, TableSet, GameOver, Aborted...) for a UI."""
    on_peer_event: Callable[[PeerEvent], None] | None = None
    """Gets the table's and the links' events (:mod:`.events`) for a UI."""
    think: Think = think_on_thread
    port: int = 0
    clock: Clock = MONOTONIC
    """What every timing decision of this peer and its links is made by (a test's fake clock: numbers, no waits)."""
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _done: asyncio.Event = field(default_factory=asyncio.Event)
    _full: asyncio.Event = field(default_factory=asyncio.Event)
    _tasks: set = field(default_factory=set)
    resigning: bool = False
    """The player resigned on a table whose policy gives its seat to a computer: the links close saying so."""
    pausing: bool = False
    """The player leaves on purpose and will be back: the links close saying so (see :meth:`pause`)."""
    _waiting_links: dict = field(default_factory=dict)
    """Seated joiners' links while the table fills (key -> link): a host that closes the table tells them."""
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
    _asked: dict = field(default_factory=dict)
    """Per seat under a replace: (its former Seat, (the computer we host for it, its task) or None)."""
    ticked_at: float = 0.0
    """When our claim clock last let time pass (on our clock): a test that moves the clock waits for it."""
    presence: Presence = field(init=False)
    """Who is here and since when who is gone: what our claims and our answers to claims are decided from."""
    watchers: SpectatorServer = field(init=False)
    """The spectators we serve."""
    table_chat: ChatRelay = field(init=False)
    """What we say and hear in the table chat, and pass on."""

    def __post_init__(self) -> None:
        self.presence = Presence(self.me.public)
        self.watchers = SpectatorServer(lambda: self.session, self._emit, self._on_spectator_chat,
                                        self._watchers_changed, clock=self.clock)
        self.table_chat = ChatRelay(self.me, self.name, table_id=lambda: self.table_id, session=lambda: self.session,
                                    relay_spectators=lambda: self.options.spectator_chat, seat_links=self.links,
                                    spectator_links=lambda: self.watchers.links, keep=self.files.append_chat,
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
        peer = cls(me, name, GameFiles(folder), player, options, say, on_gone=on_gone, clock=clock)
        peer._game, peer._players, peer._variant, peer._seed = game, players, variant, seed or os.urandom(32)
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
                   clock=clock)
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

    def seated_joiners(self) -> int:
        """How many joiners a host holds a seat for (every seat but its own once the table is full)."""
        return self._players - 1 if self._full.is_set() else len(self._joiners)

    def keys(self) -> list[bytes]:
        return [s.key for s in self.seats]

    def _index(self, key: bytes) -> int:
        return self.keys().index(key)

    def _others(self) -> list[Seat]:
        return [s for s in self.seats if s.key != self.me.public]

    def linked(self, key: bytes) -> bool:
        return self.links.linked(key)

    # ------------------------------------------------------------ the table chat
    def chat(self, text: str):
        """Say ``text`` to everyone at the table (:class:`.chat.ChatError`, one line, if it cannot go)."""
        return self.table_chat.say(text)

    def chat_book(self):
        """Our chat of this table (None until the table is set)."""
        return self.table_chat.book()

    def _on_spectator_chat(self, raw: bytes, link: Link, spectator: bytes) -> None:
        self.table_chat.heard(raw, link, spectator)

    def _watchers_changed(self, names: list[str]) -> None:
        self.table_chat.tell_watchers(names)

    # ------------------------------------------------------------ the local player (a UI)
    def play(self, action) -> None:
        """Play our seat's ``action`` now (a UI): logged at once; every link's sender sends it in its turn.

        Raises ``engines.core.IllegalAction`` (one line) if it cannot be played now.
        """
        self._report(self.session.act(action))

    def pause(self) -> None:
        """The player leaves on purpose and will come back: when this peer stops, its links say so."""
        self.pausing = True

    def resign(self, reason: str = "left the table: resigned") -> None:
        """The player gives up for good. On a table whose policy gives a gone seat to a computer, during play:
        our links say so as they close (:data:`LEFT_RESIGNED`) and the others give our seat to a computer at
        once; the game goes on without us. Otherwise a signed abort naming our seat ends the game."""
        session = self.session
        if session is None:
            return
        if session.on_gone == ON_GONE_COMPUTER and session.phase == Phase.PLAY and not session.over \
                and any(s.key != self.me.public for s in self.seats):
            self.resigning = True
            self.files.update(over=True, resigned=True)     # nothing to resume: the seat is the others' to give
            self._done.set()
            return
        self._report(session.resign(reason))

    async def act(self, action) -> None:
        """:meth:`play` for callers that await (IllegalAction: one line)."""
        self.play(action)

    # ------------------------------------------------------------ reporting
    def _report(self, events: list) -> None:
        session = self.session
        self.links.wake_all()      # the chain is the outbox: every sender reads it
        self.watchers.wake_all()
        self._changed.set()
        if events and self.on_events is not None:
            self.on_events(list(events))
        for ev in events:
            line = event_line(ev, session)
            if line is not None:
                self.say(line)
            if isinstance(ev, (ReplaceAsked, SeatReplaced, Replaced, ClaimRefused)):
                self._on_replacement(ev)
            if isinstance(ev, ClaimRefused):     # our claim may have been taken back: resend from where it stood
                self.links.rewind(len(session.chain))
            if isinstance(ev, TableSet) and self.files.meta.get("game") != ev.game:
                self.files.update(game=ev.game, variant=ev.variant)   # a guest learns them from the table
            if isinstance(ev, Dropped):
                self._dropped(ev)
            if isinstance(ev, Aborted):
                scores = list(ev.scores) if ev.scores is not None else self.scores_so_far()
                if scores is not None:
                    self._emit(Note(f"scores so far: {scores}"))
        if session.over and not self._done.is_set():
            self.files.update(over=True)
            self._emit(Note(f"log: {self.files.log_path}"))
            self._done.set()

    def _dropped(self, ev: Dropped) -> None:
        """Bytes the session dropped as out of context: nobody is blamed for them; if an honest peer never sends
        such bytes, the link they came on is closed (the peer may link again and carry on)."""
        where = f" from {fingerprint(ev.sender)}" if ev.sender is not None else ""
        self._emit(Note(f"dropped an entry{where}: {ev.reason}"[:300]))
        if ev.hostile and ev.sender is not None:
            self.presence.suspect(ev.sender, len(self.session.chain))
        link = self.links.get(ev.sender) if ev.hostile and ev.sender is not None else None
        if link is not None and not link.closed:
            self._spawn(link.close(f"sent an entry out of place: {ev.reason}"[:120]))

    def _emit(self, event: PeerEvent) -> None:
        """Tell the user what happens around the game: the UI gets the event, a headless peer its line."""
        if self.on_peer_event is not None:
            self.on_peer_event(event)
        self.say(str(event))

    def _save_roster(self) -> None:
        self.files.update(seats=[s.to_data() for s in self.seats])

    # ------------------------------------------------------------ running
    async def run_host(self, interfaces: Sequence[str], port: int = 0, *, discover: bool = True,
                       accept: Callable[[Request], bool | Awaitable[bool]] | None = None) -> Session:
        """Open the table, seat N-1 joiners, then play to the end over the mesh."""
        self._accept_policy = accept
        return await self._run(interfaces, port, discover)

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
        if self.session is not None:
            self.session.min_claim = min(self.options.min_claim, self.options.claim_after)
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
            self.session.consent = self._consent
            self.presence.start(self.clock())
            self._spawn(self._dial_loop())
            self._spawn(self._play_loop())
            self._spawn(advertise_running(lambda: self.session, lambda: self.table_id, lambda: self.discovery))
            await self._done.wait()
            await self._linger()
            computers += self._replacements
            if computers:
                await asyncio.wait(computers, timeout=self.options.linger)
        finally:
            server.close()
            for task in list(self._tasks):
                task.cancel()
            for link in list(self.links.values()) + list(self._waiting_links.values()):
                await link.close(GOODBYE if self.session is not None and self.session.over
                                 else TABLE_CLOSED if self.session is None and self.is_host
                                 else LEFT_RESIGNED if self.resigning
                                 else LEFT_PAUSED if self.pausing else "leaving")
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
            return await serve(self._on_connection, list(interfaces), port, self.options.link, clock=self.clock)
        except OSError as e:
            if port:
                self._emit(Note(f"port {port} is busy ({e.strerror}); listening on another"))
                return await serve(self._on_connection, list(interfaces), 0, self.options.link, clock=self.clock)
            raise

    async def _linger(self) -> None:
        """After our end: until every other seat and every spectator we serve has the end (a goodbye on its
        link), or ``linger`` seconds: a peer whose cable was out at the end may come back meanwhile and learn it."""
        deadline = self.clock() + self.options.linger
        while self.clock() < deadline:
            if (self.resigning or all(s.key in self.links.finished for s in self._others())) \
                    and self.links.drained(len(self.session.chain)) and self.watchers.idle:
                return      # (a player who resigned waits only until the others have all it wrote; every
                            # spectator we serve leaves once it has the end)
            await nap(self.clock, deadline - self.clock(), poll=0.05)

    # ------------------------------------------------------------ one link
    async def _carry_quietly(self, key: bytes, link: Link, have: int) -> None:
        try:
            await self._carry(key, link, have)
        except LinkClosed:
            pass

    async def _carry(self, key: bytes, link: Link, have: int) -> None:
        """Carry the session over ``link`` to ``key`` until it drops or both sides are over."""
        session = self.session
        old = self.links.attach(key, link, have, len(session.chain))
        if old is not None:
            await old.close("replaced by a newer link")
        self.presence.up(key)
        self._emit(Linked(key, fingerprint(key), link.peer[0], link.peer[1]))
        link.on_chat = lambda raw: self.table_chat.heard(raw, link)
        if self.watchers.names:
            self.table_chat.tell_watchers(self.watchers.names, only=link)
        sender = self._spawn(self.links.send_loop(key, link, session, self._outgoing))
        try:
            while True:
                raw = await link.recv()
                if session.over:
                    continue  # what comes after our end changes nothing
                self._deliver(await self._open(key, link, raw), key)
        except LinkClosed as e:
            if not session.over:
                if link.peer_reason == LEFT_RESIGNED:
                    self.presence.left_for_good(key)
                self._emit(PeerLeft(key, fingerprint(key), link.peer_reason == LEFT_RESIGNED)
                           if link.peer_reason in (LEFT_PAUSED, LEFT_RESIGNED)
                           else LinkLost(key, fingerprint(key), e.reason))
            raise
        finally:
            if link.peer_reason == GOODBYE:
                self.links.finished.add(key)     # it was over: it has the end
            sender.cancel()
            if self.links.detach(key, link):
                self.presence.down(key, self.clock())
            self._changed.set()

    def _outgoing(self, key: bytes, entry: Entry) -> bytes:
        """The bytes of ``entry`` as sent to ``key`` (a cheat test overrides this to lie to one peer)."""
        return entry.raw

    async def _open(self, key: bytes, link: Link, raw: bytes) -> Entry:
        """The entry in ``raw``, opened (form and signature) once, here where it arrives. Bytes that do not
        open, or an entry signed by no member of the table, drop the link, not the game."""
        try:
            entry = open_entry(raw)
        except ProtocolError as e:
            reason = f"bytes not signed by the peer ({e})"
        else:
            author = entry.author
            if (author in self.keys() or any(s.key == author for s in self._former)
                    or (self.session is not None and self.session.replacing_us(author))):
                return entry     # a replaced peer's late entries: the session drops them
            reason = f"an entry signed by a stranger ({fingerprint(author)})"
        if self.session is not None:
            self.presence.suspect(key, len(self.session.chain))
        await link.close(reason[:120])
        raise LinkClosed(reason)

    def _deliver(self, entry: Entry, sender: bytes) -> None:
        """Hand an opened entry from ``sender`` to the session: the one way a received entry goes in."""
        self._report(self.session.receive(entry, sender=sender))
        self._tick()

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
            self._tick()          # at every change (who is awaited: its clocks start now), once a second even
            self._changed.clear()  # while links come and go (a peer that keeps linking again with bad bytes still
            try:                   # meets the clock), and when the claim falls due
                await within(self._changed.wait(), self._next_tick(), self.clock)
            except asyncio.TimeoutError:
                pass

    def _next_tick(self) -> float:
        """Seconds until our next tick: a second at most, less if the claim falls due sooner."""
        due = self.session.claim_due
        left = due - self.clock() if due is not None else 0.0
        return min(left, 1.0) if left > 0 else 1.0

    def _tick(self) -> None:
        """Let time pass for the claim on our clock (:func:`.presence.claim_step`)."""
        now = self.ticked_at = self.clock()
        self._report(self.session.hold(now, self.links.linked_keys() >= set(self.keys()) - {self.me.public}))
        self._report(claim_step(self.session, self.presence, now, self.keys(), self.links.linked_keys(),
                                runs_here=self._runs_computer))

    def _runs_computer(self, key: bytes) -> bool:
        """Whether ``key`` is a computer this process runs, still playing (slow, not gone)."""
        return any(c.me.public == key and not c.session.over for c in self._computers if c.session is not None)

    def _consent(self, seat: int) -> bool | None:
        """Our own clock's answer to a claim against ``seat`` (:meth:`.presence.Presence.consent`)."""
        session = self.session
        key = session.seats[seat]
        return self.presence.consent(key, self.clock(), linked=self.linked(key), claim_time=session.timeout,
                                     move_clock=session.move_clock,
                                     awaited_since=session.claiming.awaited_since if session.claiming is not None
                                     else None)

    def claimer(self, absent: int) -> int:
        """The seat that writes the claim against ``absent``: the lowest present seat we are linked to."""
        return self.presence.claimer(self.keys(), absent, self.links.linked_keys())

    def may_claim(self, absent: int) -> bool:
        """We write the claim against ``absent`` only as the claimer, and only while linked with some other
        seat (:meth:`.presence.Presence.may_claim`)."""
        return self.presence.may_claim(self.keys(), absent, self.links.linked_keys())

    def cut_off(self, absent: int) -> bool:
        """Whether we are linked with none of the seats but ``absent`` and ourselves (when the table has any)."""
        return self.presence.cut_off(self.keys(), absent, self.links.linked_keys())

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


__all__ = ["Declined", "GameFiles", "Peer", "PeerOptions", "ResumeError", "Seat", "Think", "think_on_thread"]
