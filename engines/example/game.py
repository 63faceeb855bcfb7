"""High card: the smallest complete game on the engine contract, to copy from.

Two or three seats; a 12-card deck (values 0..11) is shuffled, each seat is
dealt one card face down, then each seat in turn either keeps or swaps its card
for the top of the deck (the old card goes face up to a discard), then all hands
are revealed; the highest card scores its value plus a die roll.

Everything a game needs is here, in the order a bigger game splits it into
modules (docs/adding-a-game.md walks through it): the actions as typed records
(``actions.py``), the state with its save/load (``state.py``), the rules
(``rules.py``: legal actions, apply; chance and hidden cards through the table),
the notation (``notation.py``) and the Game class (``game.py``). It is not in
the registry: the protocol and core tests play it (tests/engines/test_core.py,
tests/protocol/helpers.py).
"""

from __future__ import annotations

from typing import NamedTuple

from lanterne.engines.core import (DEAL, REVEAL, ROLL, SHUFFLE, TABLE, Cards, Game, IllegalAction, NotationError,
                          PositionError, State, TableOp, apply_outcome_to_cards, read_action)

# ---------------------------------------------------------------- actions


class Keep(NamedTuple):
    """Keep the card in hand: ``("keep",)``."""

    kind: str


class Swap(NamedTuple):
    """Swap the card in hand (``slot``, which is ``ident``) for the top of the deck: ``("swap", slot, ident)``.

    Naming the identity is a *claim*: the card becomes public (core.Cards.claim).
    """

    kind: str
    slot: int
    ident: int


ACTIONS: dict[str, type] = {"keep": Keep, "swap": Swap}
"""Every action kind a seat may send, by the name on the wire."""


# ---------------------------------------------------------------- state


class HighCardState(State):
    __slots__ = ("cards", "pending", "deck", "hands", "discard", "to_move", "phase", "bonus", "turn", "players")

    def copy(self):
        s = HighCardState.__new__(HighCardState)
        s.cards, s.pending, s.deck = self.cards.copy(), self.pending, self.deck[:]
        s.hands, s.discard = self.hands[:], self.discard[:]
        s.to_move, s.phase, s.bonus, s.turn, s.players = self.to_move, self.phase, self.bonus, self.turn, self.players
        return s

    def to_data(self):
        return {"cards": self.cards.to_data(), "pending": self.pending.to_data() if self.pending else None,
                "deck": self.deck, "hands": self.hands, "discard": self.discard, "to_move": self.to_move,
                "phase": self.phase, "bonus": self.bonus, "turn": self.turn, "players": self.players}


def load_state(data: dict) -> HighCardState:
    s = HighCardState.__new__(HighCardState)
    s.players = data["players"]
    s.cards = Cards.from_data(data["cards"], s.players)
    s.pending = TableOp.from_data(data["pending"])
    for k in ("deck", "hands", "discard", "to_move", "phase", "bonus", "turn"):
        setattr(s, k, data[k])
    if not isinstance(s.deck, list):
        raise PositionError("deck must be a list")
    return s


# ---------------------------------------------------------------- the game (rules and notation)


class HighCard(Game):
    id, name, min_players, max_players = "highcard", "High card", 2, 3

    def setup(self, players=2, variant="standard", **options):
        self.check_options(players, variant)
        s = HighCardState.__new__(HighCardState)
        s.players, s.cards = players, Cards.new(range(12), players)
        s.deck, s.hands, s.discard = list(range(12)), [None] * players, []
        s.to_move, s.phase, s.bonus, s.turn = 0, "shuffle", 0, 0
        s.pending = TableOp(SHUFFLE, pile="deck", slots=tuple(s.deck))
        return s

    def next_actor(self, state):
        return TABLE if state.pending else state.to_move

    def legal_actions(self, state, seat):
        if state.pending or self.is_over(state) or seat != state.to_move:
            return []
        mine = state.hands[seat]
        return [Keep("keep"), Swap("swap", mine, state.cards.ids[mine])]

    def apply(self, state, action):
        s = state.copy()
        if s.pending:
            op = s.pending
            apply_outcome_to_cards(s.cards, op, action)
            s.pending = None
            if op.kind == SHUFFLE:
                s.phase = "deal"
                self._deal_next(s, 0)
            elif op.kind == DEAL and s.phase == "deal":
                s.hands[op.to] = op.slots[0]
                s.deck.pop(0)
                if op.to + 1 < s.players:
                    self._deal_next(s, op.to + 1)
                else:
                    s.phase = "play"
            elif op.kind == DEAL:  # a swap
                s.hands[op.to] = op.slots[0]
                s.deck.pop(0)
                self._next_turn(s)
            elif op.kind == REVEAL:
                s.pending, s.phase = TableOp(ROLL, faces=6, why="bonus"), "roll"
            elif op.kind == ROLL:
                s.bonus, s.phase = action[1] + 1, "over"
            return s, [("table", op.kind)]
        seat = s.to_move
        record = ACTIONS.get(action[0]) if isinstance(action, tuple) and action else None
        if self.next_actor(state) == TABLE or record is None:
            raise IllegalAction(f"{action!r} is not legal now")
        a = read_action(record, action)    # untrusted (a peer's list): its length and field types checked
        if isinstance(a, Swap):
            old = s.hands[seat]
            if a.slot != old:
                raise IllegalAction(f"slot {a.slot} is not in seat {seat + 1}'s hand")
            s.cards.claim(old, a.ident, seat)
            s.discard.append(old)
            s.pending = TableOp(DEAL, pile="deck", slots=(s.deck[0],), to=seat)
        else:
            self._next_turn(s)
        return s, [(a.kind, seat)]

    def _deal_next(self, s, seat):
        s.pending = TableOp(DEAL, pile="deck", slots=(s.deck[0],), to=seat)

    def _next_turn(self, s):
        s.turn += 1
        s.to_move += 1
        if s.to_move == s.players:
            s.pending, s.phase = TableOp(REVEAL, slots=tuple(s.hands)), "reveal"

    def is_over(self, state):
        return state.phase == "over"

    def scores(self, state):
        if state.phase != "over":
            return [0] * state.players
        vals = [state.cards.ids[h] for h in state.hands]
        best = max(vals)
        return [v + state.bonus if v == best else 0 for v in vals]

    def format_action(self, state, action):
        return action[0]

    def parse_action(self, state, text, seat=None):
        word = text.strip()
        if word == "keep":
            return Keep("keep")
        if word == "swap":
            mine = state.hands[state.to_move]
            return Swap("swap", mine, state.cards.ids[mine])
        raise NotationError(f"unknown move {text!r}: say keep or swap")

    def load(self, data):
        return load_state(data)
