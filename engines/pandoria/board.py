"""The hex board: hex numbers, names, neighbours, and regions.

Hexes are numbered ``row * COLS + col`` on the house map (data.MAP_SKETCH),
odd rows shifted half a hex right. A hex is named by its column letter and
row digit, like a chess square: ``c3`` is column c, row 3.
"""

from __future__ import annotations

from bisect import insort
from itertools import compress
from operator import ne

from lanterne.engines.core import only_digits

from .data import COLS, MAP_SKETCH, PATHS, ROWS, START_PAIRS

OFF, LAND, LAKE, START, PRINTED = 0, 1, 2, 3, 4
PRINTED_TERRAIN = {"F": 0, "H": 1, "M": 2, "C": 3}
NHEX = ROWS * COLS

DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")
_EVEN = ((0, 1), (-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0))
_ODD = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, 0), (1, 1))


def hex_of(row: int, col: int) -> int:
    return row * COLS + col


def _build():
    kind = [OFF] * NHEX
    printed: dict[int, int] = {}
    for r, line in enumerate(MAP_SKETCH):
        for c, ch in enumerate(line):
            h = hex_of(r, c)
            if ch == "#":
                continue
            kind[h] = {"L": LAKE, "S": START}.get(ch, PRINTED if ch in PRINTED_TERRAIN else LAND)
            if ch in PRINTED_TERRAIN:
                printed[h] = PRINTED_TERRAIN[ch]
    step: list[tuple[int, ...]] = []
    for h in range(NHEX):
        r, c = divmod(h, COLS)
        row = []
        for dr, dc in (_ODD if r % 2 else _EVEN):
            rr, cc = r + dr, c + dc
            row.append(hex_of(rr, cc) if 0 <= rr < ROWS and 0 <= cc < COLS and kind[hex_of(rr, cc)] != OFF else -1)
        step.append(tuple(row))
    return kind, printed, step


KIND, PRINTED_SPACES, STEP = _build()
"""KIND[h]: OFF/LAND/LAKE/START/PRINTED; PRINTED_SPACES: hex -> terrain;
STEP[h][d]: the neighbour in direction d, or -1 off the board."""
NEIGHBOURS = tuple(tuple(n for n in STEP[h] if n >= 0) for h in range(NHEX))
LAKES = tuple(h for h in range(NHEX) if KIND[h] == LAKE)
DRY_NEIGHBOURS = tuple(tuple(n for n in NEIGHBOURS[h] if KIND[n] != LAKE) for h in range(NHEX))
"""The neighbours that are not lakes: an empty one keeps a region open."""
LAND_STEPS = tuple(tuple((d, n) for d, n in enumerate(STEP[h]) if n >= 0 and KIND[n] == LAND) for h in range(NHEX))
"""(direction, neighbour) pairs towards plain land hexes (where tiles may go)."""
LAND_HEXES = tuple(h for h in range(NHEX) if KIND[h] != OFF)
START_HEXES = tuple((hex_of(*a), hex_of(*b)) for a, b in START_PAIRS)
PATH_HEXES = tuple((hex_of(r, c), t) for (r, c), t in PATHS)
COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxyz"[:COLS]


def hex_name(h: int) -> str:
    r, c = divmod(h, COLS)
    return f"{COLUMN_LETTERS[c]}{r}"


