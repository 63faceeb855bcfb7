"""Every way to cheat the replacement of a gone seat ends the game with a one-line verdict naming the seat."""

from __future__ import annotations

import pytest

from lanterne.engines.bots import RandomBot
from lanterne.engines.registry import get_game
from lanterne.protocol.session.phases import Phase
from lanterne.protocol.log import open_entry, seal
from lanterne.protocol.memory import make_sessions
from tests.support.replacing import play_replacing
from lanterne.protocol.session import AGREE, COMPUTER_MARK, REPLACE, Aborted, Session
from lanterne.protocol.wire import ProtocolError
from tests.protocol.helpers import drive

GONE = 2


def _stalled(seed: str, on_gone: str = "computer"):
    """Three Pueblo sessions where seat 3 fell silent after 8 moves: the others wait for it."""
    sessions = make_sessions(get_game("pueblo"), 3, seed, on_gone=on_gone)

    def silent(src, dst, raw):
        return None if src == GONE and sum(e.kind == "move" for e in sessions[0].chain) >= 8 else raw
    drive(sessions, [RandomBot(f"{seed}/{i}") for i in range(3)], filter=silent)
    assert sessions[0].waiting_for() == GONE and not sessions[0].over
    return sessions


def _replace(sessions, author: int, **changes):
    s = sessions[author]
    head = s.chain[-1]
    comp, _ = s.computer_secrets(GONE)
    body = {"seat": GONE, "key": comp.public, "name": f"{COMPUTER_MARK}x",
            "scores": list(s.game.scores(s.view))}
    body.update(changes)
    return seal(s.identity, game=head.game, seq=len(s.chain), prev=head.hash, kind=REPLACE, body=body)


def _verdict(receiver: Session, raw: bytes, sender: bytes) -> Aborted:
    receiver.receive(open_entry(raw), sender=sender)
    result = receiver.result
    assert isinstance(result, Aborted), result
    assert "\n" not in result.reason
    return result


def test_an_honest_replace_is_accepted():
    sessions = _stalled("c0")
    replace = _replace(sessions, 0)
    sessions[1].receive(replace, sender=sessions[0].public)
    assert not sessions[1].over and sessions[1].epoch == 1 and sessions[1].seats[GONE] == replace.body["key"]
    assert sessions[1].chain[-1].kind == AGREE and sessions[1].chain[-1].body == {"replace": replace.hash}


def test_a_replace_when_the_table_ends_games_is_refused():
    sessions = _stalled("c1", on_gone="end")
    result = _verdict(sessions[1], _replace(sessions, 0).raw, sessions[0].public)
    assert result.culprit == 0 and "on-gone policy end" in result.reason and "seat 1" in result.reason


def test_a_seat_cannot_replace_itself():
    sessions = _stalled("c2")
    gone = sessions[GONE]
    head = sessions[1].chain[-1]
    comp, _ = gone.computer_secrets(GONE)
    body = {"seat": GONE, "key": comp.public, "name": f"{COMPUTER_MARK}me", "scores": list(gone.game.scores(gone.view))}
    forged = seal(gone.identity, game=head.game, seq=len(sessions[1].chain), prev=head.hash, kind=REPLACE, body=body)
    result = _verdict(sessions[1], forged.raw, gone.public)
    assert result.culprit == GONE and "cannot claim against itself" in result.reason


def test_a_replace_of_a_seat_the_game_does_not_wait_for_is_refused():
    sessions = _stalled("c3")
    result = _verdict(sessions[2 - 1], _replace(sessions, 0, seat=1).raw, sessions[0].public)
    assert result.culprit == 0 and "waits for seat 3" in result.reason


def test_a_computer_key_reused_is_refused():
    sessions = _stalled("c4")
    for key in (sessions[1].public, sessions[GONE].public, sessions[0].public):
        fresh = _stalled("c4")
        result = _verdict(fresh[1], _replace(fresh, 0, key=key).raw, fresh[0].public)
        assert result.culprit == 0 and "already a player's key" in result.reason


def test_a_replace_with_wrong_scores_is_refused():
    sessions = _stalled("c5")
    scores = list(sessions[0].game.scores(sessions[0].view))
    scores[0] += 7
    result = _verdict(sessions[1], _replace(sessions, 0, scores=scores).raw, sessions[0].public)
    assert result.culprit == 0 and "signs scores so far" in result.reason


def test_a_replace_without_the_computer_mark_is_refused():
    sessions = _stalled("c6")
    result = _verdict(sessions[1], _replace(sessions, 0, name="just a name").raw, sessions[0].public)
    assert result.culprit == 0 and "[computer]" in result.reason


