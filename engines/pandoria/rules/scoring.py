"""Pandoria's scoring, buying and drawing, the Elves' move, the end of a turn and of the game."""

from __future__ import annotations

from lanterne.engines.core import IllegalAction, Words, read_action

from .. import data as D
from ..actions import Buy, Move, Skip
from ..board import CASTLE, NEIGHBOURS, is_enclosed
from ..state import PandoriaState
from .queries import (FREE, _market_designs, _pile, _seat, _seat_list, _seat_row, card_of, has_ability, seat_figures,
                      visible_buildings)
from .setup import _deal
from .tiles import start_turn


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
