"""The Pagode state: plain fields, cheap copies, a position format.

Every field but the card registry is immutable (ints, strings, tuples), so a
copy shares them; apply replaces what changes. Only ``cards`` is copied, and
only when it changes; nor is a registry changed once a state holds it, so a
new registry shares the list (``ids`` or ``seen``) that it does not change.
"""

from __future__ import annotations

from lanterne.engines.core import Cards, PositionError, State, TableOp

from .data import DECK_SIZE, FLOOR_COLUMNS, SITES, TILES, VARIANTS

PHASES = ("setup", "play", "dragon", "modified", "modified column", "modified end", "draw", "over")
"""setup: table ops before the first turn; play: a normal turn (or its start);
dragon: discarding under the Dragon; modified: the 4 discards of a modified turn;
modified column / modified end: its column, then its draw phase choice;
draw: the table deals (refill); over: the game has ended."""

AFTER_DRAW = ("start", "play", "next")
"""What follows the refill: first turn, back to the same turn (Dragon), next player's turn."""


class PagodeState(State):
    """A Pagode position. ``cards`` slot i is card i at the start (colour = ident // 11)."""

    __slots__ = (
        "variant", "cards", "pending", "phase", "first", "current", "turn", "scores",
        "reserves", "hands", "uses", "draw", "discard", "played",
        "site_tiles", "site_cols", "site_colour", "tiles_left",
        "columns", "acted", "used", "mod_left", "mark", "refill", "after", "masks",
    )

    variant: str
    cards: Cards
    pending: TableOp | None
    phase: str
    first: int | None
    current: int
    turn: int
    scores: tuple[int, ...]
    reserves: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    uses: tuple[tuple[int, ...], ...]
    """Per seat, per ability (indexed by colour): uses left (0..2)."""
    draw: tuple[int, ...]
    """Draw pile slots, top first."""
    discard: tuple[int, ...]
    played: tuple[int, ...]
    """Cards played this turn: they go to the discard pile when the turn ends."""
    site_tiles: tuple[tuple[int, ...], ...]
    site_cols: tuple[int, ...]
    """Columns on the site's current floor (0..4)."""
    site_colour: tuple[int | None, ...]
    """Colour of the site's current floor; None for an empty site."""
    tiles_left: int
    """Bit t set: tile t is still in the supply."""
    columns: int
    """Columns built this turn (a summit counts as one)."""
    acted: bool
    """A build (or a modified turn, or a stuck discard) happened this turn: no Dragon any more."""
    used: int
    """Bit c set: the ability of colour c was used this turn."""
    mod_left: int
    mark: tuple[int, int]
    """Reserve and hand sizes when the Dragon was called (restored by its draw)."""
    refill: tuple[tuple[int, str, int], ...]
    """Deals still owed: (seat, 'reserve' or 'hand', count)."""
    after: str
    masks: list | None
    """Memo of the masked registries (Game.view) for ``cards``: see views.py.

    Not part of the position. Valid only while ``cards`` is that very object
    (states share an unchanged registry, so consecutive views reuse it)."""

    def copy(self) -> "PagodeState":
        s = self.clone()
        s.cards = self.cards.copy()
        return s

    def clone(self) -> "PagodeState":
        """A copy that shares the card registry (the caller copies it before changing it).

        Every other field is immutable (ints, strings, tuples), so sharing is safe.
        """
        s = PagodeState.__new__(PagodeState)
        s.variant = self.variant
        s.cards = self.cards
        s.pending = self.pending
        s.phase = self.phase
        s.first = self.first
        s.current = self.current
        s.turn = self.turn
        s.scores = self.scores
        s.reserves = self.reserves
        s.hands = self.hands
        s.uses = self.uses
        s.draw = self.draw
        s.discard = self.discard
        s.played = self.played
        s.site_tiles = self.site_tiles
        s.site_cols = self.site_cols
        s.site_colour = self.site_colour
        s.tiles_left = self.tiles_left
        s.columns = self.columns
        s.acted = self.acted
        s.used = self.used
        s.mod_left = self.mod_left
        s.mark = self.mark
        s.refill = self.refill
        s.after = self.after
        s.masks = self.masks
        return s

    # -- position format

    def to_data(self) -> dict:
        return {
            "variant": self.variant,
            "cards": self.cards.to_data(),
            "pending": self.pending.to_data() if self.pending else None,
            "phase": self.phase,
            "first": self.first,
            "current": self.current,
            "turn": self.turn,
            "scores": list(self.scores),
            "reserves": [list(r) for r in self.reserves],
            "hands": [list(h) for h in self.hands],
            "uses": [list(u) for u in self.uses],
            "draw": list(self.draw),
            "discard": list(self.discard),
            "played": list(self.played),
            "sites": [{"tiles": list(t), "columns": c, "colour": col}
                      for t, c, col in zip(self.site_tiles, self.site_cols, self.site_colour)],
            "tiles_left": [t for t in range(len(TILES)) if self.tiles_left >> t & 1],
            "columns": self.columns,
            "acted": self.acted,
            "used": [c for c in range(5) if self.used >> c & 1],
            "mod_left": self.mod_left,
            "mark": list(self.mark),
            "refill": [list(r) for r in self.refill],
            "after": self.after,
        }

    @classmethod
    def from_data(cls, data: dict) -> "PagodeState":
        """The state of a position; PositionError (one line) naming what is wrong."""
        if not isinstance(data, dict):
            raise PositionError("a Pagode position is a map")
        s = cls.__new__(cls)
        s.variant = _choice(data, "variant", tuple(VARIANTS))
        s.cards = Cards.from_data(_get(data, "cards", dict), 2)
        if len(s.cards.ids) != DECK_SIZE:
            raise PositionError(f"cards: {len(s.cards.ids)} slots, not {DECK_SIZE}")
        for i, (ident, seen) in enumerate(zip(s.cards.ids, s.cards.seen)):
            if not (ident is None or _is_int(ident, 0, DECK_SIZE - 1)) or not _is_int(seen, 0, 3):
                raise PositionError(f"cards: slot {i} is corrupt")
        known = [i for i in s.cards.ids if i is not None]
        if len(set(known)) != len(known):
            raise PositionError("cards: a card identity appears twice")
        s.pending = _table_op(data.get("pending"))
        s.phase = _choice(data, "phase", PHASES)
        s.first = data.get("first")
        if not (s.first is None or _is_int(s.first, 0, 1)):
            raise PositionError("first: not a seat")
        s.current = _int(data, "current", 0, 1)
        s.turn = _int(data, "turn", 0, 10**6)
        s.scores = tuple(_is_int_or(x, "scores") for x in _list(data, "scores", 2))
        s.reserves = tuple(tuple(sorted(_slots(x, "reserves"))) for x in _list(data, "reserves", 2))
        s.hands = tuple(tuple(sorted(_slots(x, "hands"))) for x in _list(data, "hands", 2))
        s.uses = tuple(tuple(_is_int_or(u, "uses", 0, 2) for u in _seq(x, 5, "uses")) for x in _list(data, "uses", 2))
        s.draw = _slots(_get(data, "draw", list), "draw")
        s.discard = _slots(_get(data, "discard", list), "discard")
        s.played = _slots(_get(data, "played", list), "played")
        places = [*s.reserves, *s.hands, s.draw, s.discard, s.played]
        everywhere = [slot for place in places for slot in place]
        if sorted(everywhere) != list(range(DECK_SIZE)):
            raise PositionError("cards: the 55 cards are not each in exactly one place")
        sites = _list(data, "sites", SITES)
        s.site_tiles, s.site_cols, s.site_colour = [], [], []
        floors = VARIANTS[s.variant].floors
        for i, site in enumerate(sites):
            if not isinstance(site, dict):
                raise PositionError(f"site {i + 1}: not a map")
            tiles = tuple(_is_int_or(t, f"site {i + 1} tiles", 0, len(TILES) - 1)
                          for t in _get(site, "tiles", list))
            cols = _int(site, "columns", 0, FLOOR_COLUMNS)
            colour = site.get("colour")
            if not (colour is None or _is_int(colour, 0, 4)):
                raise PositionError(f"site {i + 1}: colour is not a colour")
            if len(tiles) > floors or (colour is None and (tiles or cols)):
                raise PositionError(f"site {i + 1}: impossible pagoda")
            s.site_tiles.append(tiles)
            s.site_cols.append(cols)
            s.site_colour.append(colour)
        s.site_tiles, s.site_cols, s.site_colour = tuple(s.site_tiles), tuple(s.site_cols), tuple(s.site_colour)
        placed = [t for tiles in s.site_tiles for t in tiles]
        left = [_is_int_or(t, "tiles_left", 0, len(TILES) - 1) for t in _get(data, "tiles_left", list)]
        if sorted(placed + left) != list(range(len(TILES))):
            raise PositionError("tiles: the 25 tiles are not each in exactly one place")
        s.tiles_left = sum(1 << t for t in left)
        s.columns = _int(data, "columns", 0, 4)
        s.acted = _get(data, "acted", bool)
        s.used = sum(1 << _is_int_or(c, "used", 0, 4) for c in set(_get(data, "used", list)))
        s.mod_left = _int(data, "mod_left", 0, 4)
        s.mark = tuple(_is_int_or(x, "mark", 0, 5) for x in _seq(_get(data, "mark", list), 2, "mark"))
        refill = []
        for r in _get(data, "refill", list):
            if (not isinstance(r, list) or len(r) != 3 or not _is_int(r[0], 0, 1)
                    or r[1] not in ("reserve", "hand") or not _is_int(r[2], 0, 5)):
                raise PositionError("refill: corrupt entry")
            refill.append((r[0], r[1], r[2]))
        s.refill = tuple(refill)
        s.after = _choice(data, "after", AFTER_DRAW)
        s.masks = None
        if (s.pending is None) != (s.phase not in ("setup", "draw")):
            raise PositionError(f"pending: a {s.phase} phase {'needs' if s.phase in ('setup', 'draw') else 'has no'} table operation")
        _check_pending(s)
        _check_turn(s)
        return s


