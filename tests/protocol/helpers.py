"""Shared helpers for the protocol tests: a tiny real game and in-memory peers."""

from __future__ import annotations

from lanterne.engines.bots import RandomBot
from lanterne.protocol.log import open_entry
from lanterne.protocol.memory import make_sessions, play
from lanterne.protocol.session import receive_frame
from lanterne.engines.example import GAME as HIGHCARD


class ReshuffleHighCard(type(HIGHCARD)):
    """High card whose deck is shuffled again once the hands are dealt.

    The remaining deck then holds hidden cards (locked in the first deck),
    so the fair table must relock them before it shuffles: the one table
    step High card alone never takes.
    """

    id, name = "highcard-reshuffle", "High card, reshuffled"

    def apply(self, state, action):
        from lanterne.engines.core import SHUFFLE, TableOp, apply_outcome_to_cards

        op = state.pending
        if op is not None and op.kind == SHUFFLE and state.phase == "reshuffle":
            s = state.copy()
            apply_outcome_to_cards(s.cards, op, action)
            s.pending, s.phase = None, "play"
            return s, [("table", "shuffle")]
        s, events = super().apply(state, action)
        if state.phase == "deal" and s.phase == "play":
            s.phase, s.pending = "reshuffle", TableOp(SHUFFLE, pile="deck", slots=tuple(s.deck))
        return s, events


RESHUFFLE = ReshuffleHighCard()


def games(game_id: str):
    from lanterne.engines.registry import get_game

    return {"highcard": HIGHCARD, "highcard-reshuffle": RESHUFFLE}.get(game_id) or get_game(game_id)


def highcard_sessions(players=2, seed="t", **kw):
    return make_sessions(HIGHCARD, players, seed, games=games, **kw)


def play_highcard(players=2, seed="t", **kw):
    sessions = highcard_sessions(players, seed, **kw)
    play(sessions, [RandomBot(f"{seed}/{i}") for i in range(players)])
    return sessions


def drive(sessions, players, *, filter=None, before_move=None, max_steps=2000):
    """Like protocol.memory.play, with a wire filter and a hook before each move; stops when stuck."""
    from lanterne.protocol.memory import Pipe

    pipe = Pipe(sessions)
    pipe.collect(0, sessions[0].start())
    pipe.deliver(filter)
    for i, s in enumerate(sessions[1:], 1):
        if not s.auto_join:
            pipe.collect(i, s.join())
            pipe.deliver(filter)
    for _ in range(max_steps):
        pipe.deliver(filter)
        if all(s.over for s in sessions) or sessions[0].over:
            return pipe
        movers = [i for i, s in enumerate(sessions) if s.my_turn]
        if not movers:
            return pipe
        i = movers[0]
        if before_move is not None and before_move(i, sessions, pipe):
            continue
        s = sessions[i]
        pipe.collect(i, s.act(players[i].choose(s.game, s.view, s.my_seat)))
    return pipe


def forge(entry, signer, **changes):
    """The entry with some fields changed, signed by ``signer`` (author kept unless changed)."""
    from lanterne.protocol.log import ENVELOPE_DOMAIN
    from lanterne.protocol.wire import pack

    fields = {"v": entry.v, "game": entry.game, "seq": entry.seq, "prev": entry.prev, "author": entry.author,
              "kind": entry.kind, "body": entry.body}
    fields.update(changes)
    sig = signer.sign(ENVELOPE_DOMAIN, pack(fields))
    return pack({**fields, "sig": sig})


class AlwaysSwap:
    """A High-card player that always swaps (so every game plays a hidden card)."""

    def choose(self, game, view, seat):
        return [a for a in game.legal_actions(view, seat) if a[0] == "swap"][0]


HONEST, CHEAT = 0, 1
"""In the cheat scenarios: seat 1 (the host) is honest, seat 2 cheats."""


class Tamper:
    """A wire filter: replaces the n-th frame of ``kind`` sent by the cheater."""

    def __init__(self, kind, make, nth=0):
        self.kind, self.make, self.nth = kind, make, nth
        self.seen = 0
        self.sent: list[bytes] = []
        self.events: list = []
        """What the receiver said of the extra frames it got straight from here."""

    def __call__(self, src, dst, raw):
        if src != CHEAT:
            return raw
        entry = open_entry(raw)
        if entry.kind == self.kind and not self.sent:
            if self.seen == self.nth:
                out = self.make(entry, self.sessions)
                self.sent = out if isinstance(out, list) else [out]
                for extra in self.sent[:-1]:
                    self.events += receive_frame(self.sessions[dst], extra, self.sessions[src].public)
                return self.sent[-1]
            self.seen += 1
        return raw


def run(tamper=None, players=None, before_move=None, seed="cheat", cheat_fair=None):
    """A high-card game of an honest seat and a cheat (its wire filtered by ``tamper``): the sessions."""
    return run_pipe(tamper, players, before_move, seed, cheat_fair)[0]


def run_pipe(tamper=None, players=None, before_move=None, seed="cheat", cheat_fair=None):
    """:func:`run`, and the pipe that carried it (what each seat was told)."""
    sessions = highcard_sessions(2, seed)
    if cheat_fair is not None:
        sessions[CHEAT].state.fairmod = cheat_fair
    if tamper is not None:
        tamper.sessions = sessions
    players = players or [RandomBot(1), AlwaysSwap()]
    pipe = drive(sessions, players, filter=tamper, before_move=before_move)
    return sessions, pipe
