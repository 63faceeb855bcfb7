"""Constellations: which patterns of a player's pieces build how many storeys.

Rulebook (guide card): 1 storey = one stone; 2 = two stones side by side
(orthogonally, no gap); 3 or 4 = that many in a row, column or diagonal with
equal gaps (0 or more cells); 5 = four at the corners of a square with equal
gaps. House data: the square is axis-aligned (``data.ROTATED_SQUARES``).
Whatever lies on the cells between the pieces does not matter.
"""

from __future__ import annotations

from typing import Iterator

from .. import data
from ..board import COLS, ROWS

def _rc(c: int) -> tuple[int, int]:
    return divmod(c, COLS)


def shape_storeys(cells: tuple[int, ...]) -> int | None:
    """How many storeys these cells make as a constellation (None: not one)."""
    n = len(cells)
    if n != len(set(cells)) or not 1 <= n <= 4:
        return None
    if n == 1:
        return 1
    pts = sorted(_rc(c) for c in cells)
    if n == 2:
        (r0, c0), (r1, c1) = pts
        return 2 if abs(r0 - r1) + abs(c0 - c1) == 1 else None
    if _equal_line(pts):
        return n
    if n == 4 and _is_square(pts):
        return 5
    return None


def _equal_line(pts: list[tuple[int, int]]) -> bool:
    dr, dc = pts[1][0] - pts[0][0], pts[1][1] - pts[0][1]
    if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
        return False
    return all(pts[i + 1][0] - pts[i][0] == dr and pts[i + 1][1] - pts[i][1] == dc for i in range(len(pts) - 1))


def _is_square(pts: list[tuple[int, int]]) -> bool:
    (r0, c0), (r1, c1), (r2, c2), (r3, c3) = pts  # sorted by row, then column
    d = c1 - c0
    if r0 == r1 and r2 == r3 and d > 0 and r2 - r0 == d and c2 == c0 and c3 == c1:
        return True
    if not data.ROTATED_SQUARES:
        return False
    # a square turned 45 degrees: top, left, right, bottom
    top, a, b, bottom = (r0, c0), (r1, c1), (r2, c2), (r3, c3)
    left, right = sorted((a, b), key=lambda p: p[1])
    k = left[0] - top[0]
    return (k > 0 and left == (top[0] + k, top[1] - k) and right == (top[0] + k, top[1] + k)
            and bottom == (top[0] + 2 * k, top[1]))


def _pair_tables() -> tuple[list[int], list[bool], list[tuple[int, int] | None]]:
    """For each ordered pair of cells a < b (index a * CELLS + b): the cell that continues the
    line a, b with the same step (-1: none), whether a and b are side by side, and the other
    two corners of the axis-aligned square whose top side is a, b."""
    n = ROWS * COLS
    nxt, adjacent, square = [-1] * (n * n), [False] * (n * n), [None] * (n * n)
    for a in range(n):
        ra, ca = divmod(a, COLS)
        for b in range(a + 1, n):
            rb, cb = divmod(b, COLS)
            dr, dc = rb - ra, cb - ca
            if not (dr == 0 or dc == 0 or dr == dc or dr == -dc):
                continue
            k = a * n + b
            adjacent[k] = dr + abs(dc) == 1
            re, ce = rb + dr, cb + dc
            if 0 <= re < ROWS and 0 <= ce < COLS:
                nxt[k] = re * COLS + ce
            if dr == 0 and ra + dc < ROWS:
                square[k] = (a + dc * COLS, b + dc * COLS)
    return nxt, adjacent, square


_NEXT, _ADJACENT, _SQUARE = _pair_tables()
_N = ROWS * COLS