def test_an_agree_by_the_absent_seat_is_dropped_live_and_named_in_a_log():
    sessions = _stalled("c7")
    claimer, gone = sessions[0], sessions[GONE]
    claimer.replace(GONE)
    replace = claimer.chain[-1]
    forged = seal(gone.identity, game=replace.game, seq=replace.seq + 1, prev=replace.hash, kind=AGREE,
                  body={"replace": replace.hash})
    assert claimer.receive(forged, sender=gone.public) == [] and not claimer.over   # a late peer: ignored
    raws = [e.raw for e in claimer.chain] + [forged.raw]
    with pytest.raises(ProtocolError) as caught:                  # but a log holding it does not replay
        Session.replay(raws, sessions[1].public, sessions[1].seed)
    assert caught.value.seat == GONE and "seat 2's to write, not seat 3's" in str(caught.value)


def test_an_agree_to_another_replacement_is_refused():
    sessions = _stalled("c8")
    claimer, other = sessions[0], sessions[1]
    claimer.replace(GONE)
    head = claimer.chain[-1]
    assert head.kind == REPLACE and claimer.phase == Phase.CLAIM
    forged = seal(other.identity, game=head.game, seq=len(claimer.chain), prev=head.hash, kind=AGREE,
                  body={"replace": bytes(32)})
    result = _verdict(claimer, forged.raw, other.public)
    assert result.culprit == 1 and "answers another claim" in result.reason


@pytest.fixture(scope="module")
def replaced_pandoria():
    sessions = make_sessions(get_game("pandoria"), 3, "pool", on_gone="computer")
    sessions[0].timeout = 30
    _, comp = play_replacing(sessions, [RandomBot(i) for i in range(3)], RandomBot(9), gone=GONE, after_moves=12)
    return sessions, comp


def test_a_redeal_with_a_wrong_pool_is_caught_naming_the_seat(replaced_pandoria):
    sessions, comp = replaced_pandoria
    raws = [e.raw for e in sessions[0].chain]
    at = next(i for i, raw in enumerate(raws) if open_entry(raw).kind == AGREE) + 1
    first = open_entry(raws[at])
    assert first.kind == "fair_shuffle" and "cards" in first.body
    cards = list(first.body["cards"])
    cards[0] = cards[1]                    # a card of the pool dealt twice, another dropped
    forged = seal(sessions[0].identity, game=first.game, seq=first.seq, prev=first.prev, kind=first.kind,
                  body={**first.body, "cards": cards})
    for seat in (sessions[1], comp):
        with pytest.raises(ProtocolError) as caught:
            Session.replay(raws[:at] + [forged.raw], seat.public, seat.seed)
        assert caught.value.seat == 0 and "seat 1" in str(caught.value) and "\n" not in str(caught.value)
        assert "other cards or slots" in str(caught.value)


def test_a_replay_of_the_claimers_own_log_names_its_forged_replace():
    sessions = _stalled("c9")
    claimer = sessions[0]
    forged = _replace(sessions, 0, scores=[1, 2, 3])
    raws = [e.raw for e in claimer.chain] + [forged.raw]
    with pytest.raises(ProtocolError) as caught:
        Session.replay(raws, claimer.public, claimer.seed)
    assert caught.value.seat == 0 and caught.value.entry == len(raws) - 1 and "signs scores so far" in str(caught.value)


def test_a_cheat_by_the_computer_after_the_redeal_is_named_and_the_log_verifies():
    from lanterne.protocol.verify import verify_entries
    from tests.protocol.helpers import forge

    sessions = make_sessions(get_game("pandoria"), 3, "cheatcomp", on_gone="computer")
    sessions[0].timeout = 30

    def tamper(src, dst, raw):
        entry = open_entry(raw)
        if src == 3 and entry.kind == "move":    # index 3: the computer the claimer hosts
            identity, _ = sessions[0].computer_secrets(GONE)
            if entry.author != identity.public:
                return raw                       # an echo of another seat's move
            return forge(entry, identity, body={**entry.body, "digest": bytes(32)})
        return raw
    play_replacing(sessions, [RandomBot(i) for i in range(3)], RandomBot(9), gone=GONE, after_moves=12,
                   filter=tamper)
    for honest in sessions[:2]:
        assert isinstance(honest.result, Aborted) and honest.result.culprit == GONE, honest.result
        assert "digest" in honest.result.reason
    report = verify_entries([e.raw for e in sessions[0].chain])
    assert report.ok and report.culprit == GONE + 1, report.problem
