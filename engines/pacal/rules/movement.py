"""Where a ship may go: straight, turning, arrows, energy teleport, forced relocation.

Obstacles (rulebook): another ship, the board's edge (covered cells count as the
edge), the lake and pyramids. Stones and the river are no obstacle. The moving
ship is lifted first, so its own cell is free while it moves.
"""

from __future__ import annotations

from itertools import compress

from .. import data
from ..board import SACRED_CELLS, Board, bit_cells, board_for
from ..state import PacalState

STRAIGHT, TURN, ARROW = "straight", "turn", "arrow"
MODES = (STRAIGHT, TURN, ARROW)


def free_map(state: PacalState, seat: int) -> list[bool]:
    """Per cell: may a ship stand on it now (``seat``'s own ship lifted)."""
    free = list(_open_cells(state.players, state.pyramids))
    for s, at in enumerate(state.ships):
        if at is not None and s != seat:
            free[at] = False
    return free


_OPEN_MEMO: dict[tuple[int, int], tuple[bool, ...]] = {}
_OPEN_MEMO_SIZE = 5_000


def _open_cells(players: int, pyramids: list[int]) -> tuple[bool, ...]:
    """Per cell: in play and without a pyramid (ships aside).

    Pyramids change only on a build, so the answer is remembered by their
    cells (a pure cache, emptied when it grows large).
    """
    every = 0
    for bits in pyramids:
        every |= bits
    key = (players, every)
    hit = _OPEN_MEMO.get(key)
    if hit is None:
        free = list(board_for(players).playable)
        for c in bit_cells(every):
            free[c] = False
        if len(_OPEN_MEMO) >= _OPEN_MEMO_SIZE:
            _OPEN_MEMO.clear()
        hit = _OPEN_MEMO[key] = tuple(free)
    return hit


def straight_destinations(board: Board, free: list[bool], start: int, n: int) -> list[int]:
    """One end per direction: ``n`` cells or up to the first obstacle (the overflow is lost)."""
    out = []
    for ray in board.rays[start]:
        end = None
        for c in ray[:n]:
            if not free[c]:
                break
            end = c
        if end is not None:
            out.append(end)
    return out


_TURN_MEMO: dict[tuple, frozenset[int]] = {}
_TURN_MEMO_SIZE = 20_000


def turn_destinations(board: Board, free: list[bool], start: int, n: int) -> frozenset[int]:
    """Ends of exactly ``n`` orthogonal steps with right-angle turns (never back, never
    twice on a cell), plus the dead ends reached earlier (rulebook: "règle du cul de sac":
    a cell whose every way on is an obstacle keeps the ship, the rest of the count is lost).

    Only the cells within ``n`` steps matter, so results are remembered by that
    neighbourhood (a pure cache: the same neighbourhood always gives the same answer)."""
    near = board.near(start, n)
    key = (board.players, start, n, bytes([free[c] for c in near]))
    hit = _TURN_MEMO.get(key)
    if hit is None:
        if len(_TURN_MEMO) >= _TURN_MEMO_SIZE:
            _TURN_MEMO.clear()
        hit = _TURN_MEMO[key] = frozenset(turn_destinations_by_walks(board, free, start, n))
    return hit


def turn_destinations_by_walks(board: Board, free: list[bool], start: int, n: int) -> set[int]:
    """:func:`turn_destinations` computed walk by walk, without the cache."""
    out: set[int] = set()
    ways_of = board.ways
    path = [start]

    def walk(at: int, came: int, left: int) -> None:
        stuck = True
        for d, c in ways_of[at]:
            if d == came or not free[c]:
                continue
            stuck = False
            if c in path:
                continue
            if left == 1:
                out.add(c)
                continue
            path.append(c)
            walk(c, d ^ 2, left - 1)
            path.pop()
        if stuck and at != start:
            out.add(at)  # a dead end

    walk(start, -1, n)
    out.discard(start)
    return out


def arrow_destinations(board: Board, free: list[bool], start: int) -> list[int]:
    """Any free cell along the ship's row or column, over obstacles (not past a cover's edge)."""
    out = []
    for ray in board.rays[start]:
        for c in ray:
            if board.covered[c]:
                break  # a covered cell: the edge of the board in play
            if free[c]:
                out.append(c)
    return out


def regular_moves(state: PacalState, seat: int, only: str | None = None) -> list[tuple[str, int]]:
    """The die moves open to ``seat`` now, as (mode, destination); ``only`` one mode if given.

    In the first round a ship must leave the sacred district in a straight line
    (rulebook), so only straight and arrow moves ending outside it count.

    A seat's legal moves and then the check of the one it plays ask the same
    question of the same position, so the last answer is kept (a pure cache:
    the key holds everything the answer depends on).
    """
    every = 0
    for bits in state.pyramids:
        every |= bits
    key = (state.players, seat, tuple(state.ships), every, state.face, min(state.round, 2))
    last = _LAST_MOVES[0]
    if last[0] == key:
        moves = last[1]
    else:
        moves = _regular_moves(state, seat)
        _LAST_MOVES[0] = (key, moves)
    if only is None:
        return list(moves)
    return [m for m in moves if m[0] == only]


_LAST_MOVES: list[tuple] = [(None, ())]
"""The last (key, moves) of :func:`regular_moves`, replaced as one tuple (threads read it whole)."""


def _regular_moves(state: PacalState, seat: int) -> tuple[tuple[str, int], ...]:
    """Every die move of ``seat`` (see :func:`regular_moves`), computed."""
    board = board_for(state.players)
    free = free_map(state, seat)
    start = state.ships[seat]
    face = state.face
    if face == data.ARROWS:
        moves = [(ARROW, c) for c in arrow_destinations(board, free, start)]
    else:
        moves = [(STRAIGHT, c) for c in straight_destinations(board, free, start, face)]
        if state.round > 1:
            moves += [(TURN, c) for c in sorted(turn_destinations(board, free, start, face))]
    if state.round == 1:
        moves = [(m, c) for m, c in moves if c not in SACRED_CELLS]
    return tuple(moves)


def can_teleport_to(state: PacalState, seat: int, c: int) -> bool:
    """Whether cell ``c`` is free for ``seat``'s ship to be put on (not its own cell)."""
    return (board_for(state.players).playable[c] and state.pyramid_owner[c] < 0
            and c not in state.ships)


def teleport_cells(state: PacalState, seat: int) -> list[int]:
    """Free cells an energy piece (or a forced relocation) may put the ship on."""
    free = free_map(state, seat)
    cells = list(compress(range(len(free)), free))  # ascending, picked in C: a search lists them often
    own = state.ships[seat]
    if own is not None and free[own]:
        cells.remove(own)
    return cells
