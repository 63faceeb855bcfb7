"""Entries signed in an earlier game, replayed by a hostile seat during play: dropped, never blamed.

A signature proves its author signed those bytes once, not that the author
sent them here (protocol/session/chain.py): an entry of another game, or
from before this game had an id, is noise. The honest peer drops it with a
note, closes the link it came on (an honest peer never sends such bytes),
names nobody, and the game goes on: the link comes back and the hostile
seat's real entry arrives on it (or through the third seat).
"""

from __future__ import annotations

import pytest

from lanterne.protocol.identity import fingerprint
from lanterne.protocol.session import GameOver

from .harness import (Table, assert_dropped_and_relinked, assert_logs_alike, assert_no_honest_seat_named,
                      earlier_game, lanterne_verify)


def replay_once(victim: int, entry_raw: bytes, after: int = 20):
    """Instead of its first own move after ``after`` entries, the hostile seat sends ``entry_raw`` to ``victim``."""
    def lie(peer, key, entry):
        if (not peer.told and key == peer.seats[victim].key and entry.author == peer.me.public
                and entry.kind == "move" and entry.seq >= after):
            return entry_raw
        return None
    return lie


def assert_went_on(table: Table, sessions) -> None:
    """Nobody was blamed for the replayed bytes: the game ended normally, the same for every seat."""
    assert table.cheat.told, "the hostile seat never sent its replayed entry"
    assert all(isinstance(s.result, GameOver) for s in sessions), [s.result for s in sessions]
    assert_logs_alike(table)
    replayed = table.cheat.told[0][1]
    for i in table.honest:
        assert all(e.raw != replayed for e in table.peers[i].session.chain), "the dropped bytes are not logged"


@pytest.mark.parametrize("hostile", [0, 1], ids=["hostile-host", "hostile-guest"])
async def test_an_earlier_game_entry_signed_by_the_receiver_is_dropped_and_the_game_goes_on(tmp_path, hostile):
    victim = 1 - hostile
    earlier = earlier_game(2)[victim]
    mine = next(e for e in earlier.chain if e.author == earlier.public and e.kind == "fair_shuffle")
    table = Table(tmp_path, 2, hostile)
    table.cheat.lie = replay_once(victim, mine.raw)
    sessions = await table.play()
    assert_went_on(table, sessions)
    assert_dropped_and_relinked(table, victim, f"signed by seat {victim + 1} belongs to another game")
    reports = assert_no_honest_seat_named(table)
    assert reports[victim].ok and reports[victim].result == "over", reports[victim]
    # once per file: the command line a person runs on the honest log
    code, out = lanterne_verify(table.peers[victim].files.log_path)
    assert code == 0 and ": valid: pueblo (standard), 2 players" in out and "winner(s)" in out, out


async def test_an_earlier_game_entry_of_the_third_honest_seat_is_dropped_and_the_game_goes_on(tmp_path):
    hostile, victim, third = 2, 0, 1
    earlier = earlier_game(3)[third]
    theirs = next(e for e in earlier.chain if e.author == earlier.public and e.kind == "move")
    # the third seat relays the hostile seat's real entry meanwhile: paced until the victim's link is back
    table = Table(tmp_path, 3, hostile)
    table.cheat.lie = replay_once(victim, theirs.raw)
    sessions = await table.play_paced_until_relinked(victim)
    assert_went_on(table, sessions)
    assert_dropped_and_relinked(table, victim, f"signed by seat {third + 1} belongs to another game")
    assert not [e for e in table.seen[third].notes("dropped an entry")], "only the victim was sent it"
    reports = assert_no_honest_seat_named(table)
    for i in table.honest:
        assert reports[i].ok and reports[i].result == "over", reports[i]


@pytest.mark.parametrize("signer", ["receiver", "hostile"])
async def test_a_hello_era_entry_without_a_game_id_replayed_during_play_is_dropped(tmp_path, signer):
    """A hello or genesis of another table (signed while the game id was still empty)."""
    hostile, victim = 1, 0
    author = victim if signer == "receiver" else hostile
    earlier = earlier_game(2)[author]
    hello_era = [e for e in earlier.chain if e.author == earlier.public and e.game == b""]
    assert {e.kind for e in hello_era} >= {"hello", "genesis"}
    table = Table(tmp_path, 2, hostile)
    table.cheat.lie = replay_once(victim, hello_era[-1].raw)
    sessions = await table.play()
    assert_went_on(table, sessions)
    assert_dropped_and_relinked(table, victim, f"signed by seat {author + 1} belongs to another game")
    assert any(fingerprint(table.key(hostile)) in line and "dropped an entry" in line
               for line in table.seen[victim].lines), "a headless peer prints it too"
    reports = assert_no_honest_seat_named(table)
    assert reports[victim].ok and reports[victim].result == "over", reports[victim]
