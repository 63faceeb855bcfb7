"""Small questions about a Pandoria state (abilities, cards, hexes, where tiles fit), and hexes named for refusals."""

from __future__ import annotations

from lanterne.engines.core import Cards, IllegalAction, Words

from .. import data as D
from ..board import CASTLE, DIRECTIONS, EMPTY, KIND, LAND, NEIGHBOURS, NHEX, PRINTED, STEP, frontier, hex_name
from ..state import PandoriaState, changed


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


def _market_designs(st: PandoriaState) -> list[tuple[int, int]]:
    out, seen = [], set()
    design = D.DESIGN
    for slot in sorted(st.piles["market"]):
        ident = card_of(st, slot)
        if design[ident] not in seen:
            seen.add(design[ident])
            out.append((slot, ident))
    return out


def _on_board(kind: str, h: int) -> int:
    if not 0 <= h < NHEX or KIND[h] == 0:
        raise IllegalAction(f"{kind}: {h} is not a hex of the board")
    return h


def _hexname(h: int) -> str:
    return hex_name(h) if 0 <= h < NHEX else str(h)


def _dirname(d: int) -> str:
    return DIRECTIONS[d] if 0 <= d < 6 else str(d)
