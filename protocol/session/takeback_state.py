"""What a session keeps to take a seat's moves back: the position before each move of the run at the chain's end,
and the takeback the other seats are answering (:mod:`.takeback` reads and writes the entries)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from lanterne.engines.core import State


@dataclass(frozen=True)
class Ask:
    """A ``takeback`` entry of ``seat`` taking back its moves from place ``first`` on, and the yeses so far."""

    seat: int
    hash: bytes
    """The request's hash (every answer names it)."""
    first: int
    """The place of the first move taken back."""
    moves: int
    order: tuple[int, ...]
    """The seats that answer, in seat order: every other seat."""
    before: State = field(compare=False, repr=False)
    """The position before the first move taken back (our own view of it): where the last yes goes back to."""
    agreed: tuple[int, ...] = ()

    @property
    def writer(self) -> int:
        """The seat whose answer comes next."""
        return self.order[len(self.agreed)]

    @property
    def answered(self) -> bool:
        return len(self.agreed) == len(self.order)

    def agreed_by(self, seat: int) -> "Ask":
        return replace(self, agreed=self.agreed + (seat,))


class Undo:
    """The positions before the moves that may be taken back, the takeback asked now, and who answers ours."""

    def __init__(self) -> None:
        self.points: dict[int, tuple[int, State]] = {}
        """Place of a move -> (its seat, the position before it): one seat's run of moves at the chain's end that
        showed nothing (any other entry, or a table step that wrote none, empties it)."""
        self.asked: Ask | None = None
        self.consent: Callable[[Ask], bool | None] | None = None
        """Our answer to another seat's takeback: True yes, False no, None not yet (the caller steps the session
        later); no callable: not yet, a person answers (:meth:`.session.Session.answer_takeback`). A computer's
        says yes (``protocol/net/turns.py``, ``protocol/memory.py``); a restarted session answers nothing by
        itself."""

    def copy(self) -> "Undo":
        other = Undo()
        other.points, other.asked, other.consent = dict(self.points), self.asked, self.consent
        return other

    def moved(self, place: int, seat: int, before: State, shown: bool) -> None:
        """A move of ``seat`` at ``place`` from ``before``; ``shown``: it made a hidden card public (it stays)."""
        if shown or any(other != seat for other, _ in self.points.values()):
            self.points.clear()
        if not shown:
            self.points[place] = (seat, before)

    def clear(self) -> None:
        self.points.clear()
