"""Claims carry their evidence, at the session level.

* a claim may name only the seat the chain waits for; one naming another
  seat is a broken rule that names the claimer;
* each peer keeps its own minimum claim time: a guest leaves, in one line
  and before any move, a table whose signed claim time or move clock is
  shorter;
* a table may set a move clock (signed in the table), so a linked player who
  stalls can be claimed against; without one, a linked thinker never is.
"""

from __future__ import annotations

import pytest

from lanterne.engines.bots import RandomBot
from lanterne.protocol.session.phases import Phase
from lanterne.protocol.identity import Identity
from lanterne.protocol.log import seal
from lanterne.protocol.session import Aborted, Awaiting, Cause, Session
from lanterne.protocol.verify import verify_entries
from tests.protocol.helpers import HIGHCARD, drive, games


def seated(claim=30.0, move_clock=None, min_claim=None, seed="claims"):
    """Two sessions of a table seated from a lobby (the host lists its guest: claim time signed in the table)."""
    host_id, guest_id = (Identity.from_seed(f"{seed}/{i}".encode()) for i in range(2))
    host = Session(host_id, host=True, name="Al", game=HIGHCARD, guests=[guest_id.public], timeout=claim,
                   seed=bytes(32), games=games, move_clock=move_clock)
    guest = Session(guest_id, host=False, name="Bea", seed=bytes([1]) * 32, games=games, timeout=claim)
    guest.min_claim = min_claim
    return [host, guest]


def test_a_guest_leaves_a_table_whose_signed_claim_time_is_below_its_minimum():
    sessions = seated(claim=0.001, min_claim=10.0)
    drive(sessions, [RandomBot(1), RandomBot(2)])
    guest, host = sessions[1], sessions[0]
    assert isinstance(guest.result, Aborted) and guest.result.by == 1 and guest.result.culprit is None
    assert guest.result.reason == "seat 2 plays only with a claim time of at least 10 s; this table's is 0.001 s"
    assert not any(e.kind == "move" for e in guest.chain), "left before any move"
    assert host.result == guest.result     # the host sees the same line; nobody else is named


def test_a_guest_leaves_a_table_whose_move_clock_is_below_its_minimum():
    sessions = seated(claim=30.0, move_clock=2.0, min_claim=10.0)
    drive(sessions, [RandomBot(1), RandomBot(2)])
    assert "move clock of at least 10 s; this table's is 2 s" in sessions[1].result.reason


def test_a_table_at_or_above_the_minimum_is_played():
    sessions = seated(claim=10.0, move_clock=60.0, min_claim=10.0)
    drive(sessions, [RandomBot(1), RandomBot(2)])
    assert all(s.phase == Phase.OVER for s in sessions)
    assert sessions[1].timeout == 10.0 and sessions[1].move_clock == 60.0     # the table's, signed


def test_a_linked_thinker_is_never_claimed_against_without_a_move_clock():
    host, guest = sessions = seated(claim=30.0)
    drive(sessions, [RandomBot(1), RandomBot(2)], before_move=lambda i, s, p: i == 1)
    assert host.waiting_for() == 1
    for now in (0.0, 100.0, 10_000.0):
        assert host.tick(now, here=True) == []
    assert host.result is None and host.claim_due is None


def test_a_linked_staller_is_claimed_against_after_the_move_clock():
    host, guest = sessions = seated(claim=300.0, move_clock=20.0)
    drive(sessions, [RandomBot(1), RandomBot(2)], before_move=lambda i, s, p: i == 1)
    assert host.waiting_for() == 1
    host.tick(0.0, here=True)
    assert host.claim_due == 20.0 and host.awaiting() == Awaiting(1, 0.0, None, 20.0)
    assert host.tick(19.0, here=True) == [] and host.result is None
    host.tick(21.0, here=True)
    assert host.chain[-1].kind == "claim" and not host.over
    host.tick(32.0, here=True)                      # the claimed seat did not refuse within 10 s
    assert isinstance(host.result, Aborted) and host.result.culprit == 1
    assert host.result.reason == "timeout: seat 2 took more than the move clock of 20 s"
    assert (host.result.cause, host.result.waited, host.result.claimed) == (Cause.SLOW, 20.0, 1)
    report = verify_entries([e.raw for e in host.chain], games=games)
    assert report.ok and report.culprit == 2 and "move clock" in report.reason


