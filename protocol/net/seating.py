"""How a table fills: a host seats joiners, a guest asks the host for a seat; both end with the roster.

The host answers join requests (its policy decides, a person maybe: the
request is withdrawn if the joiner leaves meanwhile), holds a seat for each
accepted joiner, and starts the session once the last accept reached a
joiner still there; then each member gets the ``roster`` (every key, name
and address in seat order, and the claim times). From there the members
link among themselves (:mod:`.mesh`). See docs/network.md. The signed
table's own seating, who is in it, is :mod:`protocol.session`'s.
"""

from __future__ import annotations

import asyncio
import inspect
from dataclasses import dataclass
from typing import Awaitable, Callable, Coroutine

from lanterne.engines.core import Game
from lanterne.protocol.identity import Identity
from lanterne.protocol.session import ON_GONE_END, Session

from .clock import Clock, within
from .discovery import Advert, Discovery, TableHint
from .events import (Advertised, JoinAsked, JoinPending, JoinRefused, JoinWithdrawn, PeerEvent, SeatFreed,
                     SeatOffered, Seated, SeatTaken)
from .files import GameFiles, SeatedPeer
from .handshake import Handshake, HandshakeError, decode, encode
from .invite import Answer, Declined, Request, ask, ask_over, join_request, proven
from .online.code import Connected
from .options import PeerOptions
from .transport import Link, LinkClosed

ASKING = 4
"""Join requests the host's policy decides at once (a question each on a person's screen); the next is declined."""

TABLE_CLOSED = "the host closed the table"
"""The CLOSE reason a host gives its seated joiners when it closes a table that never filled."""

ROSTER_WAIT = 3600.0
"""Seconds a seated guest waits for the others to join (a lobby may take a while)."""

Accept = Callable[[Request], bool | Awaitable[bool]]
"""A host's policy for a join request (a person, maybe): True seats the joiner."""


@dataclass(frozen=True)
class HostTable:
    """The table a host opens: what is played, by how many, on which seed, and what becomes of a gone seat."""

    game: Game
    players: int
    variant: str = "standard"
    seed: bytes = b""
    on_gone: str = ON_GONE_END
    """``end`` (a seat gone past the claim time ends the game) or ``computer`` (a computer may take it)."""


@dataclass(frozen=True)
class JoinAt:
    """The table a guest asks a seat at: where its host listens, who it must be, what we expect it to play."""

    address: tuple[str, int] | None
    expect_fingerprint: str | None = None
    game: str = ""
    variant: str = "standard"
    players: int = 0
    online: Connected | None = None
    """A code's link to the host instead of an address (:mod:`.online.table`): the key the code proved."""


