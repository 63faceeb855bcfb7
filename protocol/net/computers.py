"""Computer players a peer runs: seats of its table, and a gone seat given to a computer.

Each computer is a peer of its own in this process: its own key (kept
owner-only under ``computers/`` in the log folder, so the same command
brings it back after a crash), its own log, its own links, so it signs its
own moves and fair steps like anyone. Its name starts with ``[computer] ``:
every peer sees what it is. How any computer player thinks without
stalling the links is a :data:`Think`.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Awaitable, Callable, Coroutine, Protocol, Sequence

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import Action, Game, Player, RulesError, State
from lanterne.protocol.identity import Identity, fingerprint
from lanterne.protocol.session import COMPUTER_MARK, ClaimRefused, ReplaceAsked, Replaced, SeatReplaced, Session

from .clock import Clock
from .events import Note, PeerEvent
from .files import GameFiles, Say, SeatedPeer, read_meta, write_private
from .options import PeerOptions

Think = Callable[[Player, Game, State, int], Awaitable[Action]]
"""How a computer player's choice is computed without stalling the links (the app may use a process)."""


async def think_on_thread(player: Player, game: Game, view: State, seat: int) -> Action:
    """The default: the choice on a worker thread, so that links and heartbeats stay live.

    A player that answers at once (``answers_at_once``: a random pick among the legal actions) is asked on the
    loop instead: handing its choice to a thread and back cost more CPU than the choice (about a sixth of a
    headless peer's CPU over a Pagode game between two random players)."""
    if getattr(player, "answers_at_once", False):
        return player.choose(game, view, seat)
    return await asyncio.to_thread(player.choose, game, view, seat)


class Computer(Protocol):
    """What the host of a computer needs of it: a peer (:class:`~protocol.net.peer.Peer` is one)."""

    me: Identity
    session: Session | None
    think: Think

    async def run_guest(self, address: tuple[str, int] | None, interfaces: Sequence[str], port: int = 0, *,
                        game: str = "", variant: str = "standard") -> Session | None: ...


MakeGuest = Callable[[Identity, str, Path, Player, Say], Computer]
"""A new peer for a computer seat (key, name, folder, player, where its lines go), before the table opens."""
MakeResumed = Callable[[Identity, Path, Player, Say], Computer]
"""A computer seat's peer back from its files (key, meta file, player, where its lines go)."""
MakeTakingOver = Callable[[Identity, str, GameFiles, Player, Session, list[SeatedPeer]], Computer]
"""The peer of a computer that takes over a seat mid-game (key, name, files, player, session, seats)."""

Replacement = ReplaceAsked | SeatReplaced | Replaced | ClaimRefused
"""The session's events about a seat given to a computer (asked, done, ours taken, refused)."""


def quiet(line: str) -> None:
    """Where a computer's lines go unless it is told otherwise: nowhere."""