def parse_hex(text: str) -> int | None:
    """The hex a name like ``c3`` stands for, or None if it names no land hex."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in COLUMN_LETTERS or not only_digits(text[1:]):
        return None
    r, c = int(text[1:]), COLUMN_LETTERS.index(text[0])
    if not 0 <= r < ROWS:
        return None
    h = hex_of(r, c)
    return h if KIND[h] != OFF else None


def region_of(terrain: list[int], start: int) -> list[int]:
    """The hexes joined to ``start`` through hexes of its terrain."""
    t = terrain[start]
    seen = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in NEIGHBOURS[h]:
            if n not in seen and terrain[n] == t:
                seen.add(n)
                todo.append(n)
    return sorted(seen)


def region_if_enclosed(terrain: list[int], start: int) -> tuple[list[int] | None, set[int]]:
    """``region_of(terrain, start)`` if no empty land hex touches it, else None; and the hexes walked.

    The walk stops at the first empty land hex it meets: most regions next to
    a new tile are still open, and the rest of the walk would not change that
    (``is_open_region`` still judges a region that no empty hex touches).
    """
    t = terrain[start]
    seen = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in NEIGHBOURS[h]:
            if n in seen:
                continue
            there = terrain[n]
            if there == t:
                seen.add(n)
                todo.append(n)
            elif there == EMPTY and KIND[n] != LAKE:
                return None, seen
    return sorted(seen), seen


def is_open_region(terrain: list[int], region: list[int]) -> bool:
    """A region stays open while an empty land hex touches it (one-hex holes
    included) or while it contains or touches the path of its terrain."""
    t = terrain[region[0]]
    inside = set(region)
    for h in region:
        for n in NEIGHBOURS[h]:
            if n not in inside and terrain[n] == EMPTY and KIND[n] != LAKE:
                return True
    for path, pt in PATH_HEXES:
        if pt == t and (path in inside or any(n in inside for n in NEIGHBOURS[path])):
            return True
    return False


def is_enclosed(terrain: list[int], h: int) -> bool:
    """A castle or a ship (one hex) is enclosed, like a region, once no empty
    land hex touches it (docs/rules/pandoria.md: no Elf may then move onto it)."""
    return not any(terrain[n] == EMPTY and KIND[n] != LAKE for n in NEIGHBOURS[h])


EMPTY = -1
"""terrain[h] of a land hex nothing covers (lakes keep EMPTY but bound regions)."""
CASTLE = 4
"""terrain[h] of a castle: no terrain, it bounds every region."""


# --------------------------------------------------------------------------
# The frontier: the free land hexes a new tile or castle may touch, and the
# double-tile positions over them, kept up to date instead of recomputed.
#
# Listing them walked the whole board on every place phase (a third of a random
# game's time). Both depend on ``terrain`` alone, and a move changes one to
# three hexes of it, so the last frontier computed is brought up to date around
# the hexes that differ. It is found by comparing terrains (one C-level ``==``
# and a diff), never by the identity of the list: tests change terrains in place.

_NOT_PRINTED_NEXT = tuple(tuple(n for n in NEIGHBOURS[h] if KIND[n] != PRINTED) if KIND[h] == PRINTED else None
                          for h in range(NHEX))
"""Per printed space, the neighbours that make it an anchor once covered; None for other hexes."""
_ANCHOR_DEPS = tuple(() if KIND[c] == OFF else (c,) if KIND[c] == PRINTED
                     else (c, *(p for p in NEIGHBOURS[c] if KIND[p] == PRINTED)) for c in range(NHEX))
"""The hexes that may become or stop being anchors when ``terrain[c]`` changes: ``c``, and
its printed neighbours if ``c`` is not printed itself (a hex off the board is never one)."""
_AFFECTS = tuple(tuple(sorted({n for a in _ANCHOR_DEPS[c] for n in (a, *NEIGHBOURS[a]) if KIND[n] == LAND}))
                 for c in range(NHEX))
"""The plain-land hexes whose membership of the frontier may change when ``terrain[c]`` does:
``c`` and the neighbours of the anchors it may make or unmake."""
_ENTRY_STEPS = tuple(tuple((b, (h, d), (b, (d + 3) % 6)) for d, b in LAND_STEPS[h]) for h in range(NHEX))
"""Per hex h: (b, (h, d), (b, opposite of d)) for each plain-land neighbour b in direction d."""
_PLAIN = tuple(h for h in range(NHEX) if KIND[h] == LAND)
_ALL = range(NHEX)
_REBUILD = 12
"""More hexes changed than this since the last frontier: build it afresh (a search jumping between lines)."""


def _anchor(terrain: list[int], h: int) -> bool:
    """A placed tile or castle, or a printed space a tile or castle touches (rules.is_anchor)."""
    if terrain[h] == EMPTY:
        return False
    nxt = _NOT_PRINTED_NEXT[h]
    return nxt is None or any(terrain[n] != EMPTY for n in nxt)


def _fill_entries(terrain: list[int], touching: set[int], members, entries: list) -> None:
    """``entries[h]`` for each of ``members``: the double-tile positions member ``h`` contributes,
    (h, d) for each free plain-land neighbour, and the same pair from the neighbour's side when
    the neighbour is no member (a member lists its own). One call for all of them: an update
    refills some ten, and a call each was a tenth of its time."""
    for h in members:
        out = []
        for b, there, back in _ENTRY_STEPS[h]:
            if terrain[b] == EMPTY:
                out.append(there)
                if b not in touching:
                    out.append(back)
        entries[h] = out


class Frontier:
    """The frontier of one terrain. Never changed once built (threads may share the last one)."""

    __slots__ = ("terrain", "anchors", "touching", "entries", "order", "positions")

    def __init__(self, terrain: list[int], anchors: set[int], touching: set[int], entries: list,
                 order: list[int] | None = None):
        self.terrain = terrain[:]
        self.anchors = anchors
        """The hexes a new tile may touch (``_anchor``)."""
        self.touching = touching
        """The free plain-land hexes touching an anchor."""
        self.entries = entries
        """Per hex: a member's positions (``_fill_entries``), None for other hexes
        (a list: cheaper to copy than a dict)."""
        self.order = sorted(touching) if order is None else order
        """The members in hex order."""
        positions: list[tuple[int, int]] = []
        for h in self.order:
            positions += entries[h]
        self.positions = positions
        """Every legal double-tile position (hex, direction), by hex then direction (never changed: callers copy)."""


_LAST: list[Frontier | None] = [None]
_COVERED: list[tuple[list[int], tuple[int, ...]] | None] = [None]
"""The rules' last change of a terrain: the new list and the hexes they set (``covered``)."""


