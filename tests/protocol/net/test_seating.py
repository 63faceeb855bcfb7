"""Seating a table over TCP on 127.0.0.1: requests the host decides on, joiners who give up, seat order.

The host's decision is a person's (an async policy that waits for a click);
these tests click for it. At two seats and at more the same peer does it.
"""

import asyncio

import pytest

from engines.bots import make_bot
from engines.registry import get_game
from protocol.net.events import JoinAsked, JoinPending, JoinWithdrawn, SeatTaken
from protocol.net.peer import Peer
from protocol.verify import verify_file
from tests.protocol.net.test_npeer import FAST, IDS, LOCAL, NAMES, until, wait_port


class Clicks:
    """A host's person: each request waits until the test clicks Accept (or the request is withdrawn)."""

    def __init__(self):
        self.waiting: dict[str, asyncio.Future] = {}
        self.cancelled: list[str] = []

    async def decide(self, request) -> bool:
        future = asyncio.get_running_loop().create_future()
        self.waiting[request.peer.name] = future
        try:
            return await future
        except asyncio.CancelledError:
            self.cancelled.append(request.peer.name)
            self.waiting.pop(request.peer.name, None)   # the dialog closes
            raise

    def click(self, name: str, ok: bool = True) -> None:
        self.waiting.pop(name).set_result(ok)


def peers(tmp_path, game: str, players: int, guests: int):
    events = [[] for _ in range(guests + 1)]
    host = Peer.host(IDS[0], NAMES[0], get_game(game), players, tmp_path / "p0", player=make_bot("random", 1),
                     options=FAST, say=lambda line: None)
    host.on_peer_event = events[0].append
    joiners = []
    for i in range(1, guests + 1):
        g = Peer.guest(IDS[i], NAMES[i], tmp_path / f"p{i}", player=make_bot("random", i + 1), options=FAST,
                       say=lambda line: None)
        g.on_peer_event = events[i].append
        joiners.append(g)
    return host, joiners, events


@pytest.mark.parametrize("game, players", [("pagode", 2), ("pueblo", 3)])
async def test_a_joiner_that_gives_up_withdraws_its_request_and_the_table_starts_with_the_others(
        tmp_path, game, players):
    host, joiners, events = peers(tmp_path, game, players, players)   # one joiner too many: it gives up
    clicks = Clicks()
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False, accept=clicks.decide))
    port = await wait_port(host)
    quitter, *stayers = joiners
    tasks = {}
    for g in joiners:   # every joiner asks within a few milliseconds of the others
        tasks[g.name] = asyncio.create_task(g.run_guest((LOCAL, port), [LOCAL], game=game, players=players))
    await until(lambda: set(clicks.waiting) == {g.name for g in joiners})
    # both sides know the safety code while the request is pending
    await until(lambda: any(isinstance(e, JoinPending) for e in events[1]))
    asked = {e.name: e.safety_code for e in events[0] if isinstance(e, JoinAsked)}
    pending = next(e for e in events[1] if isinstance(e, JoinPending))
    assert pending.safety_code == asked[quitter.name] and pending.host == host.name
    tasks[quitter.name].cancel()          # Bob gives up waiting
    with pytest.raises(asyncio.CancelledError):
        await tasks[quitter.name]
    await until(lambda: quitter.name in clicks.cancelled)
    assert any(isinstance(e, JoinWithdrawn) and e.name == quitter.name for e in events[0])
    assert quitter.name not in clicks.waiting and not host._joiners   # nothing to accept any more
    for g in reversed(stayers):           # accepted in the reverse order of asking: seat order follows
        clicks.click(g.name)
    sessions = await asyncio.wait_for(asyncio.gather(host_task, *(tasks[g.name] for g in stayers)), 90)
    assert all(s.phase == "over" for s in sessions)
    assert host.session.names == [host.name] + [g.name for g in reversed(stayers)]
    assert [e.name for e in events[0] if isinstance(e, SeatTaken)] == [g.name for g in reversed(stayers)]
    assert verify_file(host.files.log_path).ok
    assert quitter.session.chain == []                 # never seated: nothing logged, nothing to resume
