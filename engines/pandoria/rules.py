"""Pandoria's rules: setup, legal actions and their effects, scoring, the end.

A turn runs through phases (rulebook §6): ``place`` (a double tile or a castle),
``figure`` (place a figure on it or take one back), ``card`` (a spell, a
building or a monument), the scoring of the regions closed this turn, ``buy``
(one market card), the draw of a double tile (a table deal) and, for the
Elves of side B, ``elf`` (move a figure). Chance and hidden cards go through
table operations (engines.core): the state's ``pending`` op and ``after``
label say what the outcome continues with.
"""

from __future__ import annotations

from lanterne.engines.core import (DEAL, ROLL, SHUFFLE, Cards, IllegalAction, TableOp, Words, apply_outcome_to_cards,
                                  read_action)

from . import data as D
from .board import (CASTLE, DIRECTIONS, DRY_NEIGHBOURS, EMPTY, KIND, LAKES, LAND, NEIGHBOURS, NHEX, PRINTED,
                    PRINTED_SPACES, START_HEXES, STEP, covered, frontier, hex_name, is_enclosed, is_open_region,
                    region_if_enclosed)
from .state import PandoriaState, changed
from .actions import Build, Buy, Castle, Figure, Monument, Move, Pass, Single, Skip, Spell, Take, Tile

MONUMENT = 1000
FREE = -1


def _seat(seat: int) -> Words:
    """A seat in a refusal ("seat 2"); a client names it its way."""
    return Words("seat {n}", n=seat + 1)


def _cards(st: PandoriaState, slots: tuple[int, ...]) -> Cards:
    """The card registry, ready to change in place at ``slots`` (and nowhere else).

    ``apply`` works on ``PandoriaState.clone``, which shares it with the state
    before (most moves show or claim no card), so it is copied here, just
    before it changes; state.changed notes the slots, so that views re-mask only those.
    """
    st.cards = changed(st.cards, slots)
    return st.cards


def _seat_row(st: PandoriaState, name: str, seat: int) -> list[int]:
    """The seat's row of ``resources`` or ``buildings``, ready to change in place.

    ``PandoriaState.clone`` shares both lists and their rows with the state
    before, so the outer list and the row are copied here, just before the row changes.
    """
    rows = getattr(st, name)[:]
    setattr(st, name, rows)
    row = rows[seat] = rows[seat][:]
    return row


def _seat_list(st: PandoriaState, name: str) -> list:
    """``points``, ``reserve``, ``leader_home`` or ``castles_left``, ready to change in place
    (shared with the state before by ``PandoriaState.clone``, so copied here first)."""
    values = getattr(st, name)[:]
    setattr(st, name, values)
    return values


def _pile(st: PandoriaState, name: str) -> list[int]:
    """The pile ``name``, ready to change in place.

    ``PandoriaState.copy`` shares the pile lists with the state it copies
    (copying all 25 of a 4-player game on every apply was a tenth of a
    search's time), so a pile is copied here, just before it changes.
    """
    pile = st.piles[name] = st.piles[name][:]
    return pile


# --------------------------------------------------------------------------
# Small queries


def classic(st: PandoriaState) -> bool:
    return st.variant != "beginner"


def has_ability(st: PandoriaState, seat: int, people: int) -> bool:
    return st.variant != "beginner" and st.people[seat] == people  # classic(st), written out: asked every step


def card_of(st: PandoriaState, slot: int) -> int:
    ident = st.cards.ids[slot]
    if ident is None:
        raise IllegalAction(f"card slot {slot} is not known here")
    return ident


def visible_buildings(st: PandoriaState, seat: int) -> list[str]:
    """The names of the seat's visible buildings (monuments excluded)."""
    return [D.CARDS[card_of(st, b)][1] for b in st.buildings[seat] if 0 <= b < MONUMENT]


def tile_face(ident: int) -> tuple[int, int, int, int]:
    if not D.TILE_BASE <= ident < D.TILE_BASE + len(D.DOUBLE_TILES):
        raise IllegalAction(f"{ident} is not a double tile")
    return D.DOUBLE_TILES[ident - D.TILE_BASE]


def is_region_hex(st: PandoriaState, h: int) -> bool:
    return 0 <= st.terrain[h] < CASTLE


def seat_figures(st: PandoriaState, seat: int) -> list[int]:
    """The hexes of the seat's figures (its leader included), in hex order.

    A seat has a handful of figures on some 150 hexes, so each is found by
    ``list.index`` (a scan in C) rather than by looking at every hex.
    """
    occupant = st.occupant
    out = []
    for figure in (seat * 2, seat * 2 + 1):  # a figure, the leader
        h = -1
        for _ in range(occupant.count(figure)):
            h = occupant.index(figure, h + 1)
            out.append(h)
    out.sort()
    return out


def open_spaces(st: PandoriaState) -> list[int]:
    """Every empty figure space in a region that is not closed (where spells may put figures), in hex order
    (one pass over the lists: card_actions asks per spell)."""
    return [h for h, (t, closed, occ) in enumerate(zip(st.terrain, st.closed, st.occupant))
            if 0 <= t < CASTLE and not closed and occ == FREE]


def figure_choices(st: PandoriaState, seat: int) -> list[bool]:
    """Which figures the seat may put out: False a figure, True the leader (placed
    last, except for the Humans of side B)."""
    out = []
    if st.reserve[seat] > 0:
        out.append(False)
    if st.leader_home[seat] and (st.reserve[seat] == 0 or has_ability(st, seat, D.HUMANS)):
        out.append(True)
    return out


def is_anchor(st: PandoriaState, h: int) -> bool:
    """A hex a new tile may touch: a placed tile or castle, or a printed space a tile touches."""
    t = st.terrain
    if t[h] == EMPTY:
        return False
    if KIND[h] == PRINTED:
        return any(t[n] != EMPTY and KIND[n] != PRINTED for n in NEIGHBOURS[h])
    return True


def is_free(st: PandoriaState, h: int) -> bool:
    return KIND[h] == LAND and st.terrain[h] == EMPTY


def touches(st: PandoriaState, h: int) -> bool:
    return any(is_anchor(st, n) for n in NEIGHBOURS[h])


def double_positions(st: PandoriaState) -> list[tuple[int, int]]:
    """(hex, direction) of every legal double-tile placement: first half on hex,
    second half on its neighbour in that direction (6 rotations). One half at
    least touches an anchor; each position is listed once, in a fixed order
    (by the touching hex, then by direction: ``board.frontier``)."""
    return list(frontier(st.terrain).positions)


