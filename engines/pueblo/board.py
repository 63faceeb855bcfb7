"""The pueblo's geometry: the 12 stone orientations, where they fit, what the chieftain sees.

The pueblo is a gap-free height map (a stone never overhangs, so no column has
a hole) with one stone id per cube. Everything here is precomputed once at
import: the 12 orientations, the 588 placement templates (orientation x 2x2
box), the 32 sight lines and the 4 quarters; the per-state work is a few
integer comparisons.

Coordinates: x = file a-h (west to east), y = rank 1-8 (south to north),
cell index = 8*y + x, levels counted from 1 (the board is level 0).
"""

from __future__ import annotations

from itertools import permutations, product
from typing import NamedTuple, Sequence

from lanterne.engines.core import Words

from .data import CORNER_QUARTERS, CORNERS, SITE_SHAPE, SIZE, STONE_CUBES, TRACK, TRACK_SIDES

Cube = tuple[int, int, int]


def _rotations() -> list[tuple[tuple[int, ...], ...]]:
    """The 24 proper rotation matrices of the cube (determinant +1)."""
    out = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            m = tuple(tuple(signs[i] if j == perm[i] else 0 for j in range(3)) for i in range(3))
            det = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                   - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                   + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
            if det == 1:
                out.append(m)
    return out


def _orientations(cubes: Sequence[Cube]) -> list[tuple[Cube, ...]]:
    """Every distinct pose of the stone, moved to touch x=0, y=0, z=0, sorted."""
    poses = set()
    for m in _rotations():
        pts = [tuple(sum(m[i][j] * p[j] for j in range(3)) for i in range(3)) for p in cubes]
        low = [min(p[i] for p in pts) for i in range(3)]
        poses.add(tuple(sorted(tuple(p[i] - low[i] for i in range(3)) for p in pts)))
    return sorted(poses)


ORIENTATIONS: tuple[tuple[Cube, ...], ...] = tuple(_orientations(STONE_CUBES))
"""The stone's 12 poses, each four cubes inside a 2x2x2 box."""


class Column(NamedTuple):
    dx: int
    dy: int
    low: int  # the level of its lowest cube, relative to the stone's base
    count: int  # 1 or 2 cubes


def _columns(pose: tuple[Cube, ...]) -> tuple[Column, ...]:
    cols: dict[tuple[int, int], list[int]] = {}
    for x, y, z in pose:
        cols.setdefault((x, y), []).append(z)
    out = []
    for (dx, dy), zs in sorted(cols.items()):
        zs.sort()
        if zs != list(range(zs[0], zs[0] + len(zs))):
            raise AssertionError("a stone column with a hole")
        out.append(Column(dx, dy, zs[0], len(zs)))
    return tuple(out)


POSE_COLUMNS: tuple[tuple[Column, ...], ...] = tuple(_columns(p) for p in ORIENTATIONS)
"""Per orientation, its 3 columns (the footprint is always an L-tromino)."""


def cell(x: int, y: int) -> int:
    return y * SIZE + x