def covered(terrain: list[int], hexes: tuple[int, ...]) -> None:
    """The rules just set ``hexes`` of ``terrain`` (a fresh copy): a hint that spares ``frontier`` its diff."""
    _COVERED[0] = (terrain, hexes)


def frontier(terrain: list[int]) -> Frontier:
    """The frontier of ``terrain``: the last one if the terrain is the same, else updated or rebuilt."""
    last = _LAST[0]
    if last is not None and last.terrain == terrain:
        return last
    if last is None:
        new = _build_frontier(terrain)
    else:
        changed = _hinted(last.terrain, terrain)
        if changed is None:
            changed = list(compress(_ALL, map(ne, last.terrain, terrain)))  # the hexes that differ, at C speed
        new = _build_frontier(terrain) if len(changed) > _REBUILD else _update_frontier(last, terrain, changed)
    _LAST[0] = new
    return new


def _hinted(old: list[int], terrain: list[int]) -> tuple[int, ...] | None:
    """The hexes of the last ``covered`` if ``terrain`` is that list and differs from ``old`` there only
    (checked: the hint may be stale, or the list changed in place since), else None."""
    hint = _COVERED[0]
    if hint is None or hint[0] is not terrain:
        return None
    hexes = hint[1]
    patched = old[:]
    for h in hexes:
        patched[h] = terrain[h]
    return hexes if patched == terrain else None


def _build_frontier(terrain: list[int]) -> Frontier:
    anchors = {h for h in LAND_HEXES if _anchor(terrain, h)}
    touching = {n for n in _PLAIN if terrain[n] == EMPTY and not anchors.isdisjoint(NEIGHBOURS[n])}
    entries: list = [None] * NHEX
    _fill_entries(terrain, touching, touching, entries)
    return Frontier(terrain, anchors, touching, entries)


def _update_frontier(last: Frontier, terrain: list[int], changed: list[int]) -> Frontier:
    """``last`` brought to ``terrain``, which differs from it at ``changed`` only."""
    anchors, touching = set(last.anchors), set(last.touching)
    for c in changed:
        for a in _ANCHOR_DEPS[c]:
            if _anchor(terrain, a):
                anchors.add(a)
            else:
                anchors.discard(a)
    flipped = {n for n in set().union(*map(_AFFECTS.__getitem__, changed))
               if (n in touching) != (terrain[n] == EMPTY and not anchors.isdisjoint(NEIGHBOURS[n]))}
    touching ^= flipped
    entries = last.entries[:]
    order = last.order[:]
    for h in flipped:
        if h in touching:
            insort(order, h)
        else:  # out of the frontier
            order.remove(h)
            entries[h] = None
    # A member's entry depends on its neighbours' terrain and membership.
    stale = set(flipped)
    for h in (*changed, *flipped):
        stale.update(NEIGHBOURS[h])
    _fill_entries(terrain, touching, stale & touching, entries)
    return Frontier(terrain, anchors, touching, entries, order)
