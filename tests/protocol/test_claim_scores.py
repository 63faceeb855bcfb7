"""A claim against a gone seat signs the scores so far; every peer and the verifier check them."""

from __future__ import annotations

from lanterne.engines.bots import RandomBot
from lanterne.engines.registry import get_game
from lanterne.protocol.log import open_entry, seal
from lanterne.protocol.memory import make_sessions
from lanterne.protocol.session import Aborted, Cause
from lanterne.protocol.verify import verify_entries
from tests.protocol.helpers import drive

GONE = 2


def _stalled(game_id: str, seed: str, after_moves: int):
    """Three sessions where seat 3 goes silent once ``after_moves`` moves are in the chain."""
    sessions = make_sessions(get_game(game_id), 3, seed)
    for s in sessions:
        s.timeout = 30

    def silent(src, dst, raw):
        if src == GONE and sum(e.kind == "move" for e in sessions[0].chain) >= after_moves:
            return None
        return raw
    pipe = drive(sessions, [RandomBot(f"{seed}/{i}") for i in range(3)], filter=silent)
    return sessions, pipe, silent


def test_the_claim_signs_the_scores_of_the_position_reached_and_every_peer_agrees():
    sessions, pipe, silent = _stalled("pueblo", "claim", 12)
    claimer = sessions[0]
    assert not claimer.over and claimer.waiting_for() == GONE
    expected = claimer.game.scores(claimer.view)
    claimer.tick(0.0)
    pipe.collect(0, claimer.tick(31.0))
    pipe.deliver(silent)
    claim, agree, close = claimer.chain[-3:]
    assert claim.kind == "claim" and claim.body["seat"] == GONE and claim.body["scores"] == expected
    assert agree.kind == "agree" and agree.author == sessions[1].public and agree.body == {"replace": claim.hash}
    assert close.kind == "abort" and close.author == claimer.public and close.body["culprit"] == GONE
    assert close.body["scores"] == expected and close.body["reason"] == claim.body["reason"]
    for s in sessions[:2]:
        assert s.result == Aborted(0, GONE, claim.body["reason"], tuple(expected), (1,), Cause.GONE, claimer.timeout,
                                  GONE), s.result
    assert [e.raw for e in sessions[0].chain] == [e.raw for e in sessions[1].chain]


def test_verify_reports_the_claim_who_agreed_and_the_scores_so_far():
    sessions, pipe, silent = _stalled("pueblo", "claimv", 12)
    claimer = sessions[0]
    claimer.tick(0.0)
    pipe.collect(0, claimer.tick(31.0))
    pipe.deliver(silent)
    moves = sum(e.kind == "move" for e in claimer.chain)
    scores = claimer.chain[-1].body["scores"]
    report = verify_entries([e.raw for e in claimer.chain])
    assert report.ok and report.result == "aborted" and report.culprit == GONE + 1
    assert report.scores == scores
    assert report.reason.startswith(f"ended by claim against seat 3 at move {moves} (timeout: seat 3 sent nothing")
    assert report.reason.endswith("; agreed by seat 2; scores so far: " + " ".join(str(x) for x in scores))


def _forged_claim(sessions, scores):
    claimer = sessions[0]
    head = claimer.chain[-1]
    body = {"seat": GONE, "reason": "timeout: seat 3 sent nothing for 30 s", "scores": scores}
    return seal(claimer.identity, game=head.game, seq=len(claimer.chain), prev=head.hash, kind="claim", body=body)


def test_a_claim_with_wrong_scores_is_refused_naming_the_claimer():
    sessions, pipe, silent = _stalled("pueblo", "claimw", 12)
    claimer, other = sessions[0], sessions[1]
    true = claimer.game.scores(claimer.view)
    wrong = [true[0] + 5] + list(true[1:])
    forged = _forged_claim(sessions, wrong)
    events = other.receive(forged, sender=claimer.public)
    assert isinstance(other.result, Aborted) and other.result.culprit == 0
    assert "signs scores so far" in other.result.reason and "\n" not in other.result.reason
    assert events[-1] == other.result
    # the claimer's own log with the forged claim does not verify, and says whose entry it is
    raws = [e.raw for e in claimer.chain] + [forged.raw]
    report = verify_entries(raws)
    assert not report.ok and report.bad_entry == len(raws) - 1 and "seat 1" in report.bad_author
    assert "signs scores so far" in report.problem


def test_scores_are_not_signed_before_the_game_starts():
    sessions = make_sessions(get_game("pueblo"), 3, "early")
    host = sessions[0]
    host.start()
    host.resign("changed my mind")
    assert "scores" not in host.chain[-1].body and host.result.scores is None
    entry = open_entry(host.chain[-1].raw)
    forged = seal(host.identity, game=entry.game, seq=entry.seq, prev=entry.prev, kind="abort",
                  body={**entry.body, "scores": [0, 0, 0]})
    guest = sessions[1]
    guest.auto_join = False
    guest.receive(host.chain[0], sender=host.public)
    guest.receive(forged, sender=host.public)
    assert isinstance(guest.result, Aborted) and "none (no game yet)" in guest.result.reason


def test_a_claim_that_ends_the_game_without_the_others_agreement_names_the_claimer():
    """An abort with a claim's reason and no agreed claim (as Lanterne wrote claims before they were answered)."""
    sessions, pipe, silent = _stalled("pueblo", "claimo", 6)
    claimer = sessions[0]
    body = {"reason": "timeout: seat 3 sent nothing for 30 s", "culprit": GONE, "evidence": [], "seed": claimer.seed,
            "scores": list(claimer.scores_so_far())}
    head = claimer.chain[-1]
    old = seal(claimer.identity, game=head.game, seq=len(claimer.chain), prev=head.hash, kind="abort", body=body)
    sessions[1].receive(old, sender=claimer.public)
    assert isinstance(sessions[1].result, Aborted) and sessions[1].result.culprit == 0
    assert "without a claim the other seats agreed to" in sessions[1].result.reason
    report = verify_entries([e.raw for e in claimer.chain] + [old.raw])
    assert not report.ok and "seat 1" in report.bad_author
