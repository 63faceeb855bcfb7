"""Claims carry their evidence, over real TCP: a hostile seat cannot end or take over a game with its clock alone.

* a host that signs a 1 ms claim time: every guest refuses its table at the
  roster, in one line, before anything is played (each peer keeps its own
  minimum);
* a ``replace`` of a seat that is linked and thinking: at a table of three
  the third seat refuses it (its own clock sees that seat here); at a table
  of two the seat itself refuses; the game goes on and ends normally;
* a groundless dispute (an ``audit`` abort when nothing is wrong): every
  seat reveals, the audit finds no cheat, and the game ends naming the seat
  that raised it;
* a linked player who stalls on a table with a move clock is claimed
  against, and the other seat's clock agrees.

Each ends with the rule of every adversary test: no honest seat is named,
live or by ``verify``.
"""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from lanterne.protocol.session.phases import Phase
from lanterne.protocol.net.peer import Declined
from lanterne.protocol.session import Aborted, ClaimRefused, GameOver

from tests.support.clock import FakeClock
from tests.support.waiting import DEADLINE

from .harness import FAST, LOCAL, ON_A_FAKE_CLOCK, Table, assert_no_honest_seat_named, lanterne_verify, until

AFTER = 20
"""The hostile act comes once the chain holds this many entries (the game is under way)."""


async def test_a_table_whose_claim_time_is_1_ms_is_refused_at_the_roster(tmp_path):
    table = Table(tmp_path, 2, hostile=0, options=dataclasses.replace(FAST, claim_after=0.001),
                  honest_options=FAST)
    host, guest = table.peers
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    try:
        await until(lambda: host.port)
        with pytest.raises(Declined) as refused:
            await asyncio.wait_for(guest.run_guest((LOCAL, host.port), [LOCAL], game=table.game), DEADLINE)
    finally:
        host_task.cancel()
        await asyncio.gather(host_task, return_exceptions=True)
    reason = str(refused.value)
    assert reason == "Ana's table: the table's claim time is 0.001 s; we play only with at least 1.5 s (--min-claim)"
    assert "\n" not in reason
    assert guest.session.chain == [] or not any(e.kind == "move" for e in guest.session.chain)
    # the host learns why its guest left, from the guest's CLOSE
    lost = table.seen[0].lost(table.key(1))
    assert any("claim time is 0.001 s" in r for r in lost), lost


def replace_when_awaited(table: Table, victim: int):
    """The hostile seat gives ``victim`` to a computer as soon as the game waits for it (it is here, thinking)."""
    cheat = table.cheat

    async def act() -> None:
        for _ in range(4000):      # the check and the replace in one step: no entry comes in between
            s = cheat.session
            if s is not None and len(s.chain) >= AFTER and s.phase == Phase.PLAY and s.waiting_for() == victim:
                cheat._report(s.replace(victim))
                return
            await asyncio.sleep(0.005)     # (the hostile seat's loop looks again: its look and act are one step)
        raise AssertionError("the game never waited for the victim")
    return act


