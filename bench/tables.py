"""N-peer figures over a full mesh of Peers on 127.0.0.1.

    .venv/bin/python -m bench.tables [--rounds 3] [--moves 150]

* deal: a 4-peer Pandoria table, from the host's hello until the first
  seat's move: genesis, the first-player roll and the setup's table ops
  (the card deck and the tile stack each locked and shuffled by every peer
  in seat order, then the opening deals unlocked by the keys of all other
  seats), every entry relayed to and checked by every peer.
* move: a 5-peer Pacal's Rocket game; for each seat move, the time from its
  author's ``act`` until the LAST of the four other peers has accepted it
  (received on some link, signature, chain place, legality and state digest
  checked). Median and 95th percentile.

All peers run in ONE process (one core): every figure includes the work of
all peers done one after the other, so it is an upper bound of what
separate machines see.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from lanterne.engines.bots import make_bot
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity
from lanterne.protocol.session import GameStarted, Moved

from lanterne.protocol.net.peer import Peer, PeerOptions
from lanterne.protocol.net.transport import LinkOptions

LOCAL = "127.0.0.1"
OPTIONS = PeerOptions(link=LinkOptions(read_timeout=20.0, keepalive=5.0, connect_timeout=3.0),
                      reconnect_every=0.1, linger=0.5)


async def _table(game: str, players: int, folder: Path, on_events) -> tuple[list[Peer], list[asyncio.Task]]:
    ids = [Identity.generate() for _ in range(players)]
    host = Peer.host(ids[0], "p1", get_game(game), players, folder / "p1", player=make_bot("random", 1),
                         options=OPTIONS, say=lambda line: None)
    peers = [host] + [Peer.guest(ids[i], f"p{i + 1}", folder / f"p{i + 1}", player=make_bot("random", i + 1),
                                     options=OPTIONS, say=lambda line: None) for i in range(1, players)]
    for i, peer in enumerate(peers):
        peer.on_events = (lambda events, i=i: on_events(i, events))
    tasks = [asyncio.create_task(host.run_host([LOCAL], 0, discover=False))]
    while not host.port:
        await asyncio.sleep(0.005)
    for guest in peers[1:]:
        tasks.append(asyncio.create_task(guest.run_guest((LOCAL, host.port), [LOCAL], game=game)))
        while host.seated_joiners() < len(tasks) - 1 and not host.seating.full.is_set():
            await asyncio.sleep(0.005)
    return peers, tasks


async def _stop(tasks: list[asyncio.Task]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def deal_once(game: str = "pandoria", players: int = 4) -> tuple[float, int]:
    """Seconds from the game's start until the first seat move, and the entries written meanwhile."""
    marks: dict[str, float] = {}
    done = asyncio.Event()

    def seen(i: int, events: list) -> None:
        if i != 0:
            return
        for ev in events:
            if isinstance(ev, GameStarted):
                marks.setdefault("start", time.perf_counter())
            elif isinstance(ev, Moved) and "start" in marks:
                marks.setdefault("move", time.perf_counter())
                done.set()

    with tempfile.TemporaryDirectory() as folder:
        hello = time.perf_counter()
        peers, tasks = await _table(game, players, Path(folder), seen)
        await asyncio.wait_for(done.wait(), 300)
        session = peers[0].session
        assert session is not None      # (a move was seen, so the game is under way)
        entries = next(e.seq for e in session.chain if e.kind == "move")
        await _stop(tasks)
    return marks["move"] - hello, entries


async def move_delivery(game: str = "pacal", players: int = 5, moves: int = 150) -> list[float]:
    """Per seat move: seconds from its author's act until every other peer accepted it."""
    written: dict[int, float] = {}
    accepted: dict[int, list[float]] = {}
    done = asyncio.Event()

    def seen(i: int, events: list) -> None:
        now = time.perf_counter()
        for ev in events:
            if isinstance(ev, Moved) and ev.entry >= 0:
                if ev.seat == i:
                    written[ev.entry] = now
                else:
                    got = accepted.setdefault(ev.entry, [])
                    got.append(now)
                    if len(got) == players - 1 and len(accepted) >= moves:
                        done.set()

    with tempfile.TemporaryDirectory() as folder:
        peers, tasks = await _table(game, players, Path(folder), seen)
        waiter = asyncio.ensure_future(done.wait())
        await asyncio.wait({*tasks, waiter}, timeout=600, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        await _stop(tasks)
    return [max(accepted[k]) - written[k] for k in written if len(accepted.get(k, ())) == players - 1]


def deal4_s() -> float:
    """Seconds from the host's hello to the first move of a 4-peer Pandoria table (a `lanterne bench` figure)."""
    return asyncio.run(deal_once("pandoria", 4))[0]


def move5_ms(moves: int = 150) -> float:
    """Median milliseconds, over ``moves`` moves of a 5-peer Pacal's Rocket game, until all 4 others accepted one."""
    delays = asyncio.run(move_delivery("pacal", 5, moves))
    if not delays:
        raise RuntimeError("no move reached all 4 other peers")
    return statistics.median(delays) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=150)
    args = parser.parse_args()
    deals = [asyncio.run(deal_once()) for _ in range(args.rounds)]
    print(f"deal, Pandoria 4 peers: median {statistics.median(d[0] for d in deals):.2f} s "
          f"(runs {', '.join(f'{d[0]:.2f}' for d in deals)}; {deals[0][1]} entries before the first move)")
    delays = asyncio.run(move_delivery(moves=args.moves))
    delays.sort()
    p95 = delays[int(0.95 * (len(delays) - 1))]
    print(f"move delivered and checked by all 4 others, Pacal's Rocket 5 peers: median "
          f"{statistics.median(delays) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms over {len(delays)} moves")


if __name__ == "__main__":
    main()
