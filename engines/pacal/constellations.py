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


def constellations(pieces: set[int] | frozenset[int], stones: set[int] | frozenset[int]
                   ) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every constellation (storeys, sorted cells) of ``pieces`` holding at least one stone.

    Each pattern is found once, from its first two cells in board order: a pair
    gives the step of a line (and the top side of a square)."""
    for c in sorted(stones):
        yield 1, (c,)
    order = sorted(pieces)
    for i, a in enumerate(order):
        ra, ca = divmod(a, COLS)
        for b in order[i + 1:]:
            rb, cb = divmod(b, COLS)
            dr, dc = rb - ra, cb - ca
            if dr == 0 or dc == 0 or dr == dc or dr == -dc:
                if dr + (dc if dc > 0 else -dc) == 1:
                    if a in stones or b in stones:
                        yield 2, (a, b)
                re, ce = rb + dr, cb + dc
                if 0 <= re < ROWS and 0 <= ce < COLS:
                    e = re * COLS + ce
                    if e in pieces:
                        has_stone = a in stones or b in stones or e in stones
                        if has_stone:
                            yield 3, (a, b, e)
                        rf, cf = re + dr, ce + dc
                        if 0 <= rf < ROWS and 0 <= cf < COLS:
                            f = rf * COLS + cf
                            if f in pieces and (has_stone or f in stones):
                                yield 4, (a, b, e, f)
                if dr == 0 and ra + dc < ROWS:
                    e, f = a + dc * COLS, b + dc * COLS
                    if e in pieces and f in pieces and (a in stones or b in stones or e in stones or f in stones):
                        yield 5, (a, b, e, f)
                elif data.ROTATED_SQUARES and dr == -dc and dr > 0:
                    # a turned square from its top corner a and left corner b
                    right, bottom = (rb, ca + dr), (ra + 2 * dr, ca)
                    if right[1] < COLS and bottom[0] < ROWS:
                        e, f = right[0] * COLS + right[1], bottom[0] * COLS + bottom[1]
                        if e in pieces and f in pieces and (a in stones or b in stones or e in stones or f in stones):
                            yield 5, tuple(sorted((a, b, e, f)))
