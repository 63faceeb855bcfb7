"""Seating a table over TCP on 127.0.0.1: requests the host decides on, joiners who give up, seat order.

The host's decision is a person's (an async policy that waits for a click);
these tests click for it. At two seats and at more the same peer does it.
"""

import asyncio

import pytest

from lanterne.engines.bots import make_bot
from lanterne.engines.registry import get_game
from lanterne.protocol.session.phases import Phase
from lanterne.protocol.net.events import JoinAsked, JoinPending, JoinWithdrawn, SeatTaken
from lanterne.protocol.identity import fingerprint
from lanterne.protocol.net.peer import Peer
from lanterne.protocol.verify import verify_file
from lanterne.protocol.net.clock import MONOTONIC
from tests.support.net import FAST, IDS, LOCAL, NAMES, fake, seated, until, wait_port
from tests.support.waiting import DEADLINE


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


def peers(tmp_path, game: str, players: int, guests: int, options=FAST, clock=MONOTONIC):
    events = [[] for _ in range(guests + 1)]
    host = Peer.host(IDS[0], NAMES[0], get_game(game), players, tmp_path / "p0", player=make_bot("random", 1),
                     options=options, say=lambda line: None, clock=clock)
    host.on_peer_event = events[0].append
    joiners = []
    for i in range(1, guests + 1):
        g = Peer.guest(IDS[i], NAMES[i], tmp_path / f"p{i}", player=make_bot("random", i + 1), options=options,
                       say=lambda line: None, clock=clock)
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
    assert quitter.name not in clicks.waiting and host.seated_joiners() == 0   # nothing to accept any more
    for g in reversed(stayers):           # accepted in the reverse order of asking: seat order follows
        clicks.click(g.name)
    sessions = await asyncio.wait_for(asyncio.gather(host_task, *(tasks[g.name] for g in stayers)), 90)
    assert all(s.phase == Phase.OVER for s in sessions)
    assert host.session.names == [host.name] + [g.name for g in reversed(stayers)]
    assert [e.name for e in events[0] if isinstance(e, SeatTaken)] == [g.name for g in reversed(stayers)]
    assert verify_file(host.files.log_path).ok
    assert quitter.session.chain == []                 # never seated: nothing logged, nothing to resume


def test_a_peer_cut_off_from_every_other_seat_never_claims(tmp_path):
    """At a table of three, a peer linked with nobody cannot tell that it is not the one who is gone: it
    waits, it never claims. At a table of two the gone seat is the only other one: the present seat claims."""
    from lanterne.protocol.net.files import GameFiles, SeatedPeer

    keys = [IDS[i].public for i in range(3)]
    alone = Peer(IDS[1], NAMES[1], GameFiles(tmp_path), None, seats=[SeatedPeer(k) for k in keys])
    assert alone.cut_off(0) and alone.cut_off(2)
    two = Peer(IDS[1], NAMES[1], GameFiles(tmp_path), None, seats=[SeatedPeer(k) for k in keys[:2]])
    assert not two.cut_off(0)


async def test_a_restarted_peer_keeps_the_tables_signed_claim_time(tmp_path):
    """The claim time the host signed in the table is every peer's, also after a restart with another setting."""
    from dataclasses import replace

    from lanterne.protocol.net.files import GameFiles

    host, joiners, _ = peers(tmp_path, "pagode", 2, 1)
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    port = await wait_port(host)
    task = asyncio.create_task(joiners[0].run_guest((LOCAL, port), [LOCAL], game="pagode", players=2))
    await until(lambda: joiners[0].session is not None and len(joiners[0].session.chain) > 10)
    for t in (task, host_task):
        t.cancel()
        await asyncio.gather(t, return_exceptions=True)
    assert joiners[0].session.timeout == FAST.claim_after
    [meta] = GameFiles.unfinished(tmp_path / "p1")
    again = Peer.from_files(IDS[1], meta, options=replace(FAST, claim_after=999.0), say=lambda line: None)
    assert again.session.timeout == FAST.claim_after and again.session.claim_signed


