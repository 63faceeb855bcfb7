"""A passive observer with every byte of a game learns no hidden card before it is revealed.

The observer decodes all traffic. A card at a mental-poker deck position can
only be opened with every seat's key for that position (without them it is
a DDH problem on Ed25519's prime-order group). So the test finds, for every
position, the first frame by which every seat's key for it has crossed the
wire, and checks that the engine's *public* view shows that card once that
table operation is complete (a reveal's keys arrive one seat at a time):
nobody on the wire learns a card before the rules make it public. It
also checks that no seat's shuffle lock or session seed crosses the wire
before the end of the game.
"""

from __future__ import annotations

import pytest

from lanterne.protocol.log import open_entry
from lanterne.engines.bots import RandomBot
from lanterne.protocol.memory import make_sessions, play
from lanterne.protocol.session import Session
from lanterne.protocol.session.state import SessionState
from tests.protocol.helpers import AlwaysSwap, games, highcard_sessions


class _SnapshotState(SessionState):
    """A session's state that records the public identities of every slot before each entry."""

    public_before: list = []

    def append(self, entry):
        if self.view is not None:
            self.public_before.append(self.game.view(self.view, None).cards.ids[:])
        else:
            self.public_before.append(None)
        super().append(entry)


class _Snapshots(Session):
    """A replay whose state records the public slots before each entry."""

    def _wire(self, state):
        state.__class__ = _SnapshotState
        super()._wire(state)


def _public_after(raws, key, seed):
    _SnapshotState.public_before = []
    s = _Snapshots.replay(raws, key, seed, games=games)
    snaps = _SnapshotState.public_before
    after = snaps[1:] + [s.game.view(s.view, None).cards.ids[:]]
    return after


@pytest.mark.parametrize("game, players", [("highcard", 2), ("highcard", 3), ("pagode", 2),
                                           ("highcard-reshuffle", 2)])
def test_observer_learns_no_hidden_card_early(game, players):
    if game == "pagode":
        sessions = make_sessions(games("pagode"), players, "observer-pagode")
        bots = [RandomBot(i) for i in range(players)]
    elif game == "highcard-reshuffle":
        sessions = make_sessions(games(game), players, "observer-relock", games=games)
        bots = [AlwaysSwap() for _ in range(players)]
    else:
        sessions = highcard_sessions(players, seed=f"observer{players}")
        bots = [AlwaysSwap() for _ in range(players)]
    wire: list[bytes] = []
    play(sessions, bots, tap=lambda i, raw: wire.append(raw))
    wire = list(dict.fromkeys(wire))                       # echoes (3+ peers) repeat frames already seen
    entries = [open_entry(raw) for raw in wire]            # the observer decodes everything
    assert [e.raw for e in entries] == [e.raw for e in sessions[0].chain]
    seat_of = {s.public: i for i, s in enumerate(sessions)}
    finals = {seat_of[e.author]: e.body for e in entries if e.kind == "fair_final"}
    first_final = min(i for i, e in enumerate(entries) if e.kind == "fair_final")
    decks = {e.body["deck"]: e.body["slots"] for e in entries
             if e.kind in ("fair_shuffle", "fair_relock") and "slots" in e.body}
    public_after = _public_after(wire, sessions[0].public, sessions[0].seed)
    played_hidden = 0
    for d, slots in decks.items():
        for pos, slot in enumerate(slots):
            keys = [next(x for x in finals[s]["decks"] if x["deck"] == d)["keys"][pos] for s in range(players)]
            first = [next((i for i, raw in enumerate(wire) if k in raw), None) for k in keys]
            opened_at = max(first)
            if opened_at >= first_final:
                continue                                    # opened by the end-of-game audit
            done = opened_at          # a reveal's keys come one seat after another: the op ends
            while entries[done].kind == "fair_keys" and done + 1 < len(entries) \
                    and entries[done + 1].kind == "fair_keys":
                done += 1             # with the last of them, when the card is public
            assert public_after[done][slot] is not None, (
                f"deck {d} position {pos} (slot {slot}) could be opened from frame {opened_at} "
                f"({entries[opened_at].kind}) while the public view does not show it")
            played_hidden += entries[opened_at].kind == "move"
    assert played_hidden >= players, "the game played hidden cards from hands"
    for s, final in finals.items():
        for deck in final["decks"]:
            for secret in ("lock", "swap"):
                if secret in deck:
                    assert not any(deck[secret] in raw for raw in wire[:first_final]), f"seat {s + 1}'s {secret} leaked"
    first_end = min(i for i, e in enumerate(entries) if e.kind == "end")
    for s in sessions:
        assert not any(s.seed in raw for raw in wire[:first_end])
