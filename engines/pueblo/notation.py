"""Pueblo move notation: short texts a person can read and type.

=====================  ===============================================
``C b3^ c3 b4``        place a coloured stone (``N``: neutral) on b3, c3
                       and b4; ``^`` marks the cell that gets 2 cubes.
                       The 3 cells and the tall one name one of the 12
                       orientations; the level follows from the pueblo.
``m3``                 move the chieftain 3 spaces (``move 3`` too)
``x c3``               dismantling: take off the stone on top of c3
``drop C``             house rule: the due stone fits nowhere, set it aside
``site b3 c3 b4``      advanced: a sacred site on those 3 cells
``bid 4`` / ``pass``   advanced: turn-order auction
``card 2``             advanced: the auction winner takes card 2
``first P2``           the table's roll: seat 2 plays first
=====================  ===============================================

Cells: files a-h west to east, ranks 1-8 south to north.
"""

from __future__ import annotations

import re

from lanterne.engines.core import NotationError

from .actions import Bid, Card, Drop, Move, Place, Remove, Site
from .board import BY_CELLS, TEMPLATE_INDEX, cell_name, parse_cell
from .state import PuebloState

_CELL = re.compile(r"([a-h][1-8])(\^?)")


def format_action(state: PuebloState, action: tuple) -> str:
    try:
        return _format(action)
    except (KeyError, IndexError, TypeError, ValueError):
        raise NotationError(f"no notation for {action!r}") from None


def _format(action: tuple) -> str:
    kind = action[0]
    if kind == "place":
        place = Place._make(action)
        t = TEMPLATE_INDEX[place.orient, place.x, place.y]
        others = sorted(c for c in t.cells if c != t.tall)
        return f"{place.stone} {cell_name(t.tall)}^ {cell_name(others[0])} {cell_name(others[1])}"
    if kind == "move":
        return f"m{Move._make(action).steps}"
    if kind == "remove":
        return f"x {_cell(Remove._make(action).cell)}"
    if kind == "drop":
        return f"drop {Drop._make(action).stone}"
    if kind == "site":
        site = Site._make(action)
        return "site " + " ".join(_cell(c) for c in (site.cell_a, site.cell_b, site.cell_c))
    if kind == "bid":
        return f"bid {Bid._make(action).points}"
    if kind == "pass":
        return "pass"
    if kind == "card":
        return f"card {Card._make(action).number}"
    if kind == "roll":
        return f"first P{action[1] + 1}"
    raise NotationError(f"no notation for action {kind!r}")


def _cell(c: int) -> str:
    if type(c) is not int or not 0 <= c < 64:
        raise ValueError(c)
    return cell_name(c)


def _number(text: str, what: str) -> int:
    if not re.fullmatch(r"[0-9]{1,6}", text):
        raise NotationError(f"{what} needs a whole number, not {text!r}")
    return int(text)


def _cells(text: str) -> list[tuple[int, bool]]:
    """'b3^ c3 b4' -> [(cell, tall?)...]; every character must belong to a cell."""
    out = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        if text[pos] in " ,":
            pos += 1
            continue
        m = _CELL.match(text, pos)
        if not m:
            raise NotationError(f"not a cell at {text[pos:pos + 3]!r} (cells are a1 to h8)")
        out.append((parse_cell(m.group(1)), bool(m.group(2))))
        pos = m.end()
    return out


def parse_action(state: PuebloState, text: str, seat: int | None = None) -> tuple:
    raw = " ".join(text.strip().split())
    low = raw.lower()
    if not low:
        raise NotationError("empty move")
    head, _, rest = low.partition(" ")
    if head in ("c", "n") and rest:
        cells = _cells(rest)
        if len(cells) != 3:
            raise NotationError("a stone covers 3 cells, e.g. 'C b3^ c3 b4'")
        talls = [c for c, tall in cells if tall]
        if len(talls) != 1:
            raise NotationError("mark the one cell that gets 2 cubes with ^, e.g. 'C b3^ c3 b4'")
        t = BY_CELLS.get((frozenset(c for c, _ in cells), talls[0]))
        if t is None or len({c for c, _ in cells}) != 3:
            raise NotationError("those 3 cells and that tall cell are not a stone's footprint")
        return ("place", head.upper(), t.orient, t.x, t.y)
    m = re.fullmatch(r"(?:m|move) ?([0-9]{1,6})", low)
    if m:
        return ("move", int(m.group(1)))
    if head in ("x", "remove"):
        cells = _cells(rest)
        if len(cells) != 1 or cells[0][1]:
            raise NotationError("name one cell of the stone to remove, e.g. 'x c3'")
        c = cells[0][0]
        if state.heights[c]:
            st = state.stones[state.stacks[c][-1]]
            c = TEMPLATE_INDEX[st[1], st[2], st[3]].tall
        return ("remove", c)
    if head == "drop":
        if rest not in ("c", "n"):
            raise NotationError("drop C or drop N")
        return ("drop", rest.upper())
    if head == "site":
        cells = _cells(rest)
        if len(cells) != 3 or any(t for _, t in cells):
            raise NotationError("a sacred site covers 3 cells, e.g. 'site b3 c3 b4'")
        return ("site",) + tuple(sorted(c for c, _ in cells))
    if head == "bid":
        return ("bid", _number(rest, "bid"))
    if low == "pass":
        return ("pass",)
    if head == "card":
        return ("card", _number(rest, "card"))
    if head == "first":
        n = _number(rest[1:] if rest.startswith("p") else rest, "first")
        if not 1 <= n <= state.players:
            raise NotationError(f"first P1 to P{state.players}")
        return ("roll", n - 1)
    raise NotationError(f"cannot read {raw!r} (e.g. 'C b3^ c3 b4', 'm2', 'x c3', 'bid 3', 'pass', 'card 1')")
