"""What goes wrong at a fair table: a peer that broke the protocol, or a caller that misused the table."""

from __future__ import annotations


class CheatDetected(Exception):
    """A peer broke the fair protocol. ``str(e)`` is one line naming the seat.

    ``seat`` is the seat at fault (0-based). It is None in one case only: a
    card opens to no card (or to a card already seen), so some shuffle or
    rekey pass was tampered, and only the audit after every seat's final
    reveal can say whose. (Departure from the agreed ``int``: None is the
    honest value there, as in ``wire.ProtocolError``.)
    """

    def __init__(self, seat: int | None, reason: str):
        super().__init__(reason)
        self.seat = seat


class FairError(ValueError):
    """The local caller misused the table (not a peer's fault)."""
