"""The Pandoria state: every fact of the game as plain lists and ints, with its save/load.

Also the masked card registries of views (at the end), kept here because
both the rules (which copy a registry before changing it) and the game's
``view`` use them.
"""

from __future__ import annotations

from lanterne.engines.core import Cards, PositionError, State, TableOp

from .board import NHEX
from .data import BUILDING_SLOTS, CASTLES, FIGURES, IDENTITIES, RESOURCE_CAP

PHASES = ("setup", "place", "figure", "card", "terrain", "terrain_figure", "buy", "draw", "elf", "over")

_FIELDS = (
    "players", "variant", "pending", "after", "cards", "piles", "people", "first", "current", "turn",
    "phase", "terrain", "symbols", "owner", "occupant", "closed", "resources", "points", "reserve",
    "leader_home", "castles_left", "buildings", "monuments", "placed", "closing", "tile_placed",
    "main_left", "bonus", "halfling_used", "conjure", "scored", "single", "passes", "ending",
    "leftover",
)


class PandoriaState(State):
    """A position. Per-hex lists have one entry per hex of the map rectangle.

    ``terrain[h]``: -1 empty, 0-3 forest/hill/mountain/city, 4 castle;
    ``occupant[h]``: -1, or ``seat * 2 + is_leader``; ``owner[h]``: the castle's seat;
    ``buildings[seat]``: 5 building slots, -1 empty, a card slot, or 1000 + a monument's points.
    ``piles``: slot lists, the top first: deck, market, tiles, aside, singles, peoples,
    hand<s>, tiles<s> (double tiles in hand), spells<s> (played), under<s> (covered buildings).
    """

    __slots__ = _FIELDS

    def copy(self) -> "PandoriaState":
        s = self.clone()
        s.cards = self.cards.copy()
        # clone shares these too (apply copies them before changing them); a copy owns them
        s.people, s.monuments = self.people[:], self.monuments[:]
        s.placed, s.leftover = self.placed[:], self.leftover[:]
        s.closing = [r[:] for r in self.closing]
        s.resources, s.buildings = [r[:] for r in self.resources], [b[:] for b in self.buildings]
        s.points, s.reserve = self.points[:], self.reserve[:]
        s.leader_home, s.castles_left = self.leader_home[:], self.castles_left[:]
        return s

    def clone(self) -> "PandoriaState":
        """The copy ``apply`` changes: it shares the card registry too (rules._cards copies it first)."""
        s = PandoriaState.__new__(PandoriaState)
        s.players, s.variant, s.pending, s.after = self.players, self.variant, self.pending, self.after
        # Copy-on-write: the card registry, the pile lists and the five per-hex lists are
        # shared with this state; the rules copy one just before changing it (rules._cards,
        # rules._pile, and each write to terrain/symbols/owner/occupant/closed), since a
        # move changes few of them. Likewise the per-seat lists (a step changes one or none:
        # rules._seat_row copies a row of resources or buildings and its outer list, rules._seat_list
        # a list of points, reserve, leader_home or castles_left), and people, monuments,
        # placed, closing and leftover, which change a few times a game: the rules replace
        # the list (the "peoples" setup step, do_card's monument, close_regions, finish).
        # Copying them all took 0.6 of clone's 1 microsecond, on every apply.
        s.cards = self.cards
        s.piles = dict(self.piles)
        s.people = self.people
        s.first, s.current, s.turn, s.phase = self.first, self.current, self.turn, self.phase
        s.terrain, s.symbols, s.owner = self.terrain, self.symbols, self.owner
        s.occupant, s.closed = self.occupant, self.closed
        s.resources, s.buildings = self.resources, self.buildings
        s.points, s.reserve = self.points, self.reserve
        s.leader_home, s.castles_left = self.leader_home, self.castles_left
        s.monuments, s.placed, s.closing = self.monuments, self.placed, self.closing
        s.tile_placed, s.main_left, s.bonus = self.tile_placed, self.main_left, self.bonus
        s.halfling_used, s.conjure, s.scored = self.halfling_used, self.conjure, self.scored
        s.single, s.passes, s.ending = self.single, self.passes, self.ending
        s.leftover = self.leftover
        return s

    def shallow_copy(self) -> "PandoriaState":
        """A new state sharing every field's value with this one (see ``Pandoria.view``)."""
        # Field by field, written out: a loop of getattr/setattr over _FIELDS took twice as long,
        # and a bot takes a view for every choice. A field left out here fails to_data().
        s = PandoriaState.__new__(PandoriaState)
        s.players, s.variant, s.pending, s.after = self.players, self.variant, self.pending, self.after
        s.cards, s.piles, s.people = self.cards, self.piles, self.people
        s.first, s.current, s.turn, s.phase = self.first, self.current, self.turn, self.phase
        s.terrain, s.symbols, s.owner = self.terrain, self.symbols, self.owner
        s.occupant, s.closed, s.resources = self.occupant, self.closed, self.resources
        s.points, s.reserve = self.points, self.reserve
        s.leader_home, s.castles_left = self.leader_home, self.castles_left
        s.buildings, s.monuments, s.placed = self.buildings, self.monuments, self.placed
        s.closing, s.tile_placed, s.main_left, s.bonus = self.closing, self.tile_placed, self.main_left, self.bonus
        s.halfling_used, s.conjure, s.scored = self.halfling_used, self.conjure, self.scored
        s.single, s.passes, s.ending = self.single, self.passes, self.ending
        s.leftover = self.leftover
        return s

    def to_data(self) -> dict:
        d = {}
        for name in _FIELDS:
            value = getattr(self, name)
            if name == "cards":
                value = value.to_data()
            elif name == "pending":
                value = value.to_data() if value is not None else None
            elif name == "piles":
                value = {k: list(v) for k, v in value.items()}
            elif isinstance(value, list):
                value = [list(x) if isinstance(x, list) else x for x in value]
            d[name] = value
        return d

    @classmethod
    def from_data(cls, data: dict) -> "PandoriaState":
        if not isinstance(data, dict):
            raise PositionError("a Pandoria position is a map of fields")
        missing = [f for f in _FIELDS if f not in data]
        if missing:
            raise PositionError(f"Pandoria position lacks {', '.join(missing)}")
        s = cls.__new__(cls)
        players = data["players"]
        if players not in (2, 3, 4):
            raise PositionError(f"Pandoria seats 2 to 4 players, not {players!r}")
        for name in _FIELDS:
            value = data[name]
            if name == "cards":
                value = Cards.from_data(value, players)
            elif name == "pending":
                value = TableOp.from_data(value)
            elif name == "piles":
                value = {str(k): [int(x) for x in v] for k, v in value.items()}
            elif isinstance(value, list):
                value = [list(x) if isinstance(x, (list, tuple)) else x for x in value]
            setattr(s, name, value)
        for name in ("terrain", "symbols", "owner", "occupant", "closed"):
            if len(getattr(s, name)) != NHEX:
                raise PositionError(f"Pandoria position: {name} must have {NHEX} hexes")
        for name in ("people", "resources", "points", "reserve", "leader_home", "castles_left",
                     "buildings", "leftover"):
            if len(getattr(s, name)) != players:
                raise PositionError(f"Pandoria position: {name} must have one entry per player")
        if s.phase not in PHASES:
            raise PositionError(f"Pandoria position: unknown phase {s.phase!r}")
        _check_values(s)
        slots = sorted(x for pile in s.piles.values() for x in pile)
        slots += [b for row in s.buildings for b in row if 0 <= b < 1000]
        if s.single >= 0:
            slots.append(s.single)
        if sorted(slots) != list(range(len(s.cards.ids))):
            raise PositionError("Pandoria position: card and tile slots are lost or duplicated")
        return s


