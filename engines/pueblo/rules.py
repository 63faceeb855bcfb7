"""Pueblo's rules: who acts, what they may do, and what an action changes.

One function per kind of action; :func:`apply` validates, copies the state,
and dispatches. Every penalty point is a ``("score", seat, -points, what)``
event, so that ``scores`` (negated penalties) is the sum of the score events.
"""

from __future__ import annotations

from itertools import chain

from lanterne.engines.core import ROLL, TABLE, Event, IllegalAction, TableOp, Words, read_action

from .actions import Bid, Card, Drop, Move, Pass, Place, Remove, Site

from .data import (DEFAULT_SITES, HELD_BLOCKS, MAX_BID, MAX_SITES, MIN_BID, MOVES, NEUTRAL, START_SPACE,
                   STONES_PER_PLAYER, TRACK)
from .board import (_FIT_MEMO, BOXES_UNDER, POSE_COLUMNS, SITE_SHAPES, SPACE_NAMES, TEMPLATE_INDEX, TEMPLATES,
                       all_box_fits, base_level, box_fit, boxes_under_keys, cell_name, penalties_at, why_not)
from .state import (BID, BUILD_1, BUILD_2, DISMANTLE, MOVE, OVER, PICK, PLACE, REMOVE, ROLL_PHASE, SITE,
                    PuebloState)

COLOURED = "C"
NEUTRAL_KIND = "N"
KINDS = (COLOURED, NEUTRAL_KIND)

PLACE_ACTIONS: dict[str, tuple[tuple, ...]] = {
    k: tuple(("place", k, t.orient, t.x, t.y) for t in TEMPLATES) for k in KINDS}
"""Every place action, in TEMPLATES order, built once."""

_SITE_SET = frozenset(SITE_SHAPES)

_MOVE_ACTIONS = tuple(("move", n) for n in MOVES)


# ------------------------------------------------------------------ setup


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


# ------------------------------------------------------------------ who acts


_BY_ORDER = frozenset((PLACE, MOVE, REMOVE, OVER))
"""The phases whose actor is the turn order's seat (most of a game: looked at first)."""


def actor(s: PuebloState) -> int:
    if s.phase in _BY_ORDER:
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


def _own_board(s: PuebloState) -> None:
    """Copy the board's lists before a stone is placed or removed: PuebloState.copy shares them."""
    s.heights, s.stacks, s.stones = s.heights[:], s.stacks[:], s.stones[:]
    s.owners, s.fit = s.owners[:], s.fit[:]


_BOXES_UNDER_KEYS = {cells: boxes_under_keys(boxes) for cells, boxes in BOXES_UNDER.items()}
"""Per placement's cells, each box it re-fits as (box, its 4 cells, the bit mask of its cells)."""


def refit(s: PuebloState, cells) -> None:
    """Heights changed on ``cells``: look again at the boxes they belong to.

    board.box_fit's memo is looked up here (its very key), without a call per box; box_fit on a miss.
    """
    heights, sites, fit, memo = s.heights, s.site_mask, s.fit, _FIT_MEMO
    for b, c0, c1, c2, c3, mask in _BOXES_UNDER_KEYS[cells]:
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
        return list(_MOVE_ACTIONS)
    if s.phase == SITE:
        return [("site",) + cells for cells in SITE_SHAPES if not _mask(cells) & s.site_mask]
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


def _mask(cells) -> int:
    m = 0
    for c in cells:
        m |= 1 << c
    return m


# ------------------------------------------------------------------ apply


def apply(state: PuebloState, action: tuple) -> tuple[PuebloState, list[Event]]:
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        raise IllegalAction(f"not an action: {action!r}")
    kind = action[0]
    if state.phase == OVER:
        raise IllegalAction("the game is over")
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise IllegalAction(f"unknown action {kind!r}")
    want = _PHASE_OF[kind]
    if state.phase != want:
        raise IllegalAction(Words("cannot {action} now: {why}", action=kind, why=_WAITING[state.phase]))
    s = state.copy()
    events: list[Event] = []
    handler(s, action, actor(state), events)
    return s, events


def _ints(action: tuple, n: int) -> tuple[int, ...]:
    """A table outcome's numbers (the first-player roll)."""
    args = action[1:]
    if len(args) != n or not all(type(a) is int for a in args):
        raise IllegalAction(f"{action[0]} takes {n} whole number{'s' if n > 1 else ''}")
    return args


def _read(record: type, action: tuple, why: str):
    """A seat's action as its record (actions.py), checked field by field; IllegalAction ``why`` if it is not one."""
    try:
        return read_action(record, action)
    except IllegalAction:
        raise IllegalAction(why) from None


