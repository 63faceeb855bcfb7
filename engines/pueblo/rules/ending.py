"""Scoring a space, the dismantling turns, the end of the game."""

from __future__ import annotations

from lanterne.engines.core import IllegalAction, Words

from ..actions import Remove
from ..board import POSE_COLUMNS, SPACE_NAMES, TEMPLATE_INDEX, cell_name, penalties_at
from ..data import NEUTRAL
from ..state import MOVE, OVER, REMOVE, PuebloState
from .queries import colour_on_board, own_board, read, refit, removable, removals, stone_tall_cell


def score_space(s: PuebloState, space: int, ev: list) -> None:
    """The chieftain looks from ``space``; every coloured square he sees costs its owner."""
    pts = penalties_at(s.heights, s.stacks, s.owners, space, s.players)
    if any(pts):
        s.penalties = penalties = s.penalties[:]  # copy-on-write, once for the seats seen
        what = SPACE_NAMES[space]
        for p, n in enumerate(pts):
            if n:
                penalties[p] += n
                ev.append(("score", p, -n, what))


def start_dismantle_turn(s: PuebloState) -> None:
    s.phase = REMOVE if removals(s, s.seat) else MOVE


def do_remove(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    c = read(Remove, action, "remove takes 1 whole number").cell
    if not 0 <= c < len(s.heights) or not s.heights[c]:
        raise IllegalAction(Words("no stone there"))
    sid = s.stacks[c][-1]
    st = s.stones[sid]
    if stone_tall_cell(s, sid) != c:
        raise IllegalAction(Words("name a stone by its two-cube square ({cell})", cell=cell_name(stone_tall_cell(s, sid))))
    if st[0] != seat and st[0] != NEUTRAL:
        raise IllegalAction(Words("only your own coloured stones or neutral ones may be removed"))
    if st[0] == NEUTRAL and not s.on_board(seat):
        raise IllegalAction(Words("with no stone of your colour left on the board you may not remove neutral ones"))
    if not removable(s, sid):
        raise IllegalAction(Words("that stone cannot be lifted without touching another"))
    t = TEMPLATE_INDEX[st[1], st[2], st[3]]
    own_board(s)
    for cc, col in zip(t.cells, POSE_COLUMNS[t.orient]):
        s.stacks[cc] = s.stacks[cc][:-col.count]
        s.heights[cc] -= col.count
    refit(s, t.cells)
    s.stones[sid] = None
    ev.append(("remove", seat, sid, c))
    if not colour_on_board(s):
        game_over(s, ev)
        return
    s.phase = MOVE


def game_over(s: PuebloState, ev: list) -> None:
    s.phase = OVER
    best = min(s.penalties)
    ev.append(("over", tuple(p for p in range(s.players) if s.penalties[p] == best)))