def cell_name(c: int) -> str:
    return "abcdefgh"[c % SIZE] + str(c // SIZE + 1)


def parse_cell(text: str) -> int | None:
    """'c4' -> its index, or None when it is not a cell of the 8x8 area."""
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
        return None
    return cell("abcdefgh".index(text[0]), int(text[1]) - 1)


class Template(NamedTuple):
    """One orientation at one 2x2 box: which cells, and what it needs under it."""

    orient: int
    x: int
    y: int
    cells: tuple[int, int, int]
    lows: tuple[int, int, int]
    counts: tuple[int, int, int]
    tall: int  # the cell that gets two cubes
    mask: int  # bit mask of the 3 cells


def _templates() -> tuple[Template, ...]:
    out = []
    for o, cols in enumerate(POSE_COLUMNS):
        for y in range(SIZE - 1):
            for x in range(SIZE - 1):
                cells = tuple(cell(x + c.dx, y + c.dy) for c in cols)
                tall = next(cell(x + c.dx, y + c.dy) for c in cols if c.count == 2)
                out.append(Template(o, x, y, cells, tuple(c.low for c in cols),
                                    tuple(c.count for c in cols), tall,
                                    sum(1 << c for c in cells)))
    return tuple(out)


TEMPLATES: tuple[Template, ...] = _templates()
"""Every (orientation, box) pair: 12 x 49 = 588."""

TEMPLATE_INDEX: dict[tuple[int, int, int], Template] = {(t.orient, t.x, t.y): t for t in TEMPLATES}

BY_CELLS: dict[tuple[frozenset[int], int], Template] = {(frozenset(t.cells), t.tall): t for t in TEMPLATES}
"""(the 3 cells, the tall cell) names a placement uniquely: the move notation uses it."""

if len(BY_CELLS) != len(TEMPLATES):
    raise AssertionError("cells + tall cell do not name a placement uniquely")


BOXES: tuple[tuple[tuple[int, int, int, int], tuple[Template, ...]], ...] = tuple(
    ((cell(x, y), cell(x + 1, y), cell(x, y + 1), cell(x + 1, y + 1)),
     tuple(t for t in TEMPLATES if (t.x, t.y) == (x, y)))
    for y in range(SIZE - 1) for x in range(SIZE - 1))
"""The 49 2x2 boxes: their 4 cells (SW, SE, NW, NE) and the 12 templates inside."""

_BOX_FITS: dict[tuple[int, int, int, int, bool], tuple[tuple[int, int], ...]] = {}
"""Memo: a box's heights (relative to their minimum) -> (template index in the box, base above the minimum)."""

_CORNER_INDEX = {(0, 0): 0, (1, 0): 1, (0, 1): 2, (1, 1): 3}


def _box_fits(key: tuple[int, int, int, int, bool]) -> tuple[tuple[int, int], ...]:
    rel, raised = key[:4], key[4]
    out = []
    for k, t in enumerate(BOXES[0][1]):
        bases = {rel[_CORNER_INDEX[col.dx, col.dy]] - col.low for col in POSE_COLUMNS[t.orient]}
        if len(bases) == 1:
            b = bases.pop()
            if raised or b >= 0:
                out.append((k, b))
    return tuple(out)


def fits(heights: Sequence[int], site_mask: int = 0) -> list[tuple[Template, int]]:
    """Every template that rests on the pueblo and covers no sacred site, with its base level.

    Per 2x2 box, the fitting orientations depend only on the 4 heights relative
    to their minimum, so they are computed once per height pattern and memoised.
    """
    out = []
    for (c0, c1, c2, c3), templates in BOXES:
        h0, h1, h2, h3 = heights[c0], heights[c1], heights[c2], heights[c3]
        m = min(h0, h1, h2, h3)
        key = (h0 - m, h1 - m, h2 - m, h3 - m, m > 0)
        found = _BOX_FITS.get(key)
        if found is None:
            found = _BOX_FITS[key] = _box_fits(key)
        for k, off in found:
            t = templates[k]
            if not t.mask & site_mask:
                out.append((t, m + off))
    return out


TEMPLATE_NO: dict[Template, int] = {t: i for i, t in enumerate(TEMPLATES)}
"""A template's index in TEMPLATES (the place actions are precomputed in that order)."""

_BOX_NOS: tuple[tuple[int, ...], ...] = tuple(tuple(TEMPLATE_NO[t] for t in ts) for _, ts in BOXES)

BOXES_OF_CELL: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b, (cells, _) in enumerate(BOXES) if c in cells) for c in range(SIZE * SIZE))
"""The boxes a cell belongs to (1 to 4): the ones to look at again when its height changes."""


BOXES_UNDER: dict[tuple[int, ...], tuple[int, ...]] = {
    t.cells: tuple(sorted({b for c in t.cells for b in BOXES_OF_CELL[c]})) for t in TEMPLATES}