def _roll(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    (v,) = _ints(action, 1)
    if not 0 <= v < s.players:
        raise IllegalAction(f"the first-player roll must be 0..{s.players - 1}")
    s.pending = None
    s.first = v
    s.order = [(v + i) % s.players for i in range(s.players)]
    s.at = 0
    ev.append(("first", v))
    if s.advanced:
        s.phase = SITE
    else:
        s.phase = PLACE


def _site(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    site = _read(Site, action, "site takes 3 whole numbers")
    cells = tuple(sorted((site.cell_a, site.cell_b, site.cell_c)))
    if cells not in _SITE_SET:
        raise IllegalAction(Words("a sacred site covers 3 cells of a 2x2 square (an L)"))
    mask = _mask(cells)
    if mask & s.site_mask:
        raise IllegalAction(Words("sacred sites cannot overlap"))
    s.sites = [*s.sites, cells]  # copy-on-write (PuebloState.copy shares the list)
    s.site_mask |= mask
    s.fit = all_box_fits(s.heights, s.site_mask)
    ev.append(("site", seat, cells))
    if len(s.sites) == s.sites_wanted:
        _start_auction(s, ev)


def _start_auction(s: PuebloState, ev: list) -> None:
    s.auction += 1
    s.card_of = [None] * s.players
    s.opener = s.first  # house rule: the rolled seat plays the "oldest player" in every auction
    ev.append(("auction", s.auction))
    _start_card(s, ev)


def _start_card(s: PuebloState, ev: list) -> None:
    free = [p for p in range(s.players) if s.card_of[p] is None]
    if len(free) == 1:
        (last,) = free_cards(s)
        s.card_of = s.card_of[:]  # copy-on-write
        s.card_of[free[0]] = last
        ev.append(("card", free[0], last, 0))
        _end_auction(s, ev)
        return
    s.phase = BID
    s.bidder = s.opener
    s.high = 0
    s.high_seat = None
    s.passed = 0


def _end_auction(s: PuebloState, ev: list) -> None:
    s.order = sorted(range(s.players), key=lambda p: s.card_of[p])
    s.at = 0
    ev.append(("order", tuple(s.order)))
    if s.stage == DISMANTLE:
        _start_dismantle_turn(s)
    else:
        s.phase = PLACE


def _next_bidder(s: PuebloState) -> None:
    """Clockwise to the next seat still in this card's auction."""
    p = s.bidder
    for _ in range(s.players):
        p = (p + 1) % s.players
        if s.card_of[p] is None and not s.passed >> p & 1:
            s.bidder = p
            return


def _after_bid(s: PuebloState) -> None:
    bidding = [p for p in range(s.players) if s.card_of[p] is None and not s.passed >> p & 1]
    if s.high_seat is not None and bidding == [s.high_seat]:
        s.phase = PICK
    elif not bidding:
        s.phase = PICK  # everybody passed: the opener takes a card for free
        s.high_seat = s.opener
        s.high = 0
    else:
        _next_bidder(s)


def _bid(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    n = _read(Bid, action, "bid takes 1 whole number").points
    if n < MIN_BID or n > MAX_BID:
        raise IllegalAction(Words("a bid is {low} to {high} penalty points", low=MIN_BID, high=MAX_BID))
    if n <= s.high:
        raise IllegalAction(Words("a bid must beat {n}", n=s.high))
    s.high = n
    s.high_seat = seat
    ev.append(("bid", seat, n))
    _after_bid(s)


def _pass(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    _read(Pass, action, "pass takes nothing")
    s.passed |= 1 << seat
    ev.append(("pass", seat))
    _after_bid(s)


def _card(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    k = _read(Card, action, "card takes 1 whole number").number
    if k not in free_cards(s):
        raise IllegalAction(Words("turn-order card {card} is not available (left: {left})", card=k,
                                  left=", ".join(map(str, free_cards(s)))))
    s.card_of = s.card_of[:]  # copy-on-write
    s.card_of[seat] = k
    ev.append(("card", seat, k, s.high))
    if s.high:
        _penalise(s, seat, s.high, f"bid for turn-order card {k}", ev)
    p = seat
    for _ in range(s.players):
        p = (p + 1) % s.players
        if s.card_of[p] is None:
            s.opener = p  # the player to the winner's left opens the next card
            break
    _start_card(s, ev)


def _penalise(s: PuebloState, seat: int, points: int, what: str, ev: list) -> None:
    s.penalties = s.penalties[:]  # copy-on-write
    s.penalties[seat] += points
    ev.append(("score", seat, -points, what))


def _place(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    why = "place takes a stone (C or N), an orientation and a cell"
    place = _read(Place, action, why)
    if place.stone not in KINDS:
        raise IllegalAction(why)
    kind = place.stone
    allowed = kinds_allowed(s, seat)
    if kind not in allowed:
        if s.lone[seat]:
            raise IllegalAction(Words("the lone coloured stone must be placed first"))
        if s.half[seat] is not None:
            raise IllegalAction(Words("the begun block must be finished: place the {kind} stone",
                                      kind=_kind_name(s.half[seat])))
        raise IllegalAction(Words("no {kind} stone left", kind=_kind_name(kind)))
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
    _own_board(s)
    sid = len(s.stones)
    s.stones.append((owner, t.orient, t.x, t.y, base))
    s.owners.append(owner)
    for c, col in zip(t.cells, POSE_COLUMNS[t.orient]):
        s.stacks[c] = s.stacks[c] + (sid,) * col.count
        s.heights[c] += col.count
    refit(s, t.cells)
    _take_from_reserve(s, seat, kind)
    ev.append(("place", seat, kind, t.orient, t.x, t.y, base))
    s.phase = MOVE


def _take_from_reserve(s: PuebloState, seat: int, kind: str) -> None:
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


def _kind_name(kind: str) -> Words:
    return Words("coloured") if kind == COLOURED else Words("neutral")


def _drop(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    kind = _read(Drop, action, "drop takes a stone, C or N").stone
    if kind not in KINDS:
        raise IllegalAction("drop takes a stone, C or N")
    if kind not in kinds_allowed(s, seat):
        raise IllegalAction(Words("the {kind} stone is not the one due", kind=_kind_name(kind)))
    if fitting_templates(s):
        raise IllegalAction(Words("a stone may only be dropped when it fits nowhere"))
    s.dropped = [d[:] for d in s.dropped]  # copy-on-write
    s.dropped[seat][0 if kind == COLOURED else 1] += 1
    _take_from_reserve(s, seat, kind)
    ev.append(("drop", seat, kind))
    s.phase = MOVE


def _move(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    n = _read(Move, action, "move takes 1 whole number").steps
    if n not in MOVES:
        raise IllegalAction(Words("the chieftain moves 1 to 4 spaces"))
    start = s.chief
    s.chief = (start + n) % TRACK
    ev.append(("chief", seat, start, s.chief))
    score_space(s, s.chief, ev)
    s.turn += 1
    if s.stage == DISMANTLE:
        s.at = (s.at + 1) % s.players
        _start_dismantle_turn(s)
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
        _start_auction(s, ev)
        return
    _final_round(s, ev)


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


def _final_round(s: PuebloState, ev: list) -> None:
    """The white marker goes on his space; he walks all 36 spaces, scoring each, back to it."""
    start = s.chief
    ev.append(("final round", start))
    for k in range(1, TRACK + 1):
        s.chief = (start + k) % TRACK
        score_space(s, s.chief, ev)
    if not s.dismantling or not _colour_on_board(s):
        _game_over(s, ev)  # dismantling ends with the last coloured stone: none, nothing to do
        return
    s.stage = DISMANTLE
    if s.advanced:
        _start_auction(s, ev)
    else:
        s.order = [(s.first + i) % s.players for i in range(s.players)]
        s.at = 0
        _start_dismantle_turn(s)


def _start_dismantle_turn(s: PuebloState) -> None:
    s.phase = REMOVE if removals(s, s.seat) else MOVE


def _remove(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    c = _read(Remove, action, "remove takes 1 whole number").cell
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
    _own_board(s)
    for cc, col in zip(t.cells, POSE_COLUMNS[t.orient]):
        s.stacks[cc] = s.stacks[cc][:-col.count]
        s.heights[cc] -= col.count
    refit(s, t.cells)
    s.stones[sid] = None
    ev.append(("remove", seat, sid, c))
    if not _colour_on_board(s):
        _game_over(s, ev)
        return
    s.phase = MOVE


def _colour_on_board(s: PuebloState) -> bool:
    return any(st is not None and st[0] != NEUTRAL for st in s.stones)


def _game_over(s: PuebloState, ev: list) -> None:
    s.phase = OVER
    best = min(s.penalties)
    ev.append(("over", tuple(p for p in range(s.players) if s.penalties[p] == best)))


_HANDLERS = {"roll": _roll, "site": _site, "bid": _bid, "pass": _pass, "card": _card, "place": _place,
             "drop": _drop, "move": _move, "remove": _remove}
_PHASE_OF = {"roll": ROLL_PHASE, "site": SITE, "bid": BID, "pass": BID, "card": PICK, "place": PLACE,
             "drop": PLACE, "move": MOVE, "remove": REMOVE}
_WAITING = {ROLL_PHASE: Words("the table must roll for the first player"),
            SITE: Words("a sacred site must be placed"), BID: Words("the turn-order auction is on"),
            PICK: Words("the auction winner must pick a turn-order card"), PLACE: Words("a stone must be placed"),
            MOVE: Words("the chieftain must be moved"), REMOVE: Words("a stone must be removed"),
            OVER: Words("the game is over")}
