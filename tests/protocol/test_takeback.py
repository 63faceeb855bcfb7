"""A seat takes back its own last moves of the turn under way on a network table (real sessions, in-memory peers).

The table signs ``undo: ask``; the seat whose turn it is writes ``takeback``, every other seat answers in seat
order, and after the last yes every session is back at the position before those moves. Every takeback that
breaks a rule, and every answer out of its place, ends the game with an abort naming its author; the log of a
game with a granted and a refused takeback verifies and replays byte for byte.
"""

from __future__ import annotations

import os

import pytest

from lanterne.engines.bots import RandomBot
from lanterne.protocol.log import seal
from lanterne.protocol.memory import Pipe, make_sessions
from lanterne.protocol.session import (TAKEBACK, TAKEBACK_REPLY, Aborted, GameOver, Session, TakebackAsked,
                                       TakebackRefused, TakenBack)
from lanterne.protocol.session.phases import Phase
from lanterne.protocol.verify import verify_entries
from tests.support.tally_game import GAME as TALLY, play_with_takebacks


def table(players=3, undo="ask", seed="tb"):
    """Sessions at a Tally table, every seat said hello and sent its nonce, the first deal done: a pipe."""
    sessions = make_sessions(TALLY, players, seed, games=lambda game_id: TALLY, undo=undo)
    pipe = Pipe(sessions)
    pipe.collect(0, sessions[0].start())
    pipe.deliver()
    return sessions, pipe


def mover(sessions) -> int:
    return next(i for i, s in enumerate(sessions) if s.my_turn)


def act(sessions, pipe, seat, *action):
    pipe.collect(seat, sessions[seat].act(tuple(action)))
    pipe.deliver()


def ask(sessions, pipe, seat, moves=1):
    pipe.collect(seat, sessions[seat].ask_takeback(moves))
    pipe.deliver()


def forged(session, author, kind, body, back=0):
    """An entry of ``author`` (an Identity) for the next place of ``session``'s chain, or ``back`` places before."""
    chain = session.chain
    at = len(chain) - back
    return seal(author, game=chain.game_id, seq=at, prev=chain[at - 1].hash, kind=kind, body=body)


def identities(seed="tb", players=3):
    from lanterne.protocol.identity import Identity

    return [Identity.from_seed(f"{seed}/identity/{i}".encode()) for i in range(players)]


def events(pipe, seat, kind):
    return [e for e in pipe.events[seat] if isinstance(e, kind)]


def aborted(session) -> Aborted:
    assert isinstance(session.result, Aborted), session.result
    return session.result


def test_every_seat_says_yes_and_every_session_goes_back_to_the_position_before_the_moves():
    sessions, pipe = table()
    m = mover(sessions)
    start = [s.view for s in sessions]
    act(sessions, pipe, m, "add")
    act(sessions, pipe, m, "add")
    assert sessions[m].takeback_refusal(2) == ""
    ask(sessions, pipe, m, 2)
    for i, s in enumerate(sessions):
        assert s.view is start[i], "each session's own view of the position before the moves"
        assert s.phase == Phase.PLAY and s.chain[-1].kind == TAKEBACK_REPLY and len(s.chain) == len(sessions[0].chain)
    assert sessions[m].my_turn and sessions[m].legal_actions() == TALLY.legal_actions(start[m], m)
    assert events(pipe, m, TakebackAsked) == [TakebackAsked(m, 2, len(sessions[0].chain) - 5)]
    others = tuple(i for i in range(3) if i != m)
    assert all(events(pipe, i, TakenBack) == [TakenBack(m, 2, others)] for i in range(3))
    act(sessions, pipe, m, "add")       # and the game goes on from there, every digest agreeing
    assert all(s.view.scores == sessions[m].view.scores for s in sessions) and not any(s.over for s in sessions)


def test_a_no_leaves_the_game_where_it_was_and_the_same_moves_cannot_be_asked_again():
    sessions, pipe = table()
    m = mover(sessions)
    act(sessions, pipe, m, "add")
    refuser = (m + 1) % 3
    sessions[refuser].takeback_consent = lambda asked: False
    ask(sessions, pipe, m)
    assert all(s.phase == Phase.PLAY and s.view.scores[m] == 1 for s in sessions)
    assert events(pipe, m, TakebackRefused) == [TakebackRefused(m, refuser)]
    assert sessions[m].takeback_refusal() == "nothing of yours to take back this turn"
    with pytest.raises(Exception, match="nothing of yours"):
        sessions[m].ask_takeback()
    act(sessions, pipe, m, "add")      # a new move may be asked for, alone
    assert sessions[m].takeback_refusal() == "" and sessions[m].takeback_refusal(2) != ""


