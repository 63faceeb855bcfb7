"""One seat's link while it lasts: the chain goes out in order, each arriving entry is opened once and handed in.

A link is attached to its seat's key (a newer one replaces the older),
its sender sends the entries the other side lacks (:class:`.linkset.LinkSet`),
and every frame that arrives is opened (form and signature) here, once,
before the session sees it. Bytes that do not open, or an entry signed by
no member of the table, drop the link, never the game. When the link
closes, how it closed says whether its peer left on purpose
(:data:`LEFT_PAUSED`, :data:`LEFT_RESIGNED`), had our end (a goodbye), or
was lost.
"""

from __future__ import annotations

import asyncio
from typing import Callable, Coroutine

from lanterne.protocol.identity import fingerprint
from lanterne.protocol.log import Entry, open_entry
from lanterne.protocol.session import Dropped, Session
from lanterne.protocol.wire import ProtocolError

from .clock import Clock
from .events import Linked, LinkLost, Note, PeerEvent, PeerLeft
from .linkset import GOODBYE, LinkSet, Outgoing
from .presence import Presence
from .transport import Link, LinkClosed

LEFT_PAUSED = "left on purpose: back later"
"""The CLOSE reason of a player who pauses: the others show it left, not that its link broke."""

LEFT_RESIGNED = "left for good: a computer may take my seat"
"""The CLOSE reason of a player who resigns on a table whose policy gives a gone seat to a computer: the others
claim its seat when the game waits for it, without the claim time (the link is authenticated: only that peer
could say it; the others' answers to the claim are what the log keeps)."""


class Carrier:
    """Carries the session over each seat's link until it drops or both sides are over.

    Its context: the session, the links and who is here, the clock, who
    may sign entries of this table, what a new link is told first (the chat,
    who watches), the bytes each entry goes out as, where an opened entry
    goes, whom to wake when a link comes or goes, and how the user is told.
    """

    def __init__(self, *, session: Callable[[], Session | None], links: LinkSet, presence: Presence, clock: Clock,
                 member: Callable[[bytes], bool], greet: Callable[[Link], None], outgoing: Outgoing,
                 deliver: Callable[[Entry, bytes], None], wake: Callable[[], None],
                 emit: Callable[[PeerEvent], None], spawn: Callable[[Coroutine], asyncio.Task]):
        self._session, self._links, self._presence, self._clock = session, links, presence, clock
        self._member, self._greet, self._outgoing, self._deliver = member, greet, outgoing, deliver
        self._wake, self._emit, self._spawn = wake, emit, spawn

    async def carry(self, key: bytes, link: Link, have: int) -> None:
        """Carry the session over ``link`` to ``key`` from entry ``have`` on, until the link closes."""
        try:
            await self._carry(key, link, have)
        except LinkClosed:
            pass

    async def _carry(self, key: bytes, link: Link, have: int) -> None:
        session = self._session()
        assert session is not None      # (a link is carried once the table is set)
        old = self._links.attach(key, link, have, len(session.chain))
        if old is not None:
            await old.close("replaced by a newer link")
        self._presence.up(key)
        self._emit(Linked(key, fingerprint(key), link.peer[0], link.peer[1]))
        self._greet(link)
        sender = self._spawn(self._links.send_loop(key, link, session, self._outgoing))
        try:
            while True:
                raw = await link.recv()
                if session.over:
                    continue  # what comes after our end changes nothing
                self._deliver(await self._open(key, link, raw, session), key)
        except LinkClosed as e:
            if not session.over:
                if link.peer_reason == LEFT_RESIGNED:
                    self._presence.left_for_good(key)
                self._emit(PeerLeft(key, fingerprint(key), link.peer_reason == LEFT_RESIGNED)
                           if link.peer_reason in (LEFT_PAUSED, LEFT_RESIGNED)
                           else LinkLost(key, fingerprint(key), e.reason))
            raise
        finally:
            if link.peer_reason == GOODBYE:
                self._links.finished.add(key)     # it was over: it has the end
            sender.cancel()
            if self._links.detach(key, link):
                self._presence.down(key, self._clock())
            self._wake()

    def dropped(self, ev: Dropped, chain: int) -> None:
        """Bytes the session dropped as out of context: nobody is blamed for them; if an honest peer never sends
        such bytes, the link they came on is closed (the peer may link again and carry on)."""
        where = f" from {fingerprint(ev.sender)}" if ev.sender is not None else ""
        self._emit(Note(f"dropped an entry{where}: {ev.reason}"[:300]))
        if not ev.hostile or ev.sender is None:
            return
        self._presence.suspect(ev.sender, chain)
        link = self._links.get(ev.sender)
        if link is not None and not link.closed:
            self._spawn(link.close(f"sent an entry out of place: {ev.reason}"[:120]))

    async def _open(self, key: bytes, link: Link, raw: bytes, session: Session) -> Entry:
        """The entry in ``raw``, opened (form and signature) once, here where it arrives."""
        try:
            entry = open_entry(raw)
        except ProtocolError as e:
            reason = f"bytes not signed by the peer ({e})"
        else:
            if self._member(entry.author):
                return entry     # (a replaced peer's late entries too: the session drops them)
            if entry.seq < len(session.chain) and session.chain[entry.seq].raw == entry.raw:
                return entry     # one we hold: the tail a new link sends again, signed before a replacement
            reason = f"an entry signed by a stranger ({fingerprint(entry.author)})"
        self._presence.suspect(key, len(session.chain))
        await link.close(reason[:120])
        raise LinkClosed(reason)


__all__ = ["Carrier", "LEFT_PAUSED", "LEFT_RESIGNED"]
