"""Taking back a person's own actions of the turn under way, in a game played on this machine.

A turn is often several actions (Pagode's columns and tiles, Pacal's move, stones and build, Pandoria's
tile, figure and card); while it lasts, the person at the keyboard may take back the last of them, then
the one before, back to the turn's start. Only what revealed nothing and what nobody else followed:
an action after which the table dealt, drew, shuffled or rolled stays (the card or the die is seen),
and so does one another seat answered. A card played from the hand comes back to it: the computers
choose from what their seat may know of the position alone, and remember nothing of a position gone.

The controller hands over the position before each of a person's actions (:meth:`TakeBack.played`);
this object keeps those of the run of that person's lines at the log's end, and says why nothing can
be taken back when nothing can (one line for the status bar). A network table cuts nothing: there a
takeback is entries appended, if its host allows it (client/net_undo.py; docs/client.md, "Undo").
"""

from __future__ import annotations

from typing import Callable, Generic, Sequence, TypeVar

from lanterne.client.i18n import N_, _
from lanterne.engines.core import DEAL, REVEAL, ROLL, SHUFFLE

Point = TypeVar("Point")

BLOCKED_BY_TABLE = {
    DEAL: N_("the draw after it revealed a card"),
    ROLL: N_("the die rolled after it cannot be rolled again"),
    SHUFFLE: N_("the shuffle after it cannot be taken back"),
    REVEAL: N_("the card revealed after it cannot be hidden again"),
}
"""Why an action the table followed stays, by the kind of the table's operation (translated when said)."""
TABLE_ACTED = N_("the table acted after it")
"""The same for an operation of a kind not above."""


class TakeBack(Generic[Point]):
    """The positions before a person's last actions, and the facts that say whether each may be taken back."""

    def __init__(self) -> None:
        self._points: dict[int, tuple[int, Point]] = {}
        """Line number -> (the seat, the position before it): the person's lines at the log's end."""
        self._turns: dict[int, int] = {}
        """Line number -> the game's turn count before it, for every line a person here played."""
        self._table: dict[int, str] = {}
        """Line number -> the kind of the table's operation (deal, roll...), for the table's lines."""
        self.resumed_at = 0
        """Lines before this many were played before the game was resumed (nothing kept of them)."""

    def line(self, actor: int) -> None:
        """A line was recorded: a line of anyone but the seat whose positions are kept makes them stale."""
        if any(seat != actor for seat, _point in self._points.values()):
            self._points.clear()

    def table(self, number: int, kind: str) -> None:
        """The table's line ``number`` was an operation of ``kind``; nothing before it can be taken back."""
        self._table[number] = kind
        self._points.clear()

    def played(self, number: int, seat: int, turn: int, point: Point, last: int) -> None:
        """A person at ``seat`` played line ``number`` in turn ``turn`` from the position ``point``; ``last``:
        the log's last line now (a line the table followed keeps no position)."""
        self._turns[number] = turn
        if last == number:
            self._points[number] = (seat, point)

    def refusal(self, log: Sequence, seat: int, turn: int, label: Callable[[int], str]) -> str | None:
        """Why ``seat``, whose turn ``turn`` it is, cannot take back its last action (None: it can); ``label``
        names a seat."""
        after = None
        for line in reversed(log):
            if line.actor == seat:
                break
            after = line
        else:
            return _("nothing of yours to take back this turn")
        played_in = self._turns.get(line.number)
        if played_in is None:
            if line.number <= self.resumed_at and after is None:
                return _("it was played before the game was resumed")
            return _("nothing of yours to take back this turn")
        if played_in != turn:
            return _("nothing of yours to take back this turn")
        if after is not None:
            kind = self._table.get(after.number)
            if kind is not None:
                return _(BLOCKED_BY_TABLE.get(kind, TABLE_ACTED))
            return _("{player} has played since").format(player=label(after.actor))
        if line.number not in self._points:
            return _("nothing of yours to take back this turn")
        return None

    def take(self, number: int) -> Point:
        """The position before line ``number`` (the last line: it is taken back, with what was kept of it)."""
        _seat, point = self._points.pop(number)
        self._turns.pop(number, None)
        return point