def fits_double(st: PandoriaState, h: int, d: int) -> bool:
    if not (0 <= d < 6 and is_free(st, h)):
        return False
    b = STEP[h][d]
    if b < 0 or not is_free(st, b):
        return False
    touching = frontier(st.terrain).touching  # a free hex touches an anchor: ``touches``, already listed
    return h in touching or b in touching


def fits_single(st: PandoriaState, h: int) -> bool:
    return is_free(st, h) and h in frontier(st.terrain).touching  # ``touches``, already listed


def single_positions(st: PandoriaState) -> list[int]:
    return frontier(st.terrain).order[:]


# --------------------------------------------------------------------------
# Setup


def new_state(players: int, variant: str) -> PandoriaState:
    s = PandoriaState.__new__(PandoriaState)
    s.players, s.variant = players, variant
    s.cards = Cards.new(D.IDENTITIES, players)
    n_cards, n_tiles, n_single = len(D.CARDS), len(D.DOUBLE_TILES), len(D.SINGLE_TILES)
    base_t, base_s, base_p = n_cards, n_cards + n_tiles, n_cards + n_tiles + n_single
    s.piles = {"deck": list(range(n_cards)), "market": [], "tiles": list(range(base_t, base_s)),
               "aside": [], "singles": list(range(base_s, base_p)),
               "peoples": list(range(base_p, base_p + len(D.PEOPLE_NAMES))), "seated": [],
               "board": [], "discard": []}
    for seat in range(players):
        for kind in ("hand", "tiles", "spells", "under"):
            s.piles[f"{kind}{seat}"] = []
    s.people = [-1] * players
    s.first = s.current = -1
    s.turn = 0
    s.phase = "setup"
    s.terrain = [EMPTY] * NHEX
    s.symbols = [0] * NHEX
    for h, t in PRINTED_SPACES.items():
        s.terrain[h], s.symbols[h] = t, 1
    s.owner = [-1] * NHEX
    s.occupant = [FREE] * NHEX
    s.closed = [0] * NHEX
    s.resources = [[0, 0, 0] for _ in range(players)]
    s.points = [0] * players
    s.reserve = [D.FIGURES[players]] * players
    s.leader_home = [True] * players
    s.castles_left = [D.CASTLES] * players
    s.buildings = [[FREE] * D.BUILDING_SLOTS for _ in range(players)]
    stack = list(D.MONUMENTS)
    for v in D.MONUMENTS_REMOVED[players]:
        stack.remove(v)
    s.monuments = stack
    s.placed, s.closing = [], []
    s.tile_placed = s.main_left = s.halfling_used = s.conjure = s.scored = s.ending = False
    s.bonus = ""
    s.single = -1
    s.passes = 0
    s.leftover = [0] * players
    s.pending = TableOp(ROLL, faces=players, why="first player")
    s.after = "first"
    return s


def _ask(st: PandoriaState, op: TableOp, after: str) -> None:
    st.pending, st.after = op, after


def _shuffle(st: PandoriaState, pile: str, after: str, why: str) -> None:
    _ask(st, TableOp(SHUFFLE, pile, tuple(st.piles[pile]), why=why), after)


def _deal(st: PandoriaState, pile: str, n: int, to: int | None, after: str, why: str) -> None:
    _ask(st, TableOp(DEAL, pile, tuple(st.piles[pile][:n]), to, why=why), after)


def _take_top(st: PandoriaState, pile: str, n: int) -> list[int]:
    old = st.piles[pile]
    st.piles[pile] = old[n:]  # a new list (the old one stays with the state before): one copy, not two
    return old[:n]


def _continue_setup(st: PandoriaState, events: list, op: TableOp | None) -> None:
    """The next setup step after a table outcome (labels in ``st.after``)."""
    label = st.after
    n = st.players
    if label == "first":
        _shuffle(st, "peoples", "peoples_shuffled", "people boards")
    elif label == "peoples_shuffled":
        _deal(st, "peoples", n, None, "peoples", "people boards")
    elif label == "peoples":
        st.people = st.people[:]  # shared with the state before (PandoriaState.clone)
        st.resources = st.resources[:]  # likewise; its rows are replaced below, not changed
        for seat, slot in enumerate(_take_top(st, "peoples", n)):
            _pile(st, "seated").append(slot)
            p = card_of(st, slot) - D.PEOPLE_BASE
            st.people[seat] = p
            start = D.START_B if classic(st) else D.START_A
            st.resources[seat] = list(start[p])
            events.append(("people", seat, D.PEOPLE_NAMES[p]))
        if not classic(st):
            for seat, p in enumerate(st.people):
                a, second = 2 * p, 2 * p + 1
                _pile(st, "deck").remove(a)
                _pile(st, "deck").remove(second)
                _seat_row(st, "buildings", seat)[0] = a
                _pile(st, f"hand{seat}").append(second)
        _shuffle(st, "deck", "deck", "card deck")
    elif label == "deck":
        _deal(st, "deck", D.MARKET_SIZE, None, "market", "market")
    elif label == "market":
        st.piles["market"] = _take_top(st, "deck", D.MARKET_SIZE)
        _deal(st, "deck", D.HAND_B if classic(st) else D.HAND_A, 0, "hand0", "hand of seat 1")
    elif label.startswith("hand"):
        seat = int(label[4:])
        st.piles[f"hand{seat}"] = st.piles[f"hand{seat}"] + _take_top(st, "deck", len(op.slots))
        if seat + 1 < n:
            _deal(st, "deck", D.HAND_B if classic(st) else D.HAND_A, seat + 1, f"hand{seat + 1}",
                  f"hand of seat {seat + 2}")
        else:
            _shuffle(st, "tiles", "tiles", "double tiles")
    elif label == "tiles" or label.startswith("tilehand"):
        if label.startswith("tilehand"):
            seat = int(label[8:])
            st.piles[f"tiles{seat}"] = st.piles[f"tiles{seat}"] + _take_top(st, "tiles", len(op.slots))
            seat += 1
        else:
            seat = 0
        if seat < n:
            k = 2 if has_ability(st, seat, D.DWARVES) else 1
            _deal(st, "tiles", k, seat, f"tilehand{seat}", f"double tiles of seat {seat + 1}")
        else:
            st.piles["aside"] = _take_top(st, "tiles", D.SET_ASIDE[n])
            _shuffle(st, "singles", "singles", "single tiles")
    elif label == "singles":
        _ask(st, TableOp(ROLL, faces=8, why="start tiles"), "start")
    else:
        raise IllegalAction(f"unknown setup step {label!r}")


