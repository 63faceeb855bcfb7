"""The Pueblo state: the pueblo itself, every player's stones, the chieftain, the auction."""

from __future__ import annotations

from engines.core import Cards, State, TableOp

from .data import CELLS
from .geometry import all_box_fits

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
    """Everything about a game in progress; ``copy`` is cheap (tuples inside lists).

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
        s.heights = self.heights[:]
        s.stacks = self.stacks[:]
        s.stones = self.stones[:]
        s.owners = self.owners[:]
        s.sites = self.sites[:]
        s.site_mask = self.site_mask
        s.sites_wanted = self.sites_wanted
        s.coloured = self.coloured[:]
        s.neutral = self.neutral[:]
        s.lone = self.lone[:]
        s.half = self.half[:]
        s.held = self.held[:]
        s.dropped = [d[:] for d in self.dropped]
        s.penalties = self.penalties[:]
        s.chief = self.chief
        s.order = self.order[:]
        s.at = self.at
        s.card_of = self.card_of[:]
        s.auction = self.auction
        s.bidder = self.bidder
        s.high = self.high
        s.high_seat = self.high_seat
        s.passed = self.passed
        s.opener = self.opener
        s.fit = self.fit[:]
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
        from .position import state_to_data

        return state_to_data(self)
