"""Pueblo's actions: one typed record per kind, a tuple on the wire and in logs.

Each record's first field is ``kind``, the name on the wire. The rules read a
seat's action through its record (:func:`engines.core.read_action` checks a
peer's list field by field first); the legal actions are plain tuples equal
to them. Cells are ``8 * y + x`` (``board.cell_name``); a stone is ``"C"``
(coloured) or ``"N"`` (neutral). The first-player roll is the table's outcome
(``("roll", seat)``), not a seat's action.
"""

from __future__ import annotations

from typing import NamedTuple


class Site(NamedTuple):
    """Advanced rules: a sacred site on three cells of a 2x2 square (an L)."""

    kind: str
    cell_a: int
    cell_b: int
    cell_c: int


class Bid(NamedTuple):
    """Advanced rules: bid ``points`` penalty points for the turn-order card on offer."""

    kind: str
    points: int


class Pass(NamedTuple):
    """Advanced rules: leave the auction of this card."""

    kind: str


class Card(NamedTuple):
    """Advanced rules: the auction's winner takes turn-order card ``number``."""

    kind: str
    number: int


class Place(NamedTuple):
    """Place a ``stone`` (C or N) in orientation ``orient`` on the 2x2 box whose south-west cell is ``x``, ``y``."""

    kind: str
    stone: str
    orient: int
    x: int
    y: int


class Drop(NamedTuple):
    """House rule: set the due ``stone`` (C or N) aside when it fits nowhere."""

    kind: str
    stone: str


class Move(NamedTuple):
    """Move the chieftain ``steps`` spaces (1 to 4) clockwise."""

    kind: str
    steps: int


class Remove(NamedTuple):
    """Dismantling: take off the stone whose two-cube square is on ``cell``."""

    kind: str
    cell: int


ACTIONS: dict[str, type] = {"site": Site, "bid": Bid, "pass": Pass, "card": Card, "place": Place, "drop": Drop,
                            "move": Move, "remove": Remove}
"""Every action kind a seat may send, by the name on the wire."""