def test_a_gone_seat_is_claimed_after_the_claim_time_not_the_move_clock_first():
    host, guest = sessions = seated(claim=30.0, move_clock=60.0)
    drive(sessions, [RandomBot(1), RandomBot(2)], before_move=lambda i, s, p: i == 1)
    host.tick(0.0)
    assert host.claim_due == 30.0 and host.awaiting() == Awaiting(1, 0.0, 0.0, 30.0)
    host.tick(31.0)
    host.tick(42.0)
    assert host.result.culprit == 1 and "sent nothing for 30 s" in host.result.reason
    assert (host.result.cause, host.result.waited, host.result.claimed) == (Cause.GONE, 30.0, 1)


def test_a_seat_claimed_before_the_claim_time_left_for_good():
    """A claim made at once (the seat said it left): its cause is that, with no time waited."""
    host, guest = sessions = seated(claim=30.0)
    drive(sessions, [RandomBot(1), RandomBot(2)], before_move=lambda i, s, p: i == 1)
    host.claim(1, "seat 2 left the table for good")
    host.tick(0.0)
    host.tick(11.0)                                 # the claimed seat did not refuse within the answer window
    seen = Session.replay([e.raw for e in host.chain], guest.public, guest.seed, games=games)
    for s in (host, seen):
        assert isinstance(s.result, Aborted) and s.result.cause == Cause.LEFT and s.result.claimed == 1, s.result
        assert s.result.waited is None and s.awaiting() is None


@pytest.mark.parametrize("kind", ["claim", "abort"])
def test_a_claim_against_a_seat_that_is_not_awaited_names_the_claimer(kind):
    host, guest = sessions = seated(claim=30.0)
    drive(sessions, [RandomBot(1), RandomBot(2)], before_move=lambda i, s, p: i == 1)
    assert host.waiting_for() == 1
    # the guest, awaited itself, claims against the host on its own turn
    reason, scores = "timeout: seat 1 sent nothing for 30 s", list(guest.scores_so_far())
    body = ({"seat": 0, "reason": reason, "scores": scores} if kind == "claim" else
            {"reason": reason, "culprit": 0, "evidence": [], "seed": guest.seed, "scores": scores})
    false = seal(guest.identity, game=guest.game_id, seq=len(guest.chain), prev=guest.head[1], kind=kind, body=body)
    events = host.receive(false, sender=guest.public)
    assert isinstance(host.result, Aborted) and host.result.culprit == 1, host.result   # the claimer, not seat 1
    words = ("names seat 1, but the game waits for seat 2" if kind == "claim"
             else "without a claim the other seats agreed to (the game waits for seat 2)")
    assert words in host.result.reason
    assert events[-1] == host.result
    report = verify_entries([e.raw for e in host.chain], games=games)
    assert report.ok and report.culprit == 2


def test_at_a_table_of_two_the_claimed_seat_that_is_here_refuses_and_play_goes_on():
    host, guest = sessions = seated(claim=30.0)
    pipe = drive(sessions, [RandomBot(1), RandomBot(2)], before_move=lambda i, s, p: i == 1)
    host.tick(0.0)
    pipe.collect(0, host.tick(31.0))             # the host claims: the guest looked gone to it
    claim = host.chain[-1]
    assert claim.kind == "claim" and host.phase == Phase.CLAIM
    pipe.deliver()                                # the guest is here: it refuses at once
    refuse = host.chain[-1]
    assert refuse.kind == "refuse" and refuse.author == guest.public and refuse.body["claim"] == claim.hash
    assert host.phase == Phase.PLAY and guest.phase == Phase.PLAY and host.waiting_for() == 1 and guest.my_turn
    assert any(type(e).__name__ == "ClaimRefused" for e in pipe.events[0])
    drive(sessions, [RandomBot(1), RandomBot(2)])          # the game goes on to its end
    assert all(s.phase == Phase.OVER for s in sessions)
    report = verify_entries([e.raw for e in host.chain], games=games)
    assert report.ok and report.result == "over"           # the claim and the refusal are in the log


