"""The state of a game of Pacal's Rocket (the position, as an object).

Everything is public: the ships, the stones (those under a ship too: every
player saw them dropped), pyramids, supplies, energy pieces and scores.
"""

from __future__ import annotations

from lanterne.engines.core import ROLL as ROLL_OP
from lanterne.engines.core import Cards, PositionError, State, TableOp

from . import data
from .board import CELLS, SACRED_CELLS, bit_cells, board_for, cell_name, parse_cell
from .data import EXPERT, STANDARD

FIRST = "first"      # the table rolls for the first player
PLACE = "place"      # ships go into the sacred district, one by one
ROLL = "roll"        # the table rolls the die
MOVE = "move"        # the seat to act moves its ship
STONES = "stones"    # ... puts divine stones into ships
BUILD = "build"      # ... builds or upgrades a pyramid, or passes
OVER = "over"
PHASES = (FIRST, PLACE, ROLL, MOVE, STONES, BUILD, OVER)


class PacalState(State):
    """A position. Lists are per seat or per cell; ``copy`` copies those most moves change, shares the others."""

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
        # Shared, not copied: only a build changes them, and rules._build copies them first
        # (two 169-cell lists copied on every move were a tenth of a random game's time).
        s.pyramid_owner, s.pyramid_size = self.pyramid_owner, self.pyramid_size
        s.stone_supply = self.stone_supply[:]
        # Shared too: only a build changes pyramid_supply, bonus_taken and score (and the end
        # the score), only an energy move energy; rules copies each before changing it.
        s.pyramid_supply, s.energy = self.pyramid_supply, self.energy
        s.score, s.triggered, s.bonus_taken = self.score, self.triggered, self.bonus_taken
        s.end_reason = self.end_reason
        return s

    def share(self) -> "PacalState":
        """A new state sharing every field's value with this one: a view (``PacalGame.view``).

        Nothing is hidden in Pacal's Rocket, and no state is changed in place
        (``apply`` works on a ``copy``), so a view needs no list of its own.
        """
        s = PacalState.__new__(PacalState)
        s.players, s.variant, s.cards, s.pending = self.players, self.variant, self.cards, self.pending
        s.phase, s.turn, s.round, s.roller, s.current = self.phase, self.turn, self.round, self.roller, self.current
        s.face, s.allowance = self.face, self.allowance
        s.ships, s.stones, s.pyramids = self.ships, self.stones, self.pyramids
        s.pyramid_owner, s.pyramid_size = self.pyramid_owner, self.pyramid_size
        s.stone_supply, s.pyramid_supply, s.energy = self.stone_supply, self.pyramid_supply, self.energy
        s.score, s.triggered, s.bonus_taken = self.score, self.triggered, self.bonus_taken
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
        """The position as plain data (the format: below, :func:`state_to_data`)."""
        return state_to_data(self)


def new_state(players: int, variant: str, pending: TableOp) -> PacalState:
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


# ------------------------------------------------------------------ save/load
# The position format: a state as plain data, and back with every check.
#
# Cells are written by name (``e7``) so that a saved game reads like the board::
#
#     {"players": 3, "variant": "standard", "phase": "move", "turn": 7, "round": 3,
#      "roller": 2, "current": 0, "face": 4, "allowance": 0, "pending": null,
#      "ships": ["f8", "d3", "k9"], "stones": {"c3": [0, 2]},
#      "pyramids": {"e5": [1, 3]}, "stone_supply": [9, 10, 9],
#      "pyramid_supply": [[1, 3, 3, 2, 2], ...], "energy": [[2, 4, 6], ...],
#      "score": [0, 4, 0], "triggered": false, "bonus_taken": [false, ...], "end_reason": ""}
#
# ``face`` is 2..5, or 0 for the arrows. Loading checks that every stone and
# pyramid is accounted for (supply + board = the set of each colour).


