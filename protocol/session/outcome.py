"""How the game ends: each seat's final reveal and signed result, who raised a dispute, and the result."""

from __future__ import annotations

from .events import Aborted, GameOver, Replaced

Result = GameOver | Aborted | Replaced


class Outcome:
    """The reveals and results so far, by seat, and the game's result once it is over."""

    def __init__(self) -> None:
        self.finals: dict[int, dict] = {}
        """Each seat's final reveal (``fair_final``) so far."""
        self.ends: dict[int, dict] = {}
        """Each seat's signed result (``end``) so far."""
        self.disputed_by: int | None = None
        """The seat whose abort asked for the audit (the dispute)."""
        self.result: Result | None = None

    def copy(self) -> "Outcome":
        other = Outcome()
        other.finals, other.ends = dict(self.finals), dict(self.ends)
        other.disputed_by, other.result = self.disputed_by, self.result
        return other
