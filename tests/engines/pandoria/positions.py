"""Building Pandoria positions for tests: a real setup, then pieces put where a rule needs them."""

from __future__ import annotations

import random

from lanterne.engines.core import DEAL, SHUFFLE, TABLE, OpenTable
from lanterne.engines.pandoria import GAME
from lanterne.engines.pandoria import data as D
from lanterne.engines.pandoria.data import CITY, FOREST, HILL, MOUNTAIN
from lanterne.engines.pandoria.board import parse_hex
from lanterne.engines.pandoria.rules import start_turn
from lanterne.engines.pandoria.state import PandoriaState


def H(name: str) -> int:
    h = parse_hex(name)
    assert h is not None, name
    return h


class ScriptedTable:
    """A table that keeps every pile in order, hands out chosen people boards and rolls chosen values."""

    def __init__(self, peoples=(0, 1, 2, 3), first=0, start=0):
        self.peoples, self.first, self.start = list(peoples), first, start

    def resolve(self, st, op):
        ids = [st.cards.ids[s] for s in op.slots]
        if op.kind == SHUFFLE and op.pile == "peoples":
            rest = [i for i in ids if i - D.PEOPLE_BASE not in self.peoples]
            return (SHUFFLE, tuple([D.PEOPLE_BASE + p for p in self.peoples] + rest))
        if op.kind in (SHUFFLE, DEAL):
            return (op.kind, tuple(ids))
        return ("roll", self.first if op.why == "first player" else self.start)


def settle(st, table, events=None):
    """Resolve table operations until a seat must act (or the game is over)."""
    while not GAME.is_over(st) and GAME.next_actor(st) == TABLE:
        st, ev = GAME.apply(st, table.resolve(st, GAME.table_op(st)))
        if events is not None:
            events += ev
    return st


def started(players=2, variant="classic", seed=0) -> PandoriaState:
    return settle(GAME.setup(players=players, variant=variant), OpenTable(seed))


def scripted(players=2, variant="classic", peoples=(0, 1, 2, 3), first=0, start=0) -> PandoriaState:
    """A setup with chosen peoples (seat order), piles in their printed order."""
    return settle(GAME.setup(players=players, variant=variant),
                  ScriptedTable(peoples[:players], first, start))


def where(st: PandoriaState, slot: int) -> str:
    for name, pile in st.piles.items():
        if slot in pile:
            return name
    raise AssertionError(f"slot {slot} is in no pile")


def give_card(st: PandoriaState, seat: int, ident: int) -> int:
    """Move card ``ident`` into the seat's hand (from wherever it is); returns its slot."""
    slot = st.cards.ids.index(ident)
    st.piles[where(st, slot)].remove(slot)
    st.piles[f"hand{seat}"].append(slot)
    st.cards.seen[slot] |= 1 << seat
    return slot


def empty_hands(st: PandoriaState) -> None:
    for seat in range(st.players):
        st.piles["deck"] += st.piles[f"hand{seat}"]
        st.piles[f"hand{seat}"] = []


def set_building(st: PandoriaState, seat: int, index: int, ident: int) -> None:
    slot = st.cards.ids.index(ident)
    st.piles[where(st, slot)].remove(slot)
    st.buildings[seat][index] = slot
    st.cards.seen[slot] = st.cards.everyone


def give_tile(st: PandoriaState, seat: int, face) -> int:
    """Put a double tile with this face (a, sa, b, sb) in the seat's hand; returns its slot."""
    for slot in st.piles["tiles"] + st.piles["aside"]:
        if D.DOUBLE_TILES[st.cards.ids[slot] - D.TILE_BASE] == tuple(face):
            st.piles[where(st, slot)].remove(slot)
            st.piles[f"tiles{seat}"].append(slot)
            st.cards.seen[slot] |= 1 << seat
            return slot
    raise AssertionError(f"no tile {face} left")


def cover(st: PandoriaState, name: str, terrain: int, symbols: int = 1) -> None:
    h = H(name)
    st.terrain[h], st.symbols[h] = terrain, symbols


def figure(st: PandoriaState, name: str, seat: int, leader: bool = False) -> None:
    h = H(name)
    st.occupant[h] = seat * 2 + int(leader)
    if leader:
        st.leader_home[seat] = False
    else:
        st.reserve[seat] -= 1


def card_id(spell: str, building: str) -> int:
    """The lowest identity of a card design (names from the house card list)."""
    for i, (s, b, _) in enumerate(D.CARDS):
        if s == spell and b == building:
            return i
    raise AssertionError(f"no card {spell}/{building}")