def state_to_data(s: PacalState) -> dict:
    stones: dict[str, list[int]] = {}
    for c in sorted(set().union(*(bit_cells(b) for b in s.stones))):
        stones[cell_name(c)] = [p for p in range(s.players) if s.stones[p] >> c & 1]
    pyramids = {cell_name(c): [o, s.pyramid_size[c]] for c, o in enumerate(s.pyramid_owner) if o >= 0}
    return {
        "players": s.players, "variant": s.variant, "phase": s.phase, "turn": s.turn, "round": s.round,
        "roller": s.roller, "current": s.current, "face": s.face, "allowance": s.allowance,
        "pending": s.pending.to_data() if s.pending is not None else None,
        "ships": [cell_name(c) if c is not None else None for c in s.ships],
        "stones": stones, "pyramids": pyramids,
        "stone_supply": list(s.stone_supply), "pyramid_supply": [list(p) for p in s.pyramid_supply],
        "energy": [list(e) for e in s.energy], "score": list(s.score), "triggered": s.triggered,
        "bonus_taken": list(s.bonus_taken), "end_reason": s.end_reason,
    }


def _fail(msg: str):
    raise PositionError(f"Pacal's Rocket position: {msg}")


def _int(data_: dict, key: str, lo: int, hi: int) -> int:
    v = data_.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        _fail(f"{key} must be a whole number from {lo} to {hi}, not {v!r}")
    return v


def _bool(v, what: str) -> bool:
    if not isinstance(v, bool):
        _fail(f"{what} must be true or false, not {v!r}")
    return v


def _cell(name, what: str) -> int:
    c = parse_cell(name) if isinstance(name, str) else None
    if c is None:
        _fail(f"{what}: {name!r} is not a cell")
    return c


def _list(v, n: int, what: str) -> list:
    if not isinstance(v, list) or len(v) != n:
        _fail(f"{what} must be a list of {n}")
    return v


def load_state(d: dict) -> PacalState:
    if not isinstance(d, dict):
        _fail("not a map")
    players = _int(d, "players", 2, 5)
    variant = d.get("variant")
    if variant not in (STANDARD, EXPERT):
        _fail(f"no variant {variant!r}")
    board = board_for(players)
    s = PacalState.__new__(PacalState)
    s.players, s.variant, s.cards = players, variant, Cards.new([], players)
    s.phase = d.get("phase")
    if s.phase not in PHASES:
        _fail(f"no phase {s.phase!r}")
    s.turn = _int(d, "turn", 0, 10**9)
    s.round = _int(d, "round", 0, 10**9)
    s.roller = _int(d, "roller", 0, players - 1)
    s.current = _int(d, "current", -1, players - 1)
    face = d.get("face")
    if face is not None and (isinstance(face, bool) or face not in set(data.DIE_FACES)):
        _fail(f"no die face {face!r}")
    s.face = face
    s.allowance = _int(d, "allowance", 0, 2)
    pending = d.get("pending")
    try:
        s.pending = TableOp.from_data(pending)
    except (KeyError, TypeError) as e:
        _fail(f"bad table operation {e}")
    ships = _list(d.get("ships"), players, "ships")
    s.ships = [None if x is None else _cell(x, "ship") for x in ships]
    placed = [c for c in s.ships if c is not None]
    if len(set(placed)) != len(placed):
        _fail("two ships on one cell")
    for c in placed:
        if not board.playable[c]:
            _fail(f"a ship on {cell_name(c)}, which is not in play")
    s.stones = [0] * players
    stones = d.get("stones")
    if not isinstance(stones, dict):
        _fail("stones must be a map of cell to colours")
    for name, seats in stones.items():
        c = _cell(name, "stones")
        if not isinstance(seats, list) or not seats:
            _fail(f"stones on {name} must be a list of seats")
        for p in seats:
            if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < players:
                _fail(f"stones on {name}: no seat {p!r}")
            if s.stones[p] >> c & 1:
                _fail(f"two stones of one colour on {name}")
            s.stones[p] |= 1 << c
        if not board.playable[c]:
            _fail(f"stones on {name}, which is not in play")
    s.pyramid_owner, s.pyramid_size = [-1] * CELLS, [0] * CELLS
    s.pyramids = [0] * players
    pyramids = d.get("pyramids")
    if not isinstance(pyramids, dict):
        _fail("pyramids must be a map of cell to [seat, storeys]")
    for name, item in pyramids.items():
        c = _cell(name, "pyramids")
        if (not isinstance(item, list) or len(item) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in item)
                or not 0 <= item[0] < players or not 1 <= item[1] <= 5):
            _fail(f"the pyramid on {name} must be [seat, storeys 1-5]")
        if not board.playable[c]:
            _fail(f"a pyramid on {name}, which is not in play")
        if s.stone_mask(c) or c in placed:
            _fail(f"the pyramid on {name} shares its cell with a stone or a ship")
        s.pyramid_owner[c], s.pyramid_size[c] = item
        s.pyramids[item[0]] |= 1 << c
    s.stone_supply = [_supply(x, 0, data.STONES_IN_PLAY, "stone supply")
                      for x in _list(d.get("stone_supply"), players, "stone_supply")]
    s.pyramid_supply = []
    for p, row in enumerate(_list(d.get("pyramid_supply"), players, "pyramid_supply")):
        row = _list(row, 5, f"pyramid_supply of seat {p + 1}")
        s.pyramid_supply.append([_supply(x, 0, data.PYRAMIDS[k + 1], "pyramid supply") for k, x in enumerate(row)])
    s.energy = []
    for p, pieces in enumerate(_list(d.get("energy"), players, "energy")):
        if (not isinstance(pieces, list) or any(isinstance(x, bool) or not isinstance(x, int) for x in pieces)
                or pieces != sorted(set(pieces)) or not set(pieces) <= set(data.ENERGY)):
            _fail(f"energy of seat {p + 1} must be an ascending list of pieces from {list(data.ENERGY)}")
        s.energy.append(list(pieces))
    s.score = [_supply(x, 0, 10**6, "score") for x in _list(d.get("score"), players, "score")]
    s.triggered = _bool(d.get("triggered"), "triggered")
    s.bonus_taken = [_bool(x, "bonus_taken") for x in _list(d.get("bonus_taken"), players, "bonus_taken")]
    s.end_reason = d.get("end_reason")
    if not isinstance(s.end_reason, str):
        _fail("end_reason must be a text")
    _check_counts(s)
    _check_phase(s)
    return s