def _check_turn(s: "PagodeState") -> None:
    """Sizes and turn counters that the rules keep within bounds."""
    if any(len(r) > 5 for r in s.reserves) or any(len(h) > 4 for h in s.hands):
        raise PositionError("a reserve holds at most 5 cards and a hand at most 4")
    if s.first is None and s.phase != "setup":
        raise PositionError("first: only the setup has no first player")
    if s.phase == "modified" and not 1 <= s.mod_left <= 4:
        raise PositionError("mod_left: a modified turn has 1 to 4 discards left")
    if s.phase == "dragon" and (s.mark[0] < len(s.reserves[s.current]) or s.mark[1] < len(s.hands[s.current])):
        raise PositionError("mark: the dragon restores sizes at least the current ones")


def _check_pending(s: "PagodeState") -> None:
    """The pending operation must be the one the rules would ask for next."""
    op = s.pending
    if op is None:
        return
    if op.kind == "roll":
        if s.first is not None or op.faces != 2:
            raise PositionError("pending: the roll for the first player comes once, with 2 faces")
        return
    if s.first is None:
        raise PositionError("pending: no first player yet, so the table must roll")
    if op.kind == "shuffle":
        pile = s.discard if op.pile == "discard" else s.draw if op.pile == "draw" else None
        if pile is None or op.slots != pile:
            raise PositionError("pending: a shuffle must take a whole pile, in order")
        return
    if not s.refill or op.slots != s.draw[:len(op.slots)] or not op.slots:
        raise PositionError("pending: a deal must take the top cards of the draw pile for a refill")
    seat, place, count = s.refill[0]
    if len(op.slots) > count or op.to != (None if place == "reserve" else seat):
        raise PositionError("pending: the deal does not match the refill")


