"""Build Pagode positions by hand, and play them, for the rule tests.

``build(reserve="rrb", hand="G", sites={1: "r:2", 3: "rb,bg,gg:3"})`` makes a
position in the play phase of seat 0's turn. Colours are letters (r b g v y).
A site spec is ``TILES:COLUMNS``: comma-separated tiles written background +
spots (``rb`` = red tile with blue spots), or a single colour letter for a
first floor; then the number of columns on the current floor.
"""

from __future__ import annotations

from lanterne.engines.core import Cards, TableOp
from lanterne.engines.pagode import GAME
from lanterne.engines.pagode.data import DECK_SIZE, LETTERS, SITES, TILES, VARIANTS
from lanterne.engines.pagode.state import PagodeState

TILE_IDS = {(b, f): t for t, (b, f, _) in enumerate(TILES)}


def tile_id(background: int, spots: int) -> int:
    """The index in ``TILES`` of the tile of that background and those spots."""
    return TILE_IDS[(background, spots)]


def build(*, reserve: str = "rbgvy", hand: str = "rb", opp_reserve: str = "rbgvy", opp_hand: str = "gv",
          sites: dict[int, str] | None = None, uses: dict[str, int] | None = None, variant: str = "standard",
          seat: int = 0, first: int = 0, columns: int = 0, used: str = "", acted: bool | None = None,
          tiles_out: tuple[str, ...] = (), discard: str = "", draw: int | None = None,
          scores: tuple[int, int] = (0, 0)) -> PagodeState:
    """A position in the play phase of ``seat``'s turn; cards take the lowest free identities."""
    next_of = [c * 11 for c in range(5)]

    def take(letters: str) -> tuple[int, ...]:
        out = []
        for letter in letters:
            c = LETTERS.index(letter.lower())
            if next_of[c] >= (c + 1) * 11:
                raise ValueError(f"more than 11 {letter} cards")
            out.append(next_of[c])
            next_of[c] += 1
        return tuple(sorted(out))

    s = PagodeState.__new__(PagodeState)
    s.variant = variant
    s.cards = Cards.new(range(DECK_SIZE), 2)
    s.reserves = [(), ()]
    s.hands = [(), ()]
    s.reserves[seat], s.hands[seat] = take(reserve), take(hand)
    s.reserves[1 - seat], s.hands[1 - seat] = take(opp_reserve), take(opp_hand)
    s.discard = take(discard)
    rest = [i for i in range(DECK_SIZE) if not any(i in p for p in (*s.reserves, *s.hands, s.discard))]
    s.draw = tuple(rest if draw is None else rest[:draw])
    s.played = ()
    if draw is not None:  # the cards left out of the draw pile wait in the discard pile
        s.discard = s.discard + tuple(rest[draw:])
    for who in (0, 1):
        for slot in s.hands[who]:
            s.cards.seen[slot] = 1 << who
    for slot in s.draw:
        s.cards.seen[slot] = 0
    s.pending = None
    s.phase = "play"
    s.first = first
    s.current = seat
    s.turn = 0
    s.scores = tuple(scores)
    uses_list = [0] * 5
    for name, n in (uses or {}).items():
        uses_list[["lantern", "buddha", "rice bowl", "fan", "dragon"].index(name)] = n
    s.uses = [(0,) * 5, (0,) * 5]
    s.uses[seat] = tuple(uses_list)
    s.site_tiles, s.site_cols, s.site_colour = [()] * SITES, [0] * SITES, [None] * SITES
    left = (1 << len(TILES)) - 1
    for number, spec in (sites or {}).items():
        codes, cols = spec.split(":")
        codes = [c for c in codes.split(",") if c]
        i = number - 1
        if codes and len(codes[0]) == 1:
            s.site_colour[i] = LETTERS.index(codes[0]) if int(cols) else None
        else:
            tiles = tuple(tile_id(LETTERS.index(c[0]), LETTERS.index(c[1])) for c in codes)
            s.site_tiles[i] = tiles
            s.site_colour[i] = TILES[tiles[-1]][1]
            for t in tiles:
                left &= ~(1 << t)
        s.site_cols[i] = int(cols)
    for code in tiles_out:
        left &= ~(1 << tile_id(LETTERS.index(code[0]), LETTERS.index(code[1])))
    s.tiles_left = left
    s.reserves, s.hands, s.uses = tuple(s.reserves), tuple(s.hands), tuple(s.uses)
    s.site_tiles, s.site_cols, s.site_colour = tuple(s.site_tiles), tuple(s.site_cols), tuple(s.site_colour)
    s.columns = columns
    s.acted = bool(columns) if acted is None else acted
    s.used = sum(1 << ["lantern", "buddha", "rice bowl", "fan", "dragon"].index(n) for n in used.split(",") if n)
    s.mod_left = 0
    s.mark = (0, 0)
    s.refill = ()
    s.after = "next"
    s.masks = None
    return s


def play(state: PagodeState, *moves: str) -> tuple[PagodeState, list[tuple]]:
    """Apply moves written in the notation; returns the state and all their events."""
    events: list[tuple] = []
    for text in moves:
        state, ev = GAME.apply(state, GAME.parse_action(state, text))
        events += ev
    return state, events


def points(events: list[tuple], seat: int = 0) -> int:
    return sum(e[2] for e in events if e[0] == "score" and e[1] == seat)


def moves(state: PagodeState) -> set[str]:
    """The legal actions of the seat to act, in notation."""
    return {GAME.format_action(state, a) for a in GAME.legal_actions(state, state.current)}


def table(state: PagodeState, seed: int = 0) -> tuple[PagodeState, list[tuple], list[TableOp]]:
    """Let an open table do every pending operation; returns the ops it did."""
    from lanterne.engines.core import OpenTable
    t = OpenTable(seed)
    ops, events = [], []
    while state.pending is not None:
        ops.append(state.pending)
        state, ev = GAME.apply(state, t.resolve(state, state.pending))
        events += ev
    return state, events, ops


def floors(variant: str = "standard") -> int:
    return VARIANTS[variant].floors
