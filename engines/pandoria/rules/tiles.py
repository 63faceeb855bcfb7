"""A Pandoria turn's first phases: placing a double tile or a castle, closing regions, placing or taking a figure."""

from __future__ import annotations

from lanterne.engines.core import IllegalAction, Words, read_action

from .. import data as D
from ..actions import Castle, Figure, Pass, Skip, Take, Tile
from ..board import (CASTLE, DRY_NEIGHBOURS, EMPTY, NEIGHBOURS, NHEX, STEP, covered, frontier, is_open_region,
                     region_if_enclosed)
from ..state import PandoriaState
from .queries import (FREE, _cards, _dirname, _hexname, _on_board, _pile, _seat, _seat_list, card_of, figure_choices,
                      fits_double, fits_single, tile_face)


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
