"""Pueblo positions as plain data, and loading them back with every check.

The pueblo itself is not stored cube by cube: a position lists the stones in
the order they were placed (owner, orientation, 2x2 box) and loading rebuilds
the height map by placing them again, so a position with a floating cube or
a cube inside another cannot load.
"""

from __future__ import annotations

from engines.core import ROLL, PositionError, TableOp

from .data import CELLS, MAX_BID, MAX_SITES, NEUTRAL, STONES_PER_PLAYER, TRACK
from .geometry import POSE_COLUMNS, TEMPLATE_INDEX, all_box_fits, base_level, cell_name
from .state import PHASES, ROLL_PHASE, PuebloState

VARIANTS = ("standard", "advanced", "dismantling", "advanced+dismantling")


def state_to_data(s: PuebloState) -> dict:
    return {
        "players": s.players, "variant": s.variant, "phase": s.phase, "stage": s.stage,
        "first": s.first, "turn": s.turn,
        "stones": [[s.owners[i]] if st is None else [st[0], st[1], st[2], st[3]]
                   for i, st in enumerate(s.stones)],
        "sites": [list(c) for c in s.sites], "sites_wanted": s.sites_wanted,
        "coloured": s.coloured[:], "neutral": s.neutral[:], "lone": s.lone[:], "half": s.half[:],
        "held": s.held[:], "dropped": [d[:] for d in s.dropped], "penalties": s.penalties[:],
        "chief": s.chief, "order": s.order[:], "at": s.at,
        "card_of": s.card_of[:], "auction": s.auction, "bidder": s.bidder, "high": s.high,
        "high_seat": s.high_seat, "passed": s.passed, "opener": s.opener,
        "pending": None if s.pending is None else s.pending.to_data(),
    }


def _int(data: dict, key: str, lo: int, hi: int) -> int:
    v = data[key]
    if type(v) is not int or not lo <= v <= hi:
        raise PositionError(f"{key} must be a whole number {lo}..{hi}, not {v!r}")
    return v


def _ints(data: dict, key: str, n: int, lo: int, hi: int, none: bool = False) -> list:
    v = data[key]
    if not isinstance(v, list) or len(v) != n:
        raise PositionError(f"{key} must list {n} values")
    for x in v:
        if x is None and none:
            continue
        if type(x) is not int or not lo <= x <= hi:
            raise PositionError(f"{key} holds {x!r}, not a whole number {lo}..{hi}")
    return list(v)


def load_state(data: dict) -> PuebloState:
    """The state of a position; PositionError (one line) for anything wrong with it."""
    try:
        return _load_state(data)
    except PositionError:
        raise
    except KeyError as e:
        raise PositionError(f"corrupt Pueblo position: {e.args[0]!r} is missing") from None
    except (TypeError, ValueError, IndexError, AttributeError) as e:
        raise PositionError(f"corrupt Pueblo position: {type(e).__name__} {e}") from None