"""Per placement's cells: the boxes whose heights it changes (rules.queries.refit looks at them again)."""


_BOX_MASKS: tuple[int, ...] = tuple(sum(1 << c for c in cells) for cells, _ in BOXES)
"""Per box, the bit mask of its 4 cells: a template of the box covers only those, so only those sites matter."""

_FIT_MEMO: dict[tuple[int, int, int, int, int, int], tuple[int, ...]] = {}
"""Memo of box_fit: (box, its 4 heights, the box's sacred sites) -> the answer.

A pure cache (the key decides the answer), emptied when it grows large."""
_FIT_MEMO_SIZE = 50_000


def box_fit(heights: Sequence[int], site_mask: int, box: int) -> tuple[int, ...]:
    """The TEMPLATES indices that rest on the pueblo in one 2x2 box and cover no sacred site.

    Every placement re-fits the boxes of its cells (refit), so the whole answer
    is memoised, not only the fitting orientations (_BOX_FITS).
    """
    c0, c1, c2, c3 = BOXES[box][0]
    h0, h1, h2, h3 = heights[c0], heights[c1], heights[c2], heights[c3]
    sites = site_mask & _BOX_MASKS[box]
    memo_key = (box, h0, h1, h2, h3, sites)  # the heights as they are: no arithmetic before a hit
    done = _FIT_MEMO.get(memo_key)
    if done is not None:
        return done
    m = min(h0, h1, h2, h3)
    key = (h0 - m, h1 - m, h2 - m, h3 - m, m > 0)
    found = _BOX_FITS.get(key)
    if found is None:
        found = _BOX_FITS[key] = _box_fits(key)
    nos = _BOX_NOS[box]
    if sites:
        done = tuple(nos[k] for k, _ in found if not TEMPLATES[nos[k]].mask & sites)
    else:
        done = tuple(nos[k] for k, _ in found)
    if len(_FIT_MEMO) >= _FIT_MEMO_SIZE:
        _FIT_MEMO.clear()
    _FIT_MEMO[memo_key] = done
    return done


def boxes_under_keys(boxes: Sequence[int]) -> tuple[tuple[int, int, int, int, int, int], ...]:
    """Per box: (box, its 4 cells, the bit mask of its cells), what box_fit's memo key is made of."""
    return tuple((b, *BOXES[b][0], _BOX_MASKS[b]) for b in boxes)


def all_box_fits(heights: Sequence[int], site_mask: int) -> list[tuple[int, ...]]:
    return [box_fit(heights, site_mask, b) for b in range(len(BOXES))]


def base_level(heights: Sequence[int], t: Template) -> int | None:
    """The level the stone's lowest cube would rest on (0 = board), or None if it cannot rest.

    Support rule: each of the 3 columns' lowest cube must sit exactly on the
    column's current top; a column too low leaves a square hanging, a column
    too high would put a cube inside another.
    """
    c0, c1, c2 = t.cells
    l0, l1, l2 = t.lows
    b = heights[c0] - l0
    if b < 0 or heights[c1] - l1 != b or heights[c2] - l2 != b:
        return None
    return b


def why_not(heights: Sequence[int], t: Template) -> str | None:
    """A one-line reason this template does not rest on the pueblo, or None."""
    if base_level(heights, t) is not None:
        return None
    cubes = []
    for c, low in zip(t.cells, t.lows):
        cubes.append((heights[c] - low, c))
    b = max(v for v, _ in cubes)
    if b < 0:
        b = 0
    for v, c in cubes:
        if v < b:
            return Words("the square over {cell} would hang in the air", cell=cell_name(c))
    return Words("the stone cannot rest level on {cells}", cells=", ".join(cell_name(c) for c in t.cells))


# -------------------------------------------------------------------- sight