def _table_op(data) -> TableOp | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise PositionError("pending: not a table operation")
    if data.get("kind") not in ("shuffle", "deal", "roll"):
        raise PositionError(f"pending: unknown table operation {data.get('kind')!r}")
    if not isinstance(data.get("pile"), str) or not isinstance(data.get("why", ""), str):
        raise PositionError("pending: pile and why must be text")
    to = data.get("to")
    if not (to is None or _is_int(to, 0, 1)):
        raise PositionError("pending: 'to' is not a seat")
    faces = _is_int_or(data.get("faces"), "pending faces", 0, 2)
    return TableOp(data["kind"], data["pile"], _slots(data.get("slots"), "pending slots"), to, faces,
                   data.get("why", ""))


def _get(data: dict, key: str, kind: type):
    if key not in data:
        raise PositionError(f"{key}: missing")
    value = data[key]
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise PositionError(f"{key}: not a {kind.__name__}")
    return value


def _is_int(x, lo: int, hi: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi


def _is_int_or(x, what: str, lo: int = -10**9, hi: int = 10**9) -> int:
    if not _is_int(x, lo, hi):
        raise PositionError(f"{what}: {x!r} is not a number in {lo}..{hi}")
    return x


def _int(data: dict, key: str, lo: int, hi: int) -> int:
    if key not in data:
        raise PositionError(f"{key}: missing")
    return _is_int_or(data[key], key, lo, hi)


def _choice(data: dict, key: str, choices: tuple[str, ...]) -> str:
    value = data.get(key)
    if value not in choices:
        raise PositionError(f"{key}: {value!r} is not one of {', '.join(choices)}")
    return value


def _list(data: dict, key: str, length: int) -> list:
    return _seq(_get(data, key, list), length, key)


def _seq(value, length: int, what: str) -> list:
    if not isinstance(value, list) or len(value) != length:
        raise PositionError(f"{what}: not a list of {length}")
    return value


def _slots(value, what: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise PositionError(f"{what}: not a list of slots")
    return tuple(_is_int_or(x, what, 0, DECK_SIZE - 1) for x in value)
