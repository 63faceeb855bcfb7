"""N peers over TCP on 127.0.0.1: a full mesh of Peers plays whole games with identical, verified logs."""

import asyncio

import pytest

from lanterne.engines.bots import make_bot
from lanterne.engines.core import RulesError
from lanterne.engines.registry import get_game
from lanterne.protocol.session.phases import Phase
from lanterne.protocol.log import open_entry
from lanterne.protocol.net.peer import GameFiles, Peer, PeerOptions
from lanterne.protocol.session import Aborted, TableSet
from lanterne.protocol.verify import verify_file
from tests.support.net import FAST, IDS, LOCAL, fake, logs_of, make_table, play, seated, start_table, until, wait_port


async def test_three_players_play_a_whole_pueblo_game_with_identical_verified_logs(tmp_path):
    host, guests, lines = make_table(tmp_path, "pueblo", 3)
    sessions = await play(host, guests, "pueblo")
    assert all(s.phase == Phase.OVER for s in sessions), [line for ls in lines for line in ls if "ended" in line]
    assert len({tuple(s.result.scores) for s in sessions}) == 1
    logs = logs_of(host, *guests)
    assert logs[0] == logs[1] == logs[2]
    assert [s.my_seat for s in sessions] == [0, 1, 2]
    for peer in (host, *guests):
        report = verify_file(peer.files.log_path)
        assert report.ok and report.game == "pueblo" and len(report.seats) == 3, report
    # every peer linked with every other (a full mesh)
    for i, ls in enumerate(lines):
        linked = {line.split()[2] for line in ls if line.startswith("linked with")}
        assert len(linked) == 2, (i, ls)


@pytest.mark.parametrize("seat", [0, 1, 2], ids=["host", "middle", "last"])
async def test_a_peer_that_crashes_mid_game_restarts_from_its_files_and_the_others_waited(tmp_path, seat):
    """Seat 1 (the host) only listens, seat 2 dials and is dialed, seat 3 only dials."""
    slow = PeerOptions(link=FAST.link, reconnect_every=0.1, linger=3.0, move_delay=0.01)
    host, guests, lines = make_table(tmp_path, "pueblo", 3, options=slow)
    peers = [host, *guests]
    tasks = await start_table(host, guests, "pueblo")
    victim = peers[seat]
    await until(lambda: victim.session is not None and len(victim.session.chain) > 40)
    tasks[seat].cancel()
    with pytest.raises(asyncio.CancelledError):
        await tasks[seat]
    crashed_at = len(victim.session.chain)
    meta = GameFiles.unfinished(tmp_path / f"p{seat}")
    assert len(meta) == 1
    witness, third = peers[(seat + 1) % 3], peers[(seat + 2) % 3]
    await until(lambda: witness.session.waiting_for() == seat and not witness.linked(victim.me.public))
    stalled = len(witness.session.chain)
    await witness.links[third.me.public].ping()     # a round trip with the third seat: the loops ran
    assert not witness.session.over and len(witness.session.chain) == stalled, "the others wait"
    back = Peer.from_files(IDS[seat], meta[0], player=make_bot("random", seat + 1), options=slow,
                               say=lines[seat].append)
    assert back.port == victim.port and len(back.session.chain) == crashed_at
    again = back.run_host([LOCAL], 0, discover=False) if seat == 0 else back.run_guest(None, [LOCAL])
    others = [t for i, t in enumerate(tasks) if i != seat]
    sessions = await asyncio.wait_for(asyncio.gather(again, *others), 60)
    assert all(s.phase == Phase.OVER for s in sessions)
    logs = logs_of(back, *[p for i, p in enumerate(peers) if i != seat])
    assert logs[0] == logs[1] == logs[2]
    assert verify_file(back.files.log_path).ok
    assert any(line.startswith("resuming table") for line in lines[seat])