def place_start_tiles(st: PandoriaState, value: int) -> None:
    """Roll 0-7: bit 0 swaps the two start tiles, bits 1 and 2 turn each round."""
    tiles = list(D.START_TILES)
    if value & 1:
        tiles.reverse()
    st.terrain, st.symbols = st.terrain[:], st.symbols[:]  # shared with the state before (PandoriaState.copy)
    for i, ((a, b), tile) in enumerate(zip(START_HEXES, tiles)):
        if value >> (i + 1) & 1:
            a, b = b, a
        st.terrain[a], st.symbols[a], st.terrain[b], st.symbols[b] = tile


# --------------------------------------------------------------------------
# Table outcomes


def apply_outcome(st: PandoriaState, outcome: tuple, events: list) -> None:
    op = st.pending
    apply_outcome_to_cards(_cards(st, op.slots), op, outcome)
    st.pending = None
    label = st.after
    st.after = ""
    if label == "first":
        st.first = st.current = outcome[1]
        events.append(("first", outcome[1]))
        st.after = label
        _continue_setup(st, events, op)
    elif label == "start":
        place_start_tiles(st, outcome[1])
        events.append(("start", outcome[1]))
        start_turn(st)
    elif label in ("refill_buy", "refill_card"):
        st.piles["market"] = st.piles["market"] + _take_top(st, "deck", 1)
        if label == "refill_buy":
            draw_step(st, events)
        else:
            after_card(st, events)
    elif label == "single":
        st.single = _take_top(st, "singles", 1)[0]
        st.phase = "terrain"
        if not single_positions(st):
            _pile(st, "discard").append(st.single)
            st.single = -1
            events.append(("discard", st.current))
            after_card(st, events)
    elif label == "draw":
        st.piles[f"tiles{st.current}"] = st.piles[f"tiles{st.current}"] + _take_top(st, "tiles", len(op.slots))
        elf_step(st, events)
    else:
        st.after = label
        _continue_setup(st, events, op)


# --------------------------------------------------------------------------
# The turn


def start_turn(st: PandoriaState) -> None:
    st.phase = "place"
    st.placed, st.closing = [], []
    st.tile_placed = st.halfling_used = st.conjure = st.scored = False
    st.main_left = True
    st.bonus = ""


def must_place(st: PandoriaState, seat: int) -> bool:
    """Whether a tile or a castle of the seat fits somewhere (then it may not pass).

    Every double tile fits the same places, so this needs no tile's face:
    another seat's view, which does not know its tiles, judges its pass too.
    """
    edge = frontier(st.terrain)
    if st.castles_left[seat] > 0 and edge.touching:
        return True
    return bool(st.piles[f"tiles{seat}"]) and bool(edge.positions)


def place_actions(st: PandoriaState, seat: int) -> list[tuple]:
    out: list[tuple] = []
    seen_faces = set()
    edge = frontier(st.terrain)
    for slot in sorted(st.piles[f"tiles{seat}"]):
        ident = card_of(st, slot)
        if ident in seen_faces or tile_face(ident) in seen_faces:
            continue
        seen_faces.add(tile_face(ident))
        tiles = [("tile", slot, ident, h, d) for h, d in edge.positions]
        if out:
            out += tiles
        else:
            out = tiles  # the usual single tile: no second copy of some 170 actions
    if st.castles_left[seat] > 0:
        out += map(_CASTLE_ACTIONS.__getitem__, edge.order)
    return out or [("pass",)]


_CASTLE_ACTIONS = tuple(("castle", h) for h in range(NHEX))
"""("castle", h) per hex, made once: place_actions lists some 50 every place phase."""


def _cover(st: PandoriaState, h: int, terrain: int, symbols: int, events: list) -> None:
    st.terrain, st.symbols = st.terrain[:], st.symbols[:]  # shared with the state before (PandoriaState.copy)
    st.terrain[h], st.symbols[h] = terrain, symbols
    covered(st.terrain, (h,))


def close_regions(st: PandoriaState, hexes: list[int], events: list) -> None:
    """Close every region the new hexes closed; figures inside leave at once (rulebook §6.1, §7.1)."""
    todo = set()
    for h in hexes:
        todo.add(h)
        todo.update(NEIGHBOURS[h])
    done: set[int] = set()
    terrain = st.terrain
    for h in sorted(todo):
        if h in done or not 0 <= terrain[h] < CASTLE or st.closed[h]:  # is_region_hex, written out
            continue
        if EMPTY in map(terrain.__getitem__, DRY_NEIGHBOURS[h]):
            continue  # an empty land hex touches h: its region is open, no walk needed (most of them)
        region, walked = region_if_enclosed(terrain, h)
        done.update(walked)  # an open region's hexes, or the whole region
        if region is None or is_open_region(st.terrain, region):
            continue
        st.closed = st.closed[:]  # shared with the state before (PandoriaState.copy)
        for r in region:
            st.closed[r] = 1
        st.closing = st.closing + [region]  # shared with the state before (PandoriaState.clone)
        events.append(("closed", D.TERRAIN_NAMES[st.terrain[h]], tuple(region)))
        for r in region:
            occ = st.occupant[r]
            if occ >= 0:
                _to_reserve(st, r)
                events.append(("leave", occ >> 1, r, bool(occ & 1)))


def _to_reserve(st: PandoriaState, h: int) -> None:
    occ = st.occupant[h]
    seat, leader = occ >> 1, occ & 1
    st.occupant = st.occupant[:]  # shared with the state before (PandoriaState.copy)
    st.occupant[h] = FREE
    if leader:
        _seat_list(st, "leader_home")[seat] = True
    else:
        _seat_list(st, "reserve")[seat] += 1


def _put_figure(st: PandoriaState, seat: int, h: int, leader: bool) -> None:
    if leader not in figure_choices(st, seat):
        raise IllegalAction(Words("the leader comes out only after all other figures") if leader
                            else Words("no figure left in reserve"))
    st.occupant = st.occupant[:]  # shared with the state before (PandoriaState.copy)
    st.occupant[h] = seat * 2 + int(leader)
    if leader:
        _seat_list(st, "leader_home")[seat] = False
    else:
        _seat_list(st, "reserve")[seat] -= 1


