"""The state of a game of Pacal's Rocket (the position, as an object).

Everything is public: the ships, the stones (those under a ship too: every
player saw them dropped), pyramids, supplies, energy pieces and scores.
"""

from __future__ import annotations

from engines.core import Cards, State, TableOp
from engines.pacal.board import CELLS

FIRST = "first"      # the table rolls for the first player
PLACE = "place"      # ships go into the sacred district, one by one
ROLL = "roll"        # the table rolls the die
MOVE = "move"        # the seat to act moves its ship
STONES = "stones"    # ... puts divine stones into ships
BUILD = "build"      # ... builds or upgrades a pyramid, or passes
OVER = "over"
PHASES = (FIRST, PLACE, ROLL, MOVE, STONES, BUILD, OVER)

STANDARD, EXPERT = "standard", "expert"


class PacalState(State):
    """A position. Lists are per seat or per cell; ``copy`` copies them all."""

    __slots__ = (
        "players", "variant", "cards", "pending", "phase", "turn", "round", "roller", "current",
        "face", "allowance", "ships", "stones", "pyramids", "pyramid_owner", "pyramid_size", "stone_supply",
        "pyramid_supply", "energy", "score", "triggered", "bonus_taken", "end_reason",
    )

    players: int
    variant: str
    phase: str
    turn: int               # turns (a seat's move, stones and build) completed
    round: int              # 1-based; 0 before the first roll
    roller: int             # the seat that starts (and rolls for) the current round
    current: int            # the seat to act (its turn), -1 before the first player is known
    face: int | None        # the die face in force (data.ARROWS for arrows), None before a roll
    allowance: int          # stones the current move allows (0, 1 or 2)
    ships: list[int | None]           # per seat: the cell of its ship, None before placing
    stones: list[int]                 # per seat: bitboard of the cells with its stone (bit = cell)
    pyramids: list[int]               # per seat: bitboard of the cells with its pyramids
    pyramid_owner: list[int]          # per cell: the seat owning the pyramid there, -1 for none
    pyramid_size: list[int]           # per cell: its storeys, 0 for none
    stone_supply: list[int]           # per seat: stones in front of the player
    pyramid_supply: list[list[int]]   # per seat: pyramids left by storeys [1..5] (index 0 = 1 storey)
    energy: list[list[int]]           # per seat: energy pieces left, ascending
    score: list[int]                  # per seat: points on the track
    triggered: bool                   # a player reached the end threshold
    bonus_taken: list[bool]           # per seat: scored the second-to-last pyramid bonus
    end_reason: str                   # why the game ended ('' while it goes on)

    def copy(self) -> "PacalState":
        s = PacalState.__new__(PacalState)
        s.players, s.variant, s.cards, s.pending = self.players, self.variant, self.cards, self.pending
        s.phase, s.turn, s.round, s.roller, s.current = self.phase, self.turn, self.round, self.roller, self.current
        s.face, s.allowance = self.face, self.allowance
        s.ships, s.stones, s.pyramids = self.ships[:], self.stones[:], self.pyramids[:]
        s.pyramid_owner, s.pyramid_size = self.pyramid_owner[:], self.pyramid_size[:]
        s.stone_supply = self.stone_supply[:]
        s.pyramid_supply = [p[:] for p in self.pyramid_supply]
        s.energy = [e[:] for e in self.energy]
        s.score, s.triggered, s.bonus_taken = self.score[:], self.triggered, self.bonus_taken[:]
        s.end_reason = self.end_reason
        return s

    @property
    def expert(self) -> bool:
        return self.variant == EXPERT

    def stone_mask(self, c: int) -> int:
        """The colours (bit = seat) with a stone on cell ``c``."""
        return sum(1 << p for p, bits in enumerate(self.stones) if bits >> c & 1)

    def ship_at(self, c: int) -> int:
        """The seat whose ship stands on cell ``c``, or -1."""
        for seat, at in enumerate(self.ships):
            if at == c:
                return seat
        return -1

    def to_data(self) -> dict:
        """The position as plain data (see engines.pacal.position for the format)."""
        from engines.pacal.position import state_to_data

        return state_to_data(self)


def new_state(players: int, variant: str, pending: TableOp) -> PacalState:
    from engines.pacal import data

    s = PacalState.__new__(PacalState)
    s.players, s.variant = players, variant
    s.cards = Cards.new([], players)
    s.pending = pending
    s.phase, s.turn, s.round, s.roller, s.current = FIRST, 0, 0, 0, -1
    s.face, s.allowance = None, 0
    s.ships = [None] * players
    s.stones = [0] * players
    s.pyramids = [0] * players
    s.pyramid_owner, s.pyramid_size = [-1] * CELLS, [0] * CELLS
    s.stone_supply = [data.STONES_IN_PLAY] * players
    s.pyramid_supply = [[data.PYRAMIDS[k] for k in range(1, 6)] for _ in range(players)]
    s.energy = [list(data.ENERGY) for _ in range(players)]
    s.score = [0] * players
    s.triggered = False
    s.bonus_taken = [False] * players
    s.end_reason = ""
    return s
