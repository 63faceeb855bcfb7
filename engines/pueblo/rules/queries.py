"""Small questions about a position (who acts, which stone is due, what may be lifted) and the helpers every step shares."""

from __future__ import annotations

from itertools import chain

from lanterne.engines.core import ROLL, TABLE, IllegalAction, TableOp, Words, read_action

from ..board import BOXES_UNDER, SITE_SHAPES, TEMPLATES, TEMPLATE_INDEX, _FIT_MEMO, box_fit, boxes_under_keys
from ..data import (DEFAULT_SITES, HELD_BLOCKS, MAX_BID, MAX_SITES, MIN_BID, MOVES, NEUTRAL, START_SPACE,
                    STONES_PER_PLAYER)
from ..state import BID, MOVE, OVER, PICK, PLACE, REMOVE, ROLL_PHASE, SITE, PuebloState


COLOURED = "C"


NEUTRAL_KIND = "N"


KINDS = (COLOURED, NEUTRAL_KIND)


PLACE_ACTIONS: dict[str, tuple[tuple, ...]] = {
    k: tuple(("place", k, t.orient, t.x, t.y) for t in TEMPLATES) for k in KINDS}
"""Every place action, in TEMPLATES order, built once."""


SITE_SET = frozenset(SITE_SHAPES)


MOVE_ACTIONS = tuple(("move", n) for n in MOVES)


def new_state(players: int, variant: str, sacred_sites: int | None = None) -> PuebloState:
    """The state before the first-player roll; stones dealt per the rulebook's table."""
    advanced = variant.startswith("advanced")
    if sacred_sites is None:
        sacred_sites = DEFAULT_SITES if advanced else 0
    if not advanced and sacred_sites:
        raise IllegalAction("sacred sites belong to the advanced rules")
    if advanced and not 1 <= sacred_sites <= MAX_SITES:
        raise IllegalAction(f"the advanced rules use 1 to {MAX_SITES} sacred sites, not {sacred_sites}")
    s = PuebloState(players, variant, sacred_sites)
    col, neu = STONES_PER_PLAYER[players]
    held = HELD_BLOCKS if advanced else 0
    s.coloured = [col - held] * players
    s.neutral = [neu - held] * players
    s.held = [held] * players
    s.chief = START_SPACE
    s.pending = TableOp(ROLL, faces=players, why="first player")
    return s


BY_ORDER = frozenset((PLACE, MOVE, REMOVE, OVER))
"""The phases whose actor is the turn order's seat (most of a game: looked at first)."""


def actor(s: PuebloState) -> int:
    if s.phase in BY_ORDER:
        return s.order[s.at]
    if s.phase == ROLL_PHASE:
        return TABLE
    if s.phase == SITE:
        return (s.first + len(s.sites)) % s.players
    if s.phase == BID:
        return s.bidder
    if s.phase == PICK:
        return s.high_seat if s.high_seat is not None else s.opener
    return s.order[s.at]


def kinds_allowed(s: PuebloState, seat: int) -> tuple[str, ...]:
    """Which stone the seat may place: the lone coloured one first, then a begun block's other half."""
    if s.lone[seat]:
        return (COLOURED,) if s.coloured[seat] else ()
    if s.half[seat] is not None:
        return (s.half[seat],)
    return tuple(k for k, n in ((COLOURED, s.coloured[seat]), (NEUTRAL_KIND, s.neutral[seat])) if n)


def fitting_templates(s: PuebloState) -> list[int]:
    """The TEMPLATES indices of every placement that rests on the pueblo and covers no sacred site."""
    return list(chain.from_iterable(s.fit))


def own_board(s: PuebloState) -> None:
    """Copy the board's lists before a stone is placed or removed: PuebloState.copy shares them."""
    s.heights, s.stacks, s.stones = s.heights[:], s.stacks[:], s.stones[:]
    s.owners, s.fit = s.owners[:], s.fit[:]


BOXES_UNDER_KEYS = {cells: boxes_under_keys(boxes) for cells, boxes in BOXES_UNDER.items()}
"""Per placement's cells, each box it re-fits as (box, its 4 cells, the bit mask of its cells)."""