def do_place(st: PandoriaState, action: tuple, events: list) -> None:
    seat = st.current
    kind = action[0]
    if kind == "pass":
        read_action(Pass, action)
        if must_place(st, seat):
            raise IllegalAction(Words("placing a tile or a castle is compulsory while one fits"))
        st.passes += 1
        events.append(("pass", seat))
        st.phase = "figure"
        return
    if kind == "tile":
        _, slot, ident, h, d = read_action(Tile, action)
        _on_board(kind, h)
        if slot not in st.piles[f"tiles{seat}"]:
            raise IllegalAction(Words("{seat} has no double tile in slot {slot}", seat=_seat(seat), slot=slot))
        face = tile_face(ident)
        if not fits_double(st, h, d):
            raise IllegalAction(Words("a double tile does not fit at {hex} {direction}", hex=_hexname(h),
                                      direction=_dirname(d)))
        _cards(st, (slot,)).claim(slot, ident, seat)
        _pile(st, f"tiles{seat}").remove(slot)
        _pile(st, "board").append(slot)
        b = STEP[h][d]
        st.terrain, st.symbols = st.terrain[:], st.symbols[:]  # shared with the state before (PandoriaState.copy)
        st.terrain[h], st.symbols[h], st.terrain[b], st.symbols[b] = face
        covered(st.terrain, (h, b))
        st.placed = [h, b]
        st.tile_placed = True
        events.append(("tile", seat, ident, h, d))
    elif kind == "castle":
        h = _on_board(kind, read_action(Castle, action).hex)
        if st.castles_left[seat] <= 0:
            raise IllegalAction(Words("{seat} has no castle left", seat=_seat(seat)))
        if not fits_single(st, h):
            raise IllegalAction(Words("a castle does not fit at {hex}", hex=_hexname(h)))
        _seat_list(st, "castles_left")[seat] -= 1
        st.terrain, st.owner = st.terrain[:], st.owner[:]  # shared with the state before (PandoriaState.copy)
        st.terrain[h], st.owner[h] = CASTLE, seat
        covered(st.terrain, (h,))
        st.placed = [h]
        events.append(("castle", seat, h))
    else:
        raise IllegalAction(Words("place a double tile or a castle first, not {action}", action=kind))
    st.passes = 0
    close_regions(st, st.placed, events)
    st.phase = "figure"


def figure_actions(st: PandoriaState, seat: int, hexes: list[int]) -> list[tuple]:
    out: list[tuple] = []
    choices = figure_choices(st, seat)
    for h in hexes:
        if st.occupant[h] == FREE and (st.terrain[h] == CASTLE or not st.closed[h]):
            out += [("figure", h, leader) for leader in choices]
    return out


def do_figure(st: PandoriaState, action: tuple, events: list) -> None:
    seat = st.current
    kind = action[0]
    if kind == "figure":
        a = read_action(Figure, action)
        h, leader = _on_board(kind, a.hex), a.leader
        if h not in st.placed:
            raise IllegalAction(Words("a figure goes on the tile or castle just placed, not on {hex}", hex=_hexname(h)))
        if ("figure", h, leader) not in figure_actions(st, seat, [h]):
            _put_figure_reason(st, seat, h, leader)
        _put_figure(st, seat, h, leader)
        events.append(("figure", seat, h, leader))
    elif kind == "take":
        h = _on_board(kind, read_action(Take, action).hex)
        if st.occupant[h] < 0 or st.occupant[h] >> 1 != seat:
            raise IllegalAction(Words("no figure of {seat} on {hex}", seat=_seat(seat), hex=_hexname(h)))
        leader = bool(st.occupant[h] & 1)
        _to_reserve(st, h)
        events.append(("take", seat, h, leader))
    elif kind == "skip":
        read_action(Skip, action)
    else:
        raise IllegalAction(Words("now place or take back a figure, or skip; not {action}", action=kind))
    st.phase = "card"


def _put_figure_reason(st: PandoriaState, seat: int, h: int, leader: bool) -> None:
    if st.occupant[h] != FREE:
        raise IllegalAction(Words("{hex} is occupied", hex=_hexname(h)))
    if st.closed[h]:
        raise IllegalAction(Words("{hex} is in a closed region", hex=_hexname(h)))
    _put_figure(st, seat, h, leader)  # raises the reserve/leader reason


# --------------------------------------------------------------------------
# Cards: spells, buildings, monuments


def spell_cost(st: PandoriaState, seat: int, spell: str, names: list[str] | None = None) -> int:
    """``names``: the seat's visible buildings, if the caller has them (card_actions)."""
    cost = D.SPELL_COST[spell]
    if "Shrine" in (visible_buildings(st, seat) if names is None else names):
        cost -= D.SHRINE_DISCOUNT
    return max(0, cost)


def building_cost(st: PandoriaState, seat: int, ident: int, index: int, names: list[str] | None = None) -> int:
    """Wood to build card ``ident`` into building slot ``index``: its cost, less the
    covered building's, at least 1; Carpenter (if not covered) and Construct cut it."""
    cost = D.BUILDING_COST[D.CARDS[ident][1]]
    under = st.buildings[seat][index]
    covered = None
    if under >= 0:
        covered = D.CARDS[card_of(st, under)][1]
        cost = max(1, cost - D.BUILDING_COST[covered])
    return _discounts(st, seat, cost, covered, st.bonus == "building" and not st.main_left, names)


def monument_cost(st: PandoriaState, seat: int, index: int, names: list[str] | None = None) -> int:
    covered = D.CARDS[card_of(st, st.buildings[seat][index])][1]
    return _discounts(st, seat, max(1, D.MONUMENT_WOOD - D.BUILDING_COST[covered]), covered, False, names)


def _discounts(st: PandoriaState, seat: int, cost: int, covered: str | None, construct: bool,
               names: list[str] | None) -> int:
    if covered != "Carpenter" and "Carpenter" in (visible_buildings(st, seat) if names is None else names):
        cost = max(1, cost - D.CARPENTER_DISCOUNT)
    if construct:
        cost = max(1, cost - D.CONSTRUCT_DISCOUNT)
    return cost


