"""The build phase: a new pyramid or an upgrade from a constellation, or a pass."""

from __future__ import annotations

from lanterne.engines.core import IllegalAction, Words, read_action

from .. import data
from ..actions import ACTIONS
from ..board import CELLS, board_for, cell_name
from ..state import BUILD, OVER, PacalState
from .choices import can_build, pieces_of, sizes_for
from .constellations import shape_storeys
from .ending import Event, end_turn, game_over, player_words, score
from .scoring import district_storeys, sole_leader


def to_build(s: PacalState, events: list[Event]) -> None:
    s.phase = BUILD
    if not can_build(s, s.current):
        end_turn(s, events)


def check_build(s: PacalState, action: tuple) -> tuple[int, int, tuple[int, ...], int]:
    """Why a build or upgrade is illegal (IllegalAction), else (storeys, cell, cells, old size)."""
    kind, k, at, cells = read_action(ACTIONS[action[0]], action)
    seat = s.current
    if not isinstance(cells, tuple) or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < CELLS
                                               for c in cells):
        raise IllegalAction("a constellation is a list of cells")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= 5:
        raise IllegalAction(f"pyramids have 1 to 5 storeys, not {k!r}")
    if tuple(sorted(cells)) != cells:
        raise IllegalAction("list the constellation's cells in board order")
    storeys = shape_storeys(cells)
    if storeys is None:
        raise IllegalAction(Words("{cells} is not a constellation", cells=" ".join(cell_name(c) for c in cells)))
    stones, pyramids = pieces_of(s, seat)
    for c in cells:
        if c not in stones and c not in pyramids:
            raise IllegalAction(Words("{cell} holds no visible stone or pyramid of {seat}", cell=cell_name(c),
                                      seat=player_words(seat)))
    if not any(c in stones for c in cells):
        raise IllegalAction(Words("a constellation needs at least one divine stone"))
    used = [c for c in cells if c in pyramids]
    if at not in cells:
        raise IllegalAction(f"{cell_name(at) if isinstance(at, int) else at!r} is not a cell of the constellation")
    old = 0
    if kind == "build":
        if at not in stones:
            raise IllegalAction(Words("a new pyramid goes on a cell with a divine stone of the constellation"))
        if s.expert and used:
            raise IllegalAction(Words("expert variant: own pyramids count only to upgrade themselves"))
    else:
        if at not in pyramids:
            raise IllegalAction(Words("{cell} has no pyramid of {seat} to upgrade", cell=cell_name(at), seat=player_words(seat)))
        if s.expert and len(used) > 1:
            raise IllegalAction(Words("expert variant: only the upgraded pyramid may stand in for a stone"))
        old = s.pyramid_size[at]
        if k <= old:
            raise IllegalAction(Words("an upgrade must be higher than the {n}-storey pyramid", n=old))
    if k not in sizes_for(s.pyramid_supply[seat], storeys, old):
        if k > storeys:
            raise IllegalAction(Words("this constellation builds {n} storeys, not {k}", n=storeys, k=k))
        if s.pyramid_supply[seat][k - 1] == 0:
            raise IllegalAction(Words("{seat} has no {k}-storey pyramid left", seat=player_words(seat), k=k))
        raise IllegalAction(Words("a lower pyramid only when the {n}-storey ones are used up", n=storeys))
    return k, at, cells, old


def build(s: PacalState, action: tuple, events: list[Event]) -> None:
    k, at, cells, old = check_build(s, action)
    new = action[0] == "build"     # a new pyramid, not an upgrade
    seat = s.current
    board = board_for(s.players)
    district = board.district[at]
    before = district_storeys(s, board, district)
    was_triggered = s.triggered
    s.pyramid_owner, s.pyramid_size = s.pyramid_owner[:], s.pyramid_size[:]  # shared with the state before (PacalState.copy)
    s.pyramid_supply, s.bonus_taken = [p[:] for p in s.pyramid_supply], s.bonus_taken[:]  # shared too
    s.score = s.score[:]
    for c in cells:  # the constellation's stones go back; pyramids standing in stay
        if s.stones[seat] >> c & 1:
            s.stones[seat] ^= 1 << c
            s.stone_supply[seat] += 1
    if new:
        for other in range(s.players):  # rulebook: other colours on the cell go back
            if s.stones[other] >> at & 1:
                s.stones[other] ^= 1 << at
                s.stone_supply[other] += 1
                events.append(("stones back", other, at, 1))
        s.pyramid_owner[at] = seat
        s.pyramids[seat] |= 1 << at
        events.append(("build", seat, k, at))
    else:
        s.pyramid_supply[seat][old - 1] += 1
        events.append(("upgrade", seat, old, k, at))
    s.pyramid_supply[seat][k - 1] -= 1
    s.pyramid_size[at] = k
    after = district_storeys(s, board, district)
    if sole_leader(after) == seat and sole_leader(before) != seat:
        first = max(before) == 0
        score(s, events, seat, board.value(district),
               f"district {district} {'first pyramid' if first else 'majority taken'}")
    left = sum(s.pyramid_supply[seat])
    if new and left == 0:
        score(s, events, seat, data.LAST_PYRAMID_BONUS, "last pyramid")
        game_over(s, events, f"player {seat + 1} built their last pyramid")
        return
    if new and left == 1 and was_triggered and not s.bonus_taken[seat]:
        s.bonus_taken[seat] = True
        score(s, events, seat, data.SECOND_TO_LAST_BONUS, "second-to-last pyramid after the end was triggered")
    if s.phase == OVER:  # 2 players: the threshold ends the game at once
        game_over(s, events, f"player {seat + 1} reached {data.END_THRESHOLD[s.players]} points")
        return
    end_turn(s, events)


def pass_turn(s: PacalState, action: tuple, events: list[Event]) -> None:
    read_action(ACTIONS["pass"], action)
    end_turn(s, events)
