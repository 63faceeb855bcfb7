"""The four crash sites of the review: each hostile body is now a one-line error.

Every body is signed with a real key of the table (as a hostile player
would), so the bytes pass the signature and reach the checks behind it:
an ``abort`` at an old sequence number whose ``evidence`` is not a list, a
``replace`` whose body is a list, and ``verify`` on a log whose ``table``
body is not a map or whose ``seats`` hold non-bytes. The session refuses
the entry with a reason and is left as it was; ``verify`` says INVALID and
names the first bad entry.
"""

from __future__ import annotations

import pytest

from lanterne.protocol.log import open_entry
from lanterne.protocol.session import Session
from lanterne.protocol.verify import verify_entries
from lanterne.protocol.wire import ProtocolError
from tests.protocol.helpers import forge, games, play_highcard


@pytest.fixture(scope="module")
def game():
    sessions = play_highcard(2, "crash-sites")
    return sessions, [e.raw for e in sessions[0].chain]


def victim_at(game, k):
    """The session of the seat that does not write entry ``k``, rebuilt from the log's first ``k`` entries."""
    sessions, raws = game
    author = open_entry(raws[k]).author
    seat = next(s for s in sessions if s.public != author)
    other = next(s for s in sessions if s.public == author)
    return Session.from_log(raws[:k], seat.identity, seat.seed, games=games), other


def refused(victim, frame, sender):
    head = victim.head
    with pytest.raises(ProtocolError) as caught:
        victim.receive(open_entry(frame), sender=sender, on_error="raise")
    reason = str(caught.value)
    assert reason and "\n" not in reason
    assert victim.head == head and not victim.over
    return reason


@pytest.mark.parametrize("evidence", [5, "x", None, {"a": b"b"}, [1, "two"]])
def test_an_abort_at_an_old_place_with_evidence_that_is_not_a_list_of_entries(game, evidence):
    sessions, raws = game
    k = len(raws) // 2
    victim, other = victim_at(game, k)
    place = next(j for j in range(k - 1, 0, -1) if open_entry(raws[j]).author != other.public)
    old = open_entry(raws[place])          # a place our log fills with the victim's entry (not a fork by other)
    frame = forge(old, other.identity, author=other.public, kind="abort",
                  body={"reason": "you cheat", "evidence": evidence})
    reason = refused(victim, frame, other.public)
    assert f"entry {place}" in reason and "malformed" in reason


@pytest.mark.parametrize("body", [[0, b"k" * 32, "~ bot", []], [], "seat 1", 7, None])
def test_a_replace_whose_body_is_not_a_map(game, body):
    sessions, raws = game
    k = len(raws) // 2
    victim, other = victim_at(game, k)
    for seq in (k - 1, k - 3, k):        # at an old place (our replacement while gone?) and at the next one
        old = open_entry(raws[seq]) if seq < k else open_entry(raws[k])
        frame = forge(old, other.identity, author=other.public, kind="replace", body=body)
        reason = refused(victim, frame, other.public)
        assert f"{seq}" in reason


def rechained(raws, index, signers, **changes):
    """The log with entry ``index`` changed and re-signed by its author, and every later entry re-linked and re-signed."""
    out = list(raws)
    entry = open_entry(raws[index])
    out[index] = forge(entry, signers[entry.author], **changes)
    for j in range(index + 1, len(out)):
        later = open_entry(out[j])
        out[j] = forge(later, signers[later.author], prev=open_entry(out[j - 1]).hash)
    return out


def signers_of(game):
    sessions, _ = game
    return {s.public: s.identity for s in sessions}


@pytest.mark.parametrize("body", [[1, 2], "table", None, 3])
def test_verify_a_log_whose_table_body_is_not_a_map(game, body):
    sessions, raws = game
    index = next(i for i, raw in enumerate(raws) if open_entry(raw).kind == "table")
    report = verify_entries(rechained(raws, index, signers_of(game), body=body), games=games)
    assert not report.ok and report.bad_entry == index
    assert "table" in report.problem and "\n" not in report.problem


@pytest.mark.parametrize("seats", [[1, 2], ["a", "b"], [None, b"x" * 32], "ab"])
def test_verify_a_log_whose_seats_are_not_keys(game, seats):
    sessions, raws = game
    index = next(i for i, raw in enumerate(raws) if open_entry(raw).kind == "table")
    body = dict(open_entry(raws[index]).body, seats=seats)
    report = verify_entries(rechained(raws, index, signers_of(game), body=body), games=games)
    assert not report.ok and report.bad_entry == index
    assert "seats" in report.problem and "\n" not in report.problem


def test_verify_a_log_with_a_replace_whose_body_is_a_list(game):
    sessions, raws = game
    k = len(raws) // 2
    entry = open_entry(raws[k])
    report = verify_entries(rechained(raws, k, signers_of(game), kind="replace", body=[0, entry.author]),
                            games=games)
    assert not report.ok and report.bad_entry == k and "\n" not in report.problem


def test_verify_names_an_earlier_bad_entry_before_a_malformed_table_is_read(game):
    """The scans read nothing of a malformed entry; the replay names the first bad entry in log order."""
    sessions, raws = game
    index = next(i for i, raw in enumerate(raws) if open_entry(raw).kind == "table")
    signers = signers_of(game)
    bad = rechained(raws, index, signers, body=[1])
    bad = rechained(bad, index - 1, signers, body="not a hello")
    report = verify_entries(bad, games=games)
    assert not report.ok and report.bad_entry == index - 1
