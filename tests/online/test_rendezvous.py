"""A table seated by a code, a seat restarted from its files: it meets the other again by the pair's rendezvous
(:mod:`lanterne.protocol.net.online.rendezvous`), with no new code; local mailbox and relay, relay only."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import stat

from lanterne.protocol.net.online.rendezvous import Rendezvous, meet_code, resume_by_code, secret_of
from lanterne.protocol.net.online.table import host_by_code, join_by_code
from lanterne.protocol.net.peer import Peer
from tests.support.net import assert_finished_alike
from tests.support.waiting import until

from tests.support.online import GUEST_ID, HOST_ID, LOCAL, OPTIONS, make_pair

SLOW = dataclasses.replace(OPTIONS, move_delay=0.02)


def test_both_sides_make_the_same_code_a_new_one_each_window_and_none_without_the_secret():
    secret, table = secret_of(b"v" * 32), b"t" * 32
    assert meet_code(secret, table, 7) == meet_code(secret_of(b"v" * 32), table, 7)
    assert len({meet_code(secret, table, w) for w in range(50)}) == 50
    assert meet_code(secret_of(b"w" * 32), table, 7) != meet_code(secret, table, 7)
    assert meet_code(secret, b"u" * 32, 7) != meet_code(secret, table, 7)


async def start(tmp_path, servers):
    host, guest, lines = make_pair(tmp_path, SLOW)
    codes = []
    hosting = asyncio.create_task(host_by_code(host, servers, host.run_host([LOCAL], 0, discover=False),
                                               on_code=codes.append, on_error=print, direct=False))
    await until(lambda: codes, timeout=30)
    playing = asyncio.create_task(join_by_code(guest, codes[0], servers, [LOCAL], direct=False))
    return host, guest, hosting, playing


async def stop_at(peer, task, count):
    """Stop ``peer`` (its task cancelled, as Ctrl-C does) once its log holds ``count`` entries."""
    await until(lambda: peer.session is not None and len(peer.session.chain) >= count or task.done(),
                timeout=90, what=f"entry {count}")
    assert not task.done()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


def restart(peer, identity, lines):
    meta = peer.files.stem.with_suffix(".json")
    again = Peer.from_files(identity, meta, player=peer.player, options=SLOW, say=lines.append)
    if again.is_host:
        run = again.run_host([LOCAL], 0, discover=False)
    else:
        run = again.run_guest(None, [LOCAL])
    return again, asyncio.create_task(resume_by_code(again, run))


async def test_a_guest_restarted_from_its_files_meets_the_host_again_without_a_new_code(tmp_path, servers):
    host, guest, hosting, playing = await start(tmp_path, servers)
    await stop_at(guest, playing, 40)
    meet = guest.files.stem.with_suffix(".meet")
    assert stat.S_IMODE(os.stat(meet).st_mode) == 0o600
    assert Rendezvous.load(guest).secrets.keys() == {HOST_ID.public}
    again, playing = restart(guest, GUEST_ID, lines := [])
    await asyncio.wait_for(playing, 240)
    await asyncio.wait_for(hosting, 60)
    assert_finished_alike(host, again)
    assert again.seats[0].address is None and host.seats[1].address is None     # no address: the rendezvous
    assert any(line.startswith(f"linked with {HOST_ID.fingerprint}") for line in lines)


async def test_a_host_restarted_from_its_files_meets_its_guest_again_without_a_new_code(tmp_path, servers):
    host, guest, hosting, playing = await start(tmp_path, servers)
    await stop_at(host, hosting, 40)
    again, hosting = restart(host, HOST_ID, [])
    await asyncio.wait_for(playing, 240)
    await asyncio.wait_for(hosting, 60)
    assert_finished_alike(again, guest)


async def test_both_restarted_from_their_files_meet_again_without_a_new_code(tmp_path, servers):
    host, guest, hosting, playing = await start(tmp_path, servers)
    await stop_at(guest, playing, 40)
    await stop_at(host, hosting, 40)
    host, hosting = restart(host, HOST_ID, [])
    guest, playing = restart(guest, GUEST_ID, [])
    await asyncio.wait_for(playing, 240)
    await asyncio.wait_for(hosting, 60)
    assert_finished_alike(host, guest)
