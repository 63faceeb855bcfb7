"""Pagode's actions: one typed record per kind, a tuple on the wire and in logs.

Each record's first field is ``kind``, the name on the wire. The rules read a
seat's action through its record; the legal actions are plain tuples equal to
them. Sites are 0..5, colours 0..4 (``data.COLOURS``); a card is a
``(slot, ident)`` pair from the seat's reserve or hand (naming the identity is
a claim: ``core.Cards.claim``), and ``cards`` is a tuple of such pairs.
Pagode checks every field of a peer's action itself, each with its own
one-line reason (``rules.paying``: ``check_site``, ``check_colour``, ``pay``,
``take``), so a record is made once the length is right (:func:`read`).
The commonest actions (column, tile, discard, end) are unpacked in the rules
as plain tuples in their records' field order, with the same length check and
reason as :func:`read`, without building the record.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from lanterne.engines.core import IllegalAction


class Column(NamedTuple):
    """A column of ``colour`` on ``site``, paid with ``cards`` (one of the colour, two of one colour
    with the Rice bowl, none in a modified turn)."""

    kind: str
    site: int
    colour: int
    cards: tuple


class Tile(NamedTuple):
    """A tile on ``site``'s full floor: background the floor's colour, ``spots`` the spot colour."""

    kind: str
    site: int
    spots: int
    cards: tuple


class Roof(NamedTuple):
    """The last tile (``spots``, paid with ``tile_cards``) and its summit (``summit_cards``) in one action."""

    kind: str
    site: int
    spots: int
    tile_cards: tuple
    summit_cards: tuple


class Lantern(NamedTuple):
    """Use the Lantern: one more column this turn."""

    kind: str


class Dragon(NamedTuple):
    """Use the Dragon before the turn's first action: discard, then draw as many."""

    kind: str


class Discard(NamedTuple):
    """Discard the card in ``slot`` (it is ``ident``)."""

    kind: str
    slot: int
    ident: int


class Draw(NamedTuple):
    """The Dragon's draw, after its discards."""

    kind: str


class Modified(NamedTuple):
    """A modified turn: 4 discards pay one column."""

    kind: str


class End(NamedTuple):
    """End the turn; ``fan`` uses the Fan (a larger hand)."""

    kind: str
    fan: bool


ACTIONS: dict[str, type] = {"column": Column, "tile": Tile, "roof": Roof, "lantern": Lantern, "dragon": Dragon,
                            "discard": Discard, "draw": Draw, "modified": Modified, "end": End}
"""Every action kind a seat may send, by the name on the wire."""


def read(record: type, action: tuple, why: str, _new: Any = tuple.__new__) -> Any:
    """``action`` as ``record`` once its length is right (IllegalAction ``why`` if not); the rules check each field.

    (``tuple.__new__`` rather than ``record._make``: this runs on every move of the benchmarks.)
    """
    out = _new(record, action)
    if len(out) != len(record._fields):
        raise IllegalAction(why)
    return out
