"""Who is at the table: the peers that said hello, the seats once the table is set, the keys a computer took over.

The roster knows keys and names only; which entries may come from whom is
the phase table's (:mod:`.rules`) and the chain's (:mod:`.chain`).
"""

from __future__ import annotations

from dataclasses import dataclass

from lanterne.protocol import identity as ids


@dataclass
class Member:
    """A peer that said hello (a seat once the table is set)."""

    key: bytes
    name: str


class Roster:
    """The members in hello order, the seats (keys and names) of the table, and our own seat among them."""

    def __init__(self, public: bytes):
        self.public = public
        """Our key."""
        self.peers: list[Member] = []
        self.seats: list[bytes] = []
        self.names: list[str] = []
        self.my_seat: int | None = None
        self.replaced: dict[bytes, int] = {}
        """Keys that held a seat before a computer took it over -> that seat."""

    def copy(self) -> "Roster":
        other = Roster(self.public)
        other.peers, other.seats, other.names = list(self.peers), list(self.seats), list(self.names)
        other.my_seat, other.replaced = self.my_seat, dict(self.replaced)
        return other

    def keys(self) -> list[bytes]:
        """The members' keys in hello order."""
        return [p.key for p in self.peers]

    def seat_of(self, key: bytes | None) -> int | None:
        if key is not None and key in self.seats:
            return self.seats.index(key)
        return None

    def seat_name(self, key: bytes) -> str:
        """'2' for seat 2, else the key's fingerprint."""
        seat = self.seat_of(key)
        return str(seat + 1) if seat is not None else ids.fingerprint(key)

    def seat_label(self, key: bytes) -> str:
        """'seat 2', 'peer ab12...' (a member before the table) or 'unknown key ab12...'."""
        seat = self.seat_of(key)
        if seat is not None:
            return f"seat {seat + 1}"
        if key in self.keys():
            return f"peer {ids.fingerprint(key)}"
        return f"unknown key {ids.fingerprint(key)}"

    def join(self, key: bytes, name: str) -> int:
        """A member said hello; its index in hello order."""
        self.peers.append(Member(key, name))
        return len(self.peers) - 1

    def seat(self, seats: list[bytes], names: list[str]) -> None:
        """The table's seats."""
        self.seats, self.names = list(seats), list(names)
        self.my_seat = self.seat_of(self.public)

    def replace(self, seat: int, key: bytes, name: str) -> None:
        """A computer holds ``seat`` from now on, under ``key``."""
        self.replaced[self.seats[seat]] = seat
        self.seats[seat], self.names[seat] = key, name
        self.my_seat = self.seat_of(self.public)