def test_a_person_who_has_not_answered_yet_holds_the_takeback_and_the_session_writes_the_answer_once_given():
    sessions, pipe = table()
    m = mover(sessions)
    act(sessions, pipe, m, "add")
    first = (m + 1) % 3
    answer = [None]
    sessions[first].takeback_consent = lambda asked: answer[0]
    ask(sessions, pipe, m)
    assert all(s.phase == Phase.TAKEBACK for s in sessions) and sessions[0].waiting_for() == first
    asked = sessions[first].state.takeback_asked
    assert asked is not None and asked.seat == m and asked.writer == first
    answer[0] = True
    pipe.collect(first, sessions[first].step())
    pipe.deliver()
    assert all(s.phase == Phase.PLAY and s.view.scores[m] == 0 for s in sessions)


def test_a_seat_asks_nothing_on_a_table_whose_host_did_not_allow_it_and_a_forged_request_names_it():
    sessions, pipe = table(undo="off")
    m = mover(sessions)
    act(sessions, pipe, m, "add")
    assert "takes nothing back" in sessions[m].takeback_refusal()
    other = (m + 1) % 3
    entry = forged(sessions[other], identities()[m], TAKEBACK, {"to": sessions[other].chain[-2].hash})
    sessions[other].receive(entry)
    result = aborted(sessions[other])
    assert result.culprit == m and f"seat {m + 1}'s takeback: this table takes nothing back" in result.reason


def refused_request(build, moves_before=(("add",),)):
    """A table where the mover played ``moves_before``, then a forged takeback built by ``build(session, m)``:
    the reason the first other seat's abort gives, and the seat it names."""
    sessions, pipe = table()
    m = mover(sessions)
    for action in moves_before:
        if action[0] == "play":     # the mover's hidden card, named
            action = next(a for a in sessions[m].legal_actions() if a[0] == "play")
        act(sessions, pipe, m, *action)
    m2 = mover(sessions)
    other = next(i for i in range(3) if i != m2)
    author, body = build(sessions[other], m2)
    sessions[other].receive(forged(sessions[other], identities()[author], TAKEBACK, body))
    result = aborted(sessions[other])
    return result.reason, result.culprit, m2, author


def test_a_request_out_of_turn_names_its_author_and_the_seat_whose_place_it_was():
    reason, culprit, m, author = refused_request(lambda s, m: ((m + 1) % 3, {"to": s.chain[-2].hash}))
    assert culprit == author and f"is seat {m + 1}'s to write, not seat {author + 1}" in reason


def test_a_request_that_covers_another_seats_move_is_refused():
    reason, culprit, m, author = refused_request(lambda s, m: (m, {"to": s.chain[-2].hash}), [("add",), ("end",)])
    assert culprit == m and "move: a seat takes back only its own" in reason


def test_a_request_that_covers_a_card_made_public_is_refused():
    def build(s, m):
        return m, {"to": s.chain[-3].hash}
    reason, culprit, m, _ = refused_request(build, [("play", None, None), ("add",)])
    assert culprit == m and "made a hidden card public, which cannot be hidden again" in reason


def test_a_request_that_covers_the_tables_deal_is_refused():
    def build(s, m):
        at = max(i for i, e in enumerate(s.chain) if e.kind == "move" and e.body["action"] == ["draw"])
        return m, {"to": s.chain[at - 1].hash}
    reason, culprit, m, _ = refused_request(build, [("draw",), ("add",)])
    assert culprit == m and "cannot be taken back: what it showed stays seen" in reason


def test_a_request_that_names_no_entry_or_the_last_one_is_refused():
    reason, culprit, m, _ = refused_request(lambda s, m: (m, {"to": os.urandom(32)}))
    assert culprit == m and "cannot be taken back" in reason, "it would cover everything before: the first stays"
    reason, culprit, m, _ = refused_request(lambda s, m: (m, {"to": s.chain[-1].hash}))
    assert culprit == m and "takes back nothing" in reason