def _supply(x, lo: int, hi: int, what: str) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or not lo <= x <= hi:
        _fail(f"{what} must be from {lo} to {hi}, not {x!r}")
    return x


def _check_counts(s: PacalState) -> None:
    for p in range(s.players):
        on_board = len(bit_cells(s.stones[p]))
        if on_board + s.stone_supply[p] != data.STONES_IN_PLAY:
            _fail(f"seat {p + 1} has {on_board} stones on the board and {s.stone_supply[p]} in supply, "
                  f"not {data.STONES_IN_PLAY} in all")
        for k in range(1, 6):
            built = sum(1 for c, o in enumerate(s.pyramid_owner) if o == p and s.pyramid_size[c] == k)
            if built + s.pyramid_supply[p][k - 1] != data.PYRAMIDS[k]:
                _fail(f"seat {p + 1} has {built + s.pyramid_supply[p][k - 1]} pyramids of {k} storeys, "
                      f"not {data.PYRAMIDS[k]}")


def _check_phase(s: PacalState) -> None:
    op = s.pending
    if s.phase in (FIRST, ROLL):
        want = s.players if s.phase == FIRST else len(data.DIE_FACES)
        if op is None or op.kind != ROLL_OP or op.faces != want:
            _fail(f"phase {s.phase} needs the table to roll a {want}-faced die")
    elif op is not None:
        _fail(f"phase {s.phase} has no table operation")
    if s.phase not in (FIRST, OVER) and s.current < 0:
        _fail(f"phase {s.phase} needs a current seat")
    if s.phase not in (FIRST, PLACE) and None in s.ships:
        _fail("every ship is on the board after the setup")
    if s.phase in ("move", "stones", "build") and s.face is None:
        _fail(f"phase {s.phase} needs a die face")
    if s.phase == PLACE and any(c not in SACRED_CELLS for c in s.ships if c is not None):
        _fail("ships start in the sacred district")