async def test_a_peer_gone_past_the_claim_time_ends_the_game_by_one_agreed_signed_claim(tmp_path):
    patient, clock = fake(linger=1.0, move_delay=0.01, claim_after=300.0)
    host, guests, lines = make_table(tmp_path, "pueblo", 3, options=patient, clock=clock)
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    port = await wait_port(host)
    tasks = []
    for g in guests:
        tasks.append(asyncio.create_task(g.run_guest((LOCAL, port), [LOCAL], game="pueblo")))
        await until(lambda: seated(host) >= len(tasks))
    await until(lambda: guests[1].session is not None and len(guests[1].session.chain) > 30)
    tasks[1].cancel()  # seat 3 leaves for good
    with pytest.raises(asyncio.CancelledError):
        await tasks[1]
    await until(lambda: not host.linked(IDS[2].public) and not guests[0].linked(IDS[2].public)
                and host.session.waiting_for() == guests[0].session.waiting_for() == 2
                and len(host.session.chain) == len(guests[0].session.chain))
    clock.advance(301.0)                  # past the claim time: seat 1 claims, seat 2 agrees at once
    await until(lambda: host.session.over and guests[0].session.over)
    # seat 3 never gets the end: the linger runs out (on the clock, from whenever each peer began it)
    await clock.run(lambda: host_task.done() and tasks[0].done(), step=patient.linger)
    sessions = await asyncio.wait_for(asyncio.gather(host_task, tasks[0]), 30)
    for s in sessions:
        assert isinstance(s.result, Aborted) and s.result.culprit == 2 and s.result.by == 0, s.result
    logs = logs_of(host, guests[0])
    assert logs[0] == logs[1], "the rest agree on one claim"
    claims = [open_entry(raw) for raw in logs[0] if open_entry(raw).kind == "abort"]
    assert len(claims) == 1 and claims[0].author == IDS[0].public and "timeout" in claims[0].body["reason"]
    report = verify_file(host.files.log_path)
    assert report.ok and report.result == "aborted" and report.culprit == 3, report
    assert report.scores == claims[0].body["scores"] and "; scores so far: " in report.reason
    assert all(s.result.scores == tuple(claims[0].body["scores"]) for s in sessions)
    assert any(line.startswith("claimed:") for line in lines[0])
    assert any(line.startswith("scores so far: [") for line in lines[1])


async def test_a_host_runs_a_computer_seat_that_every_peer_sees_as_one(tmp_path):
    host, guests, lines = make_table(tmp_path, "pueblo", 4)
    computers = [host.add_computer(make_bot("greedy", 7)), host.add_computer(make_bot("random", 8))]
    small = Peer.host(IDS[5], "Fay", get_game("pueblo"), 3, tmp_path / "small", say=lambda line: None)
    small.add_computer(make_bot("random", 9)), small.add_computer(make_bot("random", 10))
    with pytest.raises(RulesError, match="a table of 3 has no seat left"):
        small.add_computer(make_bot("random", 11))
    tables = []
    guests[0].on_events = lambda events: tables.extend(e for e in events if isinstance(e, TableSet))
    tasks = await start_table(host, guests[:1], "pueblo")  # Bob asks at once, and waits for the computers
    sessions = await asyncio.wait_for(asyncio.gather(*tasks), 60)
    assert all(s.phase == Phase.OVER for s in sessions) and all(c.session.phase == Phase.OVER for c in computers)
    assert tables and tables[0].names == ("Ana", "[computer] Ana 1", "[computer] Ana 2", "Bob")
    logs = logs_of(host, *computers, guests[0])
    assert logs[0] == logs[1] == logs[2] == logs[3]
    assert verify_file(guests[0].files.log_path).ok


async def test_a_host_that_crashes_brings_its_computer_seat_back_from_their_files(tmp_path):
    slow = PeerOptions(link=FAST.link, reconnect_every=0.1, linger=3.0, move_delay=0.01)
    host, guests, lines = make_table(tmp_path, "pueblo", 3, options=slow)
    computer = host.add_computer(make_bot("random", 7))
    tasks = await start_table(host, guests[:1], "pueblo")
    await until(lambda: host.session is not None and len(host.session.chain) > 40)
    tasks[0].cancel()  # the host's process dies, and its computer with it
    with pytest.raises(asyncio.CancelledError):
        await tasks[0]
    assert not computer.session.over
    back = Peer.from_files(IDS[0], GameFiles.unfinished(tmp_path / "p0")[0], player=make_bot("random", 1),
                               options=slow, say=lines[0].append)
    resumed = back.resume_computers(lambda n: make_bot("random", 7))
    assert [c.me.public for c in resumed] == [computer.me.public]
    sessions = await asyncio.wait_for(asyncio.gather(back.run_host([LOCAL], 0, discover=False), tasks[1]), 60)
    assert all(s.phase == Phase.OVER for s in sessions) and resumed[0].session.phase == Phase.OVER
    logs = logs_of(back, resumed[0], guests[0])
    assert logs[0] == logs[1] == logs[2]
    assert verify_file(guests[0].files.log_path).ok


