"""Bytes with a bad signature on the hostile seat's own link: the link goes, nobody is blamed for them.

The link proved the peer's key once; its frames carry no signature of the
peer (docs/network.md, "Bytes that are not the peer's"), so bytes that do
not open as a signed entry are not evidence against anyone. The honest peer
closes that link; the hostile seat links again, and either sends its true
entry this time (the game goes on and ends normally) or keeps sending
broken bytes, and then the claim clock names it, the seat the game waits
for, as the staller.
"""

from __future__ import annotations

import asyncio

import pytest

from lanterne.protocol.session import Aborted, GameOver

from tests.support.clock import FakeClock

from .harness import ON_A_FAKE_CLOCK, Table, assert_logs_alike, assert_no_honest_seat_named, lanterne_verify, until

AFTER = 20


def broken(entry) -> bytes:
    """The entry's bytes with one bit of its Ed25519 signature flipped (everything else as signed)."""
    at = entry.raw.index(entry.sig) + 7
    return entry.raw[:at] + bytes([entry.raw[at] ^ 1]) + entry.raw[at + 1:]


def garble(victim: int, start: str, every: bool):
    """The hostile seat's own entries to ``victim``, from its first ``start`` entry after AFTER entries on, go out
    with a broken signature: only that one (``every`` False), or every one after it too."""
    def lie(peer, key, entry):
        if key != peer.seats[victim].key or entry.author != peer.me.public:
            return None
        if peer.told and not every:
            return None
        if not peer.told and (entry.kind != start or entry.seq < AFTER):
            return None
        return broken(entry)
    return lie


@pytest.mark.parametrize("players, hostile, victim", [(2, 0, 1), (2, 1, 0), (3, 2, 0)],
                         ids=["hostile-host", "hostile-guest", "3-seats"])
async def test_one_entry_with_a_broken_signature_costs_the_link_and_the_game_goes_on(tmp_path, players, hostile,
                                                                                    victim):
    """At three seats the true entry reaches the victim through the third seat meanwhile. The seats think a
    little before each move until the victim's link to the hostile seat is back: a game at full speed could end
    before it."""
    table = Table(tmp_path, players, hostile)
    table.cheat.lie = garble(victim, "move", every=False)
    sessions = await table.play_paced_until_relinked(victim)
    assert len(table.cheat.told) == 1
    assert all(isinstance(s.result, GameOver) for s in sessions), [s.result for s in sessions]
    assert_logs_alike(table)
    seen = table.seen[victim]
    lost = seen.lost(table.key(hostile))
    assert lost and lost[0].startswith("bytes not signed by the peer"), lost
    assert seen.linked(table.key(hostile)) >= 2, "the link came back"
    assert not seen.ended()
    reports = assert_no_honest_seat_named(table)
    for report in reports.values():
        assert report.ok and report.result == "over", report
    if hostile == 1:    # once per file: the command line on the honest log
        code, out = lanterne_verify(table.peers[victim].files.log_path)
        assert code == 0 and "winner(s)" in out, out


@pytest.mark.parametrize("start", ["fair_final", "move"], ids=["from-its-final-reveal", "from-a-move"])
async def test_a_seat_that_keeps_sending_broken_bytes_is_claimed_as_the_staller(tmp_path, start):
    hostile, victim = 1, 0
    clock = FakeClock()
    table = Table(tmp_path, 2, hostile, options=ON_A_FAKE_CLOCK, clock=clock)
    table.cheat.lie = garble(victim, start, every=True)
    honest = table.peers[victim]
    game = asyncio.ensure_future(table.play(timeout=30.0))
    try:
        seen = table.seen[victim]
        await until(lambda: seen.lost(table.key(hostile)))     # the broken bytes began
        # the claim time (1.5 s), then the answer window as long, pass on the clock while the hostile seat
        # keeps linking again with broken bytes
        await clock.run(lambda: game.done() or honest.session.over, step=0.25, limit=60.0)
        lost = seen.lost(table.key(hostile))
        assert lost and all(reason.startswith("bytes not signed by the peer") for reason in lost), lost
        await clock.run(game.done, step=0.25)      # (the linger, for the hostile seat that never gets the end)
        await game
    finally:
        game.cancel()
        await asyncio.gather(game, return_exceptions=True)
    result = honest.session.result
    assert isinstance(result, Aborted) and result.culprit == hostile and result.by == victim, result
    assert result.reason.startswith("timeout: ") and f"seat {hostile + 1}" in result.reason, result.reason
    assert f"claimed: {result.reason}" in seen.lines, seen.lines[-5:]
    reports = assert_no_honest_seat_named(table)
    report = reports[victim]
    assert report.ok and report.result == "aborted" and report.culprit == hostile + 1, report
    assert f"ended by claim against seat {hostile + 1}" in report.reason
