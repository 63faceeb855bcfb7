"""Whole games at tables seated by a code (local mailbox and relay, relay only): the host's codes, the guest's join.

The Peer is the LAN's own (:mod:`lanterne.protocol.net.peer`); only the first link comes from a code
(:mod:`lanterne.protocol.net.online.table`).
"""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from lanterne.engines.bots import make_bot
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity
from lanterne.protocol.log import open_entry, read_log
from lanterne.protocol.net.online.code import OnlineError, accept
from lanterne.protocol.net.online.table import CODE_LINKS, Invitations, host_by_code, join_by_code
from lanterne.protocol.net.peer import Peer
from lanterne.protocol.net.transport import LinkClosed
from tests.support.clock import FakeClock
from tests.support.net import assert_finished_alike
from tests.support.online import GUEST_ID, HOST_ID, LOCAL, OPTIONS, make_pair
from tests.support.waiting import until



async def test_a_whole_game_through_the_relay_by_a_code_ends_with_identical_logs(tmp_path, servers):
    host, guest, lines = make_pair(tmp_path)
    codes, errors = [], []
    hosting = asyncio.create_task(host_by_code(host, servers, host.run_host([LOCAL], 0, discover=False),
                                               on_code=codes.append, on_error=errors.append, direct=False))
    await until(lambda: codes or hosting.done(), timeout=30)
    joined = []
    playing = asyncio.create_task(join_by_code(guest, codes[0], servers, [LOCAL], direct=False,
                                               on_connected=joined.append))
    await asyncio.wait_for(playing, 120)
    await asyncio.wait_for(hosting, 60)
    assert_finished_alike(host, guest)
    assert len(codes) == 1 and errors == []       # one guest, one code: no other is made
    assert joined[0].peer_key == HOST_ID.public
    # nobody dials an online seat: neither roster holds an address for the other
    assert [s.address for s in host.seats] == [None, None]
    assert guest.seats[0].address is None
    assert any(line.startswith("join request from Gus") for line in lines["host"])


async def test_a_closed_link_resumes_over_the_same_code_and_nothing_is_lost(tmp_path, servers):
    # what a cut longer than the link's read timeout does: the link closes on both sides, Dilation lives on
    host, guest, lines = make_pair(tmp_path, dataclasses.replace(OPTIONS, move_delay=0.01))
    codes = []
    hosting = asyncio.create_task(host_by_code(host, servers, host.run_host([LOCAL], 0, discover=False),
                                               on_code=codes.append, on_error=print, direct=False))
    await until(lambda: codes, timeout=30)
    playing = asyncio.create_task(join_by_code(guest, codes[0], servers, [LOCAL], direct=False))
    for cut_at in (30, 90):
        await until(lambda: guest.session is not None and len(guest.session.chain) >= cut_at or playing.done(),
                    timeout=60, what=f"entry {cut_at}")
        link = guest.links.get(HOST_ID.public)
        assert link is not None
        await link.close("cut by the test")
    await asyncio.wait_for(playing, 120)
    await asyncio.wait_for(hosting, 60)
    assert_finished_alike(host, guest)
    assert sum(line.startswith("linked with") for line in lines["guest"]) == 3      # the first link, two resumes
    assert sum(line.startswith("link request from Gus") for line in lines["host"]) == 2