async def test_a_peer_restarted_on_another_port_is_found_again_by_its_fingerprint(tmp_path):
    """Seat 2's old port is taken when it restarts; seat 3 (which dials it) finds it through zeroconf."""
    import socket

    from lanterne.protocol.identity import fingerprint
    from lanterne.protocol.net.discovery import Discovery

    slow = PeerOptions(link=FAST.link, reconnect_every=0.1, linger=3.0, move_delay=0.01)
    host, guests, lines = make_table(tmp_path, "pueblo", 3, options=slow)
    tasks = [asyncio.create_task(host.run_host([LOCAL], 0, discover=False))]
    port = await wait_port(host)
    for g in guests:
        tasks.append(asyncio.create_task(g.run_guest((LOCAL, port), [LOCAL], game="pueblo",
                                                     discovery=Discovery([LOCAL]))))
        await until(lambda: seated(host) >= len(tasks) - 1)
    middle = guests[0]
    await until(lambda: middle.session is not None and len(middle.session.chain) > 30)
    tasks[1].cancel()
    with pytest.raises(asyncio.CancelledError):
        await tasks[1]
    squatter = socket.socket()
    squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    squatter.bind((LOCAL, middle.port))
    squatter.listen()
    try:
        # no player yet: the game waits for seat 2, so seat 3 has all the time it needs to find it
        back = Peer.from_files(IDS[1], GameFiles.unfinished(tmp_path / "p1")[0], player=None, options=slow,
                                   say=lines[1].append)
        again = asyncio.create_task(back.run_guest(None, [LOCAL], discovery=Discovery([LOCAL])))
        await until(lambda: back.port and back.port != middle.port)
        relinked = f"linked with {fingerprint(IDS[1].public)} at {LOCAL}:{back.port}"
        await until(lambda: any(line == relinked for line in lines[2]))
        back.player = make_bot("random", 2)
        back.turns.wake()
        sessions = await asyncio.wait_for(asyncio.gather(again, tasks[0], tasks[2]), 60)
    finally:
        squatter.close()
    assert all(s.phase == Phase.OVER for s in sessions)
    logs = logs_of(back, host, guests[1])
    assert logs[0] == logs[1] == logs[2]


class LoopProbe:
    """A computer player that asks the event loop for a sign of life while it thinks.

    If it were thinking ON the loop (as it once did), the loop could not
    answer and every link of that peer would stall for the whole search.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, seed: int):
        self.loop, self.inner, self.answered, self.asked = loop, make_bot("random", seed), 0, 0

    def choose(self, game, view, seat):
        import threading

        alive = threading.Event()
        self.asked += 1
        self.loop.call_soon_threadsafe(alive.set)
        if alive.wait(5):
            self.answered += 1
        return self.inner.choose(game, view, seat)


async def test_a_computer_thinks_off_the_event_loop_so_its_links_stay_live(tmp_path):
    loop = asyncio.get_running_loop()
    host, guests, _ = make_table(tmp_path, "pueblo", 3)
    probe = LoopProbe(loop, 7)
    guests[0].player = probe
    sessions = await play(host, guests, "pueblo")
    assert all(s.phase == Phase.OVER for s in sessions)
    assert probe.asked > 5 and probe.answered == probe.asked


async def test_a_wrong_size_join_is_refused_and_a_joiner_leaving_early_frees_its_seat(tmp_path):
    from lanterne.protocol.net.invite import Declined

    host, guests, lines = make_table(tmp_path, "pueblo", 3)
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    port = await wait_port(host)
    wrong = Peer.guest(IDS[5], "Fay", tmp_path / "wrong", options=FAST, say=lambda line: None)
    with pytest.raises(Declined, match="this table seats 3, not 4"):
        await asyncio.wait_for(wrong.run_guest((LOCAL, port), [LOCAL], game="pueblo", players=4), 30)
    quitter = Peer.guest(IDS[4], "Dee", tmp_path / "quitter", options=FAST, say=lambda line: None)
    leaving = asyncio.create_task(quitter.run_guest((LOCAL, port), [LOCAL], game="pueblo"))
    await until(lambda: seated(host) == 1)
    leaving.cancel()
    await asyncio.gather(leaving, return_exceptions=True)
    await until(lambda: "left Dee (1/3 seats)" in lines[0])
    assert seated(host) == 0
    tasks = []
    for g in guests:
        tasks.append(asyncio.create_task(g.run_guest((LOCAL, port), [LOCAL], game="pueblo")))
        await until(lambda: seated(host) >= len(tasks))
    sessions = await asyncio.wait_for(asyncio.gather(host_task, *tasks), 60)
    assert all(s.phase == Phase.OVER for s in sessions)
    assert [s.name for s in host.seats] == ["Ana", "Bob", "Cy"]


async def test_the_hosts_claim_time_is_signed_in_the_table_and_every_peer_uses_it(tmp_path):
    import dataclasses

    host, guests, _ = make_table(tmp_path, "pueblo", 3)
    host.options = dataclasses.replace(FAST, claim_after=120.0)
    assert all(g.options.claim_after == 300.0 for g in guests)  # each guest's own setting differs
    sessions = await play(host, guests, "pueblo")
    assert all(s.phase == Phase.OVER for s in sessions)
    assert [s.timeout for s in sessions] == [120.0, 120.0, 120.0]
    table = next(open_entry(raw) for raw in logs_of(host)[0] if open_entry(raw).kind == "table")
    assert table.body["claim_ms"] == 120_000
    assert verify_file(guests[0].files.log_path).ok
