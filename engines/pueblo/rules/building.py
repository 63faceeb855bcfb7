"""Placing a stone (or dropping one that fits nowhere), moving the chieftain, the final round."""

from __future__ import annotations

from lanterne.engines.core import IllegalAction, Words

from ..actions import Drop, Move, Place
from ..board import POSE_COLUMNS, TEMPLATE_INDEX, base_level, cell_name, why_not
from ..data import MOVES, NEUTRAL, TRACK
from ..state import BUILD_1, BUILD_2, DISMANTLE, MOVE, PLACE, PuebloState
from .auction import start_auction
from .ending import game_over, score_space, start_dismantle_turn
from .queries import (COLOURED, KINDS, NEUTRAL_KIND, colour_on_board, fitting_templates, kind_name, kinds_allowed,
                      own_board, read, refit)


def do_place(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    why = "place takes a stone (C or N), an orientation and a cell"
    place = read(Place, action, why)
    if place.stone not in KINDS:
        raise IllegalAction(why)
    kind = place.stone
    allowed = kinds_allowed(s, seat)
    if kind not in allowed:
        if s.lone[seat]:
            raise IllegalAction(Words("the lone coloured stone must be placed first"))
        if s.half[seat] is not None:
            raise IllegalAction(Words("the begun block must be finished: place the {kind} stone",
                                      kind=kind_name(s.half[seat])))
        raise IllegalAction(Words("no {kind} stone left", kind=kind_name(kind)))
    t = TEMPLATE_INDEX.get((place.orient, place.x, place.y))
    if t is None:
        raise IllegalAction(Words("no such orientation or position on the 8x8 area"))
    if t.mask & s.site_mask:
        bad = next(c for c in t.cells if s.site_mask >> c & 1)
        raise IllegalAction(Words("{cell} is a sacred site: nothing may be built on it", cell=cell_name(bad)))
    base = base_level(s.heights, t)
    if base is None:
        raise IllegalAction(why_not(s.heights, t))
    owner = seat if kind == COLOURED else NEUTRAL
    own_board(s)
    sid = len(s.stones)
    s.stones.append((owner, t.orient, t.x, t.y, base))
    s.owners.append(owner)
    for c, col in zip(t.cells, POSE_COLUMNS[t.orient]):
        s.stacks[c] = s.stacks[c] + (sid,) * col.count
        s.heights[c] += col.count
    refit(s, t.cells)
    take_from_reserve(s, seat, kind)
    ev.append(("place", seat, kind, t.orient, t.x, t.y, base))
    s.phase = MOVE


def take_from_reserve(s: PuebloState, seat: int, kind: str) -> None:
    # Copy-on-write: PuebloState.copy shares these lists.
    if kind == COLOURED:
        s.coloured = s.coloured[:]
        s.coloured[seat] -= 1
    else:
        s.neutral = s.neutral[:]
        s.neutral[seat] -= 1
    if s.lone[seat]:
        s.lone = s.lone[:]
        s.lone[seat] = False
    elif s.half[seat] is None:
        s.half = s.half[:]
        s.half[seat] = NEUTRAL_KIND if kind == COLOURED else COLOURED
    else:
        s.half = s.half[:]
        s.half[seat] = None


def do_drop(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    kind = read(Drop, action, "drop takes a stone, C or N").stone
    if kind not in KINDS:
        raise IllegalAction("drop takes a stone, C or N")
    if kind not in kinds_allowed(s, seat):
        raise IllegalAction(Words("the {kind} stone is not the one due", kind=kind_name(kind)))
    if fitting_templates(s):
        raise IllegalAction(Words("a stone may only be dropped when it fits nowhere"))
    s.dropped = [d[:] for d in s.dropped]  # copy-on-write
    s.dropped[seat][0 if kind == COLOURED else 1] += 1
    take_from_reserve(s, seat, kind)
    ev.append(("drop", seat, kind))
    s.phase = MOVE


def do_move(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    n = read(Move, action, "move takes 1 whole number").steps
    if n not in MOVES:
        raise IllegalAction(Words("the chieftain moves 1 to 4 spaces"))
    start = s.chief
    s.chief = (start + n) % TRACK
    ev.append(("chief", seat, start, s.chief))
    score_space(s, s.chief, ev)
    s.turn += 1
    if s.stage == DISMANTLE:
        s.at = (s.at + 1) % s.players
        start_dismantle_turn(s)
        return
    s.at += 1
    if s.at < len(s.order):
        s.phase = PLACE
        return
    s.at = 0
    if any(s.stones_left(p) for p in range(s.players)):
        s.phase = PLACE
        return
    if s.stage == BUILD_1 and s.advanced:
        s.stage = BUILD_2
        s.coloured = [n + h for n, h in zip(s.coloured, s.held)]  # new lists: copy-on-write
        s.neutral = [n + h for n, h in zip(s.neutral, s.held)]
        s.held = [0] * s.players
        start_auction(s, ev)
        return
    final_round(s, ev)


def final_round(s: PuebloState, ev: list) -> None:
    """The white marker goes on his space; he walks all 36 spaces, scoring each, back to it."""
    start = s.chief
    ev.append(("final round", start))
    for k in range(1, TRACK + 1):
        s.chief = (start + k) % TRACK
        score_space(s, s.chief, ev)
    if not s.dismantling or not colour_on_board(s):
        game_over(s, ev)  # dismantling ends with the last coloured stone: none, nothing to do
        return
    s.stage = DISMANTLE
    if s.advanced:
        start_auction(s, ev)
    else:
        s.order = [(s.first + i) % s.players for i in range(s.players)]
        s.at = 0
        start_dismantle_turn(s)