async def test_a_peer_cut_off_alone_past_the_claim_time_waits(tmp_path):
    """Cy's cable is out: Ann and Bob, still linked, claim against Cy; Cy, alone, cannot tell that it is not
    the one who is gone: it waits past the claim time and writes no claim of its own. On a fake clock: the
    claim time is the app's (300 s), and the test moves time on."""
    options, clock = fake(claim_after=300.0, move_delay=0.05)   # slow enough that the cut comes mid-game
    host, (bob, cy), _ = peers(tmp_path, "pueblo", 3, 2, options, clock)
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    port = await wait_port(host)
    tasks = [asyncio.create_task(g.run_guest((LOCAL, port), [LOCAL], game="pueblo", players=3)) for g in (bob, cy)]
    await until(lambda: cy.session is not None and len(cy.session.chain) > 20
                and cy.linked(host.me.public) and cy.linked(bob.me.public))
    for s in cy.seats:
        if s.key != cy.me.public:
            s.address = (LOCAL, 1)          # nobody listens there: Cy cannot dial back
    for p in (host, bob):                   # nor can they dial Cy (the cable is out both ways)
        for s in p.seats:
            if s.key == cy.me.public:
                s.address = (LOCAL, 1)
    for link in list(cy.links.values()):
        link._writer.transport.abort()
    await until(lambda: not cy.links and not host.linked(cy.me.public) and not bob.linked(cy.me.public))
    await until(lambda: host.session.waiting_for() == bob.session.waiting_for() == 2
                and len(host.session.chain) == len(bob.session.chain),
                what=lambda: (f"Ann and Bob wait for Cy: waiting for {host.session.waiting_for()} and "
                              f"{bob.session.waiting_for()}, {len(host.session.chain)} and {len(bob.session.chain)} "
                              f"entries (Cy {len(cy.session.chain)}), phases {host.session.phase} and "
                              f"{bob.session.phase}, Cy linked {sorted(fingerprint(k) for k in cy.links)}"))
    clock.advance(299.0)                    # just before the claim time: nobody claims
    await until(lambda: all(p.ticked_at == clock() for p in (host, bob, cy)), what="every peer's clock ran")
    assert not any(p.session.over for p in (host, bob, cy))
    clock.advance(2.0)                      # past the claim time: Ann claims, Bob agrees
    await until(lambda: host.session.over and bob.session.over)
    # Cy never gets the end: the linger runs out (on the clock, from whenever each peer began it)
    await clock.run(lambda: host_task.done() and tasks[0].done(), step=options.linger)
    await asyncio.wait_for(asyncio.gather(host_task, tasks[0]), 60)
    assert host.session.result.culprit == 2 and host.session.chain[-1].author == host.me.public
    assert bob.session.chain == host.session.chain
    clock.advance(300.0)                    # Cy: more than twice the claim time, alone
    await until(lambda: cy.ticked_at == clock(), what="Cy's clock ran")
    assert not cy.session.over
    assert not any(e.kind in ("abort", "replace") and e.author == cy.me.public for e in cy.session.chain)
    tasks[1].cancel()
    await asyncio.gather(tasks[1], return_exceptions=True)


async def test_a_host_that_closes_a_table_not_yet_full_tells_the_seated_joiner(tmp_path):
    """Bob is seated at a table of three; Ann closes it before a third arrives: Bob is told in one line
    at once, and neither keeps an unfinished game to resume."""
    from lanterne.protocol.net.files import GameFiles

    host, (bob,), _ = peers(tmp_path, "pueblo", 3, 1)
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    port = await wait_port(host)
    task = asyncio.create_task(bob.run_guest((LOCAL, port), [LOCAL], game="pueblo", players=3))
    await until(lambda: seated(host) == 1 and host.seating.waiting_links)
    host_task.cancel()
    await asyncio.gather(host_task, return_exceptions=True)
    with pytest.raises(Exception, match="Ana closed the table before it was full"):
        await asyncio.wait_for(task, DEADLINE)
    assert GameFiles.unfinished(tmp_path / "p0") == [] and GameFiles.unfinished(tmp_path / "p1") == []
