"""How a table fills and how its members link: a host seats joiners, every member dials the seats before it.

The host answers join requests (its policy decides, a person maybe: the
request is withdrawn if the joiner leaves meanwhile), holds a seat for each
accepted joiner, and starts the session once the last accept reached a
joiner still there; then each member gets the ``roster``. A later seat
dials every earlier one with a ``resume`` for the table id; a listener
accepts only keys of the table. See docs/network.md.
"""

from __future__ import annotations

import asyncio
import inspect

from lanterne.protocol.identity import fingerprint
from lanterne.protocol.session import Session

from .clock import nap
from .discovery import TableHint
from .events import JoinAsked, JoinPending, JoinRefused, JoinWithdrawn, LinkAsked, SeatFreed, SeatOffered, Seated, SeatTaken
from .files import Seat
from .handshake import HandshakeError, decode, encode
from .invite import Answer, Declined, Request, ask, host_connection, join_request, resume_request
from .transport import Link, LinkClosed, within

TABLE_CLOSED = "the host closed the table"
"""The CLOSE reason a host gives its seated joiners when it closes a table that never filled."""

ROSTER_WAIT = 3600.0
"""Seconds a seated guest waits for the others to join (a lobby may take a while)."""


class TableSeating:
    """How a peer's table fills and how its members link (a mixin of :class:`~protocol.net.peer.Peer`; the
    session's own seating, who joins the signed table, is :mod:`protocol.session`'s)."""

    # ------------------------------------------------------------ incoming links
    async def _on_connection(self, link: Link) -> None:
        await host_connection(link, self.me, self.name, self._decide, self._accepted)

    async def _decide(self, req: Request) -> Answer:
        if req.kind == "watch":
            return await self.watchers.decide(req)
        if req.kind == "resume":
            if not self.table_id and req.peer.key in self.keys():
                # a seat after us dials as soon as it has the roster; the host's hello may still be
                # on its way to us: wait for it rather than send the dialer off to try again
                deadline = self.clock() + 5.0
                while not self.table_id and self.clock() < deadline:
                    await nap(self.clock, deadline - self.clock(), poll=0.01)
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
                               timeout=self.options.claim_after, guests=guests, on_gone=self.on_gone,
                               move_clock=self.options.move_clock, spectators=self.options.spectators)
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
        clocks = {"claim_ms": round(self.options.claim_after * 1000)}
        if self.options.move_clock is not None:
            clocks["move_ms"] = round(self.options.move_clock * 1000)
        return encode("roster", table=self.table_id, keys=self.keys(), names=[s.name for s in self.seats],
                      addrs=[s.address[0] if s.address else "" for s in self.seats],
                      ports=[s.address[1] if s.address else 0 for s in self.seats], **clocks)

    def _too_short(self, roster: dict) -> str:
        """Why we leave a table whose claim time or move clock (as its roster says) is below our minimum, or ''.

        The session checks the signed table again at our genesis turn (a host may say one thing here and
        sign another): this check only spares everyone a game that cannot start."""
        least = min(self.options.min_claim, self.options.claim_after)
        for what, field in (("claim time", "claim_ms"), ("move clock", "move_ms")):
            if field in roster and roster[field] / 1000 < least:
                return (f"the table's {what} is {roster[field] / 1000:g} s; we play only with at least "
                        f"{least:g} s (--min-claim)")
        return ""

    async def _accepted(self, req: Request, link: Link) -> None:
        if req.kind == "watch":
            await self.watchers.serve(req, link)
            return
        if req.kind == "join":
            if not link.closed and len(self._joiners) == self._players - 1 and not self._full.is_set():
                self._seat_everyone()      # the last seat's accept reached a joiner still there
            elif self.discovery is not None and not link.closed:
                self._spawn(self._refresh_advert())
            self._waiting_links[req.peer.key] = link      # told if the host closes the table meanwhile
            try:
                full = await self._full_or_gone(link)
            finally:
                self._waiting_links.pop(req.peer.key, None)
            if not full:
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
                                expect_fingerprint=expect_fp, options=self.options.link, clock=self.clock,
                                on_proven=lambda hs: self._emit(JoinPending(hs.peer.name, hs.peer.fingerprint,
                                                                            hs.safety_code)))
        self._emit(SeatOffered(hs.peer.name, hs.peer.fingerprint, hs.safety_code))
        try:
            roster = decode(await within(link.recv(), ROSTER_WAIT), "roster")
        except (asyncio.TimeoutError, LinkClosed, HandshakeError) as e:
            await link.close("no roster")
            if link.peer_reason == TABLE_CLOSED:
                raise Declined(f"{hs.peer.name} closed the table before it was full") from None
            raise Declined(f"{hs.peer.name} never filled the table: {e}") from None
        except asyncio.CancelledError:  # we leave before the table is full: the host frees our seat
            await link.close("left before the table was full")
            raise
        too_short = self._too_short(roster)
        if too_short:
            await link.close(too_short[:120])
            raise Declined(f"{hs.peer.name}'s table: {too_short}")
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
            await nap(self.clock, self.options.reconnect_every, poll=self.options.reconnect_every)

    def _target(self, seat: Seat) -> tuple[str, int] | None:
        """Where the seat listens now: what discovery lists for its key, else the roster's address. An app
        also lists itself while idle in its lobby (``lobby``, port 0), and such a record can outlive the
        start of the game by a heartbeat: never a place to dial."""
        if self.discovery is not None:
            fp = fingerprint(seat.key)
            for advert in self.discovery.peers.values():
                if advert.fingerprint == fp and advert.address and advert.port > 0 and not advert.lobby:
                    return advert.address, advert.port
        return seat.address

    async def _dial(self, seat: Seat) -> None:
        try:
            target = self._target(seat)
            if target is None or not self.table_id:
                return
            link, hs, have = await ask(target[0], target[1], self.me, self.name,
                                       resume_request(self.table_id, len(self.session.chain), self.port),
                                       expect=seat.key, options=self.options.link, timeout=10.0,
                                       clock=self.clock)
        except (Declined, HandshakeError, LinkClosed, OSError, asyncio.TimeoutError):
            return
        finally:
            self._dialing.discard(seat.key)
        seat.address = target
        await self._carry_quietly(seat.key, link, self._resume_from(seat.key, have))
