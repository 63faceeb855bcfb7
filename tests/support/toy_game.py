"""A tiny real game on the engine contract, so the client is tested on any game.

"Toy": 6 cards valued 1..6. Setup rolls the first player, shuffles, deals one
card face down to each seat. On its turn a seat either adds 1 or 2 to its
score ("+1", "+2"), or plays its hidden card ("play") for its value once.
First to 7 or more ends the game at once.
"""

from __future__ import annotations

from lanterne.engines.core import (DEAL, ROLL, SHUFFLE, TABLE, Cards, Game, IllegalAction, NotationError,
                          PositionError, State, TableOp, apply_outcome_to_cards)

TARGET = 7


class ToyState(State):
    def __init__(self, cards, pending, hands, scores, turn, phase):
        self.cards, self.pending = cards, pending
        self.hands, self.scores, self.turn, self.phase = hands, scores, turn, phase
        self.player = 0

    def copy(self):
        s = ToyState(self.cards.copy(), self.pending, [h[:] for h in self.hands], self.scores[:], self.turn, self.phase)
        s.player = self.player
        return s

    def to_data(self):
        return {"cards": self.cards.to_data(), "pending": TableOp.from_data(None) if self.pending is None
                else self.pending.to_data(), "hands": self.hands, "scores": self.scores,
                "turn": self.turn, "phase": self.phase, "player": self.player}


class ToyGame(Game):
    id = "toy"
    name = "Toy"
    variants = ("standard", "long")

    def setup(self, players=2, variant="standard", **options):
        self.check_options(players, variant)
        s = ToyState(Cards.new(list(range(1, 7)), players), TableOp(ROLL, faces=players, why="first player"),
                     [[] for _ in range(players)], [0] * players, 0, "roll")
        return s

    def next_actor(self, state):
        return TABLE if state.pending is not None else state.player

    def legal_actions(self, state, seat):
        if self.is_over(state) or state.pending is not None or seat != state.player:
            return []
        acts = [("add", 1), ("add", 2)]
        for slot in state.hands[seat]:
            ident = state.cards.ids[slot]
            if ident is not None:
                acts.append(("play", slot, ident))
        return acts

    def apply(self, state, action):
        s = state.copy()
        if state.pending is not None:
            op = state.pending
            apply_outcome_to_cards(s.cards, op, action)
            if op.kind == ROLL:
                s.player = action[1]
                s.pending = TableOp(SHUFFLE, "deck", tuple(range(6)))
            elif op.kind == SHUFFLE:
                s.pending = TableOp(DEAL, "deck", (0,), to=0)
            elif op.kind == DEAL:
                s.hands[op.to].append(op.slots[0])
                nxt = op.to + 1
                s.pending = TableOp(DEAL, "deck", (nxt,), to=nxt) if nxt < len(s.hands) else None
            return s, [("table", op.kind)]
        if self.is_over(state):
            raise IllegalAction("the game is over")
        seat = state.player
        if action[:1] == ("add",) and len(action) == 2 and action[1] in (1, 2):
            s.scores[seat] += action[1]
        elif action[:1] == ("play",) and len(action) == 3:
            slot, ident = action[1], action[2]
            if slot not in s.hands[seat]:
                raise IllegalAction(f"P{seat + 1} does not hold slot {slot}")
            s.cards.claim(slot, ident, seat)
            s.hands[seat].remove(slot)
            s.scores[seat] += ident
        else:
            raise IllegalAction(f"not a toy move: {action!r}")
        s.turn += 1
        s.player = (seat + 1) % len(s.hands)
        return s, [("scored", seat, s.scores[seat])]

    def is_over(self, state):
        return max(state.scores) >= TARGET

    def scores(self, state):
        return list(state.scores)

    def format_action(self, state, action):
        if action[0] == "add":
            return f"+{action[1]}"
        return f"play {action[2]}"

    def parse_action(self, state, text, seat=None):
        text = text.strip().lower()
        if text in ("+1", "+2"):
            return ("add", int(text[1]))
        if text == "play":
            return play_first_card(state, seat)
        raise NotationError(f"unknown toy move {text!r} (moves: +1, +2, play)")

    def load(self, data):
        raise PositionError("toy positions are not saved")


def play_first_card(state, seat=None) -> tuple:
    """``play``: the seat's first card (the seat to move's, if none is named), or NotationError."""
    seat = state.player if seat is None else seat
    if not state.hands[seat]:
        raise NotationError("no card left to play")
    slot = state.hands[seat][0]
    return ("play", slot, state.cards.ids[slot])


GAME = ToyGame()
