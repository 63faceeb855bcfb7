"""Pandoria's actions: one typed record per kind, a tuple on the wire and in logs.

Each record's first field is ``kind``, the name on the wire. The rules read a
seat's action through its record (:func:`engines.core.read_action` checks a
peer's list field by field first); the legal actions are plain tuples equal
to them. Hexes are board indexes (``board.hex_name``), directions 0..5
(``board.DIRECTIONS``), slots index the card registry and ``ident`` is the
card a slot holds (naming it is a claim: ``core.Cards.claim``).
"""

from __future__ import annotations

from typing import NamedTuple


class Pass(NamedTuple):
    """No tile or castle fits: the turn goes on without one. ``("pass",)``"""

    kind: str


class Skip(NamedTuple):
    """Do nothing at this step (no figure, card, purchase or Elf move). ``("skip",)``"""

    kind: str


class Tile(NamedTuple):
    """The double tile in ``slot`` (it is ``ident``) on ``hex`` and its neighbour in ``direction``."""

    kind: str
    slot: int
    ident: int
    hex: int
    direction: int


class Castle(NamedTuple):
    """A castle on ``hex``."""

    kind: str
    hex: int


class Figure(NamedTuple):
    """A figure (the leader if ``leader``) from the reserve onto ``hex``."""

    kind: str
    hex: int
    leader: bool


class Take(NamedTuple):
    """Take one's figure on ``hex`` back to the reserve."""

    kind: str
    hex: int


class Monument(NamedTuple):
    """A monument over the building in building slot ``index`` (0-based)."""

    kind: str
    index: int


class Build(NamedTuple):
    """The card in ``slot`` (it is ``ident``) as a building in building slot ``index``."""

    kind: str
    slot: int
    ident: int
    index: int


class Spell(NamedTuple):
    """The card in ``slot`` (it is ``ident``) played as a spell.

    On the wire its targets follow (``("spell", slot, ident, *targets)``,
    as many as the spell takes: ``rules.spell_targets``); the record is the
    head, the targets are ``action[len(Spell._fields):]``.
    """

    kind: str
    slot: int
    ident: int


class Single(NamedTuple):
    """The single tile drawn this turn on ``hex``."""

    kind: str
    hex: int


class Buy(NamedTuple):
    """Buy the market card in ``slot``."""

    kind: str
    slot: int


class Move(NamedTuple):
    """Elves: move one's figure from hex ``source`` to hex ``to``."""

    kind: str
    source: int
    to: int


ACTIONS: dict[str, type] = {"pass": Pass, "skip": Skip, "tile": Tile, "castle": Castle, "figure": Figure,
                            "take": Take, "monument": Monument, "build": Build, "spell": Spell,
                            "single": Single, "buy": Buy, "move": Move}
"""Every action kind a seat may send, by the name on the wire."""
