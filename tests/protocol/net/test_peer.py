"""Whole Pagode games between two NetPeers over 127.0.0.1: clean, cut links, crashes, claims, intruders."""

import asyncio
import json
from pathlib import Path

import pytest

from engines.bots import make_bot
from engines.core import IllegalAction
from engines.registry import get_game
from protocol.identity import Identity, safety_code
from protocol.log import open_entry, read_log
from protocol.net.invite import Declined, ask, join_request, resume_request
from protocol.net.peer import GameFiles, NetPeer, PeerOptions, ResumeError
from protocol.net.transport import LinkOptions, bound_port
from protocol.session import Session

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


def logs_of(*peers: NetPeer) -> list[list[bytes]]:
    return [read_log(p.files.log_path)[0] for p in peers]


def make_pair(tmp_path: Path, options=FAST, delay: float = 0.0):
    opts = PeerOptions(link=options.link, reconnect_every=options.reconnect_every, linger=options.linger,
                       claim_after=options.claim_after, move_delay=delay)
    lines = {"host": [], "guest": []}
    host = NetPeer.host(HOST_ID, "Hana", get_game("pagode"), tmp_path / "host", player=make_bot("random", 1),
                        options=opts, say=lines["host"].append)
    guest = NetPeer.guest(GUEST_ID, "Gus", tmp_path / "guest", player=make_bot("random", 2), options=opts,
                          say=lines["guest"].append)
    return host, guest, lines


async def start_host(host: NetPeer, accept=None) -> tuple[asyncio.Task, int]:
    task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False, accept=accept))
    while "port" not in host.files.meta:
        await asyncio.sleep(0.01)
    return task, host.files.meta["port"]


def assert_finished_alike(host: NetPeer, guest: NetPeer) -> None:
    a, b = logs_of(host, guest)
    assert a == b and len(a) > 50
    # the log replays on its own: every signature, move and fair step checks out
    s = Session.replay(a, HOST_ID.public, Path(str(host.files.stem) + ".seed").read_bytes())
    assert s.phase == "over"
    assert open_entry(a[-1]).kind == "end"


async def test_a_whole_game_over_tcp_ends_with_identical_logs_and_no_intruder_gets_in(tmp_path):
    host, guest, lines = make_pair(tmp_path, delay=0.002)
    task, port = await start_host(host)
    play = asyncio.create_task(guest.run_guest((LOCAL, port), game="pagode"))
    while len(guest.session.chain) < 5:
        await asyncio.sleep(0.005)
    # a third peer, mid-game: no seat for it, and it cannot pass for the guest
    with pytest.raises(Declined, match="the table is full"):
        await ask(LOCAL, port, EVE_ID, "Eve", join_request("pagode", "standard", 2))
    with pytest.raises(Declined, match="you hold no seat"):
        await ask(LOCAL, port, EVE_ID, "Gus", resume_request(host.table_id, 5))
    with pytest.raises(Declined, match="no such game"):
        await ask(LOCAL, port, EVE_ID, "Gus", resume_request(b"x" * 32, 5))
    await asyncio.wait_for(play, 60)
    await asyncio.wait_for(task, 30)
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
    play = asyncio.create_task(guest.run_guest((LOCAL, proxy_port), game="pagode"))
    for cut_at in (40, 120):
        while len(guest.session.chain) < cut_at and not guest.session.over:
            await asyncio.sleep(0.01)
        proxy.cut()
    await asyncio.wait_for(play, 60)
    await asyncio.wait_for(task, 30)
    assert_finished_alike(host, guest)
    assert proxy.connections >= 3
    assert sum("resume request" in line for line in lines["host"]) >= 2


async def test_a_crashed_guest_restarts_from_its_files(tmp_path):
    host, guest, lines = make_pair(tmp_path, delay=0.01)
    task, port = await start_host(host)
    play = asyncio.create_task(guest.run_guest((LOCAL, port), game="pagode"))
    while len(guest.session.chain) < 60:
        await asyncio.sleep(0.01)
    play.cancel()  # the process dies: no goodbye, only what is on disk survives
    with pytest.raises(asyncio.CancelledError):
        await play
    guest.link and guest.link._writer.transport.abort()
    guest.files.close()
    [meta] = GameFiles.unfinished(tmp_path / "guest")
    again = NetPeer.from_files(GUEST_ID, meta, player=make_bot("random", 3), options=FAST,
                               say=lines["guest"].append)
    assert again.peer_key == HOST_ID.public and again.address == (LOCAL, port)
    await asyncio.wait_for(again.run_guest(), 60)
    await asyncio.wait_for(task, 30)
    assert_finished_alike(host, again)


async def test_an_absent_guest_lets_the_host_claim_the_game(tmp_path):
    opts = PeerOptions(link=FAST.link, reconnect_every=0.1, linger=0.5, claim_after=1.0)
    host, guest, lines = make_pair(tmp_path, opts, delay=0.01)
    task, port = await start_host(host)
    play = asyncio.create_task(guest.run_guest((LOCAL, port), game="pagode"))
    while len(guest.session.chain) < 40:
        await asyncio.sleep(0.01)
    play.cancel()
    with pytest.raises(asyncio.CancelledError):
        await play
    guest.link._writer.transport.abort()  # gone for good
    await asyncio.wait_for(task, 30)
    [log] = logs_of(host)
    last = open_entry(log[-1])
    assert last.kind == "abort" and last.author == HOST_ID.public and last.body["culprit"] == 1
    assert "sent nothing for 1 s" in last.body["reason"]
    assert any(line.startswith("claimed:") for line in lines["host"])


