"""Computer players a peer runs: seats of its table, and a gone seat given to a computer.

Each computer is a :class:`~protocol.net.peer.Peer` of its own in this
process: its own key (kept owner-only under ``computers/`` in the log
folder, so the same command brings it back after a crash), its own log,
its own links, so it signs its own moves and fair steps like anyone. Its
name starts with ``[computer] ``: every peer sees what it is.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Callable, Sequence

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import Player, RulesError
from lanterne.protocol.identity import Identity, fingerprint
from lanterne.protocol.session import COMPUTER_MARK, ClaimRefused, Replaced, SeatReplaced, Session

from .events import Note
from .files import GameFiles, Say, Seat, read_meta, write_private

if TYPE_CHECKING:
    from .peer import Peer


class Computers:
    """The computer seats of a :class:`~protocol.net.peer.Peer` (a mixin of it)."""

    # ------------------------------------------------------------ a gone seat replaced by a computer
    def _on_replacement(self, ev) -> None:
        session = self.session
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
        former = None
        if ev.seat < len(self.seats) and self.seats[ev.seat].key != ev.key:
            former = self.seats[ev.seat]
            self._former.append(former)
            self.seats[ev.seat] = Seat(ev.key, ev.name)
            self._save_roster()
        hosted = None
        if ev.by == session.my_seat:
            peer = self._spawn_replacement(ev.seat, ev.name)
            hosted = (peer, self._replacements[-1])
        self._asked[ev.seat] = (former, hosted)      # until the seat's answers are in (a refusal undoes this)

    def _withdrawn(self, seat: int) -> None:
        """A replacement was refused: the seat is its player's again, and a computer we started for it stops."""
        former, hosted = self._asked.pop(seat, (None, None))
        if former is not None:
            if former in self._former:
                self._former.remove(former)
            self.seats[seat] = former
            self._save_roster()
        if hosted is not None:
            peer, task = hosted
            task.cancel()
            if peer in self._computers:
                self._computers.remove(peer)
            if task in self._replacements:
                self._replacements.remove(task)
            self._emit(Note(f"the computer for seat {seat + 1} stops: the replacement was refused"))

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
        peer = type(self)(identity, name, files, player, self.options, lambda line: None, session=session,
                          seats=[Seat(s.key, s.name, s.address) for s in self.seats], port=0, think=self.think,
                          clock=self.clock)
        peer.seats[self._index(self.me.public)].address = ((self._interfaces or ["127.0.0.1"])[0], self.port)
        peer._full.set()
        peer._dial_all = True
        peer._save_roster()
        self._computers.append(peer)
        self._replacements.append(self._spawn(peer.run_guest(None, list(self._interfaces[:1]) or ["127.0.0.1"])))
        self._emit(Note(f"hosting {name} ({identity.fingerprint}) for seat {seat + 1}"))
        return peer

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
        peer = type(self).guest(Identity.from_seed(seed), f"{COMPUTER_MARK}{self.name} {n}", folder, player=player,
                          options=self.options, say=say or (lambda line: None), clock=self.clock)
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
                peer = type(self).from_files(me, meta, player=make_player(n), options=self.options,
                                       say=say or (lambda line: None), clock=self.clock)
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