class ComputerHost:
    """The computers a peer runs: seats it adds to its table, and replacements it hosts for gone seats.

    Its context: who we are, our files (their folder, the table id), our
    options, clock and thinker, the session (once the table is set), where
    we listen, how a seat is given to a computer and given back, how its
    peers are made, and how the user is told.
    """

    def __init__(self, me: Identity, name: str, files: GameFiles, *, options: Callable[[], PeerOptions], clock: Clock,
                 think: Callable[[], Think], session: Callable[[], Session | None], port: Callable[[], int],
                 seats: Callable[[], list[SeatedPeer]], replace: Callable[[int, bytes, str], SeatedPeer | None],
                 restore: Callable[[int, SeatedPeer], None], guest: MakeGuest, resumed: MakeResumed,
                 taking_over: MakeTakingOver, emit: Callable[[PeerEvent], None],
                 spawn: Callable[[Coroutine], asyncio.Task]):
        self._me, self._name, self._files = me, name, files
        self._options, self._clock, self._think = options, clock, think
        self._session, self._port, self._seats, self._replace, self._restore = session, port, seats, replace, restore
        self._guest, self._resumed, self._taking_over = guest, resumed, taking_over
        self._emit, self._spawn = emit, spawn
        self.peers: list[Computer] = []
        """The computers we run, seats of the table and replacements alike."""
        self.seated = asyncio.Event()
        """Our computers hold their seats (they take the first ones, before any person's join)."""
        self.make_player: Callable[[int], Player] | None = None
        """Makes the player of a computer we host for a replaced seat (by seat); None: a random player."""
        self._tasks: list[asyncio.Task] = []
        self._replacements: list[asyncio.Task] = []
        self._asked: dict[int, tuple[SeatedPeer | None, tuple[Computer, asyncio.Task] | None]] = {}
        """Per seat under a replace: (its former SeatedPeer, (the computer we host for it, its task) or None)."""
        self._listen_on: list[str] = ["127.0.0.1"]

    def ours(self, key: bytes) -> bool:
        """Whether ``key`` is a computer we run."""
        return any(c.me.public == key for c in self.peers)

    def runs(self, key: bytes) -> bool:
        """Whether ``key`` is a computer we run, still playing (slow, not gone)."""
        return any(c.me.public == key and c.session is not None and not c.session.over for c in self.peers)

    @property
    def tasks(self) -> list[asyncio.Task]:
        """Every computer we started, seats and replacements (the peer waits for them at its end)."""
        return self._tasks + self._replacements

    # ------------------------------------------------------------ seats of our table
    def add(self, player: Player, say: Say | None, seats: int) -> Computer:
        """A seat for a computer player this host runs (a table of ``seats``, one of them a person's)."""
        if len(self.peers) >= seats - 1:
            raise RulesError(f"a table of {seats} has no seat left for a computer")
        n = len(self.peers) + 1
        seed = os.urandom(32)
        folder = self._files.folder / "computers" / f"{self._me.fingerprint}-{os.urandom(4).hex()}-{n}"
        folder.mkdir(parents=True, exist_ok=True)
        write_private(folder / "computer.key", seed)
        peer = self._guest(Identity.from_seed(seed), f"{COMPUTER_MARK}{self._name} {n}", folder, player, say or quiet)
        peer.think = self._think()
        self.peers.append(peer)
        return peer

    def resume(self, make_player: Callable[[int], Player], say: Say | None) -> list[Computer]:
        """After a restart: the computer seats of this game, each from its own files."""
        found: list[Computer] = []
        for key_file in sorted((self._files.folder / "computers").glob(f"{self._me.fingerprint}-*/computer.key")):
            for meta in GameFiles.unfinished(key_file.parent):
                if read_meta(meta).get("table") != self._files.table_id.hex():
                    continue
                try:
                    me = Identity.from_seed(key_file.read_bytes())
                except (OSError, ValueError):
                    continue
                peer = self._resumed(me, meta, make_player(len(found) + 1), say or quiet)
                peer.think = self._think()
                found.append(peer)
        self.peers = found
        self.seated.set()
        return found

    async def seat(self, interfaces: Sequence[str], game: str, variant: str, held: Callable[[bytes], bool]) -> None:
        """Our computers join our table first, one by one (each once its seat is ``held``), in seat order."""
        self._listen_on = list(interfaces[:1]) or ["127.0.0.1"]
        for peer in self.peers:
            task = self._spawn(peer.run_guest((interfaces[0], self._port()), interfaces[:1], game=game,
                                              variant=variant))
            self._tasks.append(task)
            while not held(peer.me.public) and not task.done():
                await asyncio.sleep(0.01)
        self.seated.set()

    def come_back(self, interfaces: Sequence[str]) -> None:
        """A resumed game: our computers come back with us (each from its own files)."""
        self._listen_on = list(interfaces[:1]) or ["127.0.0.1"]
        self._tasks += [self._spawn(c.run_guest(None, interfaces[:1])) for c in self.peers]

    # ------------------------------------------------------------ a gone seat replaced by a computer
    def on_replacement(self, ev: Replacement) -> None:
        if isinstance(ev, Replaced):
            self._emit(Note(f"replaced: {ev.reason}"))
            return
        if isinstance(ev, SeatReplaced):
            self._asked.pop(ev.seat, None)
            self._emit(Note(f"seat {ev.seat + 1} is now {ev.name} ({fingerprint(ev.key)}); every hidden card re-dealt"))
            return
        if isinstance(ev, ClaimRefused):
            self._withdrawn(ev.seat)
            return
        scores = " ".join(str(x) for x in ev.scores)
        self._emit(Note(f"replace: seat {ev.by + 1} asks to give seat {ev.seat + 1} to {ev.name} "
                        f"({fingerprint(ev.key)}); scores so far: {scores}"))
        former = self._replace(ev.seat, ev.key, ev.name)
        session = self._session()
        hosted = self._host_replacement(ev.seat, ev.name) if session is not None and ev.by == session.my_seat else None
        self._asked[ev.seat] = (former, hosted)      # until the seat's answers are in (a refusal undoes this)

    def _withdrawn(self, seat: int) -> None:
        """A replacement was refused: the seat is its player's again, and a computer we started for it stops."""
        former, hosted = self._asked.pop(seat, (None, None))
        if former is not None:
            self._restore(seat, former)
        if hosted is not None:
            peer, task = hosted
            task.cancel()
            if peer in self.peers:
                self.peers.remove(peer)
            if task in self._replacements:
                self._replacements.remove(task)
            self._emit(Note(f"the computer for seat {seat + 1} stops: the replacement was refused"))

    def _host_replacement(self, seat: int, name: str) -> tuple[Computer, asyncio.Task]:
        """Host the computer that takes over ``seat``: its own key, log and links, in this process."""
        session = self._session()
        assert session is not None
        identity, seed = session.computer_secrets(seat)
        folder = self._files.folder / "computers" / f"{self._me.fingerprint}-r{seat + 1}-{identity.fingerprint}"
        folder.mkdir(parents=True, exist_ok=True)
        write_private(folder / "computer.key", session.computer_key_material(seat))
        files = GameFiles(folder)
        store = files.store(seed, {"role": "guest", "name": name, "replaces": seat + 1})
        raws = [e.raw for e in session.chain]
        for raw in raws:
            store(raw)
        its = Session.from_log(raws, identity, seed, store=store, timeout=self._options().claim_after, name=name)
        player = self.make_player(seat) if self.make_player is not None else RandomBot(f"replace-{seat}")
        seats = [SeatedPeer(s.key, s.name, s.address) for s in self._seats()]
        mine = next(i for i, s in enumerate(seats) if s.key == self._me.public)
        seats[mine].address = (self._listen_on[0], self._port())
        peer = self._taking_over(identity, name, files, player, its, seats)
        peer.think = self._think()
        self.peers.append(peer)
        task = self._spawn(peer.run_guest(None, self._listen_on))
        self._replacements.append(task)
        self._emit(Note(f"hosting {name} ({identity.fingerprint}) for seat {seat + 1}"))
        return peer, task


__all__ = ["Computer", "ComputerHost", "Replacement", "Think", "think_on_thread"]