def _in(name: str, values, low: int, high: int) -> None:
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
            raise PositionError(f"Pandoria position: {name} holds {v!r}, outside {low}..{high}")


def _check_values(s: "PandoriaState") -> None:
    """Every number in its range, so that a loaded position can be played on."""
    n = s.players
    if s.variant not in ("classic", "beginner", "team"):
        raise PositionError(f"Pandoria position: unknown variant {s.variant!r}")
    if len(s.cards.ids) != len(IDENTITIES):
        raise PositionError(f"Pandoria position: {len(s.cards.ids)} card slots, not {len(IDENTITIES)}")
    known = [i for i in s.cards.ids if i is not None]
    if not set(known) <= set(IDENTITIES) or len(set(known)) != len(known):
        raise PositionError("Pandoria position: unknown or repeated card identities")
    _in("seen", s.cards.seen, 0, (1 << n) - 1)
    _in("terrain", s.terrain, -1, 4)
    _in("symbols", s.symbols, 0, 2)
    _in("occupant", s.occupant, -1, 2 * n - 1)
    _in("owner", s.owner, -1, n - 1)
    _in("closed", s.closed, 0, 1)
    _in("first and current", (s.first, s.current), -1, n - 1)
    _in("turn, passes", (s.turn, s.passes), 0, 10**6)
    _in("people", s.people, -1, 4)
    _in("reserve", s.reserve, 0, FIGURES[n])
    _in("castles", s.castles_left, 0, CASTLES)
    _in("points", s.points, 0, 10**6)
    _in("leftover", s.leftover, 0, 10**6)
    for row in s.resources:
        if len(row) != 3:
            raise PositionError("Pandoria position: resources are wood, gold, crystal")
        _in("resources", row, 0, RESOURCE_CAP)
    for row in s.buildings:
        if len(row) != BUILDING_SLOTS:
            raise PositionError(f"Pandoria position: {BUILDING_SLOTS} building slots per player")
        for b in row:
            if not (b == -1 or 0 <= b < len(IDENTITIES) or 1003 <= b <= 1006):
                raise PositionError(f"Pandoria position: building slot holds {b!r}")
    _in("monuments", s.monuments, 3, 6)
    needed = {"deck", "market", "tiles", "aside", "singles", "peoples", "seated", "board", "discard"}
    needed |= {f"{k}{seat}" for seat in range(n) for k in ("hand", "tiles", "spells", "under")}
    if set(s.piles) != needed:
        raise PositionError("Pandoria position: wrong set of piles")
    if s.bonus not in ("", "monument", "building", "spell"):
        raise PositionError(f"Pandoria position: unknown bonus {s.bonus!r}")
    for name in ("tile_placed", "main_left", "halfling_used", "conjure", "scored", "ending"):
        if not isinstance(getattr(s, name), bool):
            raise PositionError(f"Pandoria position: {name} must be true or false")
    _in("placed", s.placed, 0, NHEX - 1)
    for region in s.closing:
        _in("closing", region, 0, NHEX - 1)


