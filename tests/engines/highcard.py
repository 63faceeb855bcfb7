"""High card: the smallest real game on the contract, for testing the core.

Two or three seats; a 12-card deck (values 0..11) is shuffled, each seat is
dealt one card face down, then each seat in turn either keeps or swaps its card
for the top of the deck (the old card goes face up to a discard), then all hands
are revealed; the highest card scores its value plus a die roll.
"""

from __future__ import annotations

from engines.core import (DEAL, REVEAL, ROLL, SHUFFLE, Cards, Game, IllegalAction,
                          NotationError, PositionError, State, TableOp, apply_outcome_to_cards)


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
        return -1 if state.pending else state.to_move

    def legal_actions(self, state, seat):
        if state.pending or self.is_over(state) or seat != state.to_move:
            return []
        mine = state.hands[seat]
        return [("keep",), ("swap", mine, state.cards.ids[mine])]

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
        if self.next_actor(state) == -1 or action[0] not in ("keep", "swap"):
            raise IllegalAction(f"{action!r} is not legal now")
        if action[0] == "swap":
            old = s.hands[seat]
            if action[1] != old:
                raise IllegalAction(f"slot {action[1]} is not in seat {seat + 1}'s hand")
            s.cards.claim(old, action[2], seat)
            s.discard.append(old)
            s.pending = TableOp(DEAL, pile="deck", slots=(s.deck[0],), to=seat)
        else:
            self._next_turn(s)
        return s, [(action[0], seat)]

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
            return ("keep",)
        if word == "swap":
            mine = state.hands[state.to_move]
            return ("swap", mine, state.cards.ids[mine])
        raise NotationError(f"unknown move {text!r}: say keep or swap")

    def load(self, data):
        s = HighCardState.__new__(HighCardState)
        s.players = data["players"]
        s.cards = Cards.from_data(data["cards"], s.players)
        s.pending = TableOp.from_data(data["pending"])
        for k in ("deck", "hands", "discard", "to_move", "phase", "bonus", "turn"):
            setattr(s, k, data[k])
        if not isinstance(s.deck, list):
            raise PositionError("deck must be a list")
        return s


GAME = HighCard()
