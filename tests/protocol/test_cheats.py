"""A cheating peer is caught, named, and the honest peer keeps its log with the evidence.

Seat 1 (index 0, the host) is honest; seat 2 (index 1) cheats. Each scenario
tampers with what seat 2 sends (re-signed with seat 2's own key, so the lie
is attributable) or makes seat 2's own fair table cheat consistently. Where
the lie is an entry that extends the chain and breaks a rule, or a fork, the
honest peer ends the game with an ``abort`` entry naming seat 2, and
``verify`` accepts that log and confirms the culprit from the evidence.

Where the lie is out of context (another game's entry, a taken or skipped
place, a broken previous-hash, a bad signature, a stranger's key), it proves
nothing against the key that signed it: the honest peer drops it and names
nobody for it; it goes on waiting for seat 2's real entry, and the claim
after the claim time names seat 2, the seat the chain waits for.
"""

from __future__ import annotations

import types

import pytest

import lanterne.protocol.fair as fair
from lanterne.engines.bots import RandomBot
from lanterne.protocol.fair import group as grp
from lanterne.protocol.identity import Identity
from lanterne.protocol.log import open_entry, seal
from lanterne.protocol.session import Aborted, Cause, Dropped
from lanterne.protocol.verify import verify_entries
from tests.protocol.helpers import (CHEAT, HONEST, Tamper, drive, forge, games, highcard_sessions,
                                    play_highcard, run, run_pipe)

OUTSIDER = Identity.from_seed(b"outsider")


def assert_dropped(tamper, words, hostile=False, claimed=True):
    """The honest peer drops the cheat's bytes (nobody named for them); then the claim names seat 2."""
    sessions, pipe = run_pipe(tamper)
    honest = sessions[HONEST]
    dropped = [e for e in tamper.events + pipe.events[HONEST] if isinstance(e, Dropped)]
    assert dropped and words in dropped[0].reason, dropped
    assert dropped[0].sender == sessions[CHEAT].public and dropped[0].hostile == hostile
    assert not any(e.kind == "abort" for e in honest.chain), "the dropped bytes ended nothing"
    if not claimed:
        return honest
    assert honest.result is None and honest.waiting_for() == CHEAT
    honest.timeout = 30
    honest.tick(0.0)
    honest.tick(31.0)                                 # the claim; at a table of two the claimed seat may answer
    assert honest.chain[-1].kind == "claim" and honest.result is None
    honest.tick(42.0)                                 # it did not within the answer window: the claimer closes
    assert isinstance(honest.result, Aborted) and honest.result.culprit == CHEAT, honest.result
    assert "timeout" in honest.result.reason
    report = verify_entries([e.raw for e in honest.chain], games=games)
    assert report.ok and report.culprit == CHEAT + 1, report
    assert all(tamper.sent[-1] not in e.raw for e in honest.chain), "no dropped bytes in the log"
    return honest


def assert_caught(sessions, words, evidence=None):
    honest = sessions[HONEST]
    assert isinstance(honest.result, Aborted), honest.result
    assert honest.result.culprit == CHEAT, honest.result
    assert words in honest.result.reason, honest.result.reason
    last = honest.chain[-1]
    assert last.kind == "abort" and last.author == honest.public and last.body["culprit"] == CHEAT
    if evidence is not None:
        assert last.body["evidence"] == [evidence]
    report = verify_entries([e.raw for e in honest.chain], games=games)
    assert report.ok, report
    assert report.result == "aborted" and report.culprit == CHEAT + 1
    return report


def reseal(**changes):
    def make(entry, sessions):
        return forge(entry, sessions[CHEAT].identity, **changes)
    return make


def test_forged_signature():
    def make(entry, sessions):
        return forge(entry, OUTSIDER)          # claims seat 2 as author, signed by someone else
    t = Tamper("move", make)
    assert_dropped(t, "signature", hostile=True)


def test_wrong_author_outsider_key():
    def make(entry, sessions):
        return forge(entry, OUTSIDER, author=OUTSIDER.public)
    t = Tamper("move", make)
    assert_dropped(t, "holds no seat", hostile=True)


