"""Pandoria's setup: the state of a new game, and the table operations that deal and place its start."""

from __future__ import annotations

from lanterne.engines.core import DEAL, ROLL, SHUFFLE, Cards, IllegalAction, TableOp

from .. import data as D
from ..board import EMPTY, NHEX, PRINTED_SPACES, START_HEXES
from ..state import PandoriaState
from .queries import FREE, _pile, _seat_row, card_of, classic, has_ability


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
