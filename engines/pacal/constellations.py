"""Constellations: which patterns of a player's pieces build how many storeys.

Seed (guide card): 1 storey = one stone; 2 = two stones side by side
(orthogonally, no gap); 3 or 4 = that many in a row, column or diagonal with
equal gaps (0 or more cells); 5 = four at the corners of a square with equal
gaps. House data: the square is axis-aligned (``data.ROTATED_SQUARES``).
Whatever lies on the cells between the pieces does not matter.
"""

from __future__ import annotations

from typing import Iterator

from engines.pacal import data
from engines.pacal.board import COLS, ROWS

LINE_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def _rc(c: int) -> tuple[int, int]:
    return divmod(c, COLS)


def _at(r: int, c: int) -> int | None:
    return r * COLS + c if 0 <= r < ROWS and 0 <= c < COLS else None


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


def constellations(pieces: set[int] | frozenset[int], stones: set[int] | frozenset[int]
                   ) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every constellation (storeys, sorted cells) of ``pieces`` holding at least one stone."""
    for c in sorted(stones):
        yield 1, (c,)
    for a in sorted(pieces):
        r, c = _rc(a)
        for b in (_at(r, c + 1), _at(r + 1, c)):
            if b is not None and b in pieces and (a in stones or b in stones):
                yield 2, (a, b)
        for dr, dc in LINE_DIRECTIONS:
            for d in range(1, max(ROWS, COLS)):
                b, e = _at(r + dr * d, c + dc * d), _at(r + 2 * dr * d, c + 2 * dc * d)
                if e is None:
                    break
                if b not in pieces or e not in pieces:
                    continue
                line = (a, b, e)
                if any(x in stones for x in line):
                    yield 3, tuple(sorted(line))
                f = _at(r + 3 * dr * d, c + 3 * dc * d)
                if f is not None and f in pieces:
                    line4 = line + (f,)
                    if any(x in stones for x in line4):
                        yield 4, tuple(sorted(line4))
        for d in range(1, max(ROWS, COLS)):
            b, e, f = _at(r, c + d), _at(r + d, c), _at(r + d, c + d)
            if f is None:
                break
            sq = (a, b, e, f)
            if b in pieces and e in pieces and f in pieces and any(x in stones for x in sq):
                yield 5, tuple(sorted(sq))
        if data.ROTATED_SQUARES:
            for k in range(1, ROWS):
                left, right, bottom = _at(r + k, c - k), _at(r + k, c + k), _at(r + 2 * k, c)
                if bottom is None:
                    break
                sq = (a, left, right, bottom)
                if None not in sq and all(x in pieces for x in sq) and any(x in stones for x in sq):
                    yield 5, tuple(sorted(sq))