async def test_a_ui_plays_through_act_and_sees_the_session_events(tmp_path):
    """No bot on the host: a 'UI' watches the events and plays with NetPeer.act.

    The person thinks longer over a move than the claim time: linked and
    thinking is not gone, so nobody claims the game.
    """
    patient = PeerOptions(link=FAST.link, reconnect_every=0.1, linger=3.0, claim_after=0.5)
    host, guest, lines = make_pair(tmp_path, patient)
    host.player = None
    events = []
    host.on_events = events.extend
    bot = make_bot("greedy", 7)
    asked = []

    async def dialog(request):  # a person reads the safety code, then clicks
        asked.append((request.peer.name, request.safety_code))
        await asyncio.sleep(0.01)
        return request.peer.key != EVE_ID.public

    task, port = await start_host(host, accept=dialog)
    with pytest.raises(Declined, match="Hana declined: the host declined"):
        await ask(LOCAL, port, EVE_ID, "Eve", join_request("pagode", "standard", 2))
    play = asyncio.create_task(guest.run_guest((LOCAL, port), game="pagode"))
    moves = 0
    while not host.session.over:
        if host.session.my_turn:
            s = host.session
            if moves == 3:
                await asyncio.sleep(1.5)  # three claim times
            await host.act(bot.choose(s.game, s.view, s.my_seat))
            moves += 1
        else:
            await asyncio.sleep(0.002)
    await asyncio.wait_for(play, 60)
    await asyncio.wait_for(task, 30)
    assert_finished_alike(host, guest)
    assert [name for name, _ in asked] == ["Eve", "Gus"]
    assert asked[1][1] == safety_code(HOST_ID.public, GUEST_ID.public)
    kinds = {type(e).__name__ for e in events}
    assert {"TableSet", "Moved", "GameOver"} <= kinds and moves > 10
    with pytest.raises(IllegalAction, match="not our turn"):
        await host.act(("pass",))


class TamperingProxy(Proxy):
    """Forwards frames; on its n-th connection rewrites the DATA frame number ``at`` going to the guest."""

    def __init__(self, target_port: int, at: int, rewrites):
        super().__init__(target_port)
        self.at, self.rewrites = at, list(rewrites)

    async def _on(self, reader, writer):
        from protocol.net.framing import DATA, PREFACE, FrameDecoder, encode_frame
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
                        if frame.kind == DATA:
                            count += 1
                            if count == self.at and rewrite is not None:
                                payload = rewrite(payload)
                        writer.write(encode_frame(frame.kind, payload))
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()

        await asyncio.gather(up(), down())


def flip_a_signature_byte(raw: bytes) -> bytes:
    return raw[:-10] + bytes([raw[-10] ^ 1]) + raw[-9:]


def sign_as_a_stranger(raw: bytes) -> bytes:
    from protocol.log import seal
    e = open_entry(raw)
    return seal(EVE_ID, game=e.game, seq=e.seq, prev=e.prev, kind=e.kind, body=e.body).raw


async def test_bytes_injected_on_the_wire_drop_the_link_not_the_game(tmp_path):
    """A flipped signature byte, then an entry re-signed by a stranger: each costs a link, never the game."""
    host, guest, lines = make_pair(tmp_path)
    task, port = await start_host(host)
    proxy = TamperingProxy(port, at=30, rewrites=[flip_a_signature_byte, sign_as_a_stranger])
    proxy_port = await proxy.start()
    await asyncio.wait_for(guest.run_guest((LOCAL, proxy_port), game="pagode"), 60)
    await asyncio.wait_for(task, 30)
    assert proxy.connections == 3
    lost = [line for line in lines["guest"] if line.startswith("link lost: ")]
    assert lost[0].startswith("link lost: bytes not signed by the peer (entry ")
    assert lost[1].startswith("link lost: an entry signed by a stranger")
    assert_finished_alike(host, guest)  # the honest entries came again on the next link; nobody was blamed


async def test_a_host_restarted_before_anyone_joined_opens_its_table_again(tmp_path):
    host, guest, lines = make_pair(tmp_path)
    host.files.close()  # it crashed while waiting: only its hello is logged
    [meta] = GameFiles.unfinished(tmp_path / "host")
    again = NetPeer.from_files(HOST_ID, meta, player=make_bot("random", 4), options=FAST, say=lines["host"].append)
    assert again.peer_key is None and len(again.session.chain) == 1
    task, port = await start_host(again)
    await asyncio.wait_for(guest.run_guest((LOCAL, port), game="pagode"), 60)
    await asyncio.wait_for(task, 30)
    assert_finished_alike(again, guest)


def test_files_that_do_not_agree_are_a_one_line_resume_error(tmp_path):
    host, _, _ = make_pair(tmp_path)
    host.files.close()
    [meta] = GameFiles.unfinished(tmp_path / "host")
    data = json.loads(meta.read_text())
    meta.write_text(json.dumps(dict(data, table="00" * 32)))
    with pytest.raises(ResumeError, match="its log does not start with table 0000000000000000"):
        NetPeer.from_files(HOST_ID, meta, say=lambda line: None)
    meta.write_text("{not json")
    with pytest.raises(ResumeError, match="cannot resume .*JSONDecodeError"):
        NetPeer.from_files(HOST_ID, meta, say=lambda line: None)
    meta.write_text(json.dumps(data))
    meta.with_suffix(".log").unlink()
    with pytest.raises(ResumeError, match="cannot resume .*cannot read"):
        NetPeer.from_files(HOST_ID, meta, say=lambda line: None)
