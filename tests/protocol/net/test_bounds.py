"""Bounds that a stranger on the LAN or a hostile seat meets, each asked of the part that keeps it.

* Discovery: however many Lanterne services the LAN announces, at most
  ``MAX_RESOLVING`` are being resolved at once, the others wait their turn (at
  most ``MAX_ADVERTS``), and a record of a name never listed is not kept
  (``MAX_ADVERTS`` caps what is listed).
* Seating: at most ``ASKING`` join requests wait for the host's policy (a
  person's questions) at once; the next is declined saying why.
* A session that holds (its log lost our entries): our own entry sent back
  again and again is kept once.
"""

from __future__ import annotations

import asyncio

from zeroconf import ServiceStateChange

from lanterne.engines.bots import RandomBot
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity
from lanterne.protocol.memory import make_sessions, play
from lanterne.protocol.net.discovery import MAX_ADVERTS, MAX_RESOLVING, SERVICE_TYPE, Discovery
from lanterne.protocol.net.files import GameFiles
from lanterne.protocol.net.handshake import PeerIdentity
from lanterne.protocol.net.invite import Request
from lanterne.protocol.net.options import PeerOptions
from lanterne.protocol.net.seating import ASKING, HostTable, TableSeating
from lanterne.protocol.session import Session
from tests.support.waiting import until

IDS = [Identity.from_seed(f"bounds/{i}".encode()) for i in range(ASKING + 2)]


async def test_discovery_resolves_a_bounded_number_of_announcements_at_once():
    """A flood of announcements in one turn of the loop: MAX_RESOLVING resolves start, the others wait their
    turn, the oldest forgotten past MAX_ADVERTS (this Discovery is not started: each resolve then fails, as a
    bad record does)."""
    lan = Discovery(["127.0.0.1"])
    asked: list[str] = []
    resolve = lan._resolve

    async def counted(service_type: str, name: str) -> None:
        asked.append(name)
        await resolve(service_type, name)
    lan._resolve = counted
    flood = [f"stranger {i}.{SERVICE_TYPE}" for i in range(MAX_RESOLVING + MAX_ADVERTS + 10)]
    for name in flood:
        lan._on_change(None, SERVICE_TYPE, name, ServiceStateChange.Added)
    assert len(lan._tasks) == MAX_RESOLVING and len(lan._waiting) == MAX_ADVERTS
    lan._was_heard(f"never listed.{SERVICE_TYPE}")
    assert lan._heard == {} and lan.peers == {}, "a name heard but never listed is not kept"
    await until(lambda: not lan._tasks and not lan._waiting, what="every waiting name resolved in turn")
    assert asked == flood[:MAX_RESOLVING] + flood[-MAX_ADVERTS:], "the first ones, then the newest waiting"
    lan._on_change(None, SERVICE_TYPE, f"a later one.{SERVICE_TYPE}", ServiceStateChange.Added)
    assert len(lan._tasks) == 1, "room again once they ended"
    await until(lambda: not lan._tasks, what="the resolve ended")


def request(i: int) -> Request:
    return Request(PeerIdentity(IDS[i].public, f"P{i}"), "000 000", "join", game="pueblo", variant="standard",
                   players=3, address=("127.0.0.1", 5000 + i))


async def test_a_host_is_asked_at_most_asking_join_questions_at_once(tmp_path):
    files = GameFiles(tmp_path)
    files.meta["role"] = "host"
    seated, answer = asyncio.Event(), asyncio.Event()
    seated.set()
    part = TableSeating(IDS[0], "Host", files, table=HostTable(get_game("pueblo"), 3, seed=b"s" * 32),
                        options=lambda: PeerOptions(), clock=lambda: 0.0, port=lambda: 0, table_id=lambda: b"",
                        discovery=lambda: None, seat=lambda seat: None, seats=lambda: [], begin=lambda s: None,
                        ours=lambda key: False, computers_seated=seated.wait, emit=lambda ev: None,
                        spawn=asyncio.ensure_future)
    asked: list[Request] = []

    async def person(req: Request) -> bool:
        asked.append(req)
        await answer.wait()
        return False
    part.accept = person
    waiting = [asyncio.ensure_future(part.answer(request(i))) for i in range(1, ASKING + 1)]
    await until(lambda: len(asked) == ASKING, what="the host asked")
    refused = await part.answer(request(ASKING + 1))
    assert not refused.accept and f"answering {ASKING} other join requests" in refused.reason
    answer.set()
    assert [a.reason for a in await asyncio.gather(*waiting)] == ["the host declined"] * ASKING
    answer.clear()
    later = asyncio.ensure_future(part.answer(request(ASKING + 1)))
    await until(lambda: len(asked) == ASKING + 1, what="asked again once the others were answered")
    later.cancel()


def test_our_own_entry_sent_back_again_and_again_is_kept_once():
    sessions = make_sessions(get_game("pueblo"), 2, "bounds")
    play(sessions, [RandomBot(f"bounds/{i}") for i in range(2)])
    guest, host = sessions[1], sessions[0]
    place = next(e.seq for e in guest.chain if e.author == guest.public and e.kind == "move" and e.seq > 8)
    again = Session.from_log([e.raw for e in guest.chain[:place]], guest.identity, guest.seed, timeout=30.0,
                             signed=place + 1)
    lost = guest.chain[place]
    again.writer.learn(lost)
    for _ in range(1000):
        again.writer.learn(lost)
    assert list(again.writer.learned) == [lost]
    again.receive(lost, sender=host.public)
    assert again.chain[-1].raw == lost.raw and not again.writer.holding(again.state)