def test_a_seat_cut_off_while_it_moved_learns_the_claim_that_ended_the_game():
    """Seat 3 moves while cut off (its move never leaves it); the others claim, agree and close; back, it learns it."""
    from lanterne.engines.registry import get_game
    from lanterne.protocol.memory import make_sessions

    sessions = make_sessions(get_game("pueblo"), 3, "cutoff")
    claimer, other, gone = sessions
    claimer.timeout = 30
    cut = []

    def silent(src, dst, raw):
        if cut and 2 in (src, dst):
            return None
        return raw

    def cut_before_its_move(i, ss, pipe):
        if i == 2 and sum(e.kind == "move" for e in claimer.chain) >= 8 and not cut:
            cut.append(len(gone.chain))
        return False
    pipe = drive(sessions, [RandomBot(1), RandomBot(2), RandomBot(3)], filter=silent, before_move=cut_before_its_move)
    place = cut[0]
    assert len(gone.chain) > place and gone.chain[place].author == gone.public, "its own move, never sent"
    assert claimer.waiting_for() == 2
    claimer.tick(0.0)
    pipe.collect(0, claimer.tick(31.0))
    pipe.deliver(silent)
    assert [e.kind for e in claimer.chain[place:]] == ["claim", "agree", "abort"]
    assert isinstance(claimer.result, Aborted) and claimer.result.culprit == 2 and claimer.result.agreed == (1,)
    events = []
    for entry in claimer.chain[place:]:     # back: the others' entries from the place its own move holds
        events += gone.receive(entry, sender=claimer.public)
    assert isinstance(gone.result, Aborted) and gone.result.culprit == 2 and gone.result.by == 0, gone.result
    assert "while this peer was gone" in gone.result.reason and events[-1] == gone.result
    assert [e.raw for e in gone.chain[:place]] == [e.raw for e in claimer.chain[:place]], "identical up to there"
    assert verify_entries([e.raw for e in claimer.chain]).culprit == 3


@pytest.mark.parametrize("on_gone, kind", [("end", "claim"), ("computer", "replace")])
def test_a_claim_that_loses_its_race_to_the_seats_own_move_is_taken_back(tmp_path, on_gone, kind):
    """The claimer writes its claim (or its replace by a computer) at the very moment the claimed seat moves:
    the move wins everywhere, the claimer takes its claim back (its log file included), and every chain is
    the same."""
    from lanterne.engines.registry import get_game
    from lanterne.protocol.log import LogWriter, read_log
    from lanterne.protocol.memory import make_sessions
    from lanterne.protocol.net.files import Store

    writer = LogWriter(tmp_path / "claimer.log")
    stores = [Store(writer.append, writer.retract), None, None]
    sessions = make_sessions(get_game("pueblo"), 3, "race", stores=stores, on_gone=on_gone)
    claimer, other, late = sessions
    claimer.timeout = 30
    pipe = drive(sessions, [RandomBot(1), RandomBot(2), RandomBot(3)],
                 before_move=lambda i, s, p: i == 2 and sum(e.kind == "move" for e in claimer.chain) >= 6)
    assert claimer.waiting_for() == 2 and late.my_turn
    place = len(claimer.chain)
    pipe.collect(2, late.act(RandomBot(3).choose(late.game, late.view, late.my_seat)))   # its move, in flight
    claimer.tick(0.0)
    pipe.collect(0, claimer.tick(31.0))                                                  # the claim, at once
    assert claimer.chain[place].kind == kind
    pipe.deliver()                         # the move reaches everyone first, then the claim
    assert claimer.chain[place].author == late.public and claimer.chain[place].kind == "move"
    assert claimer.phase == Phase.PLAY and claimer.claiming is None
    refused = [e for e in pipe.events[0] if type(e).__name__ == "ClaimRefused"]
    assert refused and "moved at that very moment: the claim is void" in refused[0].reason
    assert [e.raw for e in claimer.chain] == [e.raw for e in other.chain] == [e.raw for e in late.chain]
    drive(sessions, [RandomBot(1), RandomBot(2), RandomBot(3)])       # and the game goes on to its end
    assert all(s.phase == Phase.OVER for s in sessions)
    writer.close()
    assert read_log(tmp_path / "claimer.log")[0] == [e.raw for e in claimer.chain], "the log took it back too"
    assert verify_entries([e.raw for e in claimer.chain]).result == "over"


