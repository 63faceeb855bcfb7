"""The members of a table that is set, and the links among them: every member dials the seats before it.

A later seat dials every earlier one with a ``resume`` for the table id
(the earlier ones dial the seats before them), so each pair has one dialer
and a full mesh forms with no coordinator; a listener accepts a resume only
from a key of the table. A computer that took over a seat mid-game dials
every seat (nobody has its address). A seat given to a computer is kept as
a *former* seat, still accepted and still dialled, so that a player who
comes back learns from the log that its seat is gone. See docs/network.md.
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable, Coroutine

from lanterne.protocol.identity import Identity, fingerprint
from lanterne.protocol.session import Session

from .clock import Clock, nap
from .discovery import Advert, Discovery
from .events import LinkAsked, Note, PeerEvent
from .files import SeatedPeer
from .handshake import HandshakeError
from .admission import BUSY
from .invite import Answer, Declined, Request, ask, ask_over, resume_request
from .options import PeerOptions
from .transport import Link, LinkClosed

HELLO_WAIT = 5.0
"""Seconds a listener waits for the host's hello before it answers a resume: a seat after us dials as soon as
it has the roster, and the first entry may still be on its way to us."""

Carry = Callable[[bytes, Link, int], Coroutine[object, object, None]]
"""Carry the session over a link to a key from an entry on (the peer's loop over one link)."""


class Mesh:
    """The seats of a table that is set, the seats given to computers, and which of them we dial.

    Its context: who we are and how we link (identity, name, our options,
    the clock), the table (its id and session,
    known once set), where we listen, what discovery lists, whether a key is
    linked now, how a new link is carried, and where the seats are kept.
    """

    def __init__(self, me: Identity, name: str, *, options: Callable[[], PeerOptions], clock: Clock,
                 table_id: Callable[[], bytes], session: Callable[[], Session | None], port: Callable[[], int],
                 discovery: Callable[[], Discovery | None], linked: Callable[[bytes], bool], carry: Carry,
                 keep: Callable[[list[dict]], None], emit: Callable[[PeerEvent], None],
                 spawn: Callable[[Coroutine], object], turned_away: Callable[[bytes], None],
                 seats: list[SeatedPeer] | None = None, dial_all: bool = False):
        self._me, self._name, self._options, self._clock = me, name, options, clock
        self._table_id, self._session, self._port, self._discovery = table_id, session, port, discovery
        self._linked, self._carry, self._keep, self._emit, self._spawn = linked, carry, keep, emit, spawn
        self._turned_away = turned_away
        """Told of a seat whose listener answered "busy": flooded, not gone (no claim against it meanwhile)."""
        self.by_code: dict[bytes, Callable[[], Awaitable[Link]]] = {}
        """How to reach a seat that has no address: a new link over its code's (:mod:`.online.table`)."""
        self.came_by_code: set[bytes] = set()
        """The seats whose key a code proved (:mod:`.online`): their safety code is checked by the code."""
        self.seats: list[SeatedPeer] = list(seats or [])
        """Every member in seat order (the host first); empty until the table is full."""
        self.former: list[SeatedPeer] = []
        """Seats whose peer was replaced by a computer: still linked, so that a returning one learns it."""
        self.dial_all = dial_all
        """We dial every seat, not only those before ours (a computer that took over a seat mid-game)."""
        self._dialing: set[bytes] = set()

    # ------------------------------------------------------------ who sits where
    def seat(self, seats: list[SeatedPeer]) -> None:
        """The table is set: these are its members in seat order."""
        self.seats = seats
        self.save()

    def save(self) -> None:
        self._keep([s.to_data() for s in self.seats])

    def keys(self) -> list[bytes]:
        return [s.key for s in self.seats]

    def index(self, key: bytes) -> int:
        return self.keys().index(key)

    def others(self) -> list[SeatedPeer]:
        return [s for s in self.seats if s.key != self._me.public]

    def was_seated(self, key: bytes) -> bool:
        """Whether ``key`` held a seat that a computer took over."""
        return any(s.key == key for s in self.former)

    def replace(self, seat: int, key: bytes, name: str) -> SeatedPeer | None:
        """A computer is asked to take over ``seat``: the seat is its, the former one kept (None if it was its)."""
        if seat >= len(self.seats) or self.seats[seat].key == key:
            return None
        former = self.seats[seat]
        self.former.append(former)
        self.seats[seat] = SeatedPeer(key, name)
        self.save()
        return former

    def restore(self, seat: int, former: SeatedPeer) -> None:
        """The replacement was refused: the seat is its player's again."""
        if former in self.former:
            self.former.remove(former)
        self.seats[seat] = former
        self.save()

    async def advertise(self, lan: Discovery) -> None:
        """A guest advertises itself (no table): restarted on another port, the others still find it."""
        try:
            await lan.advertise(Advert(self._name, self._me.fingerprint, self._port()))
        except Exception as e:  # a hint only: the roster's address still works
            self._emit(Note(f"not advertised on zeroconf: {e}"))

    # ------------------------------------------------------------ incoming links
    async def answer(self, req: Request) -> Answer:
        """Our answer to a ``resume``: only a key of this table (or a former seat's) links, to this table only."""
        if not self._table_id() and req.peer.key in self.keys():
            deadline = self._clock() + HELLO_WAIT      # the host's hello may still be on its way to us: wait
            while not self._table_id() and self._clock() < deadline:   # rather than send the dialer off
                await nap(self._clock, deadline - self._clock(), poll=0.01)
        session = self._session()
        if session is None or not self._table_id() or req.game_id != self._table_id():
            return Answer(False, "no such game here")
        former = self.was_seated(req.peer.key)
        if (req.peer.key not in self.keys() and not former) or req.peer.key == self._me.public:
            return Answer(False, "you hold no seat in this game")
        self._emit(LinkAsked(req.peer.name, req.peer.fingerprint, req.have))
        if req.port and not former:
            self.seats[self.index(req.peer.key)].address = (req.address[0], req.port)
            self.save()
        return Answer(True, "linked", len(session.chain))

    def resume_from(self, key: bytes, have: int) -> int:
        """Where to start sending to ``key``: a replaced peer gets everything from its replacement on
        (its log may hold entries of its own that never left it)."""
        session = self._session()
        if session is not None and self.was_seated(key):
            return min(have, session.replaced_at)
        return have

    # ------------------------------------------------------------ outgoing links
    async def dial_loop(self, session: Session) -> None:
        """Keep a link to every peer seated before us (they dial the ones seated after them)."""
        while not session.over:
            mine = self.index(self._me.public)
            targets = self.others() if self.dial_all else \
                self.seats[:mine] + [s for s in self.former if s.address and s.key != self._me.public]
            for seat in targets:
                if not self._linked(seat.key) and seat.key not in self._dialing:
                    self._dialing.add(seat.key)
                    self._spawn(self._dial(seat, session))
            every = self._options().reconnect_every
            await nap(self._clock, every, poll=every)

    def target(self, seat: SeatedPeer) -> tuple[str, int] | None:
        """Where the seat listens now: what discovery lists for its key, else the roster's address. An app
        also lists itself while idle in its lobby (``lobby``, port 0), and such a record can outlive the
        start of the game by a heartbeat: never a place to dial."""
        lan = self._discovery()
        if lan is not None:
            fp = fingerprint(seat.key)
            for advert in lan.peers.values():
                if advert.fingerprint == fp and advert.address and advert.port > 0 and not advert.lobby:
                    return advert.address, advert.port
        return seat.address

    async def _dial(self, seat: SeatedPeer, session: Session) -> None:
        try:
            by_code = self.by_code.get(seat.key)       # (a pair with a seat that came by a code: never its address)
            target = self.target(seat) if by_code is None else None
            if (target is None and by_code is None) or not self._table_id():
                return
            if by_code is not None:
                link, hs, have = await ask_over(await by_code(), self._me, self._name,
                                                resume_request(self._table_id(), len(session.chain)),
                                                expect=seat.key, timeout=10.0)
            else:
                assert target is not None
                link, hs, have = await ask(target[0], target[1], self._me, self._name,
                                           resume_request(self._table_id(), len(session.chain), self._port()),
                                           expect=seat.key, options=self._options().link, timeout=10.0,
                                           clock=self._clock)
        except (Declined, HandshakeError, LinkClosed, OSError, asyncio.TimeoutError) as e:
            if BUSY in str(e):
                self._turned_away(seat.key)
            return
        finally:
            self._dialing.discard(seat.key)
        if target is not None:
            seat.address = target
        await self._carry(seat.key, link, self.resume_from(seat.key, have))


__all__ = ["Carry", "HELLO_WAIT", "Mesh"]
