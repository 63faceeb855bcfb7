"""The two clocks that run for the awaited seat, on whatever clock :meth:`Session.tick` is given.

The claim time (``timeout``) runs while the awaited seat is gone; the move
clock (``move_clock``, if the table signed one) runs from the moment the
seat was awaited, here or not, so a linked player who stalls can be claimed
against too. Every entry in the chain restarts both (:meth:`Clocks.reset`).
The clocks only hold times and compare them; what a claim says is
:mod:`.claims`'.
"""

from __future__ import annotations

from dataclasses import dataclass

from .claim import answer_window
from .kinds import MOVE_CLOCK

GONE = "gone"
"""What :meth:`Clocks.run_out` says when the claim time ran out (the move clock: MOVE_CLOCK)."""


@dataclass(frozen=True)
class Awaiting:
    """The seat the chain waits for, and since when (on the clock :meth:`Session.tick` is given)."""

    seat: int
    since: float | None
    """Since when it is awaited at this position (the move clock runs from here); None: no clock watched yet."""
    gone_since: float | None
    """Since when it is seen gone (the claim time runs from here); None: here, or not watched."""
    claim_due: float | None
    """When the claim against it falls due; None: no clock runs."""


class Clocks:
    """The claim time and move clock of a table, and since when they run for the awaited seat."""

    def __init__(self, timeout: float | None, move_clock: float | None):
        self.timeout = timeout
        """Seconds a gone seat has before the claim (None: no claim)."""
        self.move_clock = move_clock
        """Seconds a seat may take for one step even while linked (None: no move clock)."""
        self.signed = False
        """The timeout is the host's, signed in the table (``claim_ms``): no peer's own setting replaces it."""
        self.min_claim: float | None = None
        """A guest's condition: at its genesis turn it leaves a table whose claim time or move clock is shorter."""
        self.awaited_since: float | None = None
        self.gone_since: float | None = None

    def copy(self) -> "Clocks":
        other = Clocks(self.timeout, self.move_clock)
        other.signed, other.min_claim = self.signed, self.min_claim
        other.awaited_since, other.gone_since = self.awaited_since, self.gone_since
        return other

    def sign(self, timeout: float | None, move_clock: float | None) -> None:
        """The table's own times (``timeout`` None: the table signed none, ours stays)."""
        if timeout is not None:
            self.timeout, self.signed = timeout, True
        self.move_clock = move_clock

    def reset(self) -> None:
        """A new position: nobody is awaited yet."""
        self.awaited_since = self.gone_since = None

    def watch(self, now: float, here: bool) -> None:
        """Start the clocks that are not running (``here``: the seat is linked and thinking, or it is ours, so
        only the move clock runs)."""
        if self.awaited_since is None:
            self.awaited_since = now
        if here:
            self.gone_since = None
        elif self.gone_since is None:
            self.gone_since = now

    def restart(self, now: float) -> None:
        """The answers to a claim are awaited from ``now`` (at a table of two: the answer window)."""
        self.awaited_since = now

    def due(self) -> float | None:
        if self.timeout is None:
            return None
        due = []
        if self.gone_since is not None:
            due.append(self.gone_since + self.timeout)
        if self.awaited_since is not None and self.move_clock is not None:
            due.append(self.awaited_since + self.move_clock)
        return min(due) if due else None

    def gone_past(self, now: float) -> bool:
        """The awaited seat has been gone for longer than the claim time."""
        return self.gone_since is not None and self.timeout is not None and now - self.gone_since > self.timeout

    def run_out(self, now: float) -> str | None:
        """MOVE_CLOCK if the move clock ran out, GONE if the claim time did, else None."""
        if self.awaited_since is not None and self.move_clock is not None and now - self.awaited_since > self.move_clock:
            return MOVE_CLOCK
        return GONE if self.gone_past(now) else None

    def window_over(self, now: float) -> bool:
        """The claimed seat of a table of two let the answer window pass."""
        return self.awaited_since is not None and now - self.awaited_since > answer_window(self.timeout)

    def too_short(self) -> tuple[str, float] | None:
        """(which, seconds) of this table's signed times that is shorter than our ``min_claim``, or None."""
        if self.min_claim is None:
            return None
        for what, value in (("claim time", self.timeout if self.signed else None), ("move clock", self.move_clock)):
            if value is not None and value < self.min_claim:
                return what, value
        return None
