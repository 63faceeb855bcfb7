"""How a code's link behaves on this machine: its times, and how long the event loop ever waits meanwhile.

``python -m bench.online`` starts a mailbox and a
transit relay of its own on 127.0.0.1 (:func:`local_servers`; the tests use
the same), links two sides by a code in this process, and prints:

* ``code_s``: from :func:`~.code.invite` to the code shown;
* ``connect_s``: from the code typed (:func:`~.code.accept`) to both links
  authenticated by Noise with the code's keys;
* ``move_rtt_ms``: the median round trip of a 200-byte message, through the relay;
* ``gap_ms``: per phase, the longest extra wait of a 10 ms timer on this loop
  (what a screen would freeze for), while the code is made, while it
  connects, and while 4 MB and the round trips flow.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from lanterne.protocol import identity as ids

from lanterne.protocol.net.invite import authenticate
from lanterne.protocol.net.online.code import accept, invite
from lanterne.protocol.net.online.servers import Servers

STARTED = re.compile(r"starting on (\d+)")


def start_server(*args: str, cwd: Path) -> tuple[subprocess.Popen, int]:
    """``twist ARGS`` on a free port of 127.0.0.1; returns the process and the port its log names."""
    proc = subprocess.Popen([sys.executable, "-m", "twisted", *args, "--port", "tcp:0:interface=127.0.0.1"],
                            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log = proc.stdout
    assert log is not None      # (a pipe)
    for line in log:      # the log is JSON lines; the listening one says "... starting on PORT"
        try:
            text = json.loads(line).get("log_text") or ""
        except (ValueError, AttributeError):
            text = line
        if m := STARTED.search(text):
            threading.Thread(target=lambda: [None for _ in log], daemon=True).start()  # never a full pipe
            return proc, int(m.group(1))
    raise RuntimeError(f"twist {args[0]} stopped before it listened (exit status {proc.wait()})")


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextmanager
def local_servers(folder: Path) -> Iterator[Servers]:
    """A mailbox and a transit relay on 127.0.0.1 for as long as the block runs."""
    mailbox, mailbox_port = start_server("wormhole-mailbox", "--channel-db", str(folder / "channels.sqlite"),
                                         cwd=folder)
    try:
        relay, relay_port = start_server("transitrelay", cwd=folder)
        try:
            yield Servers(mailbox=f"ws://127.0.0.1:{mailbox_port}/v1", relay=f"tcp:127.0.0.1:{relay_port}")
        finally:
            stop_server(relay)
    finally:
        stop_server(mailbox)


class Gaps:
    """A 10 ms timer on the running loop; the longest extra wait it saw in each phase."""

    def __init__(self, tick: float = 0.01):
        self.tick = tick
        self.phase = "idle"
        self.longest: dict[str, float] = {}
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(self.tick)
            now = time.perf_counter()
            self.longest[self.phase] = max(self.longest.get(self.phase, 0.0), now - last - self.tick)
            last = now

    def stop(self) -> dict[str, float]:
        self._task.cancel()
        return {phase: round(gap * 1000, 1) for phase, gap in self.longest.items()}


async def measure(servers: Servers, rounds: int = 50) -> dict:
    ann, bob = ids.Identity.generate(), ids.Identity.generate()
    gaps = Gaps()
    await asyncio.sleep(0.1)
    gaps.phase = "code"
    started = time.perf_counter()
    host = await invite(ann, servers, direct=False)
    code_s = time.perf_counter() - started
    gaps.phase = "connect"
    started = time.perf_counter()
    guest = await accept(await host.wait_code(), bob, servers, direct=False)
    async with host, guest:
        at_host, at_guest = await asyncio.gather(host.connected(), guest.connected())
        await asyncio.gather(authenticate(at_host.link, ann, "Ann", expect=at_host.peer_key),
                             authenticate(at_guest.link, bob, "Bob", expect=at_guest.peer_key))
        connect_s = time.perf_counter() - started
        gaps.phase = "bytes"
        chunk = bytes(64 * 1024)
        for _ in range(64):
            await at_guest.link.send(chunk)
        for _ in range(64):
            await at_host.link.recv()
        trips = []
        for _ in range(rounds):
            sent = time.perf_counter()
            await at_guest.link.send(bytes(200))
            await at_host.link.send(await at_host.link.recv())
            await at_guest.link.recv()
            trips.append(time.perf_counter() - sent)
        route = host.route
    return {"code_s": round(code_s, 3), "connect_s": round(connect_s, 3),
            "move_rtt_ms": round(statistics.median(trips) * 1000, 2), "route": route, "gap_ms": gaps.stop()}


def figures(runs: int = 3) -> dict[str, float]:
    """The medians over ``runs`` links on local servers: ``connect_s``, ``move_rtt_ms`` and ``pause_ms`` (the
    loop's longest pause while the code is made, while it connects and while the bytes flow)."""
    with tempfile.TemporaryDirectory() as folder, local_servers(Path(folder)) as servers:
        got = [asyncio.run(measure(servers)) for _ in range(runs)]
    pauses = [max(g["gap_ms"].get(phase, 0.0) for phase in ("code", "connect", "bytes")) for g in got]
    return {"connect_s": statistics.median(g["connect_s"] for g in got),
            "move_rtt_ms": statistics.median(g["move_rtt_ms"] for g in got), "pause_ms": statistics.median(pauses)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder, local_servers(Path(folder)) as servers:
        for _ in range(args.runs):
            print(json.dumps(asyncio.run(measure(servers))), flush=True)


if __name__ == "__main__":
    main()