class TableSeating:
    """Filling the table: the host's joiners (held seats, their waiting links), or a guest's ask for a seat.

    Its context: who we are, our files (the role, the log's store), our
    options and clock, where we listen, the table id and discovery (for the
    advert), the seats of a table that is set (``seat`` gives them, ``seats``
    reads them), how the session is started, which keys are computers we
    run (they take the first seats), and how the user is told.
    """

    def __init__(self, me: Identity, name: str, files: GameFiles, *, table: HostTable | None,
                 options: Callable[[], PeerOptions], clock: Clock, port: Callable[[], int],
                 table_id: Callable[[], bytes], discovery: Callable[[], Discovery | None],
                 seat: Callable[[list[SeatedPeer]], None], seats: Callable[[], list[SeatedPeer]],
                 begin: Callable[[Session], None], ours: Callable[[bytes], bool],
                 computers_seated: Callable[[], Awaitable[object]], emit: Callable[[PeerEvent], None],
                 spawn: Callable[[Coroutine], object]):
        self._me, self._name, self._files, self.table = me, name, files, table
        self._options, self._clock, self._port = options, clock, port
        self._table_id, self._discovery = table_id, discovery
        self._seat, self._seats, self._begin = seat, seats, begin
        self._ours, self._computers_seated = ours, computers_seated
        self._emit, self._spawn = emit, spawn
        self.full = asyncio.Event()
        """Every seat is taken (a resumed game's were taken before)."""
        self.accept: Accept | None = None
        """The host's policy for a join request (None: everyone who fits is seated)."""
        self._joiners: list[Request] = []
        """The accepted join requests, in the order of acceptance (the seat order)."""
        self._waiting: dict[bytes, Link] = {}
        """Seated joiners' links while the table fills: a host that closes the table tells them."""
        self._asking = 0
        """Join requests the host's policy (a person, maybe) is deciding now (at most :data:`ASKING`)."""

    # ------------------------------------------------------------ facts
    @property
    def players(self) -> int:
        return self.table.players if self.table is not None else 0

    @property
    def waiting_links(self) -> list[Link]:
        """The links of the joiners seated while the table fills."""
        return list(self._waiting.values())

    def seated_joiners(self) -> int:
        """How many joiners a host holds a seat for (every seat but its own once the table is full)."""
        return self.players - 1 if self.full.is_set() else len(self._joiners)

    def holds(self, key: bytes) -> bool:
        """Whether a seat is held for ``key`` (an accepted joiner)."""
        return any(j.peer.key == key for j in self._joiners)

    def hint(self) -> TableHint | None:
        """What our advert says of the table while it fills (None: no table of ours to join)."""
        table = self.table
        if table is None:
            return None
        return TableHint(table.game.id, table.variant, max(self._free(), 0), table.players)

    async def advertise(self, lan: Discovery) -> None:
        """Say on the LAN that we are here, with our table while it fills (a guest's or a resumed one: none)."""
        await lan.advertise(Advert(self._name, self._me.fingerprint, self._port(), table=self.hint()))
        self._emit(Advertised())

    def _free(self) -> int:
        return 0 if self.full.is_set() else self.players - 1 - len(self._joiners)

    # ------------------------------------------------------------ the host: join requests
    async def answer(self, req: Request) -> Answer:
        """The host's answer to a ``join``, told to the user as it goes."""
        if self._files.meta.get("role") != "host":
            return Answer(False, "no open table here")
        self._emit(JoinAsked(req.peer.name, req.peer.fingerprint, req.address[0], req.safety_code))
        try:
            answer = await self._decide(req)
        except asyncio.CancelledError:   # the joiner left while we decided: its request is withdrawn
            self._emit(JoinWithdrawn(req.peer.name, req.peer.fingerprint))
            raise
        if answer.accept:    # the seat is held for it; the table starts once its link proves it is there
            self._emit(SeatTaken(req.peer.name, req.peer.fingerprint, len(self._joiners) + 1, self.players))
        else:
            self._emit(JoinRefused(req.peer.name, answer.reason))
        return answer

    async def _decide(self, req: Request) -> Answer:
        """The table's conditions first, then the host's policy (a person, maybe)."""
        table = self.table
        if table is None or self.full.is_set() or len(self._joiners) >= table.players - 1:
            return Answer(False, "the table is full")
        if req.game and (req.game != table.game.id or req.variant != table.variant):
            return Answer(False, f"this table plays {table.game.id} {table.variant}")
        if req.players and req.players != table.players:
            return Answer(False, f"this table seats {table.players}, not {req.players}")
        if self.holds(req.peer.key):
            return Answer(False, "you already hold a seat here")
        ours = self._ours(req.peer.key)
        if not ours:
            await self._computers_seated()  # the host's computers take the first seats
            if self.full.is_set():
                return Answer(False, "the table is full")
        if self.accept is not None and not ours:
            if self._asking >= ASKING:
                return Answer(False, f"the host is answering {ASKING} other join requests; try again")
            self._asking += 1
            try:
                verdict = self.accept(req)
                if inspect.isawaitable(verdict):
                    verdict = await verdict
            finally:
                self._asking -= 1
        else:
            verdict = True
        if self.full.is_set() or len(self._joiners) >= table.players - 1:
            return Answer(False, "the table is full")
        if not verdict:
            return Answer(False, "the host declined")
        if self.holds(req.peer.key):
            return Answer(False, "you already hold a seat here")
        self._joiners.append(req)       # seat order is the order of acceptance
        return Answer(True, "seat offered", 0)

    async def hold(self, req: Request, link: Link) -> bool:
        """An accepted joiner's link, until every seat is taken (True: it has the roster) or it left (False:
        its seat is free again). The last seat's accept, reaching a joiner still there, starts the table."""
        if not link.closed and len(self._joiners) == self.players - 1 and not self.full.is_set():
            self._seat_everyone()
        elif not link.closed:
            self._refresh_advert()
        self._waiting[req.peer.key] = link      # told if the host closes the table meanwhile
        try:
            full = await self._full_or_gone(link)
        finally:
            self._waiting.pop(req.peer.key, None)
        if not full:
            self._joiners.remove(req)
            self._emit(SeatFreed(req.peer.name, req.peer.fingerprint, len(self._joiners) + 1, self.players))
            self._refresh_advert()
            return False
        try:
            await link.send(self._roster())
        except LinkClosed:
            return False
        return True

    def _seat_everyone(self) -> None:
        """Every seat is taken: start the session with the guests in join order."""
        table, options = self.table, self._options()
        assert table is not None
        self._seat([SeatedPeer(self._me.public, self._name)] + [
            SeatedPeer(j.peer.key, j.peer.name, (j.address[0], j.port) if j.port else None) for j in self._joiners])
        meta = dict(self._files.meta)
        self._begin(Session(self._me, host=True, name=self._name, game=table.game, variant=table.variant,
                            seed=table.seed, store=self._files.store(table.seed, meta),
                            timeout=options.claim_after, guests=[j.peer.key for j in self._joiners],
                            on_gone=table.on_gone, move_clock=options.move_clock, spectators=options.spectators,
                            undo=options.undo))
        self.full.set()
        self._emit(Seated(0, tuple(s.name for s in self._seats())))
        self._refresh_advert()

    def _refresh_advert(self) -> None:
        lan = self._discovery()
        if lan is not None:
            self._spawn(self._update_advert(lan))

    async def _update_advert(self, lan: Discovery) -> None:
        current = lan.advert
        if current is None or current.table is None:
            return
        if current.table.free != self._free():
            await lan.update_table(TableHint(current.table.game, current.table.variant, self._free(),
                                             current.table.seats))

    def _roster(self) -> bytes:
        options, seats = self._options(), self._seats()
        clocks = {"claim_ms": round(options.claim_after * 1000)}
        if options.move_clock is not None:
            clocks["move_ms"] = round(options.move_clock * 1000)
        return encode("roster", table=self._table_id(), keys=[s.key for s in seats], names=[s.name for s in seats],
                      addrs=[s.address[0] if s.address else "" for s in seats],
                      ports=[s.address[1] if s.address else 0 for s in seats], **clocks)

    async def _full_or_gone(self, link: Link) -> bool:
        """Wait until every seat is taken (True) or this joiner's link closed before that (False)."""
        full = asyncio.ensure_future(self.full.wait())
        gone = asyncio.ensure_future(link.wait_closed())
        try:
            await asyncio.wait([full, gone], return_when=asyncio.FIRST_COMPLETED)
        finally:
            full.cancel()
            gone.cancel()
        return self.full.is_set()

    # ------------------------------------------------------------ the guest: asking for a seat
    async def join(self, at: JoinAt) -> tuple[bytes, Link]:
        """Ask the host for a seat and wait for the roster: the host's key and its link, to carry from here."""
        options = self._options()
        if at.online is not None:     # no address and no port: nobody dials a seat that came by a code
            link, hs, _ = await ask_over(at.online.link, self._me, self._name,
                                         join_request(at.game, at.variant, at.players),
                                         expect=at.online.peer_key, on_proven=self._proven)
        else:
            assert at.address is not None
            link, hs, _ = await ask(at.address[0], at.address[1], self._me, self._name,
                                    join_request(at.game, at.variant, at.players, self._port()),
                                    expect_fingerprint=at.expect_fingerprint, options=options.link,
                                    clock=self._clock, on_proven=self._proven)
        host = proven(hs)
        self._emit(SeatOffered(host.name, host.fingerprint, hs.safety_code))
        try:
            roster = decode(await within(link.recv(), ROSTER_WAIT), "roster")
        except (asyncio.TimeoutError, LinkClosed, HandshakeError) as e:
            await link.close("no roster")
            if link.peer_reason == TABLE_CLOSED:
                raise Declined(f"{host.name} closed the table before it was full") from None
            raise Declined(f"{host.name} never filled the table: {e}") from None
        except asyncio.CancelledError:  # we leave before the table is full: the host frees our seat
            await link.close("left before the table was full")
            raise
        too_short = self._too_short(roster)
        if too_short:
            await link.close(too_short[:120])
            raise Declined(f"{host.name}'s table: {too_short}")
        keys = roster["keys"]
        if not keys or keys[0] != host.key or self._me.public not in keys or len(set(keys)) != len(keys) \
                or not (len(keys) == len(roster["names"]) == len(roster["addrs"]) == len(roster["ports"])):
            await link.close("bad roster")
            raise Declined(f"{host.name} sent a roster without us or without itself first")
        seats = [SeatedPeer(k, n, (a, p) if a and p else None)
                 for k, n, a, p in zip(keys, roster["names"], roster["addrs"], roster["ports"])]
        seats[0].address = at.address
        self._seat(seats)
        self.full.set()
        self._emit(Seated(keys.index(self._me.public), tuple(s.name for s in seats)))
        return host.key, link

    def _proven(self, hs: Handshake) -> None:
        host = proven(hs)
        self._emit(JoinPending(host.name, host.fingerprint, hs.safety_code))

    def _too_short(self, roster: dict) -> str:
        """Why we leave a table whose claim time or move clock (as its roster says) is below our minimum, or ''.

        The session checks the signed table again at our genesis turn (a host may say one thing here and
        sign another): this check only spares everyone a game that cannot start."""
        least = self._options().least_claim
        for what, field in (("claim time", "claim_ms"), ("move clock", "move_ms")):
            if field in roster and roster[field] / 1000 < least:
                return (f"the table's {what} is {roster[field] / 1000:g} s; we play only with at least "
                        f"{least:g} s (--min-claim)")
        return ""


__all__ = ["Accept", "HostTable", "JoinAt", "ROSTER_WAIT", "TABLE_CLOSED", "TableSeating"]