def _hand_designs(st: PandoriaState, seat: int) -> list[tuple[int, int]]:
    """(slot, identity) of the hand, one per card design (copies are alike), by slot."""
    out, seen = [], set()
    design = D.DESIGN
    for slot in sorted(st.piles[f"hand{seat}"]):
        ident = card_of(st, slot)
        if design[ident] not in seen:  # D.card_design, looked up directly: every card phase lists the hand
            seen.add(design[ident])
            out.append((slot, ident))
    return out


def _market_designs(st: PandoriaState) -> list[tuple[int, int]]:
    out, seen = [], set()
    design = D.DESIGN
    for slot in sorted(st.piles["market"]):
        ident = card_of(st, slot)
        if design[ident] not in seen:
            seen.add(design[ident])
            out.append((slot, ident))
    return out


def spell_targets(st: PandoriaState, seat: int, spell: str, memo: dict | None = None) -> list[tuple]:
    """The target arguments a spell may take now ([()] for no target, [] unplayable).

    ``memo`` (card_actions passes one per call) keeps the open spaces and the
    seat's figures for the next spell of the same hand: one pass each instead
    of one per spell.
    """
    if memo is None:
        memo = {}
    if spell in ("Master Builder", "Conjure", "Construct"):
        return [()]
    if spell == "Terrain":
        return [()] if st.piles["singles"] else []
    if spell == "Acquire":
        return [(slot,) for slot, _ in _market_designs(st)]
    choices = figure_choices(st, seat)
    if spell == "Teleport":
        dests = _memo_spaces(st, memo)
        return [(f, t) for f in _memo_figures(st, seat, memo) for t in dests]
    if not choices:
        return []
    if spell == "Muster":
        spots = _memo_spaces(st, memo)
    elif spell == "Clone":
        mine = set(_memo_figures(st, seat, memo))
        spots = [h for h in _memo_spaces(st, memo) if any(n in mine for n in NEIGHBOURS[h])]
    elif spell == "Astral Ship":
        spots = [h for h in LAKES if st.occupant[h] == FREE]
    elif spell == "Enchanted Castle":
        # the seat's castles, found by list.index (a scan in C) like seat_figures, in hex order
        owner, spots, h = st.owner, [], -1
        for _ in range(owner.count(seat)):
            h = owner.index(seat, h + 1)
            if st.terrain[h] == CASTLE and st.occupant[h] == FREE:
                spots.append(h)
    elif spell == "Adopt":
        # only a neighbour of one's figures can qualify: look at those, in hex order
        terrain, occupant = st.terrain, st.occupant
        near = {n for f in _memo_figures(st, seat, memo) for n in NEIGHBOURS[f]}
        spots = [h for h in sorted(near) if 0 <= terrain[h] < CASTLE and occupant[h] >= 0
                 and occupant[h] >> 1 != seat]
    else:
        raise IllegalAction(f"unknown spell {spell}")
    return [(h, leader) for h in spots for leader in choices]


def _memo_spaces(st: PandoriaState, memo: dict) -> list[int]:
    if "spaces" not in memo:
        memo["spaces"] = open_spaces(st)
    return memo["spaces"]


def _memo_figures(st: PandoriaState, seat: int, memo: dict) -> list[int]:
    if "figures" not in memo:
        memo["figures"] = seat_figures(st, seat)
    return memo["figures"]


def card_actions(st: PandoriaState, seat: int) -> list[tuple]:
    out: list[tuple] = []
    can_spell = st.main_left or st.bonus == "spell"
    can_build = st.main_left or st.bonus == "building"
    can_monument = (st.main_left or st.bonus == "monument") and st.monuments
    hand = _hand_designs(st, seat)
    res = st.resources[seat]
    memo: dict = {}
    names = visible_buildings(st, seat)  # once: every cost below looks at them
    if can_spell:
        for slot, ident in hand:
            spell = D.CARDS[ident][0]
            if spell_cost(st, seat, spell, names) <= res[D.CRYSTAL]:
                head = ("spell", slot, ident)  # made once, not once per target (Muster has dozens)
                out += [head + t for t in spell_targets(st, seat, spell, memo)]
    if can_build:
        in_slots = slot_names(st, seat)
        for slot, ident in hand:
            for index in build_indexes(st, seat, ident, in_slots):
                if building_cost(st, seat, ident, index, names) <= res[D.WOOD]:
                    out.append(("build", slot, ident, index))
    if can_monument:
        for index, b in enumerate(st.buildings[seat]):
            if 0 <= b < MONUMENT and monument_cost(st, seat, index, names) <= res[D.WOOD]:
                out.append(("monument", index))
    out.append(("skip",))
    return out


def build_indexes(st: PandoriaState, seat: int, ident: int, names: list[str | None] | None = None) -> list[int]:
    """Building slots the card may go to: the first empty one, or over a building;
    never making two identical buildings visible, never over a monument.

    ``names``: ``slot_names(st, seat)``, if the caller has them (card_actions asks for every card in hand).
    """
    name = D.CARDS[ident][1]
    row = st.buildings[seat]
    if names is None:
        names = slot_names(st, seat)
    out = []
    if FREE in row and name not in names:
        out.append(row.index(FREE))
    for index, here in enumerate(names):
        if here is not None and names.count(name) == (here == name):  # no other slot shows the name
            out.append(index)
    return out


def slot_names(st: PandoriaState, seat: int) -> list[str | None]:
    """The building name in each of the seat's building slots (None: empty or a monument)."""
    return [D.CARDS[card_of(st, x)][1] if 0 <= x < MONUMENT else None for x in st.buildings[seat]]


