"""Network test helpers: fast options, fixed identities, and starting a table of real Peers on 127.0.0.1."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from lanterne.engines.bots import make_bot
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity
from lanterne.protocol.log import open_entry, read_log
from lanterne.protocol.net.peer import Peer, PeerOptions
from lanterne.protocol.net.transport import LinkOptions
from lanterne.protocol.session import Session
from lanterne.protocol.session.phases import Phase

from .clock import FakeClock
from .waiting import until

LOCAL = "127.0.0.1"
FAST = PeerOptions(link=LinkOptions(read_timeout=3.0, keepalive=0.5, connect_timeout=1.0),
                   reconnect_every=0.1, linger=3.0, spectators="everyone")
"""Real-time options for tests that run a whole game on the real clock (anyone may watch)."""
ON_A_FAKE_CLOCK = PeerOptions(link=LinkOptions(read_timeout=3600.0, keepalive=60.0, connect_timeout=1.0),
                              reconnect_every=0.1, linger=3.0)
"""Options for Peers on a :class:`FakeClock`: a link stays up through any jump of the clock a test makes (its
read timeout is longer), so advancing the clock past a claim time decides the claim and nothing else."""
IDS = [Identity.from_seed(f"mesh-{i}".encode()) for i in range(6)]
NAMES = ["Ana", "Bob", "Cy", "Dee", "Eve", "Fay"]


def fake(**changes) -> tuple[PeerOptions, FakeClock]:
    """Options for peers on a fake clock (with ``changes``), and that clock."""
    return dataclasses.replace(ON_A_FAKE_CLOCK, **changes), FakeClock()


def make_table(tmp_path: Path, game: str, players: int, options=FAST, bots=("random",), clock=None):
    lines = [[] for _ in range(players)]
    extra = {} if clock is None else {"clock": clock}
    host = Peer.host(IDS[0], NAMES[0], get_game(game), players, tmp_path / "p0",
                     player=make_bot(bots[0], 1), options=options, say=lines[0].append, **extra)
    guests = [Peer.guest(IDS[i], NAMES[i], tmp_path / f"p{i}", player=make_bot(bots[i % len(bots)], i + 1),
                         options=options, say=lines[i].append, **extra) for i in range(1, players)]
    return host, guests, lines


async def wait_port(peer: Peer) -> int:
    await until(lambda: peer.port, what="the peer listens")
    return peer.port


def seated(host: Peer) -> int:
    """How many joiners the host holds a seat for (all of them once the table is full)."""
    return host.seated_joiners()


async def start_table(host: Peer, guests: list[Peer], game: str) -> list[asyncio.Task]:
    """The host's task, then each guest's, seated in that order."""
    tasks = [asyncio.create_task(host.run_host([LOCAL], 0, discover=False))]
    port = await wait_port(host)
    for g in guests:
        tasks.append(asyncio.create_task(g.run_guest((LOCAL, port), [LOCAL], game=game)))
        await until(lambda: seated(host) >= len(tasks) - 1, what="the joiner is seated")
    return tasks


async def play(host: Peer, guests: list[Peer], game: str, timeout: float = 60):
    """Seat everyone in order and play to the end: every peer's session."""
    tasks = await start_table(host, guests, game)
    return await asyncio.wait_for(asyncio.gather(*tasks), timeout)


def logs_of(*peers: Peer) -> list[list[bytes]]:
    return [read_log(p.files.log_path)[0] for p in peers]


def assert_finished_alike(host: Peer, guest: Peer) -> None:
    """The two logs are the same whole game, and it replays on its own: every signature, move and fair step."""
    a, b = logs_of(host, guest)
    assert a == b and len(a) > 50
    s = Session.replay(a, host.me.public, Path(str(host.files.stem) + ".seed").read_bytes())
    assert s.phase == Phase.OVER
    assert open_entry(a[-1]).kind == "end"