def test_wrong_author_out_of_turn():
    sent = []

    def before_move(i, sessions, pipe):
        if i == HONEST and not sent:           # the honest seat is to move: seat 2 writes anyway
            h, c = sessions[HONEST], sessions[CHEAT]
            raw = seal(c.identity, game=h.game_id, seq=len(h.chain), prev=h.head[1], kind="move",
                       body={"action": ["keep"], "digest": bytes(32)}).raw
            sent.append(raw)
            pipe.collect(HONEST, h.receive(open_entry(raw), sender=c.public))
            return True
        return False
    assert_caught(run(before_move=before_move, players=[RandomBot(1), RandomBot(2)]), "wrong author", sent[0])


def test_duplicate_sequence_number():
    t = Tamper("move", lambda e, s: forge(e, s[CHEAT].identity, seq=0))
    assert_dropped(t, "already taken")


def test_missing_sequence_number():
    t = Tamper("move", lambda e, s: forge(e, s[CHEAT].identity, seq=e.seq + 1))
    assert_dropped(t, "skips")


def test_reordered_entries():
    def make(entry, sessions):
        later = seal(sessions[CHEAT].identity, game=entry.game, seq=entry.seq + 1, prev=entry.hash, kind="move",
                     body={"action": ["keep"], "digest": bytes(32)})
        return [later.raw, entry.raw]          # n+1 arrives before n
    t = Tamper("move", make)
    honest = assert_dropped(t, "skips", claimed=False)     # n+1 is dropped; n, sound, arrives next
    assert any(e.raw == t.sent[-1] for e in honest.chain)


def test_broken_previous_hash():
    t = Tamper("move", reseal(prev=b"\x07" * 32))
    assert_dropped(t, "previous-hash")


def test_two_messages_for_one_sequence_number():
    def make(entry, sessions):
        other = forge(entry, sessions[CHEAT].identity, body={**entry.body, "digest": bytes(32)})
        return [entry.raw, other]              # both signed by seat 2, same seq
    t = Tamper("move", make)
    report = assert_caught(run(t), "two different entries", t.sent[-1])
    assert "seat 2" in report.reason


def test_illegal_move():
    t = Tamper("move", lambda e, s: forge(e, s[CHEAT].identity, body={**e.body, "action": ["fly"]}))
    assert_caught(run(t), "illegal move", t.sent[-1])


def test_wrong_state_digest():
    t = Tamper("move", lambda e, s: forge(e, s[CHEAT].identity, body={**e.body, "digest": b"\x01" * 32}))
    assert_caught(run(t), "digest", t.sent[-1])


def test_card_claimed_that_is_not_the_one_held():
    def make(entry, sessions):
        kind, slot, ident = entry.body["action"]
        return forge(entry, sessions[CHEAT].identity, body={**entry.body, "action": [kind, slot, (ident + 1) % 12]})
    t = Tamper("move", make)
    assert_caught(run(t), "claims card", t.sent[-1])


def test_slot_claimed_that_is_not_in_hand():
    def make(entry, sessions):
        honest_view = sessions[HONEST].view
        other = honest_view.hands[HONEST]
        kind, slot, ident = entry.body["action"]
        return forge(entry, sessions[CHEAT].identity, body={**entry.body, "action": [kind, other, ident]})
    t = Tamper("move", make)
    assert_caught(run(t), "illegal move", t.sent[-1])


def test_key_that_does_not_match_its_commitment():
    def make(entry, sessions):
        keys = list(entry.body["keys"])
        keys[0] = grp.scalar_mul(keys[0], keys[0])     # a valid scalar, but not the committed one
        assert grp.is_scalar(keys[0])
        return forge(entry, sessions[CHEAT].identity, body={**entry.body, "keys": keys})
    t = Tamper("fair_keys", make)
    assert_caught(run(t), "commitment", t.sent[-1])


class _CheatingTable(fair.FairTable):
    def _check_finals(self):
        """A cheater does not audit itself."""


class _DuplicatingTable(_CheatingTable):
    """Seat 2's table puts the card of the next-to-last deck position in the last one too."""

    def _begin_shuffle(self, op, view):
        super()._begin_shuffle(op, view)
        deck = self._decks[-1]
        deck.perm[-1] = deck.perm[-2]


class _ReplacingTable(_CheatingTable):
    """Seat 2's table swaps the last card of its shuffle for a card that is not in the deck."""

    def _our_pass(self, kind, deck, inp):
        out = super()._our_pass(kind, deck, inp)
        if kind == "fair_shuffle" and deck.lock is None:
            out = list(out)
            out[-1] = grp.lock(deck.keys[-1], grp.card_point(self.game_id, deck.number, 999))
        return out


