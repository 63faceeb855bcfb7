"""Whole Pagode games at a table of two over 127.0.0.1: clean, cut links, crashes, claims, intruders.

A two-player game is a table of two on the one :class:`Peer` (the N-peer tests cover 3 to 5 seats).
"""

import asyncio
import json
from pathlib import Path

import pytest

from lanterne.engines.bots import make_bot
from lanterne.engines.core import IllegalAction
from lanterne.engines.registry import get_game
from lanterne.protocol.session.phases import Phase
from lanterne.protocol.identity import Identity, safety_code
from lanterne.protocol.log import open_entry, read_log
from lanterne.protocol.net.clock import MONOTONIC
from lanterne.protocol.net.invite import Declined, ask, join_request, resume_request
from lanterne.protocol.net.events import JoinAsked, LinkLost
from lanterne.protocol.net.files import GameFiles, ResumeError
from lanterne.protocol.net.peer import Peer, PeerOptions
from lanterne.protocol.net.tcp import bound_port
from lanterne.protocol.net.transport import LinkOptions
from lanterne.protocol.session import Session
from tests.support.net import assert_finished_alike, fake, logs_of
from tests.support.waiting import DEADLINE, until

LOCAL = "127.0.0.1"
FAST = PeerOptions(link=LinkOptions(read_timeout=2.0, keepalive=0.5, connect_timeout=1.0),
                   reconnect_every=0.1, linger=3.0)
HOST_ID, GUEST_ID, EVE_ID = (Identity.from_seed(s) for s in (b"peer-host", b"peer-guest", b"peer-eve"))