@pytest.mark.parametrize("on_gone", ["end", "computer"])
@pytest.mark.parametrize("consent", [False, None], ids=["refused-first", "still-unanswered"])
def test_the_claimed_seats_own_move_voids_the_claim_wherever_it_arrives_second(consent, on_gone):
    """The claim (or the replace by a computer) reaches seat 2 first (which refuses it, or has not answered
    yet); the claimed seat's move reaches the claimer first. Whatever the order, every peer takes the claim
    and its answers back for the move."""
    from lanterne.engines.registry import get_game
    from lanterne.protocol.memory import make_sessions

    sessions = make_sessions(get_game("pueblo"), 3, f"race2-{consent}", on_gone=on_gone)
    claimer, other, late = sessions
    claimer.timeout = 30
    other.consent = lambda seat: consent
    pipe = drive(sessions, [RandomBot(1), RandomBot(2), RandomBot(3)],
                 before_move=lambda i, s, p: i == 2 and sum(e.kind == "move" for e in claimer.chain) >= 6)
    place = len(claimer.chain)
    claimer.tick(0.0)
    pipe.collect(0, claimer.tick(31.0))                                                  # the claim first...
    pipe.collect(2, late.act(RandomBot(3).choose(late.game, late.view, late.my_seat)))   # ...the move at once
    pipe.deliver()
    for s in sessions:
        assert s.chain[place].kind == "move" and s.chain[place].author == late.public, [e.kind for e in s.chain[place:]]
        assert s.phase == Phase.PLAY and s.claiming is None
    assert [e.raw for e in claimer.chain] == [e.raw for e in other.chain] == [e.raw for e in late.chain]
    drive(sessions, [RandomBot(1), RandomBot(2), RandomBot(3)])
    assert all(s.phase == Phase.OVER for s in sessions)
    assert verify_entries([e.raw for e in other.chain]).result == "over"


def test_at_a_table_of_two_a_staller_cannot_refuse_a_move_clock_claim():
    """Being here is no answer to the move clock: the claimed seat does not refuse it (the claimer closes after
    the answer window), and a refusal it signs anyway breaks the rule and names it."""
    host, guest = sessions = seated(claim=300.0, move_clock=20.0)
    pipe = drive(sessions, [RandomBot(1), RandomBot(2)], before_move=lambda i, s, p: i == 1)
    host.tick(0.0, here=True)
    pipe.collect(0, host.tick(21.0, here=True))
    claim = host.chain[-1]
    assert claim.kind == "claim" and claim.body["clock"] == "move"
    pipe.deliver()
    assert guest.phase == Phase.CLAIM and guest.chain[-1].hash == claim.hash, "the staller holds it, and stays silent"
    assert host.tick(31.0, here=True) == [] and not host.over
    host.tick(32.0, here=True)                      # the answer window: the claimer closes
    assert isinstance(host.result, Aborted) and host.result.culprit == 1
    forged = seal(guest.identity, game=guest.game_id, seq=len(guest.chain), prev=guest.head[1], kind="refuse",
                  body={"claim": claim.hash, "reason": "seat 2 is here"})
    other = Session.replay([e.raw for e in host.chain[:len(guest.chain)]], host.public, host.seed, games=games,
                           identity=host.identity)
    other.receive(forged, sender=guest.public)
    assert isinstance(other.result, Aborted) and other.result.culprit == 1
    assert "refuses a claim that it ran out of the move clock" in other.result.reason


def test_two_seats_gone_at_once_end_the_game_naming_nobody():
    """Seat 4 is claimed; seat 3, whose answer the claim waits for, is gone too: after the claim time the claimer
    ends the game with the scores so far, naming nobody (one seat's word may not take another's seat)."""
    from lanterne.engines.registry import get_game
    from lanterne.protocol.memory import make_sessions

    sessions = make_sessions(get_game("pueblo"), 4, "two-gone")
    claimer = sessions[0]
    claimer.timeout = 30
    cut = []

    def silent(src, dst, raw):
        return None if cut and ({src, dst} & {2, 3}) else raw

    def cut_them(i, ss, pipe):
        if i == 3 and sum(e.kind == "move" for e in claimer.chain) >= 8 and not cut:
            cut.append(1)
        return bool(cut)
    pipe = drive(sessions, [RandomBot(i) for i in range(4)], filter=silent, before_move=cut_them)
    assert claimer.waiting_for() == 3
    claimer.tick(0.0)
    pipe.collect(0, claimer.tick(31.0))
    pipe.deliver(silent)
    assert claimer.phase == Phase.CLAIM and claimer.waiting_for() == 2, [e.kind for e in claimer.chain[-3:]]
    claimer.tick(40.0)
    pipe.collect(0, claimer.tick(71.0))
    assert isinstance(claimer.result, Aborted) and claimer.result.culprit is None, claimer.result
    assert "seats 4 and 3 are both gone" in claimer.result.reason and claimer.result.cause == Cause.NOBODY
    pipe.deliver(silent)
    assert sessions[1].result == claimer.result
    report = verify_entries([e.raw for e in claimer.chain])
    assert report.ok and report.result == "aborted" and report.culprit is None
