"""A guest's disk loses the end of its log while it is down (a restored backup, a copied folder, a cut write).

It resumes with another bot (it would decide its lost move differently), over
real TCP on 127.0.0.1: its ``.signed`` file says how far it signed, so it signs
nothing at the places its log lost until the host sent its own entries back;
nobody ever signs two entries for one place, the game ends, ``verify`` names no
honest seat, and the guest says in one line that its log was repaired.
"""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from lanterne.engines.bots import make_bot
from lanterne.protocol.log import open_entry, read_log
from lanterne.protocol.net.files import GameFiles, read_signed
from lanterne.protocol.net.peer import Peer
from lanterne.protocol.session import GameOver

from .harness import (FAST, IDS, LOCAL, NAMES, Seen, Table, assert_no_honest_seat_named, cut_after_last_move_but,
                      dies_once_the_host_holds_what_it_signed, lanterne_verify, signed_twice, until)
from tests.support.logs import write_log

GUEST = 1


@pytest.mark.parametrize("lost", [0, 1])
async def test_a_guest_whose_log_lost_its_last_move_never_signs_that_place_again(tmp_path, lost):
    # the seats think a little before each move, so that the guest dies mid-game, not after the game's end
    table = Table(tmp_path, 2, hostile=-1, options=dataclasses.replace(FAST, move_delay=0.05))
    host, guest = table.peers
    hosting = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    await until(lambda: host.port)
    playing = asyncio.create_task(guest.run_guest((LOCAL, host.port), [LOCAL], game=table.game))

    await until(dies_once_the_host_holds_what_it_signed(host, guest))
    playing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await playing
    guest.files.close()

    [meta] = GameFiles.unfinished(tmp_path / "seat2")
    raws, _ = read_log(meta.with_suffix(".log"))
    kept = cut_after_last_move_but(raws, guest.me.public, lost)
    write_log(meta.with_suffix(".log"), kept)        # the disk lost its last entries, not its mark
    mark = read_signed(meta)
    assert mark > len(kept)

    seen = Seen()
    again = Peer.from_files(IDS[GUEST], meta, player=make_bot("random", 99), options=FAST, say=seen.lines.append)
    again.on_events = seen.events.extend
    assert again.session.legal_actions() == []       # it holds: nothing is signed where the log stops short
    table.peers[GUEST], table.seen[GUEST] = again, seen
    await asyncio.wait_for(again.run_guest(None, [LOCAL]), 60)
    await asyncio.wait_for(hosting, 30)

    assert isinstance(host.session.result, GameOver) and isinstance(again.session.result, GameOver)
    logs = [read_log(p.files.log_path)[0] for p in (host, again)]
    assert logs[0] == logs[1]
    assert logs[1][:len(raws)] == raws             # what it lost came back as it was, nothing decided anew
    assert signed_twice(raws, *logs) == []
    assert any("missing from this disk" in line for line in seen.lines), seen.lines[:5]
    repaired = [line for line in seen.lines if line.startswith("log: repaired")]
    assert len(repaired) == 1 and f"repaired, {mark - len(kept)} entr" in repaired[0], repaired
    assert_no_honest_seat_named(table)
    status, out = lanterne_verify(again.files.log_path)
    assert status == 0 and NAMES[GUEST] not in out.split("at fault")[-1], out


class DiesBeforeSending(Peer):
    """A guest whose process dies the moment its third move is about to go out: logged and marked, never sent."""

    died = False

    def _outgoing(self, key, entry):
        if (not self.died and entry.author == self.me.public and entry.kind == "move"
                and sum(e.author == self.me.public and e.kind == "move" for e in self.session.chain) >= 3):
            self.died = True
            for link in list(self.links.values()):
                link._writer.transport.abort()
        return entry.raw


async def test_a_lost_move_that_never_left_is_played_again_once_every_seat_was_linked_for_the_claim_time(tmp_path):
    table = Table(tmp_path, 2, hostile=-1)
    host = table.peers[0]
    guest = table.peers[GUEST] = DiesBeforeSending.guest(IDS[GUEST], NAMES[GUEST], tmp_path / "seat2",
                                                          player=make_bot("random", 12), options=FAST,
                                                          say=table.seen[GUEST].lines.append)
    hosting = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    await until(lambda: host.port)
    playing = asyncio.create_task(guest.run_guest((LOCAL, host.port), [LOCAL], game=table.game))
    await until(lambda: guest.died)
    playing.cancel()
    await asyncio.gather(playing, return_exceptions=True)
    guest.files.close()
    [meta] = GameFiles.unfinished(tmp_path / "seat2")
    raws, _ = read_log(meta.with_suffix(".log"))
    assert open_entry(raws[-1]).author == guest.me.public and open_entry(raws[-1]).kind == "move"
    write_log(meta.with_suffix(".log"), raws[:-1])     # the disk lost the move that never left
    assert read_signed(meta) == len(raws)

    seen = Seen()
    again = Peer.from_files(IDS[GUEST], meta, player=make_bot("random", 99), options=FAST, say=seen.lines.append)
    again.on_events = seen.events.extend
    table.peers[GUEST], table.seen[GUEST] = again, seen
    await asyncio.wait_for(again.run_guest(None, [LOCAL]), 60)
    await asyncio.wait_for(hosting, 30)

    assert isinstance(host.session.result, GameOver) and isinstance(again.session.result, GameOver)
    logs = [read_log(p.files.log_path)[0] for p in (host, again)]
    assert logs[0] == logs[1] and signed_twice(*logs) == []
    given_up = [line for line in seen.lines if line.startswith("log: no seat had")]
    assert len(given_up) == 1 and "never left this peer" in given_up[0], seen.lines[:8]
    assert_no_honest_seat_named(table)
