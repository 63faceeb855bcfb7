"""A tiny real game whose turns are several actions, so that a seat has moves of its own to take back.

"Tally": 6 cards valued 1..6. Setup rolls the first player, shuffles, deals one card face down to each seat.
On its turn a seat adds 1 to its score (three times at most), plays its hidden card for its value (the card
is then public), draws a card (the table deals it face down: a table step in the turn), or ends its turn.
A seat that ends its turn with 10 or more ends the game.
"""

from __future__ import annotations

from lanterne.engines.core import (DEAL, ROLL, SHUFFLE, TABLE, Cards, Game, IllegalAction, NotationError,
                                   PositionError, State, TableOp, apply_outcome_to_cards)
from tests.support.toy_game import play_first_card

TARGET = 10
CARDS = 6
ADDS = 3


class TallyState(State):
    def __init__(self, cards, pending, hands, scores, turn, player, adds, drawn):
        self.cards, self.pending, self.hands, self.scores = cards, pending, hands, scores
        self.turn, self.player, self.adds, self.drawn = turn, player, adds, drawn

    def copy(self):
        return TallyState(self.cards.copy(), self.pending, [h[:] for h in self.hands], self.scores[:], self.turn,
                          self.player, self.adds, self.drawn)

    def to_data(self):
        return {"cards": self.cards.to_data(), "pending": None if self.pending is None else self.pending.to_data(),
                "hands": self.hands, "scores": self.scores, "turn": self.turn, "player": self.player,
                "adds": self.adds, "drawn": self.drawn}


class TallyGame(Game):
    id = "tally"
    name = "Tally"
    min_players, max_players = 2, 4

    def setup(self, players=2, variant="standard", **options):
        self.check_options(players, variant)
        return TallyState(Cards.new(list(range(1, CARDS + 1)), players), TableOp(ROLL, faces=players, why="first player"),
                          [[] for _ in range(players)], [0] * players, 0, 0, 0, 0)

    def next_actor(self, state):
        return TABLE if state.pending is not None else state.player

    def legal_actions(self, state, seat):
        if self.is_over(state) or state.pending is not None or seat != state.player:
            return []
        acts = [("add",)] if state.adds < ADDS else []
        acts += [("play", slot, state.cards.ids[slot]) for slot in state.hands[seat]
                 if state.cards.ids[slot] is not None]
        if state.drawn < CARDS:
            acts.append(("draw",))
        return acts + [("end",)]

    def apply(self, state, action):
        s = state.copy()
        if state.pending is not None:
            op = state.pending
            apply_outcome_to_cards(s.cards, op, action)
            s.pending = None
            if op.kind == ROLL:
                s.player, s.pending = action[1], TableOp(SHUFFLE, "deck", tuple(range(CARDS)))
            elif op.kind == SHUFFLE:
                s.pending = TableOp(DEAL, "deck", (0,), to=0)
            else:
                s.hands[op.to].append(op.slots[0])
                s.drawn += 1
                if s.turn == 0 and s.drawn < len(s.hands) and s.drawn == op.to + 1:     # the first deal
                    s.pending = TableOp(DEAL, "deck", (s.drawn,), to=s.drawn)
            return s, [("table", op.kind)]
        seat = state.player
        if self.is_over(state):
            raise IllegalAction("the game is over")
        if action == ("add",) and s.adds < ADDS:
            s.scores[seat] += 1
            s.adds += 1
        elif action[:1] == ("play",) and len(action) == 3 and action[1] in s.hands[seat]:
            s.cards.claim(action[1], action[2], seat)
            s.hands[seat].remove(action[1])
            s.scores[seat] += action[2]
        elif action == ("draw",) and s.drawn < CARDS:
            s.pending = TableOp(DEAL, "deck", (s.drawn,), to=seat)
        elif action == ("end",):
            s.turn, s.adds = s.turn + 1, 0
            s.player = (seat + 1) % len(s.hands)
        else:
            raise IllegalAction(f"not a tally move now: {action!r}")
        return s, [(action[0], seat)]

    def is_over(self, state):
        return state.pending is None and state.adds == 0 and max(state.scores) >= TARGET

    def scores(self, state):
        return list(state.scores)

    def format_action(self, state, action):
        return "play" if action[0] == "play" else action[0]

    def parse_action(self, state, text, seat=None):
        word = text.strip().lower()
        if word in ("add", "draw", "end"):
            return (word,)
        if word == "play":
            return play_first_card(state, seat)
        raise NotationError(f"unknown tally move {text!r} (moves: add, play, draw, end)")

    def load(self, data):
        raise PositionError("tally positions are not saved")


GAME = TallyGame()


def play_with_takebacks(seed: str = "tbv") -> list:
    """A whole game of random moves at a Tally table of three (in-memory peers) whose host allows a takeback: the
    first takeback any seat may ask for is granted, the second refused by the first seat to answer. The sessions."""
    from lanterne.engines.bots import RandomBot
    from lanterne.protocol.memory import Pipe, make_sessions

    sessions = make_sessions(GAME, 3, seed, games=lambda game_id: GAME, undo="ask")
    pipe = Pipe(sessions)
    pipe.collect(0, sessions[0].start())
    pipe.deliver()
    bots = [RandomBot(f"{seed}/{i}") for i in range(3)]
    asked = 0
    for _ in range(5000):
        if all(s.over for s in sessions):
            return sessions
        i = next(k for k, s in enumerate(sessions) if s.my_turn)
        s = sessions[i]
        if asked < 2 and s.takeback_refusal() == "":
            first = min(k for k in range(3) if k != i)      # the first to answer: a no ends it there
            sessions[first].takeback_consent = lambda request: asked != 1
            asked += 1
            pipe.collect(i, s.ask_takeback())
            pipe.deliver()
            sessions[first].takeback_consent = lambda request: True
        else:
            pipe.collect(i, s.act(bots[i].choose(s.game, s.view, i)))
        pipe.deliver()
    raise AssertionError("no end after 5000 moves")
