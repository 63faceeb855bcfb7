"""Running tables on the LAN: the players of a table that lets spectators watch advertise it.

Real zeroconf on 127.0.0.1 only, fresh keys (other tests of this machine
advertise on loopback too), real Peers over TCP.
"""

import asyncio
import dataclasses

from lanterne.engines.bots import make_bot
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity
from lanterne.protocol.net.discovery import Advert, Discovery, RunningHint, advert_from_properties
from lanterne.protocol.net.peer import Peer
from lanterne.protocol.net.watchers import running_hint
from tests.support.net import FAST, LOCAL, wait_port
from tests.support.waiting import until

LOOPBACK = [LOCAL]


def test_a_running_table_round_trips_through_txt_and_bad_fields_fall_back():
    hint = RunningHint("pueblo", "standard", 3, ("Ana", "Bob, Jr", "Cy"), 42, "0123456789abcdef")
    advert = Advert("Ana", "aaaa-bbbb-cccc-dddd", 4000, running=hint)
    props = {k.encode(): v.encode() for k, v in advert.properties().items()}
    assert props[b"play"] == b"pueblo" and props[b"moves"] == b"42" and props[b"pnames"] == b"Ana,Bob  Jr,Cy"
    back = advert_from_properties(props, 4000, ["10.0.0.2"])
    assert back.running == dataclasses.replace(hint, names=("Ana", "Bob  Jr", "Cy"))
    props.update({b"pseats": b"99", b"moves": b"lots", b"tid": b"\x1b[2J", b"pnames": b"\x1b]0;x\x07Eve"})
    odd = advert_from_properties(props, 4000, ["10.0.0.2"]).running
    assert (odd.seats, odd.moves, odd.table, odd.names) == (2, 0, "", ("]0;xEve",))
    assert advert_from_properties({**props, b"lobby": b"1"}, 0, []).running is None, "a lobby plays nowhere"


async def test_a_running_table_is_listed_with_its_game_seats_and_move_count(tmp_path):
    ids = [Identity.generate() for _ in range(2)]
    slow = dataclasses.replace(FAST, move_delay=0.15)
    host = Peer.host(ids[0], "Ana", get_game("pagode"), 2, tmp_path / "a", player=make_bot("random", 1),
                     options=slow, say=lambda line: None)
    guest = Peer.guest(ids[1], "Bob", tmp_path / "b", player=make_bot("random", 2), options=slow,
                       say=lambda line: None)
    heard: list[Advert] = []
    async with Discovery(LOOPBACK, on_add=heard.append, on_update=heard.append) as lobby:
        await lobby.browse()
        tasks = [asyncio.create_task(host.run_host(LOOPBACK, 0, discover=True))]
        port = await wait_port(host)
        tasks.append(asyncio.create_task(guest.run_guest((LOCAL, port), LOOPBACK, game="pagode",
                                                         discovery=Discovery(LOOPBACK))))
        try:
            def running(fp, moves):
                return lambda a: a.fingerprint == fp and a.running is not None and a.running.moves >= moves
            seen = await lobby.wait_for(running(ids[0].fingerprint, 3), 30)
            assert seen.running.game == "pagode" and seen.running.seats == 2
            assert seen.running.names == ("Ana", "Bob") and seen.port == port
            assert seen.running.table == host.table_id.hex()[:16]
            by_guest = await lobby.wait_for(running(ids[1].fingerprint, 1), 30)
            assert by_guest.running.table == seen.running.table, "both players say the same table"
            later = await lobby.wait_for(running(ids[0].fingerprint, seen.running.moves + 2), 30)
            assert later.running.moves <= sum(e.kind == "move" for e in host.session.chain)
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def test_a_table_without_spectators_is_not_advertised_as_running(tmp_path):
    ids = [Identity.generate() for _ in range(2)]
    private = dataclasses.replace(FAST, move_delay=0.1, spectators=False)
    host = Peer.host(ids[0], "Ana", get_game("pagode"), 2, tmp_path / "a", player=make_bot("random", 1),
                     options=private, say=lambda line: None)
    guest = Peer.guest(ids[1], "Bob", tmp_path / "b", player=make_bot("random", 2), options=private,
                       say=lambda line: None)
    async with Discovery(LOOPBACK) as lobby:
        await lobby.browse()
        tasks = [asyncio.create_task(host.run_host(LOOPBACK, 0, discover=True))]
        port = await wait_port(host)
        tasks.append(asyncio.create_task(guest.run_guest((LOCAL, port), LOOPBACK, game="pagode")))
        try:
            await until(lambda: sum(e.kind == "move" for e in host.session.chain) >= 4, what="four moves")
            # what the players' loop says on the LAN (every RUNNING_EVERY) is this hint: none, so nothing
            assert running_hint(host.session, host.table_id) is None and host.discovery.advert.running is None
            mine = await lobby.wait_for(lambda a: a.fingerprint == ids[0].fingerprint, 30)
            assert mine.running is None and all(a.running is None for a in lobby.peers.values()
                                                if a.fingerprint == ids[0].fingerprint)
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
