"""Over TCP: a peer gone for good is replaced by a computer the claimer hosts; the game ends normally."""

import asyncio
import dataclasses

import pytest

from lanterne.engines.bots import make_bot
from lanterne.engines.registry import get_game
from lanterne.protocol.session.phases import Phase
from lanterne.protocol.log import open_entry, read_log
from lanterne.protocol.net.clock import MONOTONIC
from lanterne.protocol.net.peer import GameFiles, Peer, PeerOptions
from lanterne.protocol.session import AGREE, REPLACE, GameOver, Replaced
from lanterne.protocol.verify import verify_file
from tests.support.net import FAST, IDS, LOCAL, NAMES, fake, seated, until, wait_port

PATIENT = PeerOptions(link=FAST.link, reconnect_every=0.1, linger=2.0, move_delay=0.03, claim_after=1.0)
BACK = PeerOptions(link=FAST.link, reconnect_every=0.1, linger=2.0, move_delay=0.03, claim_after=15.0)
"""A peer back from its files. Its claim time is still the table's, signed at the start (1 s here), so on a
loaded machine it may play its own turn before any link brings it the replace the others wrote meanwhile:
it then holds that replace aside and learns it is out from the computer's first entry (a CI run caught it
refusing that entry as a stranger's, relinking for ever, then ending the game alone)."""


def full_speed(*peers: Peer) -> None:
    """The rest of the game needs no time to act in: every bot (and every computer they host) moves at once."""
    for peer in peers:
        for p in (peer, *peer.computers.peers):
            p.options = dataclasses.replace(p.options, move_delay=0.0)


def _table(tmp_path, game: str, options: PeerOptions = PATIENT, clock=MONOTONIC):
    lines = [[] for _ in range(3)]
    host = Peer.host(IDS[0], NAMES[0], get_game(game), 3, tmp_path / "p0", player=make_bot("random", 1),
                     options=options, say=lines[0].append, on_gone="computer", clock=clock)
    guests = [Peer.guest(IDS[i], NAMES[i], tmp_path / f"p{i}", player=make_bot("random", i + 1),
                         options=options, say=lines[i].append, clock=clock) for i in (1, 2)]
    return host, guests, lines


async def test_a_gone_peer_is_replaced_by_a_computer_and_comes_back_to_learn_it(tmp_path):
    host, guests, lines = _table(tmp_path, "pandoria")
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    port = await wait_port(host)
    tasks = []
    for g in guests:
        tasks.append(asyncio.create_task(g.run_guest((LOCAL, port), [LOCAL], game="pandoria")))
        await until(lambda: seated(host) >= len(tasks))
    gone = guests[1]
    await until(lambda: gone.session is not None and len(gone.session.chain) > 40
                and host.linked(gone.me.public) and guests[0].linked(gone.me.public))
    tasks[1].cancel()   # seat 3 leaves
    with pytest.raises(asyncio.CancelledError):
        await tasks[1]
    await until(lambda: any(e.kind == AGREE for e in host.session.chain))
    # seat 3 comes back from its files while the computer plays its seat: it learns it was replaced
    meta = GameFiles.unfinished(tmp_path / "p2")[0]
    back_lines = []
    back = Peer.from_files(IDS[2], meta, player=make_bot("random", 3), options=BACK, say=back_lines.append)
    back_session = await asyncio.wait_for(back.run_guest(None, [LOCAL]), 60)
    assert isinstance(back_session.result, Replaced) and back_session.phase == Phase.REPLACED
    assert any(line.startswith("replaced: seat 3 was given to a computer by seat 1") for line in back_lines)
    full_speed(host, guests[0])
    sessions = await asyncio.wait_for(asyncio.gather(host_task, tasks[0]), 120)
    for s in sessions:
        assert isinstance(s.result, GameOver), "\n".join(lines[1][-25:] + ["----"] + lines[0][-25:])
    logs = [read_log(p.files.log_path)[0] for p in (host, guests[0])]
    assert logs[0] == logs[1], "the rest agree on one log"
    kinds = [open_entry(raw).kind for raw in logs[0]]
    replace_at = kinds.index(REPLACE)
    assert kinds[replace_at + 1] == AGREE
    computer = host.computers.peers[-1]
    assert read_log(computer.files.log_path)[0] == logs[0]
    back_log = read_log(back.files.log_path)[0]
    assert back_log[:replace_at] == logs[0][:replace_at], "identical up to where it left"
    report = verify_file(host.files.log_path)
    assert report.ok and report.result == "over" and sorted(report.replayed) == [1, 2, 3], report
    assert report.seats[2]["computer"]["key"] == computer.me.public.hex()
    assert any(line.startswith("hosting [computer] ") for line in lines[0])
    assert any(line.startswith("seat 3 is now [computer] ") for line in lines[1])


