"""Who acts and what they may do: the table's rolls, and each phase's legal actions."""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

from lanterne.engines.core import ROLL as ROLL_OP
from lanterne.engines.core import TABLE, TableOp

from .. import data
from ..board import SACRED_CELLS, bit_cells
from ..state import BUILD, MOVE, OVER, PLACE, STONES, PacalState
from .constellations import constellations, has_constellation, has_long_constellation
from .movement import ARROW, STRAIGHT, TURN, regular_moves, teleport_cells


STONES_FOR_MODE = {STRAIGHT: 2, ARROW: 2, TURN: 1}
"""Seed: a straight or arrows move lets the player put in two stones, a turning move one."""


def first_player_op(players: int) -> TableOp:
    return TableOp(ROLL_OP, faces=players, why="first player")


def die_op() -> TableOp:
    return TableOp(ROLL_OP, faces=len(data.DIE_FACES), why="die")


def next_actor(state: PacalState) -> int:
    return TABLE if state.pending is not None else state.current


def legal_actions(state: PacalState, seat: int) -> list[tuple]:
    if state.pending is not None or state.phase == OVER or seat != state.current:
        return []
    if state.phase == PLACE:
        taken = set(state.ships)
        return [("place", c) for c in sorted(SACRED_CELLS) if c not in taken]
    if state.phase == MOVE:
        return move_actions(state, seat)
    if state.phase == STONES:
        return stone_actions(state, seat)
    if state.phase == BUILD:
        return build_actions(state, seat) + [("pass",)]
    return []


def voluntary_energy_allowed(state: PacalState) -> bool:
    """House reading: in the first round the ship must leave the sacred district
    in a straight line (rulebook), so an energy piece is spent then only when forced."""
    return state.round > 1


def move_actions(state: PacalState, seat: int) -> list[tuple]:
    regular = regular_moves(state, seat)
    values = sorted(set(state.energy[seat]))
    if regular:
        acts = [("move", m, c) for m, c in regular]
        if values and voluntary_energy_allowed(state):
            cells = teleport_cells(state, seat)
            acts += [("energy", v, c) for v in values for c in cells]
        return acts
    cells = teleport_cells(state, seat)
    if values:  # rulebook: surrounded, the player must use an energy piece
        return [("energy", v, c) for v in values for c in cells]
    return [("relocate", c) for c in cells]  # rulebook: and only without one, anywhere, no stone


def visible_stones(state: PacalState, seat: int) -> list[int]:
    """Cells where ``seat`` has a stone no ship stands on (rulebook: "visibles")."""
    bits = state.stones[seat]
    for at in state.ships:
        if at is not None and bits >> at & 1:
            bits ^= 1 << at
    return bit_cells(bits)


def stone_actions(state: PacalState, seat: int) -> list[tuple]:
    a = state.allowance
    plans: list[tuple[bool, int | None]] = []
    if a >= 1:
        plans.append((True, None))
    if a >= 2:
        for other in range(state.players):
            if other != seat:
                plans += [(False, other), (True, other)]
    acts: list[tuple] = [("stones", False, None, ())]
    supply = state.stone_supply[seat]
    visible = None
    for own, other in plans:
        short = own + (other is not None) - supply
        if short <= 0:
            acts.append(("stones", own, other, ()))
            continue
        if visible is None:
            visible = visible_stones(state, seat)
        for take in combinations(visible, short):
            acts.append(("stones", own, other, take))
    return acts


def pieces_of(state: PacalState, seat: int) -> tuple[set[int], set[int]]:
    """(visible stones, pyramids) of ``seat``."""
    return set(visible_stones(state, seat)), set(bit_cells(state.pyramids[seat]))


def sizes_for(supply: list[int], storeys: int, above: int = 0) -> list[int]:
    """Pyramid sizes a constellation of ``storeys`` may build: that size, or when the
    player has none left, any lower size he still has (rulebook); all higher than ``above``."""
    if supply[storeys - 1] > 0:
        return [storeys] if storeys > above else []
    return [k for k in range(above + 1, storeys) if supply[k - 1] > 0]


def build_actions(state: PacalState, seat: int) -> list[tuple]:
    """Every build and upgrade open to ``seat`` (constellation order, then cell)."""
    return list(iter_builds(state, seat))


def iter_builds(state: PacalState, seat: int) -> Iterator[tuple]:
    stones, pyramids = pieces_of(state, seat)
    if not stones:
        return
    supply = state.pyramid_supply[seat]
    expert = state.expert
    pieces = stones | pyramids
    for storeys, cells in constellations(pieces, stones):
        used = [c for c in cells if c in pyramids]
        if not expert or not used:
            for k in sizes_for(supply, storeys):
                for c in cells:
                    if c in stones:
                        yield ("build", k, c, cells)
        if used and (not expert or len(used) == 1):
            for p in used:
                for k in sizes_for(supply, storeys, above=state.pyramid_size[p]):
                    yield ("upgrade", k, p, cells)


def can_build(s: PacalState, seat: int) -> bool:
    """Whether ``seat`` has any build or upgrade (quick answers first)."""
    visible = s.stones[seat]  # visible_stones, as a bitboard
    for at in s.ships:
        if at is not None and visible >> at & 1:
            visible ^= 1 << at
    if not visible:
        return False
    supply = s.pyramid_supply[seat]
    if supply[0] > 0:
        return True  # any single visible stone builds a 1-storey pyramid
    if s.expert:
        return next(iter_builds(s, seat), None) is not None
    # Standard rules: a constellation of n storeys builds (or upgrades) iff some size <= n is
    # left (sizes_for), so the question is whether one of at least the smallest size left exists.
    least = next((k for k in range(2, 6) if supply[k - 1] > 0), None)
    if least is None:
        return False
    if least >= 4 and not data.ROTATED_SQUARES:
        return has_long_constellation(visible | s.pyramids[seat], visible, least)
    stones, pyramids = set(bit_cells(visible)), set(bit_cells(s.pyramids[seat]))  # pieces_of
    return has_constellation(stones | pyramids, stones, least)