class Proxy:
    """A TCP forwarder we can cut, like a cable (every connection through it is reset)."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.writers: list[asyncio.StreamWriter] = []
        self.connections = 0

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._on, LOCAL, 0)
        return bound_port(self.server)

    async def _on(self, reader, writer):
        self.connections += 1
        try:
            up_r, up_w = await asyncio.open_connection(LOCAL, self.target_port)
        except OSError:
            writer.close()
            return
        self.writers += [writer, up_w]

        async def pipe(r, w):
            try:
                while data := await r.read(65536):
                    w.write(data)
                    await w.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                w.close()

        await asyncio.gather(pipe(reader, up_w), pipe(up_r, writer))

    def cut(self) -> None:
        for w in self.writers:
            w.transport.abort()
        self.writers.clear()


def make_pair(tmp_path: Path, options=FAST, delay: float = 0.0, clock=MONOTONIC):
    opts = PeerOptions(link=options.link, reconnect_every=options.reconnect_every, linger=options.linger,
                       claim_after=options.claim_after, move_delay=delay)
    lines = {"host": [], "guest": []}
    host = Peer.host(HOST_ID, "Hana", get_game("pagode"), 2, tmp_path / "host", player=make_bot("random", 1),
                     options=opts, say=lines["host"].append, clock=clock)
    guest = Peer.guest(GUEST_ID, "Gus", tmp_path / "guest", player=make_bot("random", 2), options=opts,
                       say=lines["guest"].append, clock=clock)
    return host, guest, lines


def join(guest: Peer, port: int):
    return guest.run_guest((LOCAL, port), [LOCAL], game="pagode", players=2)


async def start_host(host: Peer, accept=None) -> tuple[asyncio.Task, int]:
    task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False, accept=accept))
    await until(lambda: "port" in host.files.meta, what="the host listening")
    return task, host.files.meta["port"]


async def test_a_whole_game_over_tcp_ends_with_identical_logs_and_no_intruder_gets_in(tmp_path):
    host, guest, lines = make_pair(tmp_path, delay=0.002)
    task, port = await start_host(host)
    play = asyncio.create_task(join(guest, port))
    await until(lambda: len(guest.session.chain) >= 5)
    # a third peer, mid-game: no seat for it, and it cannot pass for the guest
    with pytest.raises(Declined, match="the table is full"):
        await ask(LOCAL, port, EVE_ID, "Eve", join_request("pagode", "standard", 2))
    with pytest.raises(Declined, match="you hold no seat"):
        await ask(LOCAL, port, EVE_ID, "Gus", resume_request(host.table_id, 5))
    with pytest.raises(Declined, match="no such game"):
        await ask(LOCAL, port, EVE_ID, "Gus", resume_request(b"x" * 32, 5))
    await asyncio.wait_for(play, DEADLINE)
    await asyncio.wait_for(task, DEADLINE)
    assert_finished_alike(host, guest)
    assert any(line.startswith("join request from Gus") and "safety code" in line for line in lines["host"])
    assert sum(line.startswith("join request from Eve") for line in lines["host"]) == 1
    assert lines["guest"][-2].startswith("game over") and lines["host"][-2] == lines["guest"][-2]
    assert GameFiles.unfinished(tmp_path / "host") == [] and GameFiles.unfinished(tmp_path / "guest") == []


async def test_cut_links_are_resumed_and_the_game_still_ends_alike(tmp_path):
    host, guest, lines = make_pair(tmp_path, delay=0.01)
    task, port = await start_host(host)
    proxy = Proxy(port)
    proxy_port = await proxy.start()
    play = asyncio.create_task(join(guest, proxy_port))
    for cut_at in (40, 120):
        await until(lambda: len(guest.session.chain) >= cut_at or guest.session.over)
        proxy.cut()
    await asyncio.wait_for(play, DEADLINE)
    try:
        await asyncio.wait_for(task, DEADLINE)
    except TimeoutError:    # (seen once in a full run, never alone: what each peer said, for the next look)
        raise AssertionError("the host never ended; it said:\n" + "\n".join(lines["host"][-25:])
                             + "\nthe guest said:\n" + "\n".join(lines["guest"][-25:])) from None
    assert_finished_alike(host, guest)
    assert proxy.connections >= 3
    assert sum("link request from Gus" in line for line in lines["host"]) >= 2


async def test_a_crashed_guest_restarts_from_its_files(tmp_path):
    host, guest, lines = make_pair(tmp_path, delay=0.01)
    task, port = await start_host(host)
    play = asyncio.create_task(join(guest, port))
    await until(lambda: len(guest.session.chain) >= 60)
    for link in list(guest.links.values()):
        link._writer.transport.abort()  # the process dies: no goodbye, only what is on disk survives
    play.cancel()
    with pytest.raises(asyncio.CancelledError):
        await play
    [meta] = GameFiles.unfinished(tmp_path / "guest")
    again = Peer.from_files(GUEST_ID, meta, player=make_bot("random", 3), options=FAST, say=lines["guest"].append)
    assert again.seats[0].key == HOST_ID.public and again.seats[0].address == (LOCAL, port)
    await asyncio.wait_for(again.run_guest(None, [LOCAL]), DEADLINE)
    await asyncio.wait_for(task, DEADLINE)
    assert_finished_alike(host, again)


async def test_an_absent_guest_lets_the_host_claim_the_game(tmp_path):
    """On a fake clock, with the app's claim time (300 s): the claim, the answer window and the linger pass."""
    opts, clock = fake(claim_after=300.0, linger=0.5)
    host, guest, lines = make_pair(tmp_path, opts, delay=0.01, clock=clock)
    task, port = await start_host(host)
    play = asyncio.create_task(join(guest, port))
    await until(lambda: len(guest.session.chain) >= 40)
    for link in list(guest.links.values()):
        link._writer.transport.abort()  # gone for good
    play.cancel()
    with pytest.raises(asyncio.CancelledError):
        await play
    await until(lambda: not host.linked(GUEST_ID.public) and host.session.waiting_for() == 1)
    clock.advance(300.0)                        # the claim time, to the second: not yet
    await until(lambda: host.ticked_at == clock())
    assert not host.session.over and host.session.phase == Phase.PLAY
    await clock.run(task.done, step=10.0)       # past it, then the claimed seat's answer window, then the linger
    await task
    [log] = logs_of(host)
    last = open_entry(log[-1])
    assert last.kind == "abort" and last.author == HOST_ID.public and last.body["culprit"] == 1
    assert "sent nothing for 300 s" in last.body["reason"]
    assert any(line.startswith("claimed:") for line in lines["host"])
    # the claim time is the host's, signed in the table, at two seats as at more
    table = next(open_entry(raw) for raw in log if open_entry(raw).kind == "table")
    assert table.body["claim_ms"] == 300_000
    # the scores so far are signed in the claim and said
    assert last.body["scores"] == host.scores_so_far()
    assert f"scores so far: {last.body['scores']}" in lines["host"]


async def test_moves_made_while_a_link_catches_up_go_out_in_chain_order(tmp_path):
    """A person plays the instant it is her turn, also while a new link is sending the backlog: one
    sender per link reads the chain, so the other side never sees an entry out of order (it would
    blame her). The link is cut five times; the game ends alike and nobody is blamed."""
    host, guest, lines = make_pair(tmp_path, delay=0.0)
    host.player = None
    bot = make_bot("random", 9)
    task, port = await start_host(host)
    proxy = Proxy(port)
    proxy_port = await proxy.start()
    play = asyncio.create_task(join(guest, proxy_port))
    cuts = 0
    await until(lambda: host.session)
    while not host.session.over:
        s = host.session
        if s.my_turn:
            host.play(bot.choose(s.game, s.view, s.my_seat))
            if cuts < 5 and len(s.chain) > 30 * (cuts + 1):
                proxy.cut()
                cuts += 1
        await asyncio.sleep(0)      # (a player's loop: the link's tasks run between two looks at the board)
    await asyncio.wait_for(play, DEADLINE)
    await asyncio.wait_for(task, DEADLINE)
    assert cuts == 5 and proxy.connections >= 6
    assert_finished_alike(host, guest)