def do_card(st: PandoriaState, action: tuple, events: list) -> None:
    seat = st.current
    kind = action[0]
    if kind == "skip":
        read_action(Skip, action)
        st.main_left, st.bonus = False, ""
        return after_card(st, events)
    res = st.resources[seat]
    if kind == "monument":
        index = read_action(Monument, action).index
        if not (st.main_left or st.bonus == "monument"):
            raise IllegalAction(Words("no monument may be built now"))
        if not st.monuments:
            raise IllegalAction(Words("no monument is left"))
        if not 0 <= index < D.BUILDING_SLOTS or not 0 <= st.buildings[seat][index] < MONUMENT:
            raise IllegalAction(Words("a monument must cover one of your buildings"))
        cost = monument_cost(st, seat, index)
        if cost > res[D.WOOD]:
            raise IllegalAction(Words("the monument costs {n} wood, {seat} has {has}", n=cost, seat=_seat(seat),
                                      has=res[D.WOOD]))
        _use(st, "monument")
        _seat_row(st, "resources", seat)[D.WOOD] -= cost
        _pile(st, f"under{seat}").append(st.buildings[seat][index])
        st.monuments = st.monuments[:]  # shared with the state before (PandoriaState.clone)
        value = st.monuments.pop()
        _seat_row(st, "buildings", seat)[index] = MONUMENT + value
        events.append(("pay", seat, "wood", cost))
        _score(st, seat, value, "monument", events)
        _halfling(st, seat)
        return after_card(st, events)
    if kind not in ("spell", "build"):
        raise IllegalAction(Words("now play a card, build a monument or skip; not {action}", action=kind))
    if kind == "build":
        card = read_action(Build, action)
    else:
        card = read_action(Spell, action[:len(Spell._fields)])
    slot, ident = card.slot, card.ident
    if slot not in st.piles[f"hand{seat}"]:
        raise IllegalAction(Words("{seat} has no card in slot {slot}", seat=_seat(seat), slot=slot))
    if not 0 <= ident < len(D.CARDS):
        raise IllegalAction(f"{ident} is not a card")
    spell, building, _ = D.CARDS[ident]
    if isinstance(card, Build):
        index = card.index
        if not (st.main_left or st.bonus == "building"):
            raise IllegalAction(Words("no building may be built now"))
        if index not in build_indexes(st, seat, ident):
            raise IllegalAction(Words("{building} cannot go in building slot {slot}", building=building, slot=index + 1))
        cost = building_cost(st, seat, ident, index)
        if cost > res[D.WOOD]:
            raise IllegalAction(Words("{building} costs {n} wood, {seat} has {has}", building=building, n=cost,
                                      seat=_seat(seat), has=res[D.WOOD]))
        _cards(st, (slot,)).claim(slot, ident, seat)
        _use(st, "building")
        _seat_row(st, "resources", seat)[D.WOOD] -= cost
        _pile(st, f"hand{seat}").remove(slot)
        if st.buildings[seat][index] >= 0:
            _pile(st, f"under{seat}").append(st.buildings[seat][index])
        _seat_row(st, "buildings", seat)[index] = slot
        events.append(("build", seat, ident, index, cost))
        _halfling(st, seat)
        return after_card(st, events)
    # a spell
    if not (st.main_left or st.bonus == "spell"):
        raise IllegalAction(Words("no spell may be played now"))
    target = tuple(action[len(Spell._fields):])
    cost = spell_cost(st, seat, spell)
    if cost > res[D.CRYSTAL]:
        raise IllegalAction(Words.plural("{spell} costs {n} crystal, {seat} has {has}",
                                         "{spell} costs {n} crystals, {seat} has {has}", cost, spell=spell,
                                         seat=_seat(seat), has=res[D.CRYSTAL]))
    if target not in spell_targets(st, seat, spell):
        raise IllegalAction(Words("{spell} cannot take {target} now", spell=spell, target=_targets_text(target)))
    _cards(st, (slot,)).claim(slot, ident, seat)
    _use(st, "spell")
    _seat_row(st, "resources", seat)[D.CRYSTAL] -= cost
    _pile(st, f"hand{seat}").remove(slot)
    _pile(st, f"spells{seat}").append(slot)
    events.append(("spell", seat, ident, cost) + target)
    cast(st, seat, spell, target, events)


def _targets_text(target: tuple) -> str:
    return " ".join(_hexname(x) if isinstance(x, int) and not isinstance(x, bool) else str(x)
                    for x in target) or Words("no target")


def _use(st: PandoriaState, kind: str) -> None:
    if st.bonus == kind:
        st.bonus = ""
    else:
        st.main_left = False


def _halfling(st: PandoriaState, seat: int) -> None:
    """Halflings (side B): after a building or a monument, one more spell."""
    if has_ability(st, seat, D.HALFLINGS) and not st.halfling_used and not st.bonus:
        st.halfling_used = True
        st.bonus = "spell"


def cast(st: PandoriaState, seat: int, spell: str, target: tuple, events: list) -> None:
    if spell == "Master Builder":
        st.bonus = "monument"
    elif spell == "Construct":
        st.bonus = "building"
    elif spell == "Conjure":
        st.conjure = True
    elif spell == "Terrain":
        st.phase = "terrain"
        return _deal(st, "singles", 1, None, "single", "Terrain: a single tile")
    elif spell == "Acquire":
        (slot,) = target
        _pile(st, "market").remove(slot)
        _pile(st, f"hand{seat}").append(slot)
        events.append(("acquire", seat, card_of(st, slot)))
        if st.piles["deck"]:
            return _deal(st, "deck", 1, None, "refill_card", "market")
    elif spell == "Teleport":
        src, dst = target
        st.occupant = st.occupant[:]  # shared with the state before (PandoriaState.copy)
        st.occupant[dst], st.occupant[src] = st.occupant[src], FREE
        events.append(("move", seat, src, dst))
    else:
        h, leader = target
        if spell == "Adopt":
            events.append(("leave", st.occupant[h] >> 1, h, bool(st.occupant[h] & 1)))
            _to_reserve(st, h)
        _put_figure(st, seat, h, leader)
        events.append(("figure", seat, h, leader))
    after_card(st, events)


def after_card(st: PandoriaState, events: list) -> None:
    """Stay in the card phase while a card step is left, else score."""
    if st.pending is not None:
        return
    if st.main_left or st.bonus:
        st.phase = "card"
        return
    score_step(st, events)


def terrain_actions(st: PandoriaState) -> list[tuple]:
    return [("single", h) for h in single_positions(st)]


def do_terrain(st: PandoriaState, action: tuple, events: list) -> None:
    if action[0] != "single":
        raise IllegalAction(Words("place the single tile first, not {action}", action=action[0]))
    h = _on_board("single", read_action(Single, action).hex)
    if not fits_single(st, h):
        raise IllegalAction(Words("the single tile does not fit at {hex}", hex=_hexname(h)))
    terrain, symbols = D.SINGLE_TILES[card_of(st, st.single) - D.SINGLE_BASE]
    _cover(st, h, terrain, symbols, events)
    _pile(st, "board").append(st.single)
    st.single = -1
    events.append(("single", st.current, terrain, h))
    close_regions(st, [h], events)
    st.placed = st.placed + [h]
    st.phase = "terrain_figure"