async def test_at_a_table_of_two_a_gone_peer_is_replaced_by_a_computer_too(tmp_path):
    """The policy is the table's at every size: alone, the present seat gives the gone one to a computer."""
    lines = [[], []]
    options, clock = fake(linger=2.0, move_delay=0.03, claim_after=300.0)
    host = Peer.host(IDS[0], NAMES[0], get_game("pagode"), 2, tmp_path / "p0", player=make_bot("random", 1),
                     options=options, say=lines[0].append, on_gone="computer", clock=clock)
    guest = Peer.guest(IDS[1], NAMES[1], tmp_path / "p1", player=make_bot("random", 2), options=options,
                       say=lines[1].append, clock=clock)
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    port = await wait_port(host)
    task = asyncio.create_task(guest.run_guest((LOCAL, port), [LOCAL], game="pagode"))
    await until(lambda: guest.session is not None and len(guest.session.chain) > 30 and host.linked(guest.me.public))
    for link in list(guest.links.values()):
        link._writer.transport.abort()   # gone for good
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # the claim time, then the answer window nobody answers in: the host agrees and hosts the computer
    await clock.run(lambda: any(e.kind == AGREE for e in host.session.chain), step=10.0)
    await until(lambda: host.computers.peers)
    full_speed(host)
    await until(lambda: host.session.over)          # the computer plays the rest
    await clock.run(host_task.done, step=0.5)       # the linger (the gone guest never gets the end)
    session = await host_task
    assert session.phase == Phase.OVER, lines[0][-8:]
    raws = read_log(host.files.log_path)[0]
    kinds = [open_entry(r).kind for r in raws]
    replace_at = kinds.index(REPLACE)        # nobody else is present to answer: after the window, the claimer's agree
    assert kinds.count(REPLACE) == 1 and kinds[replace_at + 1] == AGREE and open_entry(raws[replace_at + 1]).author \
        == host.me.public
    report = verify_file(host.files.log_path)
    assert report.ok and report.result == "over", report
    assert any(line.startswith("hosting [computer] ") for line in lines[0])


async def test_a_guest_that_requires_another_policy_leaves_at_the_table(tmp_path):
    host, guests, lines = _table(tmp_path, "pueblo")
    guests[1].require_on_gone = "end"
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    port = await wait_port(host)
    tasks = []
    for g in guests:
        tasks.append(asyncio.create_task(g.run_guest((LOCAL, port), [LOCAL], game="pueblo")))
        await until(lambda: seated(host) >= len(tasks))
    sessions = await asyncio.wait_for(asyncio.gather(host_task, *tasks), 60)
    for s in sessions:
        assert s.phase == Phase.ABORTED and s.result.culprit == 2, s.result
        assert s.result.reason == "seat 3 plays only with on-gone policy end, not computer"
    logs = [read_log(p.files.log_path)[0] for p in (host, *guests)]
    assert logs[0] == logs[1] == logs[2] and open_entry(logs[0][-1]).author == guests[1].me.public


async def test_the_host_gone_for_good_is_replaced_by_seat_2_and_learns_it_when_back(tmp_path):
    options, clock = fake(linger=2.0, move_delay=0.03, claim_after=300.0)
    host, guests, lines = _table(tmp_path, "pueblo", options, clock)
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    port = await wait_port(host)
    tasks = []
    for g in guests:
        tasks.append(asyncio.create_task(g.run_guest((LOCAL, port), [LOCAL], game="pueblo")))
        await until(lambda: seated(host) >= len(tasks))
    await until(lambda: host.session is not None and len(host.session.chain) > 20
                and guests[0].linked(host.me.public) and guests[1].linked(host.me.public)
                and guests[1].linked(guests[0].me.public))
    host_task.cancel()   # the host leaves: seat 2 is the lowest present seat, it claims
    with pytest.raises(asyncio.CancelledError):
        await host_task
    await clock.run(lambda: any(e.kind == AGREE for e in guests[0].session.chain), step=10.0)  # past the claim time
    assert any(line.startswith("hosting [computer] Ana") for line in lines[1])
    meta = [m for m in GameFiles.unfinished(tmp_path / "p0")][0]
    back_lines = []
    back = Peer.from_files(IDS[0], meta, player=make_bot("random", 1), options=options, say=back_lines.append,
                           clock=clock)
    coming_back = asyncio.ensure_future(back.run_host([LOCAL], 0, discover=False))
    await clock.run(coming_back.done, step=0.05)
    back_session = await coming_back
    assert isinstance(back_session.result, Replaced) and back_session.result.by == 1, "\n".join(back_lines)
    ending = asyncio.gather(*tasks)
    await clock.run(ending.done, step=0.05)         # the bots' move delays, then the linger
    sessions = await ending
    assert all(isinstance(s.result, GameOver) for s in sessions), [s.result for s in sessions]
    logs = [read_log(p.files.log_path)[0] for p in guests]
    assert logs[0] == logs[1]
    assert verify_file(guests[0].files.log_path).ok


