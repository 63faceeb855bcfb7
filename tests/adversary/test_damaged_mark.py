"""A guest's disk loses the end of its log and damages its ``.signed`` mark while it is down, over real TCP.

It cannot tell how far it signed, so it holds as if it had signed past its log:
its lost move comes back from the host as it was, and it signs a new place only
once every other seat was linked for the claim time with nothing more coming.
Nobody signs two entries for one place, the game ends, ``verify`` names no
honest seat, and the guest said in one line that its mark was damaged.
"""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from lanterne.engines.bots import make_bot
from lanterne.protocol.log import read_log
from tests.support.logs import write_log
from lanterne.protocol.net.files import GameFiles, read_signed
from lanterne.protocol.net.peer import Peer
from lanterne.protocol.session import GameOver

from .harness import (FAST, IDS, LOCAL, NAMES, Seen, Table, assert_no_honest_seat_named, cut_after_last_move_but,
                      dies_once_the_host_holds_what_it_signed, lanterne_verify, signed_twice, until)

GUEST = 1

DAMAGE = {"truncated": lambda mark: mark[:5], "garbage": lambda mark: mark + b"\xff garbage"}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
async def test_a_guest_whose_mark_is_damaged_holds_and_never_signs_a_place_twice(tmp_path, damage):
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
    write_log(meta.with_suffix(".log"), cut_after_last_move_but(raws, guest.me.public, 0))
    mark = meta.with_suffix(".signed")
    mark.write_bytes(DAMAGE[damage](mark.read_bytes()))
    assert read_signed(meta) is None

    seen = Seen()
    again = Peer.from_files(IDS[GUEST], meta, player=make_bot("random", 99), options=FAST, say=seen.lines.append)
    again.on_events = seen.events.extend
    assert again.session.legal_actions() == []       # it holds: how far it signed is unknown
    table.peers[GUEST], table.seen[GUEST] = again, seen
    await asyncio.wait_for(again.run_guest(None, [LOCAL]), 60)
    await asyncio.wait_for(hosting, 30)

    assert isinstance(host.session.result, GameOver) and isinstance(again.session.result, GameOver)
    logs = [read_log(p.files.log_path)[0] for p in (host, again)]
    assert logs[0] == logs[1]
    assert logs[1][:len(raws)] == raws             # what it lost came back as it was, nothing decided anew
    assert signed_twice(raws, *logs) == []
    damaged = [line for line in seen.lines if "mark is damaged" in line]
    assert len(damaged) == 1, seen.lines[:8]
    assert read_signed(meta) is not None and read_signed(meta) >= len(raws), "the mark is whole again"
    assert_no_honest_seat_named(table)
    status, out = lanterne_verify(again.files.log_path)
    assert status == 0 and NAMES[GUEST] not in out.split("at fault")[-1], out