# --------------------------------------------------------------------------
# Views' card registries (Pandoria.view), remembered and brought up to date cheaply.
#
# Masking the 115 slots for a seat is most of a view's cost. A registry is
# never changed once a state holds it: ``apply`` copies it first
# (:func:`changed`, called by rules._cards) and notes which slots the copy will
# change. So a seat's last masked registry serves again while the registry is
# the same object, and a registry copied from it in a few steps re-masks only
# the slots those steps changed. The result is exactly ``Cards.masked``;
# nothing here is part of a position.

_MASKED: dict[int | None, tuple[Cards, Cards]] = {}
"""Per seat (None: the public view): the last registry masked for it, and the masked registry."""

_PARENT: dict[Cards, tuple[Cards, tuple[int, ...]]] = {}
"""A copied registry -> (the registry it was copied from, the slots the copy changes)."""
_PARENT_SIZE = 64
_CHAIN = 32
"""How many copies back a masked registry is looked for."""


def changed(cards: Cards, slots: tuple[int, ...]) -> Cards:
    """A copy of ``cards`` that the caller changes at ``slots`` only (and nowhere else)."""
    new = cards.copy()
    if len(_PARENT) >= _PARENT_SIZE:
        _PARENT.clear()
    _PARENT[new] = (cards, tuple(slots))
    return new


def masked(cards: Cards, seat: int | None) -> Cards:
    """``cards.masked(seat)``: remembered, or re-masked where it changed since the seat's last view."""
    last = _MASKED.get(seat)
    if last is not None and last[0] is cards:
        return last[1]
    mine = None
    if last is not None:
        stale = _changed_since(cards, last[0])
        if stale is not None:
            mine = cards.remasked(last[1], seat, stale)
    if mine is None:
        mine = cards.masked(seat)
    _MASKED[seat] = (cards, mine)
    return mine


def _changed_since(cards: Cards, old: Cards) -> list[int] | None:
    """The slots changed from ``old`` to ``cards`` if it was copied from it in a few steps, else None."""
    stale: list[int] = []
    for _ in range(_CHAIN):
        step = _PARENT.get(cards)
        if step is None:
            return None
        cards, slots = step
        stale += slots
        if cards is old:
            return stale
    return None
