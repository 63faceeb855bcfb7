"""The Pandoria position: every fact of the game as plain lists and ints."""

from __future__ import annotations

from engines.core import Cards, PositionError, State, TableOp

from .board import NHEX

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
        s = PandoriaState.__new__(PandoriaState)
        s.players, s.variant, s.pending, s.after = self.players, self.variant, self.pending, self.after
        s.cards = self.cards.copy()
        s.piles = {k: v[:] for k, v in self.piles.items()}
        s.people = self.people[:]
        s.first, s.current, s.turn, s.phase = self.first, self.current, self.turn, self.phase
        s.terrain, s.symbols, s.owner = self.terrain[:], self.symbols[:], self.owner[:]
        s.occupant, s.closed = self.occupant[:], self.closed[:]
        s.resources = [r[:] for r in self.resources]
        s.points, s.reserve = self.points[:], self.reserve[:]
        s.leader_home, s.castles_left = self.leader_home[:], self.castles_left[:]
        s.buildings = [b[:] for b in self.buildings]
        s.monuments, s.placed = self.monuments[:], self.placed[:]
        s.closing = [r[:] for r in self.closing]
        s.tile_placed, s.main_left, s.bonus = self.tile_placed, self.main_left, self.bonus
        s.halfling_used, s.conjure, s.scored = self.halfling_used, self.conjure, self.scored
        s.single, s.passes, s.ending = self.single, self.passes, self.ending
        s.leftover = self.leftover[:]
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
        slots = sorted(x for pile in s.piles.values() for x in pile)
        slots += [b for row in s.buildings for b in row if 0 <= b < 1000]
        if s.single >= 0:
            slots.append(s.single)
        if sorted(slots) != list(range(len(s.cards.ids))):
            raise PositionError("Pandoria position: card and tile slots are lost or duplicated")
        return s