async def test_the_claimer_restarted_after_a_crash_brings_its_computer_back(tmp_path):
    options, clock = fake(linger=2.0, move_delay=0.03, claim_after=300.0)
    host, guests, lines = _table(tmp_path, "pueblo", options, clock)
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    port = await wait_port(host)
    tasks = []
    for g in guests:
        tasks.append(asyncio.create_task(g.run_guest((LOCAL, port), [LOCAL], game="pueblo")))
        await until(lambda: seated(host) >= len(tasks))
    gone = guests[1]
    await until(lambda: gone.session is not None and len(gone.session.chain) > 20
                and host.linked(gone.me.public) and guests[0].linked(gone.me.public))
    tasks[1].cancel()
    with pytest.raises(asyncio.CancelledError):
        await tasks[1]
    await clock.run(lambda: any(e.kind == AGREE for e in host.session.chain), step=10.0)   # past the claim time
    host_task.cancel()   # the claimer crashes, its computer with it
    with pytest.raises(asyncio.CancelledError):
        await host_task
    meta = GameFiles.unfinished(tmp_path / "p0")[0]
    again = Peer.from_files(IDS[0], meta, player=make_bot("random", 1), options=options, say=lines[0].append,
                            clock=clock)
    computers = again.resume_computers(lambda n: make_bot("random", 10 + n))
    assert len(computers) == 1 and computers[0].me.public == host.session.seats[2]
    ending = asyncio.gather(again.run_host([LOCAL], 0, discover=False), tasks[0])
    await clock.run(ending.done, step=0.05)         # the bots' move delays, then the linger
    sessions = await ending
    assert all(isinstance(s.result, GameOver) for s in sessions), [s.result for s in sessions]
    logs = [read_log(p.files.log_path)[0] for p in (again, guests[0], computers[0])]
    assert logs[0] == logs[1] == logs[2]
    assert verify_file(guests[0].files.log_path).ok


async def test_a_player_who_resigns_is_replaced_at_once_and_the_others_play_on(tmp_path):
    """On a table whose policy gives a gone seat to a computer, a resignation hands the seat over without the
    claim time (1000 s here): the others answer the claim at once, and the game ends normally."""
    slow = PeerOptions(link=FAST.link, reconnect_every=0.1, linger=2.0, move_delay=0.03, claim_after=1000.0)
    lines = [[] for _ in range(3)]
    host = Peer.host(IDS[0], NAMES[0], get_game("pueblo"), 3, tmp_path / "p0", player=make_bot("random", 1),
                     options=slow, say=lines[0].append, on_gone="computer")
    guests = [Peer.guest(IDS[i], NAMES[i], tmp_path / f"p{i}", player=make_bot("random", i + 1), options=slow,
                         say=lines[i].append) for i in (1, 2)]
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    port = await wait_port(host)
    tasks = []
    for g in guests:
        tasks.append(asyncio.create_task(g.run_guest((LOCAL, port), [LOCAL], game="pueblo")))
        await until(lambda: seated(host) >= len(tasks))
    quitter = guests[1]
    await until(lambda: quitter.session is not None and len(quitter.session.chain) > 20
                and host.linked(quitter.me.public) and guests[0].linked(quitter.me.public))
    quitter.resign()
    await asyncio.wait_for(tasks[1], 20)          # it leaves within seconds
    assert quitter.files.meta.get("resigned") and not GameFiles.unfinished(tmp_path / "p2"), "nothing to resume"
    sessions = await asyncio.wait_for(asyncio.gather(host_task, tasks[0]), 90)
    for s in sessions:
        assert isinstance(s.result, GameOver), "\n".join(lines[0][-20:])
    kinds = [open_entry(raw).kind for raw in read_log(host.files.log_path)[0]]
    at = kinds.index(REPLACE)
    assert kinds[at + 1] == AGREE and kinds.count(REPLACE) == 1
    assert any("left for good (resigned)" in line for line in lines[0] + lines[1])
    report = verify_file(host.files.log_path)
    assert report.ok and report.result == "over" and report.culprit is None, report
