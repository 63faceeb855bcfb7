"""The board's geometry: cells, districts in play, the lake, cover pieces.

A cell is an int ``row * COLS + col``. Its name is the column letter and the
row number, ``a1`` being the top-left cell (row 0, column 0). Cells under a
cover piece act exactly like space off the board: an edge for moves, no
district, no scoring.
"""

from __future__ import annotations

from functools import lru_cache

from lanterne.engines.core import only_digits

from . import data

ROWS, COLS = data.ROWS, data.COLS
CELLS = ROWS * COLS
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
"""North, east, south, west."""


def bit_cells(bits: int) -> list[int]:
    """The cells of a bitboard (bit ``c`` set = cell ``c``), ascending."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def cell(row: int, col: int) -> int:
    return row * COLS + col


def row_col(c: int) -> tuple[int, int]:
    return divmod(c, COLS)


def cell_name(c: int) -> str:
    r, col = divmod(c, COLS)
    return f"{chr(ord('a') + col)}{r + 1}"


def parse_cell(text: str) -> int | None:
    """The cell a name like ``e7`` names, or None."""
    t = text.strip().lower()
    if len(t) < 2 or not "a" <= t[0] <= chr(ord("a") + COLS - 1) or not only_digits(t[1:]):
        return None
    r = int(t[1:]) - 1
    if not 0 <= r < ROWS:
        return None
    return cell(r, ord(t[0]) - ord("a"))


def _district_map() -> dict[int, str]:
    out: dict[int, str] = {}
    for name, (_value, rects) in data.DISTRICTS.items():
        for r0, r1, c0, c1 in rects:
            for r in range(r0, r1 + 1):
                for c in range(c0, c1 + 1):
                    out[cell(r, c)] = name
    return out


DISTRICT_OF_CELL = _district_map()
"""Every non-lake cell's district on the full (5-player) board."""

LAKE = frozenset(cell(r, c) for r, c in data.LAKE)
RIVER_SCORING = frozenset(cell(r, c) for r, c in data.RIVER_SCORING)
LAKE_SCORING = frozenset(cell(r, c) for r, c in data.LAKE_SCORING)
SACRED_CELLS = frozenset(c for c, d in DISTRICT_OF_CELL.items() if d == data.SACRED)


class Board:
    """The board for one player count (which cover pieces lie on it)."""

    __slots__ = ("players", "covered_districts", "districts", "district", "playable", "covered",
                 "neighbours", "ways", "rays", "_near")

    def __init__(self, players: int):
        self.players = players
        covered = set()
        for piece in data.COVERS_BY_PLAYERS[players]:
            covered.update(data.COVERS[piece])
        self.covered_districts = frozenset(covered)
        self.districts = tuple(d for d in data.DISTRICTS if d not in covered)
        """The district names in play, in table order."""
        self.district: list[str | None] = [None] * CELLS
        playable = [False] * CELLS
        for c, d in DISTRICT_OF_CELL.items():
            if d not in covered:
                self.district[c] = d
                playable[c] = True
        self.playable = tuple(playable)
        self.covered = tuple(DISTRICT_OF_CELL.get(c) in covered for c in range(CELLS))
        """Cells under a cover piece (they act as space off the board)."""
        """Cells a ship may stand on when free: in a district in play (not lake, not covered)."""
        self._near: dict[int, tuple[int, ...]] = {}
        self.neighbours: list[tuple[int | None, ...]] = []
        self.ways: list[tuple[tuple[int, int], ...]] = []
        """Per cell: (direction, neighbour) for the neighbours in play."""
        self.rays: list[tuple[tuple[int, ...], ...]] = []
        for c in range(CELLS):
            r, col = row_col(c)
            nb, rays = [], []
            for dr, dc in STEPS:
                rr, cc = r + dr, col + dc
                nb.append(cell(rr, cc) if 0 <= rr < ROWS and 0 <= cc < COLS else None)
                ray = []
                while 0 <= rr < ROWS and 0 <= cc < COLS:
                    ray.append(cell(rr, cc))
                    rr, cc = rr + dr, cc + dc
                rays.append(tuple(ray))
            self.neighbours.append(tuple(nb))
            self.ways.append(tuple((d, x) for d, x in enumerate(nb) if x is not None and playable[x]))
            self.rays.append(tuple(rays))

    def near(self, start: int, n: int) -> tuple[int, ...]:
        """The cells in play within ``n`` orthogonal steps of ``start`` (memoised)."""
        key = start * 64 + n
        cells = self._near.get(key)
        if cells is None:
            r0, c0 = row_col(start)
            cells = self._near[key] = tuple(
                c for c in range(CELLS) if self.playable[c] and abs(c // COLS - r0) + abs(c % COLS - c0) <= n)
        return cells

    def value(self, district: str) -> int:
        return data.DISTRICTS[district][0]

    def cells_of(self, district: str) -> list[int]:
        return [c for c in range(CELLS) if self.district[c] == district]


@lru_cache(maxsize=None)
def board_for(players: int) -> Board:
    """The (shared, read-only) board for a player count."""
    return Board(players)