async def test_a_table_of_three_takes_one_code_per_guest_and_the_guests_link_by_a_code_of_the_table(
        tmp_path, servers):
    """Each code seats the next guest, and a fresh one follows; then the two guests, who have no address,
    meet by the code their table gives their pair (the later one dials, as on a LAN)."""
    host = Peer.host(HOST_ID, "Hana", get_game("pueblo"), 3, tmp_path / "host", player=make_bot("random", 1),
                     options=dataclasses.replace(OPTIONS, move_delay=0.05), say=lambda line: None)
    said = {"Gus": [], "Ida": []}
    guests = [Peer.guest(Identity.from_seed(name.encode()), name, tmp_path / name, player=make_bot("random", n),
                         options=dataclasses.replace(OPTIONS, move_delay=0.05), say=said[name].append)
              for n, name in enumerate(said, 2)]
    codes = []
    hosting = asyncio.create_task(host_by_code(host, servers, host.run_host([LOCAL], 0, discover=False),
                                               on_code=codes.append, on_error=print, direct=False))
    playing = []
    for n, guest in enumerate(guests):
        await until(lambda: len(codes) > n or hosting.done(), timeout=60, what=f"code {n + 1}")
        playing.append(asyncio.create_task(join_by_code(guest, codes[n], servers, [LOCAL], direct=False)))
    await asyncio.wait_for(asyncio.gather(*playing, hosting), 240)
    assert len(codes) == 2 and codes[0] != codes[1]
    logs = [read_log(p.files.log_path)[0] for p in (host, *guests)]
    assert logs[0] == logs[1] == logs[2] and open_entry(logs[0][-1]).kind == "end"
    assert all(s.address is None for s in host.seats)
    gus, ida = (g.me.fingerprint for g in guests)
    assert any(line.startswith(f"linked with {ida}") for line in said["Gus"]), said["Gus"]
    assert any(line.startswith(f"linked with {gus}") for line in said["Ida"]), said["Ida"]


async def test_a_host_without_a_mailbox_says_so_and_opens_nothing(tmp_path, refused_port, servers):
    host, _, _ = make_pair(tmp_path)
    from lanterne.protocol.net.online.servers import Servers

    run = host.run_host([LOCAL], 0, discover=False)
    with pytest.raises(OnlineError, match="cannot reach the mailbox .* no internet here"):
        await host_by_code(host, Servers(mailbox=f"ws://127.0.0.1:{refused_port}/v1", relay=servers.relay),
                           run, on_code=print, on_error=print, direct=False)
    assert "port" not in host.files.meta       # the table never opened


async def test_a_guest_with_a_wrong_code_fails_in_one_line_and_the_host_keeps_its_table(tmp_path, servers):
    host, guest, _ = make_pair(tmp_path)
    codes, errors = [], []
    invitations = Invitations(host, servers, on_code=codes.append, on_error=errors.append, direct=False)
    await invitations.first()
    seating = asyncio.create_task(invitations.run())
    number = codes[0].split("-")[0]
    with pytest.raises(OnlineError, match="that code is wrong"):
        await join_by_code(guest, f"{number}-wrong-words", servers, [LOCAL], direct=False)
    await until(lambda: seating.done(), timeout=30)
    assert errors == ["that code is wrong or was used already"]
    assert not host.seats and host.seated_joiners() == 0
    await invitations.close()


async def test_a_guest_keeps_at_most_code_links_open_over_its_code(tmp_path, servers):
    """Each link over a code after the first is its guest resuming; a guest that opens more than CODE_LINKS at
    once is told the next one is busy (the host's clock stands still: none of the four times out meanwhile)."""
    clock = FakeClock()
    host = Peer.host(HOST_ID, "Hana", get_game("pagode"), 2, tmp_path / "host", player=make_bot("random", 1),
                     options=OPTIONS, say=lambda line: None, clock=clock)
    codes: list[str] = []
    hosting = asyncio.create_task(host_by_code(host, servers, host.run_host([LOCAL], 0, discover=False),
                                               on_code=codes.append, on_error=print, direct=False))
    try:
        await until(lambda: codes or hosting.done(), timeout=30, what="the host's code")
        async with await accept(codes[0], GUEST_ID, servers, direct=False, options=OPTIONS.link) as code:
            await code.connected()
            links = [await code.open_link() for _ in range(CODE_LINKS)]
            extra = await code.open_link()
            with pytest.raises(LinkClosed, match=f"busy: {CODE_LINKS} links over this code are open"):
                await asyncio.wait_for(extra.recv(), 60)     # (a deadline: without the bound it is let in)
            assert not any(link.closed for link in links)
    finally:
        hosting.cancel()
        await asyncio.gather(hosting, return_exceptions=True)
