"""The claim in progress: a frozen record of a ``claim`` or ``replace`` entry and the answers it has had.

It holds only what the chain says (the entry's fields, who answers in which
order, who agreed) and, on our own clock, since when the chain waited for
the claimed seat; an answer makes a new record (:meth:`Claim.agreed_by`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .events import Cause
from .kinds import CLAIM_REASON, MOVE_CLOCK, REPLACE

ANSWER_WINDOW = 10.0
"""Seconds (or the claim time, if shorter) the claimed seat of a table of two has to refuse before the claimer closes."""


def answer_window(timeout: float | None) -> float:
    return ANSWER_WINDOW if timeout is None else min(ANSWER_WINDOW, timeout)


def gone_reason(seat: int, seconds: float) -> str:
    """The reason of a claim against a seat gone past the claim time (its clock: none)."""
    return f"{CLAIM_REASON}seat {seat + 1} sent nothing for {seconds:g} s"


def slow_reason(seat: int, seconds: float) -> str:
    """The reason of a claim against a seat that ran out of the move clock (its clock: ``move``)."""
    return f"{CLAIM_REASON}seat {seat + 1} took more than the move clock of {seconds:g} s"


_GONE = re.compile(re.escape(CLAIM_REASON) + r"seat ([0-9]+) sent nothing for ([0-9.e+]+) s")


def waited_gone(reason: str, seat: int) -> float | None:
    """The claim time a claim's reason says the seat was gone for, if it is :func:`gone_reason`'s sentence for
    ``seat`` (None: the claim came before the claim time, the seat having said it left)."""
    found = _GONE.fullmatch(reason)
    if found is None or int(found.group(1)) != seat + 1:
        return None
    try:
        return float(found.group(2))
    except ValueError:
        return None


def cause_of(reason: str, clock: str | None, seat: int, move_clock: float | None) -> tuple[Cause, float | None]:
    """Why a claim against ``seat`` was made, and the seconds it waited, from its signed fields."""
    if clock == MOVE_CLOCK:
        return Cause.SLOW, move_clock
    waited = waited_gone(reason, seat)
    return (Cause.GONE, waited) if waited is not None else (Cause.LEFT, None)


@dataclass(frozen=True)
class Claim:
    """A claim (or replace) against ``seat`` by seat ``by``, answered by the seats of ``order`` in turn."""

    kind: str
    """CLAIM or REPLACE."""
    seat: int
    by: int
    hash: bytes
    """The claim entry's hash (every answer names it)."""
    order: tuple[int, ...]
    """The seats that answer, in turn: every other seat but the claimed one (at a table of two, the claimed one)."""
    agreed: tuple[int, ...] = ()
    reason: str = ""
    key: bytes | None = None
    """A replace: the computer's key."""
    name: str = ""
    """A replace: the computer's name."""
    awaited_since: float | None = None
    """On our clock, since when the chain waited for the claimed seat (None: not known here)."""
    clock: str | None = None
    """MOVE_CLOCK when the seat ran out of the move clock (it may be here); None: it was gone."""

    @property
    def replaces(self) -> bool:
        return self.kind == REPLACE

    @property
    def slow(self) -> bool:
        """The seat ran out of the move clock: being here is no answer to it."""
        return self.clock == MOVE_CLOCK

    @property
    def answered(self) -> bool:
        """Every seat of the order agreed."""
        return len(self.agreed) == len(self.order)

    @property
    def table_of_two(self) -> bool:
        """Nobody else can answer: the claimed seat answers itself."""
        return self.order == (self.seat,)

    @property
    def writer(self) -> int:
        """Who writes next: the seats of the order, then (every answer in) the claimer closes it."""
        k = len(self.agreed)
        return self.order[k] if k < len(self.order) else self.by

    def agreed_by(self, seat: int) -> "Claim":
        return replace(self, agreed=self.agreed + (seat,))
