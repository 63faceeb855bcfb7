"""Network figures on 127.0.0.1, for ``lanterne bench`` (no root needed).

The same figures between two network namespaces (a real veth link, real
multicast) come from ``sudo .venv/bin/python -m tests.e2e.bench_net``.

* :func:`listed_after_start_s`: a peer starts browsing while another
  already advertises; seconds until it is listed (median of 3).
* :func:`move_round_trip_ms`: a signed move entry sealed, framed, sent over
  a TCP link, its signature checked, answered by a signed entry checked in
  turn (median of 300).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time

LOCAL = "127.0.0.1"


async def _listed_once() -> float:
    from protocol.net.discovery import Advert, Discovery

    fp = "bench-" + os.urandom(6).hex()
    async with Discovery([LOCAL]) as host:
        await host.advertise(Advert("bench", fp, 40999))
        start = time.perf_counter()
        async with Discovery([LOCAL]) as joiner:
            await joiner.wait_for(lambda a: a.fingerprint == fp, timeout=10)
            return time.perf_counter() - start


def listed_after_start_s() -> float:
    return statistics.median(asyncio.run(_listed_once()) for _ in range(3))


async def _round_trips(moves: int) -> list[float]:
    from protocol.identity import Identity
    from protocol.log import open_entry, seal
    from protocol.net.transport import bound_port, connect, serve

    host_id, guest_id = Identity.generate(), Identity.generate()

    async def answer(link):
        while True:
            entry = open_entry(await link.recv())
            reply = seal(host_id, game=entry.game, seq=entry.seq + 1, prev=entry.hash, kind="move",
                         body={"action": ["pass"], "digest": bytes(32)})
            await link.send(reply.raw)

    server = await serve(answer, LOCAL, 0)
    async with server:
        link = await connect(LOCAL, bound_port(server))
        times, prev = [], bytes(32)
        for i in range(moves):
            t = time.perf_counter()
            entry = seal(guest_id, game=b"g" * 32, seq=2 * i, prev=prev, kind="move",
                         body={"action": ["place", 3, 4, "b"], "digest": os.urandom(32)})
            await link.send(entry.raw)
            prev = open_entry(await link.recv()).hash
            times.append(time.perf_counter() - t)
        await link.close()
    return times


def move_round_trip_ms(moves: int = 300) -> float:
    return statistics.median(asyncio.run(_round_trips(moves))) * 1000


if __name__ == "__main__":
    print(f"listed after start: {listed_after_start_s():.3f} s")
    print(f"signed move round trip: {move_round_trip_ms():.3f} ms")