@pytest.mark.parametrize("table", [_DuplicatingTable, _ReplacingTable])
def test_tampered_shuffle_is_caught_at_the_audit(table):
    module = types.SimpleNamespace(FairTable=table, CheatDetected=fair.CheatDetected, SCHEMAS=fair.SCHEMAS,
                                   audit_transcript=fair.audit_transcript)
    sessions = run(cheat_fair=module, players=[RandomBot(1), RandomBot(2)])
    honest = sessions[HONEST]
    kinds = [e.kind for e in honest.chain]
    assert "fair_final" in kinds, "caught only once the secrets are revealed"
    assert_caught(sessions, "seat 2")


def test_refused_reveal_is_a_forfeit():
    def make(entry, sessions):
        c = sessions[CHEAT]
        return seal(c.identity, game=entry.game, seq=entry.seq, prev=entry.prev, kind="abort",
                    body={"reason": "I will not reveal", "culprit": CHEAT, "evidence": [], "seed": c.seed}).raw
    t = Tamper("fair_keys", make)
    sessions = run(t)
    honest = sessions[HONEST]
    assert honest.result == Aborted(CHEAT, CHEAT, "I will not reveal", cause=Cause.RESIGNED)
    assert honest.chain[-1].kind == "abort" and honest.chain[-1].author == sessions[CHEAT].public
    report = verify_entries([e.raw for e in honest.chain], games=games)
    assert report.ok and report.culprit == CHEAT + 1


def test_silence_past_the_timeout_is_a_forfeit():
    sessions = highcard_sessions(2, "quiet")
    honest = sessions[HONEST]
    honest.timeout = 30

    def drop(src, dst, raw):
        return None if src == CHEAT and open_entry(raw).kind == "fair_keys" else raw
    drive(sessions, [RandomBot(1), RandomBot(2)], filter=drop)
    assert not honest.over and honest.waiting_for() == CHEAT
    assert honest.tick(100.0) == [] and honest.tick(120.0) == []
    events = honest.tick(131.0)
    assert honest.chain[-1].kind == "claim" and honest.chain[-1].body["seat"] == CHEAT and not honest.over
    assert honest.tick(140.0) == [] and not honest.over            # the answer window: 10 s
    events += honest.tick(141.5)
    assert isinstance(honest.result, Aborted) and honest.result.culprit == CHEAT and "timeout" in honest.result.reason
    assert events[-1] == honest.result and honest.result.agreed == ()
    report = verify_entries([e.raw for e in honest.chain], games=games)
    assert report.ok and report.culprit == CHEAT + 1


def _same_keys_other_game():
    """A finished game between the same two keys (another game id: the host gave another name)."""
    from lanterne.protocol.memory import play

    sessions = highcard_sessions(2, "cheat")
    sessions[HONEST].name = "elsewhere"
    play(sessions, [RandomBot(3), RandomBot(4)])
    return sessions


def test_message_replayed_from_another_game():
    other = play_highcard(2, seed="elsewhere")[CHEAT]

    def make(entry, sessions):
        return next(e.raw for e in other.chain if e.seq == entry.seq)
    t = Tamper("fair_shuffle", make)
    assert_dropped(t, "holds no seat", hostile=True)


@pytest.mark.parametrize("whose", [HONEST, CHEAT])
def test_an_entry_of_an_earlier_game_between_the_same_keys_blames_nobody(whose):
    """Seat 2 sends an entry signed in an earlier game, by itself or by the receiver: never blamed on its signer."""
    earlier = _same_keys_other_game()[whose]

    def make(entry, sessions):
        return next(e.raw for e in earlier.chain if e.author == earlier.public and e.kind == "fair_shuffle")
    t = Tamper("fair_shuffle", make)
    assert_dropped(t, "another game", hostile=True)


def test_an_entry_from_before_the_game_had_an_id_blames_nobody():
    """The receiver's own hello (game id still empty) sent back during play: dropped, its author not blamed."""
    def make(entry, sessions):
        return _hello_of_another_table(sessions)
    t = Tamper("fair_shuffle", make)
    assert_dropped(t, "another game", hostile=True)


def _hello_of_another_table(sessions):
    honest = sessions[HONEST]
    return seal(honest.identity, game=b"", seq=0, prev=honest.chain[0].prev, kind="hello",
                body={"versions": [1], "name": "another table"}).raw


