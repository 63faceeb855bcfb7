"""The Pueblo state: the pueblo itself, every player's stones, the chieftain, the auction; and its save/load."""

from __future__ import annotations

from lanterne.engines.core import ROLL, Cards, PositionError, State, TableOp

from .data import CELLS, MAX_BID, MAX_SITES, NEUTRAL, STONES_PER_PLAYER, TRACK, VARIANTS
from .board import POSE_COLUMNS, SITE_SHAPES, TEMPLATE_INDEX, all_box_fits, base_level, cell_name

# Phases: who acts and with what kind of action.
ROLL_PHASE = "roll"  # the table rolls for the first player
SITE = "site"  # advanced: seats place the sacred sites
BID = "bid"  # advanced: bid or pass for the next turn-order card
PICK = "pick"  # advanced: the auction winner picks a card
PLACE = "place"  # place a stone (or drop it when none fits, house rule)
MOVE = "move"  # move the chieftain 1-4 spaces
REMOVE = "remove"  # dismantling: take a stone off
OVER = "over"

PHASES = (ROLL_PHASE, SITE, BID, PICK, PLACE, MOVE, REMOVE, OVER)

# Stages of the game.
BUILD_1 = 1  # building (the whole game in the standard rules; phase 1 in the advanced rules)
BUILD_2 = 2  # advanced: phase 2, with the held-back blocks
DISMANTLE = 3


class PuebloState(State):
    """Everything about a game in progress; ``copy`` is cheap (it shares the lists: the rules copy one before changing it).

    The pueblo: ``heights[cell]`` and ``stacks[cell]`` (the stone id of each
    cube, bottom first). ``stones[id]`` is (owner, orientation, x, y, base)
    for a stone on the board, None once dismantled; ``owners[id]`` keeps its
    owner (a seat, or NEUTRAL). ``fit`` is derived, not saved: per 2x2 box,
    the placements that rest there now, updated by ``apply`` where heights change.
    """

    __slots__ = (
        "players", "variant", "advanced", "dismantling", "cards", "pending", "phase", "stage",
        "first", "turn", "heights", "stacks", "stones", "owners", "sites", "site_mask",
        "sites_wanted", "coloured", "neutral", "lone", "half", "held", "dropped",
        "penalties", "chief", "order", "at", "card_of", "auction", "bidder", "high",
        "high_seat", "passed", "opener", "fit",
    )

    def __init__(self, players: int, variant: str, sites_wanted: int = 0):
        self.players = players
        self.variant = variant
        self.advanced = variant.startswith("advanced")
        self.dismantling = variant.endswith("dismantling")
        self.cards = Cards.new([], players)
        self.pending: TableOp | None = None
        self.phase = ROLL_PHASE
        self.stage = BUILD_1
        self.first = 0
        self.turn = 0
        self.heights = [0] * CELLS
        self.stacks: list[tuple[int, ...]] = [()] * CELLS
        self.stones: list[tuple[int, int, int, int, int] | None] = []
        self.owners: list[int] = []
        self.sites: list[tuple[int, int, int]] = []
        self.site_mask = 0
        self.sites_wanted = sites_wanted
        self.coloured = [0] * players  # coloured stones in reserve, the lone one included
        self.neutral = [0] * players
        self.lone = [True] * players  # the lone coloured stone is still to be placed
        self.half: list[str | None] = [None] * players  # the half of a begun block due next turn
        self.held = [0] * players  # advanced: blocks held back for phase 2
        self.dropped = [[0, 0] for _ in range(players)]  # (coloured, neutral) that fitted nowhere
        self.penalties = [0] * players
        self.chief = 0
        self.order = list(range(players))
        self.at = 0
        self.card_of: list[int | None] = [None] * players
        self.auction = 0  # how many auctions have started
        self.bidder = 0
        self.high = 0
        self.high_seat: int | None = None
        self.passed = 0  # bit mask of the seats out of the current card's auction
        self.opener = 0
        self.fit = all_box_fits(self.heights, 0)  # per 2x2 box, the templates that rest there now

    def copy(self) -> "PuebloState":
        s = object.__new__(PuebloState)
        s.players = self.players
        s.variant = self.variant
        s.advanced = self.advanced
        s.dismantling = self.dismantling
        s.cards = self.cards
        s.pending = self.pending
        s.phase = self.phase
        s.stage = self.stage
        s.first = self.first
        s.turn = self.turn
        # Copy-on-write: the board's lists (heights, stacks, stones, owners, fit) are shared;
        # only placing or removing a stone changes them, and rules.queries.own_board copies them
        # first (most moves are bids, picks, moves on the track: no copy needed).
        s.heights = self.heights
        s.stacks = self.stacks
        s.stones = self.stones
        s.owners = self.owners
        # The players' lists too (sites, reserves, lone, half, held, dropped, penalties, order,
        # card_of): the rules replace a list before changing it (copy-on-write), most moves change
        # one or two of them.
        s.sites = self.sites
        s.site_mask = self.site_mask
        s.sites_wanted = self.sites_wanted
        s.coloured = self.coloured
        s.neutral = self.neutral
        s.lone = self.lone
        s.half = self.half
        s.held = self.held
        s.dropped = self.dropped
        s.penalties = self.penalties
        s.chief = self.chief
        s.order = self.order
        s.at = self.at
        s.card_of = self.card_of
        s.auction = self.auction
        s.bidder = self.bidder
        s.high = self.high
        s.high_seat = self.high_seat
        s.passed = self.passed
        s.opener = self.opener
        s.fit = self.fit
        return s

    def share(self) -> "PuebloState":
        """A new state sharing every field's value with this one: a view (``PuebloGame.view``).

        Nothing is hidden in Pueblo, and no state is changed in place
        (``apply`` works on a ``copy``), so a view needs no list of its own.
        """
        # Field by field, written out (a getattr/setattr loop over __slots__ is twice as slow).
        s = object.__new__(PuebloState)
        s.players, s.variant, s.advanced, s.dismantling = self.players, self.variant, self.advanced, self.dismantling
        s.cards, s.pending, s.phase, s.stage = self.cards, self.pending, self.phase, self.stage
        s.first, s.turn, s.heights, s.stacks = self.first, self.turn, self.heights, self.stacks
        s.stones, s.owners, s.sites, s.site_mask = self.stones, self.owners, self.sites, self.site_mask
        s.sites_wanted, s.coloured, s.neutral, s.lone = self.sites_wanted, self.coloured, self.neutral, self.lone
        s.half, s.held, s.dropped, s.penalties = self.half, self.held, self.dropped, self.penalties
        s.chief, s.order, s.at, s.card_of = self.chief, self.order, self.at, self.card_of
        s.auction, s.bidder, s.high, s.high_seat = self.auction, self.bidder, self.high, self.high_seat
        s.passed, s.opener, s.fit = self.passed, self.opener, self.fit
        return s

    @property
    def seat(self) -> int:
        """The seat whose turn it is in the building and dismantling phases."""
        return self.order[self.at]

    def stones_left(self, seat: int) -> int:
        """Stones still to place in the current building phase."""
        return self.coloured[seat] + self.neutral[seat]

    def on_board(self, seat: int) -> int:
        """Coloured stones of ``seat`` on the board."""
        return sum(1 for s in self.stones if s is not None and s[0] == seat)

    def to_data(self) -> dict:
        return state_to_data(self)


# ------------------------------------------------------------------ save/load
# The pueblo itself is not stored cube by cube: a position lists the stones in
# the order they were placed (owner, orientation, 2x2 box) and loading rebuilds
# the height map by placing them again, so a position with a floating cube or
# a cube inside another cannot load.

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