def _load_state(data: dict) -> PuebloState:
    if not isinstance(data, dict):
        raise PositionError("a Pueblo position is a map")
    players = _int(data, "players", 2, 4)
    variant = data["variant"]
    if variant not in VARIANTS:
        raise PositionError(f"unknown variant {variant!r}")
    s = PuebloState(players, variant, _int(data, "sites_wanted", 0, MAX_SITES))
    if data["phase"] not in PHASES:
        raise PositionError(f"unknown phase {data['phase']!r}")
    s.phase = data["phase"]
    s.stage = _int(data, "stage", 1, 3)
    s.first = _int(data, "first", 0, players - 1)
    s.turn = _int(data, "turn", 0, 10_000)
    s.chief = _int(data, "chief", 0, TRACK - 1)
    s.at = _int(data, "at", 0, players - 1)
    s.auction = _int(data, "auction", 0, 3)
    s.bidder = _int(data, "bidder", 0, players - 1)
    s.high = _int(data, "high", 0, MAX_BID)
    s.opener = _int(data, "opener", 0, players - 1)
    s.passed = _int(data, "passed", 0, (1 << players) - 1)
    hs = data["high_seat"]
    if hs is not None and (type(hs) is not int or not 0 <= hs < players):
        raise PositionError(f"high_seat must be a seat or null, not {hs!r}")
    s.high_seat = hs
    total_c, total_n = STONES_PER_PLAYER[players]
    s.coloured = _ints(data, "coloured", players, 0, total_c)
    s.neutral = _ints(data, "neutral", players, 0, total_n)
    s.held = _ints(data, "held", players, 0, total_n)
    s.penalties = _ints(data, "penalties", players, 0, 1_000_000)
    s.card_of = _ints(data, "card_of", players, 1, players, none=True)
    s.order = _ints(data, "order", players, 0, players - 1)
    if sorted(s.order) != list(range(players)):
        raise PositionError("order must name every seat once")
    lone = data["lone"]
    if not isinstance(lone, list) or len(lone) != players or not all(type(x) is bool for x in lone):
        raise PositionError("lone must list a true/false per seat")
    s.lone = list(lone)
    half = data["half"]
    if not isinstance(half, list) or len(half) != players or not all(x in (None, "C", "N") for x in half):
        raise PositionError("half must list C, N or null per seat")
    s.half = list(half)
    dropped = data["dropped"]
    if not isinstance(dropped, list) or len(dropped) != players:
        raise PositionError("dropped must list a pair per seat")
    s.dropped = []
    for d in dropped:
        if not isinstance(d, list) or len(d) != 2 or not all(type(x) is int and x >= 0 for x in d):
            raise PositionError("dropped must list a pair of counts per seat")
        s.dropped.append(list(d))
    s.pending = TableOp.from_data(data["pending"])
    if (s.phase == ROLL_PHASE) != (s.pending is not None):
        raise PositionError("the table's first-player roll is pending exactly in the roll phase")
    if s.pending is not None and (s.pending.kind != ROLL or s.pending.faces != players):
        raise PositionError(f"the pending table operation must be a {players}-faced roll")
    _load_sites(s, data["sites"])
    _load_stones(s, data["stones"])
    s.fit = all_box_fits(s.heights, s.site_mask)
    _check_stones_accounted(s, total_c, total_n)
    return s


def _load_sites(s: PuebloState, sites: list) -> None:
    from .rules import SITE_SHAPES

    if not isinstance(sites, list) or len(sites) > MAX_SITES:
        raise PositionError(f"sites must list at most {MAX_SITES} sacred sites")
    for cells in sites:
        t = tuple(cells) if isinstance(cells, list) else None
        if t not in SITE_SHAPES:
            raise PositionError(f"sacred site {cells!r} is not 3 cells of a 2x2 square")
        mask = sum(1 << c for c in t)
        if mask & s.site_mask:
            raise PositionError("two sacred sites overlap")
        s.sites.append(t)
        s.site_mask |= mask


def _load_stones(s: PuebloState, stones: list) -> None:
    if not isinstance(stones, list):
        raise PositionError("stones must be a list")
    for sid, st in enumerate(stones):
        if not isinstance(st, list) or len(st) not in (1, 4) or not all(type(x) is int for x in st):
            raise PositionError(f"stone {sid} must be [owner, orientation, x, y] or [owner] once removed")
        owner = st[0]
        if owner != NEUTRAL and not 0 <= owner < s.players:
            raise PositionError(f"stone {sid} has owner {owner}, not a seat or -1 (neutral)")
        s.owners.append(owner)
        if len(st) == 1:
            s.stones.append(None)
            continue
        t = TEMPLATE_INDEX.get((st[1], st[2], st[3]))
        if t is None:
            raise PositionError(f"stone {sid}: no orientation {st[1]} at box {st[2]},{st[3]}")
        if t.mask & s.site_mask:
            raise PositionError(f"stone {sid} stands on a sacred site")
        base = base_level(s.heights, t)
        if base is None:
            raise PositionError(f"stone {sid} does not rest on the pueblo at {', '.join(cell_name(c) for c in t.cells)}")
        s.stones.append((owner, t.orient, t.x, t.y, base))
        for c, col in zip(t.cells, POSE_COLUMNS[t.orient]):
            s.stacks[c] = s.stacks[c] + (sid,) * col.count
            s.heights[c] += col.count
    if len(s.heights) != CELLS:
        raise PositionError("the pueblo is 8 x 8")


def _check_stones_accounted(s: PuebloState, total_c: int, total_n: int) -> None:
    """Every stone is in a reserve, held back, on the board, taken off, or set aside."""
    for p in range(s.players):
        placed_c = sum(1 for o in s.owners if o == p)
        if placed_c + s.coloured[p] + s.held[p] + s.dropped[p][0] != total_c:
            raise PositionError(f"seat {p + 1}'s coloured stones do not add up to {total_c}")
    placed_n = sum(1 for o in s.owners if o == NEUTRAL)
    if placed_n + sum(s.neutral) + sum(s.held) + sum(d[1] for d in s.dropped) != total_n * s.players:
        raise PositionError(f"the neutral stones do not add up to {total_n * s.players}")
