"""Pacal's Rocket's actions: one typed record per kind, a tuple on the wire and in logs.

Each record's first field is ``kind``, the name on the wire. The rules read a
seat's action through its record (:func:`engines.core.read_action` checks a
peer's list field by field first); the legal actions are plain tuples equal
to them. Cells are board indexes (``board.cell_name``); the table's die roll
is an outcome (``("roll", value)``), not a seat's action.
"""

from __future__ import annotations

from typing import NamedTuple


class Place(NamedTuple):
    """Put the ship on ``cell`` of the sacred district (before the first roll)."""

    kind: str
    cell: int


class Move(NamedTuple):
    """Move the ship to ``cell`` by ``mode`` (``movement.MODES``: straight, turn, arrow)."""

    kind: str
    mode: str
    cell: int


class Energy(NamedTuple):
    """Spend the energy piece worth ``value`` to put the ship on ``cell``."""

    kind: str
    value: int
    cell: int


class Relocate(NamedTuple):
    """A surrounded ship with no energy piece left goes to ``cell``."""

    kind: str
    cell: int


class Stones(NamedTuple):
    """Divine stones into the own ship (``own``) and/or seat ``other``'s ship (None: none),
    after taking back the own visible stones on the cells ``take`` when the supply is short."""

    kind: str
    own: bool
    other: int | None
    take: tuple


class Build(NamedTuple):
    """A new pyramid of ``storeys`` on ``cell`` for the constellation ``cells`` (board order)."""

    kind: str
    storeys: int
    cell: int
    cells: tuple


class Upgrade(NamedTuple):
    """The own pyramid on ``cell`` raised to ``storeys`` for the constellation ``cells``."""

    kind: str
    storeys: int
    cell: int
    cells: tuple


class Pass(NamedTuple):
    """No build or upgrade: the turn ends."""

    kind: str


ACTIONS: dict[str, type] = {"place": Place, "move": Move, "energy": Energy, "relocate": Relocate,
                            "stones": Stones, "build": Build, "upgrade": Upgrade, "pass": Pass}
"""Every action kind a seat may send, by the name on the wire."""
