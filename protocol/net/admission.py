"""Who gets one of a listener's slots before proving a key: counted per source address and in total.

A connection takes a slot the moment it is accepted, before it sent a
byte, and holds it until its handshake proves a key or it closes (at the
latest :data:`.transport.PREAUTH_TIMEOUT` seconds later). Slots are
decided by the source address because that is all there is at that
moment: Noise XX names the initiator's key only in its third message,
after the slot was spent. So the table's own players are let in by the
addresses the roster knows for them:

* at most ``per_address`` slots for one source address, so one machine
  cannot take every slot by reconnecting from many threads;
* at most ``shared`` slots in all for everyone;
* ``reserved`` more slots that only a known address may take (a seat of
  the table, at the address it last came from), so a seated player whose
  link dropped gets back in during any flood from other addresses.

Proven links (a spectator's, a join request waiting for the host's
answer) are counted too, since any fresh key proves itself: at most
``links_per_address`` open links from one address, and at most ``links``
from addresses the roster does not know. What one link may hold is bounded
by its own budgets (:mod:`.transport`), so what strangers can make a
listener hold is bounded in total.

Sans-IO: the listener asks :meth:`Admission.enter` at each connection and
tells :meth:`Admission.leave` when the link proved its key or closed; a
refusal is told to ``on_refused`` (a peer holds its claims meanwhile:
:meth:`.presence.Presence.refused`). The counters are the listener's own
account of what strangers hold (docs/network.md, "Budgets").
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable

BUSY = "busy: "
"""How every refusal for lack of room begins (a dialer told so knows the listener is there, flooded)."""
SHARED = 16
"""Slots anyone may take before proving a key."""
PER_ADDRESS = 4
"""Slots one source address may hold at once before proving a key."""
RESERVED = 8
"""Slots beyond the shared ones that only an address the roster knows may take."""
LINKS = 32
"""Links open at once, proven or not, from addresses the roster does not know."""
LINKS_PER_ADDRESS = 32
"""Links open at once, proven or not, from one address."""


def normalized(address: str) -> str:
    """One spelling per address: an IPv4-mapped IPv6 address (``::ffff:10.0.0.2``) is its IPv4 address."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    mapped = getattr(ip, "ipv4_mapped", None)
    return str(mapped or ip)


def never_known(address: str) -> bool:
    return False


def known_addresses(seats: Callable[[], Iterable[Any]]) -> Callable[[str], bool]:
    """``known`` for the seats that ``seats()`` gives at each connection (each has an ``address``: its last
    (host, port), or None)."""
    def known(address: str) -> bool:
        return any(seat.address and normalized(seat.address[0]) == address for seat in seats())
    return known


@dataclass
class Admission:
    """The slots of one listener: who holds one, from which address, in which share."""

    shared: int = SHARED
    per_address: int = PER_ADDRESS
    reserved: int = RESERVED
    links: int = LINKS
    links_per_address: int = LINKS_PER_ADDRESS
    known: Callable[[str], bool] = never_known
    """Whether an address is one the roster knows for a seat of the table (normalized)."""
    on_refused: Callable[[str, bool], None] | None = None
    """Told each refusal: the address, and whether it was a known one."""
    refused: int = 0
    """Connections refused so far for lack of room."""
    served: set = field(default_factory=set)
    """Every link the listener serves now, proven or not (the listener adds and removes them)."""
    _holders: dict[Hashable, tuple[str, bool]] = field(default_factory=dict)
    """Per connection holding a slot: its address, and whether it holds a reserved one."""
    _open: dict[Hashable, tuple[str, bool]] = field(default_factory=dict)
    """Per connection open now, proven or not: its address, and whether that address was known."""

    def held(self) -> int:
        """Bytes the links we serve hold for their peers now (each link's own count: ``Link.held``)."""
        return sum(link.held for link in self.served)

    def count(self, address: str | None = None) -> int:
        """Slots held in all, or by ``address``."""
        if address is None:
            return len(self._holders)
        address = normalized(address)
        return sum(1 for held, _ in self._holders.values() if held == address)

    def open_links(self, address: str | None = None) -> int:
        """Connections open now (proven or not) in all, or from ``address``."""
        if address is None:
            return len(self._open)
        address = normalized(address)
        return sum(1 for held, _ in self._open.values() if held == address)

    @property
    def in_reserve(self) -> int:
        return sum(1 for _, reserved in self._holders.values() if reserved)

    def enter(self, link: Hashable, address: str) -> str | None:
        """Give ``link`` (from ``address``) a slot; None if it has one, else why not (a CLOSE reason)."""
        address = normalized(address)
        known = self.known(address)
        if self.open_links(address) >= self.links_per_address:
            return self._refuse(address, known, f"{BUSY}{self.links_per_address} connections from your address "
                                                f"are open; try again")
        if not known and sum(1 for _, k in self._open.values() if not k) >= self.links:
            return self._refuse(address, known, f"{BUSY}{self.links} connections are open; try again")
        if self.count(address) >= self.per_address:
            return self._refuse(address, known, f"{BUSY}{self.per_address} connections from your address are "
                                                f"still proving who they are; try again")
        in_reserve = self.in_reserve
        if known and in_reserve < self.reserved:
            self._holders[link] = (address, True)
        elif len(self._holders) - in_reserve < self.shared:
            self._holders[link] = (address, False)
        else:
            return self._refuse(address, known, f"{BUSY}{self.shared} connections are still proving who they "
                                                f"are; try again")
        self._open[link] = (address, known)
        return None

    def proven(self, link: Hashable) -> None:
        """``link`` proved its key: its slot is free (it stays counted as open)."""
        self._holders.pop(link, None)

    def leave(self, link: Hashable) -> None:
        """``link`` closed: its slot, if it held one, is free, and it is no longer open."""
        self._holders.pop(link, None)
        self._open.pop(link, None)

    def _refuse(self, address: str, known: bool, reason: str) -> str:
        self.refused += 1
        if self.on_refused is not None:
            self.on_refused(address, known)
        return reason


__all__ = ["Admission", "BUSY", "LINKS", "LINKS_PER_ADDRESS", "PER_ADDRESS", "RESERVED", "SHARED", "known_addresses", "normalized"]
