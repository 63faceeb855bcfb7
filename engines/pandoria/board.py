"""The hex board: hex numbers, names, neighbours, and regions.

Hexes are numbered ``row * COLS + col`` on the house map (data.MAP_SKETCH),
odd rows shifted half a hex right. A hex is named by its column letter and
row digit, like a chess square: ``c3`` is column c, row 3.
"""

from __future__ import annotations

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
    if len(text) < 2 or text[0] not in COLUMN_LETTERS or not text[1:].isdigit():
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