def _lines() -> dict[int, tuple[int, ...]]:
    """Side space -> the 8 cells of the row/column it faces, nearest first (from TRACK_SIDES)."""
    out: dict[int, tuple[int, ...]] = {}
    for first, (x0, y0), (sx, sy), (lx, ly) in TRACK_SIDES:
        for i in range(SIZE):
            x, y = x0 + i * sx, y0 + i * sy
            out[first + i] = tuple(cell(x + k * lx, y + k * ly) for k in range(SIZE))
    return out


LINES: dict[int, tuple[int, ...]] = _lines()

QUARTERS: dict[int, tuple[int, ...]] = {
    space: tuple(cell(x0 + dx, y0 + dy) for dy in range(4) for dx in range(4))
    for space, (x0, y0) in CORNER_QUARTERS.items()}

SPACE_NAMES: tuple[str, ...] = tuple(
    {0: "NW corner", 9: "NE corner", 18: "SE corner", 27: "SW corner"}.get(s)
    or (f"north of {'abcdefgh'[s - 1]}" if s < 9 else
        f"east of row {8 - (s - 10)}" if s < 18 else
        f"south of {'abcdefgh'[7 - (s - 19)]}" if s < 27 else
        f"west of row {s - 28 + 1}")
    for s in range(TRACK))

if set(LINES) | set(QUARTERS) != set(range(TRACK)) or tuple(QUARTERS) != CORNERS:
    raise AssertionError("the track numbering does not cover 36 spaces")


class Seen(NamedTuple):
    """One square the chieftain sees: the level (1 = lowest; 0 for a top view), where, whose stone."""

    level: int
    cell: int
    stone: int


def sight(heights: Sequence[int], stacks: Sequence[tuple[int, ...]], space: int) -> list[Seen]:
    """The squares visible from ``space``.

    Side space: per level, the first cube of that level along the line (the
    ones behind it are hidden). Corner: the top cube of every built cell of
    the quarter below, seen from above.
    """
    if space in QUARTERS:
        return [Seen(0, c, stacks[c][-1]) for c in QUARTERS[space] if heights[c]]
    out = []
    top = 0
    for c in LINES[space]:
        h = heights[c]
        if h > top:
            stack = stacks[c]
            for z in range(top + 1, h + 1):
                out.append(Seen(z, c, stack[z - 1]))
            top = h
    return out


def penalties_at(heights: Sequence[int], stacks: Sequence[tuple[int, ...]],
                 owners: Sequence[int], space: int, players: int) -> list[int]:
    """Penalty points per seat the chieftain gives on ``space``.

    Side: a coloured square at level n costs its owner n. Corner: 1 per
    coloured square seen from above.
    """
    pts = [0] * players
    if space in QUARTERS:
        for c in QUARTERS[space]:
            if heights[c]:
                o = owners[stacks[c][-1]]
                if o >= 0:
                    pts[o] += 1
        return pts
    top = 0
    for c in LINES[space]:
        h = heights[c]
        if h > top:
            stack = stacks[c]
            for z in range(top + 1, h + 1):
                o = owners[stack[z - 1]]
                if o >= 0:
                    pts[o] += z
            top = h
    return pts


def _site_shapes() -> tuple[tuple[int, int, int], ...]:
    out = set()
    shape = SITE_SHAPE
    for _ in range(4):
        low_x, low_y = min(x for x, _ in shape), min(y for _, y in shape)
        shape = tuple((x - low_x, y - low_y) for x, y in shape)
        w, h = max(x for x, _ in shape), max(y for _, y in shape)
        for y in range(SIZE - h):
            for x in range(SIZE - w):
                out.add(tuple(sorted((y + dy) * SIZE + x + dx for dx, dy in shape)))
        shape = tuple((-y, x) for x, y in shape)  # a quarter turn
    return tuple(sorted(out))


SITE_SHAPES: tuple[tuple[int, int, int], ...] = _site_shapes()
"""Every place a sacred site may lie: the house-data shape in its 4 rotations (196 for the L)."""
