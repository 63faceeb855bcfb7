"""Pandoria's card phase: spells and their targets, buildings, monuments, and the terrain a card puts down."""

from __future__ import annotations

from lanterne.engines.core import IllegalAction, Words, read_action

from .. import data as D
from ..actions import Build, Figure, Monument, Single, Skip, Spell
from ..board import CASTLE, LAKES, NEIGHBOURS, covered
from ..state import PandoriaState
from .queries import (FREE, MONUMENT, _cards, _hexname, _market_designs, _on_board, _pile, _seat, _seat_row, card_of,
                      figure_choices, fits_single, has_ability, open_spaces, seat_figures, single_positions,
                      visible_buildings)
from .scoring import _score, score_step
from .setup import _deal
from .tiles import _cover, _put_figure, _to_reserve, close_regions, figure_actions


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