def refit(s: PuebloState, cells) -> None:
    """Heights changed on ``cells``: look again at the boxes they belong to.

    board.box_fit's memo is looked up here (its very key), without a call per box; box_fit on a miss.
    """
    heights, sites, fit, memo = s.heights, s.site_mask, s.fit, _FIT_MEMO
    for b, c0, c1, c2, c3, mask in BOXES_UNDER_KEYS[cells]:
        done = memo.get((b, heights[c0], heights[c1], heights[c2], heights[c3], sites & mask))
        fit[b] = box_fit(heights, sites, b) if done is None else done


def removable(s: PuebloState, sid: int) -> bool:
    """A stone can be lifted straight up: it is the top of each of its columns (house rule)."""
    stone = s.stones[sid]
    if stone is None:
        return False
    t = TEMPLATE_INDEX[stone[1], stone[2], stone[3]]
    return all(s.stacks[c][-1] == sid for c in t.cells)


def removals(s: PuebloState, seat: int) -> list[int]:
    """Stone ids the seat may take off: its own, or neutral ones while it has colour on the board.

    Only a stone on top of some column can be free, so only those are looked at.
    """
    mine = s.on_board(seat) > 0
    tops = sorted({stack[-1] for stack in s.stacks if stack})
    owners = s.owners
    return [sid for sid in tops
            if (owners[sid] == seat or (owners[sid] == NEUTRAL and mine)) and removable(s, sid)]


def stone_tall_cell(s: PuebloState, sid: int) -> int:
    st = s.stones[sid]
    return TEMPLATE_INDEX[st[1], st[2], st[3]].tall


def legal_actions(s: PuebloState, seat: int) -> list[tuple]:
    phase = s.phase
    if phase in (ROLL_PHASE, OVER) or seat != actor(s):
        return []
    if phase == PLACE:
        kinds = kinds_allowed(s, seat)
        if len(kinds) == 1:     # a comprehension: twice as fast as map(tuple.__getitem__, ...)
            places = PLACE_ACTIONS[kinds[0]]
            out = [places[i] for box in s.fit for i in box]
            return out if out else [("drop", kinds[0])]
        fits = fitting_templates(s)
        if not fits:
            return [("drop", k) for k in kinds]
        out = []
        for k in kinds:
            places = PLACE_ACTIONS[k]
            out += [places[i] for i in fits]
        return out
    if phase == MOVE:
        return list(MOVE_ACTIONS)
    if s.phase == SITE:
        return [("site",) + cells for cells in SITE_SHAPES if not cells_mask(cells) & s.site_mask]
    if s.phase == BID:
        return [("pass",)] + [("bid", b) for b in range(max(s.high + 1, MIN_BID), MAX_BID + 1)]
    if s.phase == PICK:
        return [("card", k) for k in free_cards(s)]
    if s.phase == REMOVE:
        return [("remove", stone_tall_cell(s, sid)) for sid in removals(s, seat)]
    return []   # no other phase


def free_cards(s: PuebloState) -> list[int]:
    taken = {c for c in s.card_of if c is not None}
    return [k for k in range(1, s.players + 1) if k not in taken]


def cells_mask(cells) -> int:
    m = 0
    for c in cells:
        m |= 1 << c
    return m


def ints(action: tuple, n: int) -> tuple[int, ...]:
    """A table outcome's numbers (the first-player roll)."""
    args = action[1:]
    if len(args) != n or not all(type(a) is int for a in args):
        raise IllegalAction(f"{action[0]} takes {n} whole number{'s' if n > 1 else ''}")
    return args


def read(record: type, action: tuple, why: str):
    """A seat's action as its record (actions.py), checked field by field; IllegalAction ``why`` if it is not one."""
    try:
        return read_action(record, action)
    except IllegalAction:
        raise IllegalAction(why) from None


def penalise(s: PuebloState, seat: int, points: int, what: str, ev: list) -> None:
    s.penalties = s.penalties[:]  # copy-on-write
    s.penalties[seat] += points
    ev.append(("score", seat, -points, what))


def kind_name(kind: str) -> Words:
    return Words("coloured") if kind == COLOURED else Words("neutral")


def colour_on_board(s: PuebloState) -> bool:
    return any(st is not None and st[0] != NEUTRAL for st in s.stones)
