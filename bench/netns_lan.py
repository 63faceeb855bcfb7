"""Network benchmarks between two network namespaces (needs root).

    sudo .venv/bin/python -m bench.netns_lan [--rounds 5] [--moves 500]

* discovery: (a) a joiner starts browsing while the host already
  advertises: seconds until the host is listed; (b) the host starts
  advertising (probing included) while the joiner browses: seconds from
  the host's start until it is listed; (c) the whole ``lanterne join NAME``
  process (Python start-up included) until it prints the host as found.
* move round trip: a signed move entry (sealed, framed, encrypted into a
  record of a link secured by the real Noise XX handshake, sent over TCP
  between the namespaces, opened, signature checked) answered by a signed
  entry of the other peer, checked in turn; median and 95th percentile.
  Plus the bare PING/PONG round trip of the (encrypted) link.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import textwrap
import time
from pathlib import Path

from .netns import TestNetwork, output, unavailable_reason, wait_line

ADVERTISE = textwrap.dedent("""
    import asyncio, sys, time
    from lanterne.protocol.net.discovery import Advert, Discovery, TableHint
    async def main():
        async with Discovery([sys.argv[1]]) as d:
            print("start", time.time(), flush=True)
            await d.advertise(Advert("Host", sys.argv[2], 41000, table=TableHint("pagode")))
            print("advertised", time.time(), flush=True)
            await asyncio.sleep(float(sys.argv[3]))
    asyncio.run(main())
""")

BROWSE = textwrap.dedent("""
    import asyncio, sys, time
    from lanterne.protocol.net.discovery import Discovery
    async def main():
        print("browsing", time.time(), flush=True)
        start = time.time()
        async with Discovery([sys.argv[1]]) as d:
            await d.wait_for(lambda a: a.fingerprint == sys.argv[2], timeout=30)
            print("found", time.time(), time.time() - start, flush=True)
    asyncio.run(main())
""")

ECHO = textwrap.dedent("""
    import asyncio, sys
    from lanterne.protocol.identity import Identity
    from lanterne.protocol.log import open_entry, seal
    from lanterne.protocol.net.invite import authenticate
    from lanterne.protocol.net.tcp import serve
    me = Identity.generate()
    async def handler(link):
        await authenticate(link, me, "Host")
        n = 0
        while True:
            raw = await link.recv()
            entry = open_entry(raw)  # signature and schema checked
            n += 1
            reply = seal(me, game=entry.game, seq=entry.seq + 1, prev=entry.hash, kind="move",
                         body={"action": ["pass"], "digest": bytes(32)})
            await link.send(reply.raw)
    async def main():
        server = await serve(handler, sys.argv[1], 42424)
        print("up", flush=True)
        await asyncio.sleep(300)
    asyncio.run(main())
""")

MOVES = textwrap.dedent("""
    import asyncio, json, os, statistics, sys, time
    from lanterne.protocol.identity import Identity
    from lanterne.protocol.log import open_entry, seal
    from lanterne.protocol.net.invite import authenticate
    from lanterne.protocol.net.tcp import connect
    me = Identity.generate()
    async def main():
        link = await connect(sys.argv[1], 42424)
        await authenticate(link, me, "Guest")
        times, pings = [], []
        prev = bytes(32)
        for i in range(int(sys.argv[2])):
            t = time.perf_counter()
            entry = seal(me, game=b"g" * 32, seq=2 * i, prev=prev, kind="move",
                         body={"action": ["place", 3, 4, "b"], "digest": os.urandom(32)})
            await link.send(entry.raw)
            reply = open_entry(await link.recv())
            times.append(time.perf_counter() - t)
            prev = reply.hash
        for i in range(50):      # within the link's burst of answered PINGs (transport.PING_BURST)
            pings.append(await link.ping())
        await link.close()
        q = lambda xs, p: sorted(xs)[int(p * (len(xs) - 1))] * 1000
        print(json.dumps({"move_rtt_median_ms": round(statistics.median(times) * 1000, 3),
                          "move_rtt_p95_ms": round(q(times, 0.95), 3),
                          "ping_rtt_median_ms": round(statistics.median(pings) * 1000, 3)}), flush=True)
    asyncio.run(main())
""")


def figures(rounds: int = 5, moves: int = 500) -> dict:
    """Build two namespaces, measure every figure once; medians over ``rounds`` (discovery) and ``moves``.

    Needs root and ``ip`` (see :func:`unavailable_reason`); raises
    ``NetnsUnavailable`` when the namespaces cannot be made.
    """
    joiner_start, host_start, command = [], [], []
    with tempfile.TemporaryDirectory() as tmp, TestNetwork(2, Path(tmp)) as net:
        a, b = net.hosts
        for r in range(rounds):
            fp = f"bench-{r:04d}-a"
            adv = a.python("-c", ADVERTISE, a.address, fp, "8")
            wait_line(adv, "^advertised", 20)
            browse = b.python("-c", BROWSE, b.address, fp)
            found = wait_line(browse, "^found", 30)
            joiner_start.append(float(found.split()[2]))
            output(browse, 30)
            adv.kill()
            fp = f"bench-{r:04d}-b"
            browse = b.python("-c", BROWSE, b.address, fp)
            wait_line(browse, "^browsing", 20)
            adv = a.python("-c", ADVERTISE, a.address, fp, "3")
            started = float(wait_line(adv, "^start", 20).split()[1])
            found_at = float(wait_line(browse, "^found", 30).split()[1])
            host_start.append(found_at - started)
            output(browse, 30)
            adv.kill()
        for r in range(rounds):  # the whole `lanterne join NAME` process, Python start-up included
            adv = a.python("-c", ADVERTISE, a.address, f"bench-{r:04d}-c", "8")
            wait_line(adv, "^advertised", 20)
            t = time.time()
            join = b.lanterne("join", "Host", "--bot", "random", "--interface", b.address, "--wait", "20",
                              "--log-dir", str(b.home / "bench"))
            wait_line(join, "^found Host", 30)
            command.append(time.time() - t)
            join.kill()
            adv.kill()
        echo = a.python("-c", ECHO, a.address)
        wait_line(echo, "^up", 20)
        mover = b.python("-c", MOVES, a.address, str(moves))
        rtt = json.loads(wait_line(mover, r"^\{", 120))
        echo.kill()
    return {"listed_after_joiner_start_s_median": round(statistics.median(joiner_start), 3),
            "listed_after_host_start_s_median": round(statistics.median(host_start), 3),
            "join_command_lists_host_s_median": round(statistics.median(command), 3),
            "rounds": rounds, **rtt, "moves": moves}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=500)
    args = parser.parse_args()
    reason = unavailable_reason()
    if reason:
        print(f"skipped: {reason}")
        return 0
    print(json.dumps(figures(args.rounds, args.moves), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
