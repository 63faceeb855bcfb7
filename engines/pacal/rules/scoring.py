"""Points: districts while building, and the final scoring.

Every point is reported as an event ``("score", seat, points, what)``, so the
scores are the sum of the score events.
"""

from __future__ import annotations

from typing import Iterator

from .. import data
from ..board import LAKE_SCORING, RIVER_SCORING, Board, bit_cells
from ..state import PacalState

Event = tuple


def storeys_in(state: PacalState, cells) -> list[int]:
    """Storeys each seat has on these cells."""
    out = [0] * state.players
    owner, size = state.pyramid_owner, state.pyramid_size
    for c in cells:
        if owner[c] >= 0:
            out[owner[c]] += size[c]
    return out


def district_storeys(state: PacalState, board: Board, district: str) -> list[int]:
    """Storeys each seat has in a district (all its pyramids there added up)."""
    size, where = state.pyramid_size, board.district
    return [sum(size[c] for c in bit_cells(bits) if where[c] == district) for bits in state.pyramids]


def sole_leader(storeys: list[int]) -> int:
    """The seat with strictly the most storeys (and some), or -1."""
    best = max(storeys)
    if best == 0 or storeys.count(best) > 1:
        return -1
    return storeys.index(best)


def round_half_up(numerator: int, denominator: int) -> int:
    """House data: a shared award that is not whole rounds to the nearest, .5 up."""
    return (2 * numerator + denominator) // (2 * denominator)


def ranked_awards(storeys: list[int], awards: tuple[int, ...]) -> list[int]:
    """Seed: places by storeys (some needed) win ``awards``; tied seats add up the
    awards of the places they take and share them equally (rounded)."""
    out = [0] * len(storeys)
    place = 0
    for level in sorted({v for v in storeys if v > 0}, reverse=True):
        group = [i for i, v in enumerate(storeys) if v == level]
        total = sum(awards[place + k] for k in range(len(group)) if place + k < len(awards))
        if total:
            share = round_half_up(total, len(group))
            for i in group:
                out[i] = share
        place += len(group)
    return out


def district_final(storeys: list[int], value: int) -> tuple[list[int], list[int]]:
    """Seed: the majority scores the district's value (all tied leaders do, and then
    nobody is second); second place scores 2 (ties: all of them)."""
    firsts, seconds = [0] * len(storeys), [0] * len(storeys)
    best = max(storeys)
    if best == 0:
        return firsts, seconds
    leaders = [i for i, v in enumerate(storeys) if v == best]
    for i in leaders:
        firsts[i] = value
    if len(leaders) == 1:
        rest = [v for v in storeys if 0 < v < best]
        if rest:
            second = max(rest)
            for i, v in enumerate(storeys):
                if v == second:
                    seconds[i] = data.DISTRICT_SECOND_PLACE
    return firsts, seconds


def final_awards(state: PacalState, board: Board) -> Iterator[tuple[int, int, str]]:
    """The final scoring on the board as it stands, ``(seat, points, what)`` in the order it is scored
    (river, lake, districts, energy); the search's estimate reads it before the end too."""
    for what, cells in (("river", RIVER_SCORING), ("lake", LAKE_SCORING)):
        for seat, pts in enumerate(ranked_awards(storeys_in(state, cells), data.WATER_AWARDS)):
            if pts:
                yield seat, pts, what
    for d in board.districts:
        firsts, seconds = district_final(district_storeys(state, board, d), board.value(d))
        for seat in range(state.players):
            if firsts[seat]:
                yield seat, firsts[seat], f"district {d} majority"
            if seconds[seat]:
                yield seat, seconds[seat], f"district {d} second"
    for seat in range(state.players):
        if state.energy[seat]:
            yield seat, sum(state.energy[seat]), "energy pieces"


def final_scoring(state: PacalState, board: Board) -> list[Event]:
    """Score the end of the game into ``state`` (river, lake, districts, energy)."""
    events: list[Event] = []
    for seat, pts, what in final_awards(state, board):
        state.score[seat] += pts
        events.append(("score", seat, pts, what))
    return events
