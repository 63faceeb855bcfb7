"""A hostile seat ends the game with a lie: a false timeout claim, or an accusation its evidence does not hold.

Who an abort may name (protocol/session/ending.py): in a claim (reason
``timeout: ...``) only the seat the chain waits for; a claim against any
other seat is a broken rule in an entry that extends the chain, so the
honest peers refuse it with an abort naming the claimer (the false claim as
evidence), and ``verify`` names the claimer too. An accusation naming an
honest seat with a sound entry as "evidence" ends the game, but live the
honest peers name nobody ("its evidence does not show it from here"); the
accuser revealed its seed in its abort, so ``verify`` replays the accuser,
finds the accusation unfounded and marks the accuser.
"""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from lanterne.protocol.session.phases import Phase
from lanterne.protocol.log import open_entry
from lanterne.protocol.session import Aborted

from .harness import FAST, Table, assert_no_honest_seat_named, earlier_game, lanterne_verify, until, write_abort

AFTER = 20
"""The lie comes once the chain holds this many entries (the game is under way)."""


def claim_at_own_turn(against: int):
    def at_turn(peer) -> bool:
        if len(peer.session.chain) < AFTER:
            return False
        write_abort(peer, f"timeout: seat {against + 1} sent nothing for 1.5 s", against, [])
        return True
    return at_turn


def assert_claimer_named(table: Table, against: int, awaited: int) -> None:
    cheat = table.hostile
    false_claims = [e for e in table.cheat.session.chain if e.kind == "abort" and e.author == table.key(cheat)]
    assert len(false_claims) == 1, "the hostile seat wrote its false claim"
    claim = false_claims[0]
    assert claim.body["culprit"] == against and claim.body["reason"].startswith("timeout: ")
    for i in table.honest:
        session, seen = table.peers[i].session, table.seen[i]
        result = session.result
        assert isinstance(result, Aborted) and result.culprit == cheat, (i, result, seen.lines[-10:])
        # the broken rule, in whatever words: seat C's claim against seat X while the game waits for seat A
        for words in (f"seat {cheat + 1} ", f"against seat {against + 1}", f"waits for seat {awaited + 1}"):
            assert words in result.reason, result.reason
        assert seen.ended() == [result], "the honest user sees the game end once, naming the claimer"
        assert all(e.raw != claim.raw for e in session.chain), "the false claim is not in the honest log"
        last = session.chain[-1]
        assert last.kind == "abort" and last.body["culprit"] == cheat and last.author in table.keys_honest()
        assert open_entry(last.body["evidence"][0]).raw == claim.raw, "the false claim is the evidence"
        if last.author == table.key(i):
            assert f"claimed: {result.reason}" in seen.lines, seen.lines[-5:]
    reports = assert_no_honest_seat_named(table)
    for i, report in reports.items():
        assert report.ok and report.result == "aborted" and report.culprit == cheat + 1, report


@pytest.mark.parametrize("players, hostile, against", [(2, 1, 0), (3, 1, 0), (3, 2, 1)],
                         ids=["2-seats", "3-seats-middle-claims-host", "3-seats-last-claims-middle"])
async def test_a_false_timeout_claim_on_its_own_turn_names_the_claimer(tmp_path, players, hostile, against):
    table = Table(tmp_path, players, hostile)
    table.cheat.at_turn = claim_at_own_turn(against)
    await table.play()
    assert_claimer_named(table, against, awaited=hostile)


async def test_a_false_timeout_claim_against_a_seat_that_is_not_awaited_names_the_claimer(tmp_path):
    """The host claims against seat 2 while the game waits for seat 3 (whose bot takes its time)."""
    hostile, against, awaited = 0, 1, 2
    # the awaited seat thinks 0.3 s: the claim is written while it thinks, not while its move is on its way
    # (then two entries for one place would be a race, nobody's fault)
    table = Table(tmp_path, 3, hostile, honest_options=dataclasses.replace(FAST, move_delay=0.3))
    game = asyncio.ensure_future(table.play())
    cheat = table.cheat
    await until(lambda: cheat.session is not None and len(cheat.session.chain) >= AFTER
                and cheat.session.waiting_for() == awaited and cheat.session.phase == Phase.PLAY)
    write_abort(cheat, f"timeout: seat {against + 1} sent nothing for 1.5 s", against, [])
    await game
    assert_claimer_named(table, against, awaited)
    # once per file: the command line on an honest log
    code, out = lanterne_verify(table.peers[awaited].files.log_path)
    assert code == 0 and f"game aborted (seat {hostile + 1} at fault)" in out, out
    assert f"against seat {against + 1}" in out and f"waits for seat {awaited + 1}" in out, out


def accuse_at_own_turn(accused: int, evidence: str):
    def at_turn(peer) -> bool:
        if len(peer.session.chain) < AFTER:
            return False
        chain = peer.session.chain
        shown = {"sound": [e.raw for e in chain if e.author == peer.seats[accused].key][-1:],
                 "earlier-game": [e.raw for e in earlier_game(len(peer.seats))[accused].chain
                                  if e.author == peer.seats[accused].key and e.kind == "move"][:1],
                 "none": []}[evidence]
        peer.accusation = write_abort(peer, f"seat {accused + 1} cheated", accused, shown)
        return True
    return at_turn


@pytest.mark.parametrize("players, hostile, evidence", [(2, 1, "sound"), (3, 2, "sound"), (3, 1, "none"),
                                                        (3, 2, "earlier-game")],
                         ids=["2-seats", "3-seats", "3-seats-no-evidence", "3-seats-an-earlier-games-entry"])
async def test_an_unfounded_accusation_names_nobody_live_and_verify_marks_the_accuser(tmp_path, players, hostile,
                                                                                      evidence):
    accused = 0
    table = Table(tmp_path, players, hostile)
    table.cheat.at_turn = accuse_at_own_turn(accused, evidence)
    await table.play()
    accusation = open_entry(table.cheat.accusation)
    assert accusation.body["culprit"] == accused and len(accusation.body["evidence"]) == (evidence != "none")
    for i in table.honest:
        session, seen = table.peers[i].session, table.seen[i]
        result = session.result
        assert isinstance(result, Aborted) and result.by == hostile and result.culprit is None, (i, result)
        assert f"seat {hostile + 1} names seat {accused + 1}; its evidence does not show it from here" in result.reason
        assert any(line.startswith(f"game ended: seat {accused + 1} cheated (seat {hostile + 1} names")
                   for line in seen.lines), seen.lines[-5:]
        assert session.chain[-1].raw == accusation.raw, "the game ended at the accusation, kept in the log"
    reports = assert_no_honest_seat_named(table)
    for i, report in reports.items():
        assert not report.ok and report.culprit is None, report
        assert report.bad_entry == accusation.seq, report
        assert report.bad_author.startswith(f"seat {hostile + 1} (") and "at fault" not in report.bad_author, report
        assert "unfounded" in report.problem and f"against seat {accused + 1}" in report.problem, report
    if evidence == "sound" and players == 3:    # the command line: the honest log is invalid, at the accuser
        code, out = lanterne_verify(table.peers[accused].files.log_path)
        assert code == 1 and f"INVALID: entry {accusation.seq} by seat {hostile + 1} (" in out, out