def do_terrain_figure(st: PandoriaState, action: tuple, events: list) -> None:
    seat = st.current
    if action[0] == "figure":
        a = read_action(Figure, action)
        h, leader = _on_board("figure", a.hex), a.leader
        if ("figure", h, leader) not in figure_actions(st, seat, st.placed[-1:]):
            raise IllegalAction(Words("no figure may go on {hex}", hex=_hexname(h)))
        _put_figure(st, seat, h, leader)
        events.append(("figure", seat, h, leader))
    elif action[0] == "skip":
        read_action(Skip, action)
    else:
        raise IllegalAction(Words("put a figure on the single tile or skip; not {action}", action=action[0]))
    after_card(st, events)


# --------------------------------------------------------------------------
# Scoring, buying, drawing, the Elves


def _score(st: PandoriaState, seat: int, points: int, what: str, events: list) -> None:
    if points:
        _seat_list(st, "points")[seat] += points
        events.append(("score", seat, points, what))


def gain(st: PandoriaState, seat: int, terrain: int, amount: int, events: list) -> None:
    """Resources or points from a scoring; above 10, 1 point per 3 (2 with a Store)."""
    if amount <= 0:
        return
    if terrain == D.CITY:
        return _score(st, seat, amount, "city", events)
    res = _seat_row(st, "resources", seat)
    total = res[terrain] + amount
    events.append(("gain", seat, D.RESOURCE_NAMES[terrain], amount))
    if total > D.RESOURCE_CAP:
        rate = D.STORE_RATE if "Store" in visible_buildings(st, seat) else D.OVERFLOW_RATE
        _score(st, seat, (total - D.RESOURCE_CAP) // rate, f"{D.RESOURCE_NAMES[terrain]} above 10", events)
        total = D.RESOURCE_CAP
    res[terrain] = total


def region_yield(st: PandoriaState, region: list[int]) -> dict[int, int]:
    """What each seat with an adjacent figure gets from a closed region (rulebook §7.2):
    figures x symbols (the leader counts 2), plus buildings and the active seat's Conjure."""
    terrain = st.terrain[region[0]]
    symbols = sum(st.symbols[h] for h in region)
    inside = set(region)
    around = {n for h in region for n in NEIGHBOURS[h] if n not in inside}
    weight: dict[int, int] = {}
    count: dict[int, int] = {}
    for h in sorted(around):
        occ = st.occupant[h]
        if occ >= 0:
            seat = occ >> 1
            weight[seat] = weight.get(seat, 0) + (2 if occ & 1 else 1)
            count[seat] = count.get(seat, 0) + 1
    out = {}
    for seat in sorted(weight):
        amount = weight[seat] * symbols
        for name in visible_buildings(st, seat):
            prod = D.PRODUCTION.get(name)
            if prod and prod[0] == terrain:
                amount += prod[1] * count[seat]
        if st.conjure and seat == st.current:
            amount += count[seat]
        out[seat] = amount
    return out


def score_step(st: PandoriaState, events: list) -> None:
    for region in st.closing:
        got = region_yield(st, region)
        if got:
            st.scored = True
        for seat, amount in got.items():
            gain(st, seat, st.terrain[region[0]], amount, events)
    st.closing = []
    if buy_actions(st, st.current):
        st.phase = "buy"
    else:
        draw_step(st, events)


def buy_price(st: PandoriaState, seat: int, ident: int, names: list[str] | None = None) -> int:
    """``names``: the seat's visible buildings, if the caller has them (one look per listing)."""
    price = D.CARDS[ident][2]
    if "Bank" in (visible_buildings(st, seat) if names is None else names):
        price -= D.BANK_DISCOUNT
    return max(0, price)


def buy_actions(st: PandoriaState, seat: int) -> list[tuple]:
    if not (st.scored or has_ability(st, seat, D.MAGES)):
        return []
    gold = st.resources[seat][D.GOLD]
    names = visible_buildings(st, seat)
    out: list[tuple] = [("buy", slot) for slot, ident in _market_designs(st)
                        if buy_price(st, seat, ident, names) <= gold]
    return out + [("skip",)] if out else []


def do_buy(st: PandoriaState, action: tuple, events: list) -> None:
    seat = st.current
    if action[0] == "skip":
        read_action(Skip, action)
        return draw_step(st, events)
    if action[0] != "buy":
        raise IllegalAction(Words("now buy a market card or skip; not {action}", action=action[0]))
    slot = read_action(Buy, action).slot
    if slot not in st.piles["market"]:
        raise IllegalAction(Words("slot {slot} is not in the market", slot=slot))
    price = buy_price(st, seat, card_of(st, slot))
    if price > st.resources[seat][D.GOLD]:
        raise IllegalAction(Words("that card costs {n} gold, {seat} has {has}", n=price, seat=_seat(seat),
                                  has=st.resources[seat][D.GOLD]))
    _seat_row(st, "resources", seat)[D.GOLD] -= price
    _pile(st, "market").remove(slot)
    _pile(st, f"hand{seat}").append(slot)
    events.append(("buy", seat, card_of(st, slot), price))
    if st.piles["deck"]:
        _deal(st, "deck", 1, None, "refill_buy", "market")
        st.phase = "buy"
    else:
        draw_step(st, events)


def draw_step(st: PandoriaState, events: list) -> None:
    """After a double tile (not a castle): draw back to 1 tile (Dwarves of side B: 2).
    No tile to draw starts the end: the round is finished (rulebook §9)."""
    seat = st.current
    st.phase = "draw"
    if st.tile_placed:
        need = (2 if has_ability(st, seat, D.DWARVES) else 1) - len(st.piles[f"tiles{seat}"])
        k = min(need, len(st.piles["tiles"]))
        if k < need and not st.ending:
            st.ending = True
            events.append(("ending", seat))
        if k > 0:
            return _deal(st, "tiles", k, seat, "draw", f"double tile for seat {seat + 1}")
    elf_step(st, events)


def elf_moves(st: PandoriaState, seat: int) -> list[tuple]:
    """Elves (side B): a figure (not the leader) moves 1 or 2 spaces to a free space that
    is not enclosed (an unclosed region, or an own castle some empty land hex still
    touches: docs/rules/pandoria.md), never onto or across ships or other players' castles.

    An Elf turn asks three times over the same board (elf_step, the seat's listing,
    do_elf's check), so the last answer is kept with copies of the four lists it
    depends on, and given again while they are equal (compared, not by identity:
    a test may change a list in place).
    """
    memo = _ELF_MEMO[0]
    if (memo is not None and memo[0] == seat and memo[1] == st.terrain and memo[2] == st.owner
            and memo[3] == st.occupant and memo[4] == st.closed):
        return list(memo[5])
    out = _elf_moves(st, seat)
    _ELF_MEMO[0] = (seat, st.terrain[:], st.owner[:], st.occupant[:], st.closed[:], tuple(out))
    return out


_ELF_MEMO: list[tuple | None] = [None]
"""(seat, terrain, owner, occupant, closed, moves) of the last elf_moves; replaced whole, never changed."""


def _elf_moves(st: PandoriaState, seat: int) -> list[tuple]:
    terrain, owner, occupant, closed = st.terrain, st.owner, st.occupant, st.closed
    out = []
    for f in seat_figures(st, seat):
        if occupant[f] & 1:
            continue
        reach = set()
        # A space an Elf may cross or stop on: a region hex, or an own castle (written out, not
        # a helper: this runs at the end of every Elf turn).
        for n in NEIGHBOURS[f]:
            t = terrain[n]
            if 0 <= t < CASTLE or (t == CASTLE and owner[n] == seat):
                reach.add(n)
                for m in NEIGHBOURS[n]:
                    t = terrain[m]
                    if 0 <= t < CASTLE or (t == CASTLE and owner[m] == seat):
                        reach.add(m)
        reach.discard(f)
        out += [("move", f, t) for t in sorted(reach)
                if occupant[t] == FREE
                and (not is_enclosed(terrain, t) if terrain[t] == CASTLE else not closed[t])]
    return out


def elf_step(st: PandoriaState, events: list) -> None:
    if has_ability(st, st.current, D.ELVES) and elf_moves(st, st.current):
        st.phase = "elf"
    else:
        end_turn(st, events)


def do_elf(st: PandoriaState, action: tuple, events: list) -> None:
    if action[0] == "move":
        move = read_action(Move, action)
        if move not in elf_moves(st, st.current):
            raise IllegalAction(Words("an Elf moves a figure (not the leader) 1 or 2 spaces to a free space that is not "
                                      "enclosed"))
        src, dst = move.source, move.to
        st.occupant = st.occupant[:]  # shared with the state before (PandoriaState.copy)
        st.occupant[dst], st.occupant[src] = st.occupant[src], FREE
        events.append(("move", st.current, src, dst))
    elif action[0] == "skip":
        read_action(Skip, action)
    else:
        raise IllegalAction(Words("move a figure or skip; not {action}", action=action[0]))
    end_turn(st, events)


def end_turn(st: PandoriaState, events: list) -> None:
    last = (st.first - 1) % st.players
    st.turn += 1
    if (st.ending and st.current == last) or st.passes >= st.players:
        return finish(st, events)
    st.current = (st.current + 1) % st.players
    start_turn(st)


def finish(st: PandoriaState, events: list) -> None:
    """Final points: 1 per card in hand, 1 per 3 of each resource (2 with Vault,
    Lumberyard, Repository); what is left over breaks ties (rulebook §10)."""
    st.phase = "over"
    st.pending = None
    st.leftover = st.leftover[:]  # shared with the state before (PandoriaState.clone)
    for seat in range(st.players):
        _score(st, seat, len(st.piles[f"hand{seat}"]), "cards in hand", events)
        better = {D.FINAL_EXCHANGE[b] for b in visible_buildings(st, seat) if b in D.FINAL_EXCHANGE}
        left = 0
        for r in (D.WOOD, D.GOLD, D.CRYSTAL):
            rate = D.BETTER_RATE if r in better else D.FINAL_RATE
            _score(st, seat, st.resources[seat][r] // rate, f"{D.RESOURCE_NAMES[r]} at the end", events)
            left += st.resources[seat][r] % rate
        st.leftover[seat] = left
    events.append(("over",))


# --------------------------------------------------------------------------
# Legal actions and apply


def legal_actions(st: PandoriaState, seat: int) -> list[tuple]:
    if st.pending is not None or st.phase in ("over", "setup") or seat != st.current:
        return []
    phase = st.phase
    if phase == "place":
        return place_actions(st, seat)
    if phase == "figure":
        out = figure_actions(st, seat, st.placed)
        out += map(_TAKE_ACTIONS.__getitem__, seat_figures(st, seat))
        out.append(("skip",))
        return out
    if phase == "card":
        return card_actions(st, seat)
    if phase == "terrain":
        return terrain_actions(st)
    if phase == "terrain_figure":
        return figure_actions(st, seat, st.placed[-1:]) + [("skip",)]
    if phase == "buy":
        return buy_actions(st, seat)
    if phase == "elf":
        return elf_moves(st, seat) + [("skip",)]
    return []


_TAKE_ACTIONS = tuple(("take", h) for h in range(NHEX))
"""("take", h) per hex, made once (every figure phase lists the seat's figures)."""

HANDLERS = {"place": do_place, "figure": do_figure, "card": do_card, "terrain": do_terrain,
            "terrain_figure": do_terrain_figure, "buy": do_buy, "elf": do_elf}


def apply(st: PandoriaState, action: tuple) -> tuple[PandoriaState, list]:
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        raise IllegalAction("an action is a tuple that starts with its kind")
    if st.phase == "over":
        raise IllegalAction("the game is over")
    new = st.clone()
    events: list = []
    if st.pending is not None:
        try:
            apply_outcome(new, action, events)
        except (TypeError, ValueError, IndexError) as e:
            if isinstance(e, IllegalAction):
                raise
            raise IllegalAction(f"malformed table outcome for {st.pending.kind}") from None
        return new, events
    handler = HANDLERS.get(st.phase)
    if handler is None:
        raise IllegalAction(Words("nothing can be played in phase {phase}", phase=Words(st.phase)))
    handler(new, action, events)
    return new, events


# --------------------------------------------------------------------------
# Checking action arguments (their shape: core.read_action with the records of actions.py)


def _on_board(kind: str, h: int) -> int:
    if not 0 <= h < NHEX or KIND[h] == 0:
        raise IllegalAction(f"{kind}: {h} is not a hex of the board")
    return h


def _hexname(h: int) -> str:
    return hex_name(h) if 0 <= h < NHEX else str(h)


def _dirname(d: int) -> str:
    return DIRECTIONS[d] if 0 <= d < 6 else str(d)