class _ReplacingFirstTable(_CheatingTable):
    """Seat 2 replaces the card at deck position 0: the first card dealt, to seat 1."""

    def _our_pass(self, kind, deck, inp):
        out = super()._our_pass(kind, deck, inp)
        if kind == "fair_shuffle" and deck.lock is None:
            out = list(out)
            out[0] = grp.lock(deck.keys[0], grp.card_point(self.game_id, deck.number, 999))
        return out


def test_tampered_card_opened_in_play_starts_the_audit_which_names_the_seat():
    module = types.SimpleNamespace(FairTable=_ReplacingFirstTable, CheatDetected=fair.CheatDetected,
                                   SCHEMAS=fair.SCHEMAS, audit_transcript=fair.audit_transcript)
    sessions = run(cheat_fair=module, players=[RandomBot(1), RandomBot(2)])
    honest = sessions[HONEST]
    kinds = [e.kind for e in honest.chain]
    first_abort = kinds.index("abort")
    assert "opens to no card" in honest.chain[first_abort].body["reason"]
    assert "culprit" not in honest.chain[first_abort].body            # nobody can be named yet...
    assert kinds[first_abort + 1] == "fair_final"                       # ...so every seat reveals
    assert "move" not in kinds[first_abort:]
    report = assert_caught(sessions, "seat 2")                          # and the audit names seat 2
    assert report.reason == honest.result.reason


def test_three_peers_both_honest_seats_name_the_cheat():
    sessions = highcard_sessions(3, "three")
    cheat = sessions[2]

    def tamper(src, dst, raw):
        entry = open_entry(raw)
        if src == 2 and entry.kind == "move" and entry.author == cheat.public:
            return forge(entry, cheat.identity, body={**entry.body, "digest": bytes(32)})
        return raw
    drive(sessions, [RandomBot(1), RandomBot(2), RandomBot(3)], filter=tamper)
    for honest in sessions[:2]:
        assert isinstance(honest.result, Aborted) and honest.result.culprit == 2, honest.result
        assert "digest" in honest.result.reason
        report = verify_entries([e.raw for e in honest.chain], games=games)
        assert report.ok and report.culprit == 3


def test_an_unfounded_accusation_makes_the_log_invalid():
    def make(entry, sessions):
        c, h = sessions[CHEAT], sessions[HONEST]
        innocent = h.chain[-1].raw                   # a sound entry of seat 1, passed off as evidence
        return seal(c.identity, game=entry.game, seq=entry.seq, prev=entry.prev, kind="abort",
                    body={"reason": "seat 1 cheated", "culprit": HONEST, "evidence": [innocent], "seed": c.seed}).raw
    t = Tamper("move", make)
    sessions = run(t)
    honest = sessions[HONEST]
    assert honest.result.by == CHEAT and honest.result.culprit is None  # over either way, the innocent unnamed...
    assert "does not show it" in honest.result.reason
    report = verify_entries([e.raw for e in honest.chain], games=games)
    assert not report.ok                                                 # ...but the log shows who lied
    assert report.bad_entry == len(honest.chain) - 1 and "seat 2" in report.bad_author
    assert "unfounded" in report.problem


def test_an_abort_by_a_stranger_is_refused():
    def make(entry, sessions):
        return seal(OUTSIDER, game=entry.game, seq=entry.seq, prev=entry.prev, kind="abort",
                    body={"reason": "stop", "evidence": []}).raw
    t = Tamper("move", make)
    assert_dropped(t, "holds no seat", hostile=True)


def test_a_fork_sent_to_different_peers_is_caught_by_the_echo():
    """With three peers, seat 3 sends one move to seat 1 and another to seat 2."""
    sessions = highcard_sessions(3, "fork")
    cheat = sessions[2]
    forked = []

    def fork(src, dst, raw):
        entry = open_entry(raw)
        if src == 2 and entry.author == cheat.public and entry.kind == "move" and dst == 1:
            other = forge(entry, cheat.identity, body={**entry.body, "digest": b"\x02" * 32})
            forked.append(other)
            return other
        return raw
    drive(sessions, [RandomBot(1), RandomBot(2), RandomBot(3)], filter=fork)
    assert forked
    for honest in sessions[:2]:
        assert isinstance(honest.result, Aborted) and honest.result.culprit == 2, honest.result
        report = verify_entries([e.raw for e in honest.chain], games=games)
        assert report.ok and report.culprit == 3
    reasons = " / ".join(s.result.reason for s in sessions[:2])
    assert "two different entries" in reasons or "digest" in reasons
