"""What the app reads of Pueblo beyond the contract: the pueblo's geometry, the phases, and the previews.

The only module of this package the client imports besides the package
itself (``tests/test_layers.py``), so the engine's other modules can change
shape without the screens knowing. The previews (:func:`footprint`,
:func:`side_view`, :func:`chief_options`) are what a screen asks before a
move, computed from a state and never changing it.
"""

from __future__ import annotations

from typing import NamedTuple

from lanterne.engines.core import Words

from .board import (LINES, ORIENTATIONS, POSE_COLUMNS, QUARTERS, SPACE_NAMES, TEMPLATE_INDEX, TEMPLATES, base_level,
                    cell_name, penalties_at, sight, why_not)
from .data import COLOURS, CORNERS, MOVES, SIZE, TRACK
from .state import BID, MOVE, OVER, PICK, PLACE, REMOVE, SITE, PuebloState

__all__ = ["COLOURS", "CORNERS", "SIZE", "TRACK", "LINES", "ORIENTATIONS", "POSE_COLUMNS", "QUARTERS", "SPACE_NAMES",
           "TEMPLATE_INDEX", "TEMPLATES", "cell_name", "ChiefOption", "Square", "chief_options", "footprint",
           "side_view", "BID", "MOVE", "OVER", "PICK", "PLACE", "REMOVE", "SITE"]



class Footprint(NamedTuple):
    """A stone's would-be place: per cell, the levels its cubes would fill."""

    cells: tuple[tuple[int, int, int], ...]  # (cell, first level, last level), levels from 1
    base: int | None  # the level it rests on (0 = the board), None if it cannot rest
    legal: bool
    reason: str | None  # why not, in one line


def footprint(state: PuebloState, orient: int, x: int, y: int) -> Footprint:
    """Where orientation ``orient`` in the 2x2 box at (x, y) would go, legal or not, and why."""
    t = TEMPLATE_INDEX.get((orient, x, y))
    if t is None:
        return Footprint((), None, False, "no such orientation or position on the 8x8 area")
    base = base_level(state.heights, t)
    cells = []
    for c, col in zip(t.cells, POSE_COLUMNS[orient]):
        start = (base + col.low if base is not None else state.heights[c]) + 1
        cells.append((c, start, start + col.count - 1))
    reason = None
    on_site = [c for c in t.cells if state.site_mask >> c & 1]
    if on_site:
        reason = Words("{cell} is a sacred site: nothing may be built on it", cell=cell_name(on_site[0]))
    elif base is None:
        reason = why_not(state.heights, t)
    return Footprint(tuple(cells), base, reason is None, reason)


class ChiefOption(NamedTuple):
    steps: int
    space: int
    name: str
    penalties: tuple[int, ...]  # per seat


def chief_options(state: PuebloState) -> list[ChiefOption]:
    """The penalty each chieftain move 1-4 would give, per seat."""
    out = []
    for n in MOVES:
        space = (state.chief + n) % TRACK
        pts = penalties_at(state.heights, state.stacks, state.owners, space, state.players)
        out.append(ChiefOption(n, space, SPACE_NAMES[space], tuple(pts)))
    return out


class Square(NamedTuple):
    level: int  # 1 = lowest; 0 in a top view
    cell: int
    owner: int  # a seat, or -1 (neutral)
    penalty: int  # what it costs its owner from this space


def side_view(state: PuebloState, space: int) -> list[Square]:
    """What the chieftain sees from ``space``: one square per level on a side, the tops on a corner."""
    out = []
    for seen in sight(state.heights, state.stacks, space):
        owner = state.owners[seen.stone]
        cost = 0 if owner < 0 else (seen.level or 1)
        out.append(Square(seen.level, seen.cell, owner, cost))
    return out