@pytest.mark.parametrize("players, victim", [(3, 2), (2, 1)], ids=["third-seat-refuses", "the-seat-itself-refuses"])
async def test_a_replace_of_a_linked_seat_is_refused_and_the_game_goes_on(tmp_path, players, victim):
    # the honest seats think a little before each move, so the replace reaches the victim while it thinks (a
    # replace written at the very moment the victim moves is a race: docs/protocol.md, Claims, "A race")
    thinking = dataclasses.replace(FAST, move_delay=0.3)
    table = Table(tmp_path, players, hostile=0, honest_options=thinking)
    table.cheat.on_gone = "computer"          # signed in the table: a gone seat goes to a computer
    act = asyncio.create_task(replace_when_awaited(table, victim)())

    async def full_speed_once_refused() -> None:
        await act
        await until(lambda: any(e.kind == "refuse" for e in table.cheat.session.chain))
        for peer in table.peers:      # the rest of the game needs no thinking time
            peer.options = dataclasses.replace(peer.options, move_delay=0.0)
    speed = asyncio.create_task(full_speed_once_refused())
    sessions = await table.play(timeout=40.0)
    await speed
    chain = table.cheat.session.chain
    kinds = [e.kind for e in chain]
    assert kinds.count("replace") == 1 and kinds[kinds.index("replace") + 1] == "refuse"
    refusal = chain[kinds.index("replace") + 1]
    refuser = 1 if players == 3 else victim
    assert refusal.author == table.key(refuser)
    assert refusal.body["reason"] == (f"seat 2 sees seat {victim + 1} here" if players == 3 else f"seat {victim + 1} is here")
    for i in table.honest:
        assert isinstance(sessions[i].result, GameOver), sessions[i].result     # played to its end
        assert sessions[i].seats[victim] == table.key(victim) and not sessions[i].replaced
        refused = table.seen[i].of(ClaimRefused)
        assert refused and refused[0].seat == victim
    assert any("stops: the replacement was refused" in line for line in table.seen[0].lines)
    reports = assert_no_honest_seat_named(table)
    assert all(r.ok and r.result == "over" for r in reports.values()), reports


async def test_a_groundless_dispute_names_the_seat_that_raised_it(tmp_path):
    table = Table(tmp_path, 2, hostile=1)

    def dispute(peer) -> bool:
        if len(peer.session.chain) < AFTER:
            return False
        peer.session.ending.abort("a card opened to no card (it did not)", None, [], audit=True)
        peer._report(peer.session.state.flush())
        return True
    table.cheat.at_turn = dispute
    sessions = await table.play(timeout=40.0)
    honest = sessions[0]
    kinds = [e.kind for e in honest.chain]
    assert "fair_final" in kinds, "every seat revealed its secrets for the audit"
    assert isinstance(honest.result, Aborted) and honest.result.culprit == 1, honest.result
    assert "the dispute raised by seat 2 was unfounded" in honest.result.reason
    reports = assert_no_honest_seat_named(table)
    assert reports[0].ok and reports[0].culprit == 2, reports[0]
    code, out = lanterne_verify(table.peers[0].files.log_path)
    assert code == 0 and "seat 2" in out, out


async def test_a_linked_staller_is_claimed_against_after_the_move_clock(tmp_path):
    stall = dataclasses.replace(ON_A_FAKE_CLOCK, claim_after=30.0, min_claim=1.0, move_clock=2.0)
    clock = FakeClock()
    table = Table(tmp_path, 3, hostile=2, options=stall, honest_options=stall, clock=clock)

    def never(peer) -> bool:          # linked, its links alive, and it never moves
        return len(peer.session.chain) >= AFTER
    table.cheat.at_turn = never
    honest = [table.peers[i] for i in table.honest]
    task = asyncio.create_task(table.play(timeout=45.0))
    try:
        await until(lambda: all(p.session is not None and len(p.session.chain) >= AFTER
                                and p.session.waiting_for() == 2 for p in honest))
        clock.advance(1.9)            # within the move clock: nobody claims
        await until(lambda: all(p.ticked_at == clock() for p in honest))
        assert not any(p.session.over for p in honest)
        clock.advance(0.2)            # past it: seat 1 claims, seat 2's own clock agrees
        await until(lambda: all(p.session.over for p in honest))
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    staller = table.key(2)
    for i in table.honest:
        result = table.peers[i].session.result
        assert isinstance(result, Aborted) and result.culprit == 2, result
        assert result.reason == "timeout: seat 3 took more than the move clock of 2 s"
        assert result.agreed == (1,), "the other honest seat's own clock agreed"
        # linked all along: no link to the staller was lost before the claim ended the game
        assert not [r for r in table.seen[i].lost(staller) if r != "the peer closed the link: game over"
                    and "game over" not in r], table.seen[i].lost(staller)
    reports = assert_no_honest_seat_named(table)
    for report in reports.values():
        assert report.ok and report.culprit == 3 and "agreed by seat 2" in report.reason, report
