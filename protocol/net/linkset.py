"""A peer's links to the other seats, and what each one has been sent of the chain.

One link per seat's key (a newer one replaces the older), one sender per
link reading the chain from its own count: so each link carries a
contiguous copy of our chain, entries never arrive out of order, a link
that replaces a stale one never loses an entry, and a move made while a
link catches up waits its turn behind the backlog. A sender has one entry
in flight (each send waits for the drain): the backlog stays in the chain,
and what a link holds unsent is bounded by the link itself
(:attr:`.transport.Link.write_budget`, which every writer on it meets: the
senders, PONGs, keep-alives, chat, CLOSE).
"""

from __future__ import annotations

import asyncio
from typing import Callable, Iterator, Mapping, Protocol, Sequence

from lanterne.protocol.log import Entry
from lanterne.protocol.session import MAX_SEATS

from .transport import Link, LinkClosed

TAIL_RESENT = 1 + MAX_SEATS
"""Entries sent again, before the count a new link says it has: two honest chains of one length may still end
differently, one with a claim and its answers, the other with the claimed seat's own entry at the claim's
place (docs/protocol.md, "A race, and its rule"). Counted from the length alone, neither would ever send its
end to the other and both would wait for good; an entry the other side holds already is harmless to it."""

GOODBYE = "game over"
"""The CLOSE reason of a peer that is over and sent everything on that link: the other side has it all."""


class Chain(Protocol):
    """What a sender reads: the entries in order, and whether our game is over (a Session is one)."""

    @property
    def chain(self) -> Sequence[Entry]: ...

    @property
    def over(self) -> bool: ...


Outgoing = Callable[[bytes, Entry], bytes]
"""The bytes of an entry as sent to a key (the entry's own, but a cheat test lies here)."""


class LinkSet(Mapping[bytes, Link]):
    """The seats' links by key (a read-only mapping), their senders' counts, and who has our end."""

    def __init__(self) -> None:
        self._links: dict[bytes, Link] = {}
        self._sent: dict[Link, int] = {}
        """Per link: how far into the chain its sender got (a replaced link never moves the new one's count)."""
        self._lacks: dict[Link, int] = {}
        """Per link: the chain's length when it came; the other side lacks all of it from its count on, its own
        entries too (a log that lost some: the others are where it learns them back)."""
        self._wake: dict[bytes, asyncio.Event] = {}
        self.finished: set[bytes] = set()
        """Keys known to hold our end (a goodbye went or came on their link once over)."""
        self.leaving: str | None = None
        """Why our links close when we stop before the end (``carrier.LEFT_PAUSED``, ``LEFT_RESIGNED``)."""

    # -- the mapping
    def __getitem__(self, key: bytes) -> Link:
        return self._links[key]

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._links)

    def __len__(self) -> int:
        return len(self._links)

    def linked(self, key: bytes) -> bool:
        link = self._links.get(key)
        return link is not None and not link.closed

    def linked_keys(self) -> set[bytes]:
        return {key for key, link in self._links.items() if not link.closed}

    # -- coming and going
    def attach(self, key: bytes, link: Link, have: int, chain: int) -> Link | None:
        """``link`` now carries ``key`` from entry ``have`` on (and the :data:`TAIL_RESENT` before it); returns the
        link it replaces (to close), if any."""
        old = self._links.get(key)
        self._links[key] = link
        self._sent[link] = max(0, min(have, chain) - TAIL_RESENT)
        self._lacks[link] = chain
        wake = self._wake[key] = asyncio.Event()
        wake.set()
        return old if old is not None and old is not link and not old.closed else None

    def detach(self, key: bytes, link: Link) -> bool:
        """``link`` is down; True if it was ``key``'s current link (the seat is now unlinked from us)."""
        self._sent.pop(link, None)
        self._lacks.pop(link, None)
        if self._links.get(key) is link:
            del self._links[key]
            return True
        return False

    # -- the chain going out
    def wake_all(self) -> None:
        """The chain grew (or our end came): every sender looks again."""
        for event in self._wake.values():
            event.set()

    def rewind(self, length: int) -> None:
        """The chain was cut back to ``length`` (a claim taken back): senders go on from there."""
        for link in self._sent:
            self._sent[link] = min(self._sent[link], length)

    def drained(self, length: int) -> bool:
        """Every link was sent the first ``length`` entries."""
        return all(self._sent.get(link, 0) >= length for link in self._links.values())

    async def send_loop(self, key: bytes, link: Link, chain: Chain, outgoing: Outgoing) -> None:
        """Send the entries ``key`` lacks, in order (its own only from the backlog it came with); say goodbye
        once both are done."""
        wake = self._wake[key]
        try:
            while not link.closed:
                await wake.wait()
                wake.clear()
                while self._sent[link] < len(chain.chain):
                    index = self._sent[link]
                    entry = chain.chain[index]
                    self._sent[link] += 1
                    if entry.author != key or index < self._lacks[link]:
                        await link.send(outgoing(key, entry))
                if chain.over:
                    self.finished.add(key)     # it has every entry up to our end
                    await link.close(GOODBYE)
                    return
        except LinkClosed:
            pass


__all__ = ["Chain", "GOODBYE", "LinkSet", "Outgoing"]