def asked_table():
    """A takeback of the mover's one move, its first answerer not answering yet: sessions, pipe, mover, answerers."""
    sessions, pipe = table()
    m = mover(sessions)
    act(sessions, pipe, m, "add")
    order = [(m + 1) % 3, (m + 2) % 3]
    order.sort()
    for i in order:
        sessions[i].takeback_consent = lambda asked: None
    ask(sessions, pipe, m)
    return sessions, pipe, m, order


def test_an_answer_by_the_wrong_seat_a_second_answer_or_a_second_request_names_its_author():
    sessions, pipe, m, (first, second) = asked_table()
    ids = identities()
    watcher = sessions[m]
    asked = watcher.state.takeback_asked
    watcher.receive(forged(watcher, ids[second], TAKEBACK_REPLY, {"takeback": asked.hash, "yes": True}))
    result = aborted(watcher)
    assert result.culprit == second and f"seat {first + 1}'s to write, not seat {second + 1}" in result.reason

    sessions, pipe, m, (first, second) = asked_table()
    sessions[first].takeback_consent = lambda asked: True
    pipe.collect(first, sessions[first].step())
    pipe.deliver()
    watcher = sessions[m]
    watcher.receive(forged(watcher, ids[first], TAKEBACK_REPLY, {"takeback": watcher.state.takeback_asked.hash,
                                                                  "yes": True}))
    result = aborted(watcher)
    assert result.culprit == first and f"seat {second + 1}'s to write, not seat {first + 1}" in result.reason

    sessions, pipe, m, (first, second) = asked_table()
    watcher = sessions[second]
    watcher.receive(forged(watcher, ids[m], TAKEBACK, {"to": watcher.chain[-3].hash}))
    result = aborted(watcher)
    assert result.culprit == m and f"seat {first + 1}'s to write, not seat {m + 1}" in result.reason

    sessions, pipe, m, (first, second) = asked_table()
    watcher = sessions[m]
    watcher.receive(forged(watcher, ids[first], TAKEBACK_REPLY, {"takeback": os.urandom(32), "yes": True}))
    result = aborted(watcher)
    assert result.culprit == first and "answers another takeback" in result.reason


def test_the_log_of_a_game_with_a_granted_and_a_refused_takeback_verifies_and_replays_byte_for_byte():
    sessions = play_with_takebacks()
    raws = [e.raw for e in sessions[0].chain]
    kinds = [e.kind for e in sessions[0].chain]
    assert kinds.count(TAKEBACK) == 2 and kinds.count(TAKEBACK_REPLY) == 3
    assert all([e.raw for e in s.chain] == raws for s in sessions)
    report = verify_entries(raws, games=lambda game_id: TALLY)
    assert report.ok and report.result == "over", report.problem
    assert report.replayed == [1, 2, 3]
    slow = verify_entries(raws, games=lambda game_id: TALLY, one_pass=False)      # every seat's own session, from its seed
    assert slow.ok and slow.scores == report.scores
    for s in sessions:
        again = Session.replay(raws, s.public, s.seed, games=lambda game_id: TALLY, keep_events=True)
        assert [e.raw for e in again.chain] == raws and TALLY.digest(again.view) == TALLY.digest(s.view)
        assert sum(isinstance(e, TakenBack) for e in again.replayed_events) == 1
        assert sum(isinstance(e, TakebackRefused) for e in again.replayed_events) == 1
    watcher = Session.replay(raws, bytes(32), bytes(32), games=lambda game_id: TALLY)
    assert TALLY.digest(watcher.view) == TALLY.digest(sessions[0].view)


def test_a_seat_restarted_while_its_answer_is_awaited_answers_nothing_by_itself_and_its_person_answers_then():
    sessions, pipe, m, (first, second) = asked_table()
    s = sessions[first]
    raws = [e.raw for e in s.chain]
    again = Session.from_log(raws, s.identity, s.seed, games=lambda game_id: TALLY)
    assert again.phase == Phase.TAKEBACK and len(again.chain) == len(raws), "nothing written by the restart"
    sessions[first] = again
    pipe.sessions[first] = again
    pipe.collect(first, again.answer_takeback(False))
    pipe.deliver()
    assert all(x.phase == Phase.PLAY and x.chain[-1].kind == TAKEBACK_REPLY for x in sessions)
    assert sessions[m].view.scores[m] == 1, "a no: the move stays"
    with pytest.raises(Exception, match="no takeback waits for your answer"):
        again.answer_takeback(True)
