"""The board as text (like python-chess's ``str(board)``), for the tests: a position at a glance in a failure.

Each cell is 4 characters: ``S2*`` the ship of P2 (``*``: stones lie under it), ``P1:3`` a
3-storey pyramid of P1, ``135`` stones of P1, P3 and P5, ``~~`` the lake, ``##`` a covered
cell, else the district's letter in lower case (``s`` the sacred district).
"""

from __future__ import annotations

from lanterne.engines.pacal.board import COLS, LAKE, ROWS, board_for, cell
from lanterne.engines.pacal.state import PacalState


def cell_text(state: PacalState, c: int) -> str:
    board = board_for(state.players)
    seats_with_stone = "".join(str(p + 1) for p in range(state.players) if state.stones[p] >> c & 1)
    ship = state.ship_at(c)
    if ship >= 0:
        return f"S{ship + 1}{'*' if seats_with_stone else ''}"
    if state.pyramid_owner[c] >= 0:
        return f"P{state.pyramid_owner[c] + 1}:{state.pyramid_size[c]}"
    if seats_with_stone:
        return seats_with_stone
    if c in LAKE:
        return "~~"
    if board.covered[c]:
        return "##"
    return (board.district[c] or "?").lower()


def picture(state: PacalState) -> str:
    """The board, one text row per board row, with column letters and row numbers."""
    lines = ["    " + "".join(f"{chr(ord('a') + col):<5}" for col in range(COLS)).rstrip()]
    for r in range(ROWS):
        cells = " ".join(f"{cell_text(state, cell(r, col)):<4}" for col in range(COLS))
        lines.append(f"{r + 1:>2}  {cells}".rstrip())
    return "\n".join(lines)
