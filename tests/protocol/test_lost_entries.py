"""A session resumed from a log that lost entries it had signed (its ``signed`` mark is past the log's end).

It signs nothing at those places: its own entries come back from the others
(a move as any entry, a fair step through the writer, as a replay reads its
log), and the chain it rebuilds is the one it had signed; an entry nobody
sends back is written again only once every other seat was linked for the
claim time (it never left this peer).
"""

from __future__ import annotations

import pytest

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import IllegalAction
from lanterne.engines.registry import get_game
from lanterne.protocol.memory import make_sessions, play
from lanterne.protocol.session import HoldGivenUp, LogRepaired, Session

GUEST = 1
CLAIM = 30.0


@pytest.fixture(scope="module")
def played() -> list[Session]:
    sessions = make_sessions(get_game("pueblo"), 2, "lost-entries")
    play(sessions, [RandomBot(f"lost/{i}") for i in range(2)])
    return sessions


def own(session: Session, kind: str) -> int:
    """The place of the guest's own entry of ``kind`` (a move or a fair step) halfway through the game."""
    places = [e.seq for e in session.chain if e.author == session.public and (e.kind == "move") == (kind == "move")
              and e.seq > 8]
    return places[len(places) // 2]


def resumed(guest: Session, place: int) -> Session:
    """The guest restarted from its log cut just before its own entry at ``place``, its mark one past it."""
    raws = [e.raw for e in guest.chain[:place]]
    return Session.from_log(raws, guest.identity, guest.seed, timeout=CLAIM, signed=place + 1)


@pytest.mark.parametrize("kind", ["move", "fair"])
def test_its_lost_entry_comes_back_from_the_others_and_nothing_is_signed_anew(played, kind):
    guest = played[GUEST]
    place = own(guest, kind)
    again = resumed(guest, place)
    assert len(again.chain) == place and again.writer.holding(again.state)
    assert not again.my_turn and again.legal_actions() == []
    if kind == "move":
        with pytest.raises(IllegalAction, match="our log lost this move"):
            again.act(guest.game.legal_actions(again.view, GUEST)[0])
    assert again.tick(10 * CLAIM) == [] and len(again.chain) == place    # no claim, no abort: it holds
    events = again.receive(guest.chain[place], sender=played[0].public)
    assert [e.raw for e in again.chain] == [e.raw for e in guest.chain[:place + 1]]
    assert [e for e in events if isinstance(e, LogRepaired)] == [LogRepaired(1)]
    for entry in guest.chain[place + 1:]:           # the rest of the game: the same chain, our entries signed alike
        if entry.author != guest.public:
            again.receive(entry, sender=played[0].public)
        while again.my_turn and len(again.chain) < len(guest.chain):
            again.act(tuple(guest.chain[len(again.chain)].body["action"]))
    assert [e.raw for e in again.chain] == [e.raw for e in guest.chain]


def test_an_entry_nobody_has_is_written_again_after_the_claim_time_with_every_seat_linked(played):
    guest = played[GUEST]
    place = own(guest, "move")
    again = resumed(guest, place)
    assert again.hold(0.0, linked=True) == []
    assert again.hold(CLAIM - 1, linked=True) == [] and not again.my_turn
    assert again.hold(CLAIM + 5, linked=False) == []     # a seat not linked may hold it: the wait starts again
    assert again.hold(CLAIM + 6, linked=True) == [] and not again.my_turn
    events = again.hold(2 * CLAIM + 6, linked=True)
    assert events == [HoldGivenUp(1, CLAIM)] and "never left this peer" in str(events[0])
    assert again.my_turn and len(again.chain) == place


def test_a_log_that_reaches_its_mark_holds_nothing(played):
    guest = played[GUEST]
    place = own(guest, "move")
    again = Session.from_log([e.raw for e in guest.chain[:place]], guest.identity, guest.seed, signed=place)
    assert again.my_turn and not again.writer.holding(again.state)
