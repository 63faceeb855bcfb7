"""A flood of connections that never prove a key, and a seated player whose link drops meanwhile.

Over real TCP on 127.0.0.1: the table's players are at 127.0.0.1, the
strangers at 127.0.0.2 (many connections from one address) and at
127.0.0.3 to 127.0.0.8 (a few each, so the shared slots are full); each
connects, sends nothing and connects again as soon as it is closed or
turned away. The host's listener counts slots per address and keeps a
share for the roster's addresses (protocol/net/admission.py): the seat
whose link drops gets back in, the game goes on, nobody is claimed
against, and ``lanterne verify`` names no honest seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from typing import AsyncIterator

from lanterne.protocol.net.admission import PER_ADDRESS, SHARED
from lanterne.protocol.net.events import Linked
from lanterne.protocol.session import GameOver
from tests.support.clock import FakeClock
from tests.support.waiting import until

from .harness import FAST, LOCAL, ON_A_FAKE_CLOCK, Table, assert_no_honest_seat_named, lanterne_verify

ONE_ADDRESS = "127.0.0.2"
MANY = [f"127.0.0.{i}" for i in range(3, 9)]


class SlotFlood:
    """Connections that hold slots and come back at once (by default 24 from ONE_ADDRESS, 4 from each of MANY)."""

    def __init__(self, port: int, sources: list[str] | None = None):
        self.port = port
        self.opened = 0
        self._stop = asyncio.Event()
        if sources is None:
            sources = [ONE_ADDRESS] * 24 + [a for a in MANY for _ in range(PER_ADDRESS)]
        self._tasks = [asyncio.ensure_future(self._hold(source)) for source in sources]

    async def _hold(self, source: str) -> None:
        while not self._stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(LOCAL, self.port, local_addr=(source, 0))
            except OSError:
                return      # the table is over and its listener gone
            self.opened += 1
            try:
                await reader.read()       # nothing sent; held until the host closes it or turns it away
            except (ConnectionError, OSError):
                pass
            writer.transport.abort()
            await asyncio.sleep(0.005)    # (an attacker's loop, paced so the shared machine stays usable)

    async def stop(self) -> None:
        self._stop.set()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def __aenter__(self) -> "SlotFlood":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()


@contextlib.asynccontextmanager
async def playing(table: Table) -> AsyncIterator[asyncio.Future]:
    """The table plays in the background (the future of its sessions); cancelled on the way out."""
    game = asyncio.ensure_future(table.play(timeout=180))
    try:
        yield game
    finally:
        game.cancel()
        await asyncio.gather(game, return_exceptions=True)


def assert_played_out_naming_nobody(table: Table, sessions) -> None:
    """The game ended normally for everyone: no claim, no abort, and ``verify`` names no seat."""
    assert all(isinstance(s.result, GameOver) for s in sessions), [s.result for s in sessions]
    for peer in table.peers:
        assert not any(e.kind == "abort" for e in peer.session.chain), "nobody was claimed against"
    assert_no_honest_seat_named(table)
    status, out = lanterne_verify(*(p.files.log_path for p in table.peers))
    assert status == 0 and "at fault" not in out, out


async def test_a_seated_player_whose_link_drops_during_a_slot_flood_comes_back_and_the_game_goes_on(tmp_path):
    slow = dataclasses.replace(FAST, move_delay=0.05)
    table = Table(tmp_path, 2, hostile=-1, options=slow)
    host, guest = table.peers
    door = host.door
    async with playing(table) as game:
        await until(lambda: host.session is not None and len(host.session.chain) >= 6, what="the game under way")
        async with SlotFlood(host.port) as flood:
            await until(lambda: door.count() - door.in_reserve >= SHARED and door.refused >= 20,
                        what=lambda: f"the shared slots full ({door.count()}) and strangers turned away "
                                     f"({door.refused})")
            assert door.count(ONE_ADDRESS) <= PER_ADDRESS, "one address never holds more than its share"
            linked_before = sum(1 for e in table.seen[0].of(Linked) if e.key == guest.me.public)
            guest.links[host.me.public]._writer.transport.abort()     # a Wi-Fi blip: the guest's link drops
            await until(lambda: sum(1 for e in table.seen[0].of(Linked) if e.key == guest.me.public)
                        > linked_before, what="the guest linked to the host again during the flood")
            assert door.refused >= 20 and not flood._stop.is_set(), "the flood was still on when it came back"
            sessions = await game
    assert_played_out_naming_nobody(table, sessions)


async def test_a_flood_from_the_seats_own_address_keeps_it_out_but_nobody_claims_meanwhile(tmp_path):
    """The strangers share the guest's own address (the same machine, the same NAT), so its share of the
    host's slots is theirs: it is turned away "busy". Neither side claims while that lasts (the host refuses
    connections, the guest was told its host is flooded), however far the clock runs; once the flood stops
    the guest is back and the game ends normally."""
    clock = FakeClock()
    slow = dataclasses.replace(ON_A_FAKE_CLOCK, move_delay=0.05)
    table = Table(tmp_path, 2, hostile=-1, options=slow, clock=clock)
    host, guest = table.peers
    async with playing(table) as game:
        await until(lambda: host.session is not None and len(host.session.chain) >= 6, what="the game under way")
        async with SlotFlood(host.port, [LOCAL] * (2 * PER_ADDRESS)):
            await until(lambda: host.door.count(LOCAL) == PER_ADDRESS and host.door.refused >= 5,
                        what="the guest's address share taken by the strangers")
            guest.links[host.me.public]._writer.transport.abort()     # its link drops; it cannot come back
            await until(lambda: host.me.public in guest.presence._turned_away, what="the guest turned away busy")
            for _ in range(int(4 * slow.claim_after) + 1):    # far past the claim time, a tick (1 s) at a time
                clock.advance(1.0)
                await until(lambda: all(p.ticked_at == clock() for p in table.peers), what="both peers ticked")
                assert not host.session.over and not guest.session.over, "nobody claims during the flood"
        # the clock runs on: a dial the flood's last moment left unanswered gives up on it, and the next gets in
        await clock.run(lambda: guest.linked(host.me.public), limit=60.0)
        await until(lambda: host.session.over and guest.session.over, what="the game ended")
        clock.advance(slow.linger + 1)
        sessions = await game
    assert_played_out_naming_nobody(table, sessions)
