"""The table's side of play: the fair table of this epoch, the op it resolves, the re-deal still to do, and the fair
steps kept for the audit.

A replacement by a computer starts a new epoch (:meth:`Chance.new_epoch`):
a new fair table and the re-deal of every hidden card; the steps of the
epochs before are kept apart (``old_steps``), the audit of each table reads
its own.
"""

from __future__ import annotations

import copy
from collections import deque
from typing import Any, Iterable

from lanterne.engines.core import TableOp

Step = tuple[int, str, dict]
"""(seat, fair kind, body): one fair step as the audit reads it."""


class Chance:
    """The fair table and what it is resolving."""

    def __init__(self) -> None:
        self.fair: Any = None
        """The fair table (``protocol.fair.FairTable``, or the one-pass verifier's ``RevealedTable``); None before
        play."""
        self.op: TableOp | None = None
        """The table op the fair table is resolving now."""
        self.redeal: deque[TableOp] = deque()
        """Re-deal ops still to resolve after a replacement (the engine waits for them)."""
        self.steps: list[Step] = []
        self.old_steps: list[Step] = []
        self.epoch = 0
        """Fair tables so far after the first: one more per replacement."""

    def copy(self) -> "Chance":
        other = Chance()
        other.fair, other.op, other.redeal = copy.deepcopy(self.fair), self.op, deque(self.redeal)
        other.steps, other.old_steps, other.epoch = list(self.steps), list(self.old_steps), self.epoch
        return other

    def new_epoch(self, fair: Any, redeal: Iterable[TableOp]) -> None:
        """A new fair table after a replacement, with the re-deal to resolve on it first."""
        self.epoch += 1
        self.old_steps += self.steps
        self.steps = []
        self.redeal = deque(redeal)
        self.fair, self.op = fair, None