def at_phase(st: PandoriaState, phase: str, seat: int | None = None) -> PandoriaState:
    """The position at the start of a turn phase for ``seat`` (default the current seat)."""
    st = st.copy()
    if seat is not None:
        st.current = seat
    start_turn(st)
    st.phase = phase
    return st


def bare(players=2, peoples=(0, 1, 2, 3), variant="beginner", seat=0) -> PandoriaState:
    """A set-up game stripped for rule tests: no starting buildings, empty hands
    (cards and tiles), no resources; side A (no abilities) unless a variant is given.
    It is ``seat``'s turn, in the place phase."""
    st = scripted(players, "beginner" if variant == "beginner" else "classic", peoples)
    st.variant = variant
    for s in range(players):
        for i, b in enumerate(st.buildings[s]):
            if b >= 0:
                st.piles["deck"].append(b)
                st.buildings[s][i] = -1
        st.piles["deck"] += st.piles[f"hand{s}"]
        st.piles[f"hand{s}"] = []
        st.piles["tiles"] += st.piles[f"tiles{s}"]
        st.piles[f"tiles{s}"] = []
        st.resources[s] = [0, 0, 0]
    return at_phase(st, "place", seat)


def play(st: PandoriaState, *moves: str, table=None) -> tuple[PandoriaState, list]:
    """Apply moves in notation (each by the seat to act), settling the table in between."""
    table = table or ScriptedTable()
    events = []
    for text in moves:
        st = settle(st, table, events)
        action = GAME.parse_action(st, text)
        st, ev = GAME.apply(st, action)
        events += ev
    st = settle(st, table, events)
    GAME.load(st.to_data())  # every card and tile slot still in exactly one place
    return st, events


def to_market(st: PandoriaState, ident: int) -> int:
    """Put card ``ident`` first in the market (the card it replaces goes to the deck)."""
    slot = st.cards.ids.index(ident)
    st.piles[where(st, slot)].remove(slot)
    st.piles["deck"].append(st.piles["market"].pop(0))
    st.piles["market"].insert(0, slot)
    st.cards.seen[slot] = st.cards.everyone
    return slot


def scores_of(events, kind="score"):
    return [e for e in events if e[0] == kind]


RED, BLUE = 0, 1


def closable(st):
    """f0 (2 crystals) + g0 (1) form a mountain region whose last open neighbour is h0."""
    cover(st, "f0", MOUNTAIN, 2)
    cover(st, "g0", MOUNTAIN, 1)
    cover(st, "e0", CITY)
    cover(st, "e1", FOREST)
    cover(st, "f1", HILL)
    cover(st, "g1", CITY)
    return st


def crystal_region(red_buildings=(), red_crystals=0):
    """Seed 7.2's picture: a closed region with 3 crystals; red has its leader and
    one figure next to it, blue one figure. Red closes it with a double tile on h0."""
    st = closable(bare(2))
    figure(st, "e1", RED, leader=True)
    figure(st, "f1", RED)
    figure(st, "g1", BLUE)
    for i, name in enumerate(red_buildings):
        set_building(st, RED, i, card_id(*name))
    st.resources[RED][D.CRYSTAL] = red_crystals
    give_tile(st, RED, (FOREST, 1, HILL, 1))
    return st


STEP_BOUND = 3000
"""No game may need more steps: each turn places a tile or a castle (at most 124
hexes), at most one round of passes ends it, and a turn has at most ~12 steps."""

def random_game(players, variant, seed, each_step=None, check_pure=False):
    rng = random.Random(seed)
    table = OpenTable(seed)
    state = GAME.setup(players=players, variant=variant)
    steps = 0
    while not GAME.is_over(state):
        steps += 1
        assert steps < STEP_BOUND, "random play did not end"
        actor = GAME.next_actor(state)
        if actor == TABLE:
            op = GAME.table_op(state)
            action = table.resolve(state, op)
        else:
            actions = GAME.legal_actions(state, actor)
            assert actions, f"seat {actor} has no move in phase {state.phase}"
            action = actions[rng.randrange(len(actions))]
            op = None
        before = state
        snapshot = before.to_data() if check_pure else None
        state, events = GAME.apply(state, action)
        if check_pure:
            assert before.to_data() == snapshot, "apply changed its input"
        if each_step:
            each_step(before, actor, op, action, state, events)
    return state
