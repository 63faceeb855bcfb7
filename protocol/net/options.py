"""What a peer is told to do with its time and its table: claim times, the move clock, spectators, links."""

from __future__ import annotations

from dataclasses import dataclass

from .transport import LinkOptions


@dataclass(frozen=True)
class PeerOptions:
    link: LinkOptions = LinkOptions(read_timeout=20.0, keepalive=5.0, connect_timeout=3.0)
    claim_after: float = 300.0
    """Seconds we wait for an absent peer before claiming (the host's is signed in the table)."""
    min_claim: float = 10.0
    """The shortest claim time or move clock we accept from a table (or our own ``claim_after``, if shorter):
    a table that signs less is left at once, in one line, before any move."""
    move_clock: float | None = None
    """The host's move clock, signed in the table: a seat linked but silent this long may be claimed against."""
    spectators: bool | str | None = None
    """Who may watch the host's table (signed in it): one of ``protocol.session.WATCH_MODES`` (True: everyone,
    False: off), None the game's default; each player serves those who ask it by that rule."""
    undo: str = "off"
    """Whether the host's table lets the seat whose turn it is take back its own last moves, signed in it: ``off``,
    or ``ask`` (every other seat says yes or no: ``protocol.session.takeback``)."""
    spectator_chat: bool = True
    """We accept and relay spectators' chat (where the table lets them watch); our own table chat is always on."""
    reconnect_every: float = 0.5
    linger: float = 10.0
    """Seconds a peer stays up after the end, for a peer that missed the last entries."""
    move_delay: float = 0.0
    """Seconds a bot waits before each move (tests use it to act mid-game)."""

    @property
    def least_claim(self) -> float:
        """The shortest claim time or move clock we play with."""
        return min(self.min_claim, self.claim_after)


__all__ = ["PeerOptions"]