async def test_a_ui_plays_through_act_and_sees_the_session_events(tmp_path):
    """No bot on the host: a 'UI' watches the events and plays with Peer.act.

    The person thinks longer over a move than the claim time: linked and
    thinking is not gone, so nobody claims the game.
    """
    patient, clock = fake(claim_after=300.0)
    host, guest, lines = make_pair(tmp_path, patient, clock=clock)
    host.player = None
    events, table_events = [], []
    host.on_events = events.extend
    host.on_peer_event = table_events.append
    bot = make_bot("greedy", 7)
    asked = []

    async def dialog(request):  # a person reads the safety code, then clicks
        asked.append((request.peer.name, request.safety_code))
        await asyncio.sleep(0.01)
        return request.peer.key != EVE_ID.public

    task, port = await start_host(host, accept=dialog)
    with pytest.raises(Declined, match="Hana declined: the host declined"):
        await ask(LOCAL, port, EVE_ID, "Eve", join_request("pagode", "standard", 2))
    play = asyncio.create_task(join(guest, port))
    await until(lambda: host.session)     # the session starts once every seat is taken
    moves = 0
    while not host.session.over:
        if host.session.my_turn:
            s = host.session
            if moves == 3:           # the person thinks for three claim times: the guest's clock runs, and waits
                clock.advance(3 * 300.0)
                await until(lambda: guest.ticked_at == clock())
                assert not guest.session.over
            await host.act(bot.choose(s.game, s.view, s.my_seat))
            moves += 1
        else:
            await until(lambda: host.session.my_turn or host.session.over)
    await asyncio.wait_for(play, DEADLINE)
    await asyncio.wait_for(task, DEADLINE)
    assert_finished_alike(host, guest)
    assert [name for name, _ in asked] == ["Eve", "Gus"]
    assert asked[1][1] == safety_code(HOST_ID.public, GUEST_ID.public)
    kinds = {type(e).__name__ for e in events}
    assert {"TableSet", "Moved", "GameOver"} <= kinds and moves > 10
    assert [e.name for e in table_events if isinstance(e, JoinAsked)] == ["Eve", "Gus"]
    with pytest.raises(IllegalAction, match="not our turn"):
        await host.act(("pass",))


class TamperingProxy(Proxy):
    """Forwards frames; on its n-th connection rewrites the encrypted record number ``at`` going to the guest."""

    def __init__(self, target_port: int, at: int, rewrites):
        super().__init__(target_port)
        self.at, self.rewrites = at, list(rewrites)

    async def _on(self, reader, writer):
        from lanterne.protocol.net.framing import PREFACE, SEALED, FrameDecoder, encode_frame
        self.connections += 1
        rewrite = self.rewrites[self.connections - 1] if self.connections <= len(self.rewrites) else None
        up_r, up_w = await asyncio.open_connection(LOCAL, self.target_port)
        self.writers += [writer, up_w]

        async def up():
            try:
                while data := await reader.read(65536):
                    up_w.write(data)
            except (ConnectionError, OSError):
                pass
            finally:
                up_w.close()

        async def down():
            decoder, count = FrameDecoder(), 0
            writer.write(PREFACE)
            try:
                while data := await up_r.read(65536):
                    for frame in decoder.feed(data):
                        payload = frame.payload
                        if frame.kind == SEALED:
                            count += 1
                            if count == self.at and rewrite is not None:
                                payload = rewrite(payload, self)
                        writer.write(encode_frame(frame.kind, payload))
                        if frame.kind == SEALED:
                            self.last = payload
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()

        await asyncio.gather(up(), down())


def flip_a_byte(record: bytes, proxy) -> bytes:
    return record[:-10] + bytes([record[-10] ^ 1]) + record[-9:]


def replay_the_last(record: bytes, proxy) -> bytes:
    return proxy.last


async def test_bytes_injected_on_the_wire_drop_the_link_not_the_game(tmp_path):
    """A flipped byte, then a replayed record (the links are encrypted): each costs a link, never the game."""
    host, guest, lines = make_pair(tmp_path)
    task, port = await start_host(host)
    proxy = TamperingProxy(port, at=30, rewrites=[flip_a_byte, replay_the_last])
    proxy_port = await proxy.start()
    lost = []
    guest.on_peer_event = lambda e: lost.append(e.reason) if isinstance(e, LinkLost) else None
    await asyncio.wait_for(join(guest, proxy_port), DEADLINE)
    await asyncio.wait_for(task, DEADLINE)
    assert proxy.connections == 3
    assert "record 30 does not decrypt" in lost[0] and "record 30 does not decrypt" in lost[1], lost
    assert_finished_alike(host, guest)  # the honest entries came again on the next link; nobody was blamed


