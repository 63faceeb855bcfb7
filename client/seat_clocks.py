"""Each seat's time: on the move it is making now and over the whole game, on this app's clock.

A seat's clock runs while the game waits for it (its move, or every action of a turn of several),
and stops when the turn goes to another seat, the table or the end. The times are what this app
saw: a network game's clocks start when the board opens here (a resumed game counts from the
resume); the table's signed move clock is the controller's (``GameController.move_clock_left``).
"""

from __future__ import annotations


def clock_text(seconds: float) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour) for a duration."""
    seconds = max(int(seconds), 0)
    hours, rest = divmod(seconds, 3600)
    if hours:
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    return f"{rest // 60}:{rest % 60:02d}"


class SeatClocks:
    """The seats' times in the game, and since when the seat to move has been thinking."""

    def __init__(self, seats: int, now: float):
        self.totals = [0.0] * seats
        """Seconds each seat took in the turns it finished."""
        self.seat: int | None = None
        """The seat whose clock runs (None: nobody's, the table deals or the game is over)."""
        self.since = now
        self.last: tuple[int, int | None] = (0, None)
        """The log's length and the actor of its last line when we last looked."""

    def see(self, seat: int | None, now: float, last: tuple[int, int | None] = (0, None)) -> bool:
        """The game waits for ``seat`` now, and ``last`` is the log's length and the actor of its last line;
        True when that is a change (a clock stopped or started). A line of anyone else since we last looked
        ended the move we were timing, even when the turn was back with the same seat before we looked (a
        computer that answered at once)."""
        answered = last != self.last and last[1] != self.seat
        self.last = last
        if seat == self.seat and not answered:
            return False
        if self.seat is not None and self.seat < len(self.totals):
            self.totals[self.seat] += max(0.0, now - self.since)
        self.seat, self.since = seat, now
        return True

    def on_move(self, now: float) -> float:
        """Seconds the seat to move has taken on this move so far (0 when nobody's clock runs)."""
        return max(0.0, now - self.since) if self.seat is not None else 0.0

    def in_game(self, seat: int, now: float) -> float:
        """Seconds ``seat`` took in the whole game, the move it is making included."""
        total = self.totals[seat] if seat < len(self.totals) else 0.0
        return total + (self.on_move(now) if seat == self.seat else 0.0)