def constellations(pieces: set[int] | frozenset[int], stones: set[int] | frozenset[int]
                   ) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every constellation (storeys, sorted cells) of ``pieces`` holding at least one stone.

    Each pattern is found once, from its first two cells in board order: a pair
    gives the step of a line (and the top side of a square)."""
    for c in sorted(stones):
        yield 1, (c,)
    order = sorted(pieces)
    nxt, adjacent, square = _NEXT, _ADJACENT, _SQUARE
    for i, a in enumerate(order):
        a_stone = a in stones
        base = a * _N
        for b in order[i + 1:]:
            k = base + b
            ab_stone = a_stone or b in stones
            if adjacent[k] and ab_stone:
                yield 2, (a, b)
            e = nxt[k]
            if e >= 0 and e in pieces:
                abe_stone = ab_stone or e in stones
                if abe_stone:
                    yield 3, (a, b, e)
                f = nxt[b * _N + e]
                if f >= 0 and f in pieces and (abe_stone or f in stones):
                    yield 4, (a, b, e, f)
            sq = square[k]
            if sq is not None:
                e, f = sq
                if e in pieces and f in pieces and (ab_stone or e in stones or f in stones):
                    yield 5, (a, b, e, f)
        if data.ROTATED_SQUARES:
            yield from _turned_squares(a, pieces, stones)


def _turned_squares(a: int, pieces, stones) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Squares turned 45 degrees whose top corner is ``a`` (only with the rule flag)."""
    r, c = divmod(a, COLS)
    for k in range(1, ROWS):
        if r + 2 * k >= ROWS or c - k < 0 or c + k >= COLS:
            break
        left, right, bottom = (r + k) * COLS + c - k, (r + k) * COLS + c + k, (r + 2 * k) * COLS + c
        sq = (a, left, right, bottom)
        if all(x in pieces for x in sq) and any(x in stones for x in sq):
            yield 5, sq


def has_constellation(pieces: set[int] | frozenset[int], stones: set[int] | frozenset[int], least: int) -> bool:
    """Whether ``constellations(pieces, stones)`` would yield one of at least ``least`` storeys.

    The same walk over pairs without building the patterns: Pacal asks this
    after every turn's stones (``rules.can_build``), and the answer is
    mostly no, which the generator could only give after yielding them all.
    """
    if least <= 1 and stones:
        return True
    order = sorted(pieces)
    nxt, adjacent, square = _NEXT, _ADJACENT, _SQUARE
    for i, a in enumerate(order):
        a_stone = a in stones
        base = a * _N
        for b in order[i + 1:]:
            k = base + b
            ab_stone = a_stone or b in stones
            if least <= 2 and adjacent[k] and ab_stone:
                return True
            e = nxt[k]
            if e >= 0 and e in pieces:
                abe_stone = ab_stone or e in stones
                if least <= 3 and abe_stone:
                    return True
                f = nxt[b * _N + e]
                if least <= 4 and f >= 0 and f in pieces and (abe_stone or f in stones):
                    return True
            sq = square[k]
            if sq is not None:
                e, f = sq
                if e in pieces and f in pieces and (ab_stone or e in stones or f in stones):
                    return True  # 5 storeys: always at least ``least``
        if data.ROTATED_SQUARES and next(_turned_squares(a, pieces, stones), None) is not None:
            return True
    return False


def _columns_mask(low: int, high: int) -> int:
    """The cells whose column is in low..high, as a bitboard."""
    return sum(1 << c for c in range(_N) if low <= c % COLS <= high)


_LINES_OF_4: tuple[tuple[int, int], ...] = tuple(
    (dr * COLS + dc, _columns_mask(max(0, -3 * dc), COLS - 1 - max(0, 3 * dc)))
    for g in range(1, ROWS) for dr, dc in ((0, g), (g, 0), (g, g), (g, -g))
    if 3 * g < max(ROWS, COLS))
"""Per line step (a row, column or diagonal with gap g): (the step between cells, the cells where a line of 4
with that step may start without leaving the board sideways)."""

_SQUARES: tuple[tuple[int, int], ...] = tuple((d, _columns_mask(0, COLS - 1 - d)) for d in range(1, COLS))
"""Per axis-aligned square's side d: (d, the cells where its top-left corner may lie)."""


def has_long_constellation(pieces: int, stones: int, least: int) -> bool:
    """:func:`has_constellation` for ``least`` 4 or 5 (axis-aligned squares only), on bitboards.

    ``pieces`` and ``stones`` are bitboards (bit c = cell c); the answer is the
    one ``has_constellation`` gives for their cells. A line of 4 with step s
    starts on cell a when a, a+s, a+2s and a+3s are pieces: a few shifts per
    step instead of a walk over every pair (most of a random game's builds
    need 4 or 5 storeys once the small pyramids are gone).
    """
    if least <= 3 or data.ROTATED_SQUARES:
        raise ValueError("has_long_constellation answers for 4 or 5 storeys with axis-aligned squares only")
    if least == 4:
        for step, starts in _LINES_OF_4:
            pair = pieces & pieces >> step
            four = pair & pair >> 2 * step & starts
            if four and four & (stones | stones >> step | stones >> 2 * step | stones >> 3 * step):
                return True
    for d, corners in _SQUARES:
        top = pieces & pieces >> d & corners
        square = top & top >> COLS * d
        if square and square & (stones | stones >> d | stones >> COLS * d | stones >> (COLS + 1) * d):
            return True
    return False