async def test_a_host_stopped_before_anyone_joined_leaves_nothing_to_resume(tmp_path):
    """The session starts once every seat is taken: a table nobody joined writes no files."""
    host, guest, lines = make_pair(tmp_path)
    task, port = await start_host(host)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert GameFiles.unfinished(tmp_path / "host") == [] and not list((tmp_path / "host").glob("*.log"))


async def stopped_mid_game(tmp_path) -> tuple[Peer, Peer]:
    """A table of two stopped after 30 entries, both peers' files kept."""
    host, guest, lines = make_pair(tmp_path, delay=0.01)
    task, port = await start_host(host)
    play = asyncio.create_task(join(guest, port))
    await until(lambda: len(guest.session.chain) >= 30)
    for t in (play, task):
        t.cancel()
        with pytest.raises(asyncio.CancelledError):
            await t
    return host, guest


async def test_files_that_do_not_agree_are_a_one_line_resume_error(tmp_path):
    await stopped_mid_game(tmp_path)
    [meta] = GameFiles.unfinished(tmp_path / "host")
    data = json.loads(meta.read_text())
    meta.write_text(json.dumps(dict(data, table="00" * 32)))
    with pytest.raises(ResumeError, match="its log does not start with table 0000000000000000"):
        Peer.from_files(HOST_ID, meta, say=lambda line: None)
    meta.write_text("{not json")
    with pytest.raises(ResumeError, match="cannot resume .*JSONDecodeError"):
        Peer.from_files(HOST_ID, meta, say=lambda line: None)
    meta.write_text(json.dumps(dict(data, seats="nobody")))
    with pytest.raises(ResumeError, match="cannot resume "):
        Peer.from_files(HOST_ID, meta, say=lambda line: None)
    meta.write_text(json.dumps(data))
    with pytest.raises(ResumeError, match="this identity holds no seat"):
        Peer.from_files(EVE_ID, meta, say=lambda line: None)
    meta.with_suffix(".log").unlink()
    with pytest.raises(ResumeError, match="cannot resume .*cannot read"):
        Peer.from_files(HOST_ID, meta, say=lambda line: None)


STORED_PAGODE = Path(__file__).parent.parent / "logs" / "pagode-seed1.log"
STORED_IDS = [Identity.from_seed(f"1/0/identity/{i}".encode()) for i in range(2)]
"""Who wrote the stored log (``selfplay --seed 1``: :func:`protocol.memory.make_sessions` of seed ``1/0``)."""


def old_two_peer_game(tmp_path) -> None:
    """The files of a game begun before one peer served every table size: the first 30 entries of a stored
    two-peer log of that time (no guest list, no signed claim time), meta files with ``peer`` and
    ``address`` instead of ``seats``."""
    raws, _ = read_log(STORED_PAGODE)
    assert "guests" not in open_entry(raws[0]).body
    seeds = [Identity.from_seed(f"1/0/seed/{i}".encode()).public for i in range(2)]
    files = [GameFiles(tmp_path / "host"), GameFiles(tmp_path / "guest")]
    metas = [{"role": "host", "game": "pagode", "variant": "standard", "name": "bot1"},
             {"role": "guest", "name": "bot2"}]
    for f, seed, meta in zip(files, seeds, metas):
        store = f.store(seed, meta)
        for raw in raws[:30]:
            store(raw)
    files[0].update(peer=STORED_IDS[1].public.hex(), address=[LOCAL, 1])
    files[1].update(peer=STORED_IDS[0].public.hex(), address=[LOCAL, 1])
    for f in files:
        f.close()


async def test_a_two_peer_game_from_the_old_layout_resumes_on_the_one_peer(tmp_path):
    old_two_peer_game(tmp_path)
    [host_meta] = GameFiles.unfinished(tmp_path / "host")
    [guest_meta] = GameFiles.unfinished(tmp_path / "guest")
    assert "seats" not in json.loads(host_meta.read_text())
    host_id, guest_id = STORED_IDS
    host = Peer.from_files(host_id, host_meta, player=make_bot("random", 1), options=FAST, say=lambda line: None)
    guest = Peer.from_files(guest_id, guest_meta, player=make_bot("random", 2), options=FAST, say=lambda line: None)
    assert [s.key for s in host.seats] == [s.key for s in guest.seats] == [host_id.public, guest_id.public]
    task, port = await start_host(host)
    guest.seats[0].address = (LOCAL, port)
    await asyncio.wait_for(guest.run_guest(None, [LOCAL]), DEADLINE)
    await asyncio.wait_for(task, DEADLINE)
    assert_finished_alike(host, guest)
    assert "seats" in json.loads(host_meta.read_text())   # written in today's layout from now on
