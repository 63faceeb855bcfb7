"""Network figures on 127.0.0.1, for ``lanterne bench`` (no root needed).

The same figures between two network namespaces (a real veth link, real
multicast) come from ``sudo .venv/bin/python -m bench.netns_lan``.

* :func:`listed_after_start_s`: a peer starts browsing while another
  already advertises; seconds until it is listed (median of 3).
* :func:`move_round_trip_ms`: a signed move entry sealed, framed, sent over
  an encrypted TCP link (secured as after the handshake), its signature
  checked, answered by a signed entry checked in turn (median of 300).
* :func:`handshake_cpu_ms`: CPU time of one link's Noise XX handshake,
  both sides in one process (three Noise messages, a fresh static key,
  each identity signed and checked), median of 200.
* :func:`move_encryption_overhead_ms`: what the link's encryption adds to a
  move: an entry signed, sealed into a record, framed, decoded, opened and
  its signature checked, minus the same without the record (median of 2000
  each, interleaved).
* :func:`pagode_deal_over_link_ms`: a two-peer Pagode game from the host's
  hello until the first move can be made (hello, table, genesis, the
  55-card shuffle and the deal by the fair table), both sessions in one
  process talking over one encrypted TCP link on 127.0.0.1: CPU time of
  the process (both peers, the link's work included), median of 5;
  ``python -m bench.net`` also measures it over a plaintext link,
  for what the encryption adds.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from lanterne.protocol.session.phases import Phase

LOCAL = "127.0.0.1"


async def _listed_once() -> float:
    from lanterne.protocol.net.discovery import Advert, Discovery

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
    from lanterne.protocol.identity import Identity
    from lanterne.protocol.log import open_entry, seal
    from lanterne.protocol.net.handshake import Handshake, run_locally
    from lanterne.protocol.net.tcp import bound_port, connect, serve

    host_id, guest_id = Identity.generate(), Identity.generate()
    guest_hs, host_hs = Handshake(guest_id, "Guest"), Handshake(host_id, "Host", initiator=False)
    run_locally(guest_hs, host_hs)

    async def answer(link):
        link.secure(host_hs.send_cipher, host_hs.recv_cipher)
        while True:
            entry = open_entry(await link.recv())
            reply = seal(host_id, game=entry.game, seq=entry.seq + 1, prev=entry.hash, kind="move",
                         body={"action": ["pass"], "digest": bytes(32)})
            await link.send(reply.raw)

    server = await serve(answer, LOCAL, 0)
    async with server:
        link = await connect(LOCAL, bound_port(server))
        link.secure(guest_hs.send_cipher, guest_hs.recv_cipher)
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


def handshake_cpu_ms(links: int = 200) -> float:
    from lanterne.protocol.identity import Identity
    from lanterne.protocol.net.handshake import Handshake, run_locally

    ana, bob = Identity.generate(), Identity.generate()
    times = []
    for _ in range(links):
        t = time.process_time()
        a, b = Handshake(ana, "Ana"), Handshake(bob, "Bob", initiator=False)
        run_locally(a, b)
        times.append(time.process_time() - t)
        assert a.done and b.done
    return statistics.median(times) * 1000


def _move_paths(moves: int) -> tuple[list[float], list[float]]:
    from lanterne.protocol.identity import Identity
    from lanterne.protocol.log import open_entry, seal
    from lanterne.protocol.net.framing import DATA, FrameDecoder, Opener, Sealer, encode_frame
    from lanterne.protocol.net.handshake import Handshake, run_locally

    me, peer = Identity.generate(), Identity.generate()
    a, b = Handshake(me, "Ana"), Handshake(peer, "Bob", initiator=False)
    run_locally(a, b)
    sealer, opener = Sealer(a.send_cipher), Opener(b.recv_cipher)
    plain_decoder, sealed_decoder = FrameDecoder(expect_preface=False), FrameDecoder(expect_preface=False)
    plain, sealed, prev = [], [], bytes(32)
    for i in range(moves):
        body = {"action": ["place", 3, 4, "b"], "digest": os.urandom(32)}
        t = time.perf_counter()
        entry = seal(me, game=b"g" * 32, seq=i, prev=prev, kind="move", body=body)
        frame = plain_decoder.feed(encode_frame(DATA, entry.raw))[0]
        got = open_entry(frame.payload)
        plain.append(time.perf_counter() - t)
        t = time.perf_counter()
        entry = seal(me, game=b"g" * 32, seq=i, prev=prev, kind="move", body=body)
        opened = opener.open(sealed_decoder.feed(sealer.seal(DATA, entry.raw))[0].payload)
        assert opened is not None       # (one record holds the whole entry)
        got = open_entry(opened.payload)
        sealed.append(time.perf_counter() - t)
        prev = got.hash
    return plain, sealed


def move_encryption_overhead_ms(moves: int = 2000) -> float:
    plain, sealed = _move_paths(moves)
    return max(0.0, statistics.median(sealed) - statistics.median(plain)) * 1000


async def _deal_over_link(seed: int, secure: bool = True) -> float:
    from lanterne.engines.registry import get_game
    from lanterne.protocol.log import open_entry
    from lanterne.protocol.memory import make_sessions
    from lanterne.protocol.net.handshake import Handshake, run_locally
    from lanterne.protocol.net.tcp import bound_port, connect, serve

    host, guest = make_sessions(get_game("pagode"), 2, f"deal-bench/{seed}")
    assert host.identity is not None and guest.identity is not None     # (every memory session signs)
    guest_hs, host_hs = Handshake(guest.identity, "Guest"), Handshake(host.identity, "Host", initiator=False)
    run_locally(guest_hs, host_hs)
    ready = asyncio.Event()
    sent = {host.public: 0, guest.public: 0}

    async def send_own(session, link) -> None:
        """What ``session`` wrote itself since the last call (the other seat has the rest)."""
        for entry in session.chain[sent[session.public]:]:
            if entry.author == session.public:
                await link.send(entry.raw)
        sent[session.public] = len(session.chain)

    async def carry(session, link, sender: bytes) -> None:
        while not ready.is_set():
            session.receive(open_entry(await link.recv()), sender=sender)
            await send_own(session, link)
            if session.phase == Phase.PLAY and (host.my_turn or guest.my_turn):
                ready.set()

    async def serve_guest(link) -> None:
        if secure:
            link.secure(host_hs.send_cipher, host_hs.recv_cipher)
        host.start()
        start[0] = time.process_time()
        await send_own(host, link)
        await carry(host, link, guest.public)
        await ready.wait()

    start = [0.0]
    server = await serve(serve_guest, LOCAL, 0)
    async with server:
        link = await connect(LOCAL, bound_port(server))
        if secure:
            link.secure(guest_hs.send_cipher, guest_hs.recv_cipher)
        await asyncio.wait_for(carry(guest, link, host.public), 60)
        spent = time.process_time() - start[0]
        await link.close()
    return spent


def pagode_deal_over_link_ms(runs: int = 5, secure: bool = True) -> float:
    return statistics.median(asyncio.run(_deal_over_link(seed, secure)) for seed in range(runs)) * 1000



# -- floods (what a stranger can make a host hold, and whether a seat gets back in meanwhile)

_HOST = """
import asyncio, sys, tempfile
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity
from lanterne.protocol.net.peer import Peer

async def main():
    peer = Peer.host(Identity.generate(), "Host", get_game("pueblo"), 2, tempfile.mkdtemp(), say=lambda line: None)
    task = asyncio.ensure_future(peer.run_host(["127.0.0.1"], 0, discover=False))
    while not peer.port:
        await asyncio.sleep(0.01)
    print(peer.port, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    task.cancel()

asyncio.run(main())
"""
FLOOD_SOURCES = [f"127.0.0.{i}" for i in range(2, 6)]
"""Where the flooding strangers connect from (all loopback)."""


def _rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def _under_flood(flood) -> float:
    """A host (a table waiting for its players, in a process of its own): its RSS at the height of
    ``flood(port)`` above its RSS when idle, in MiB."""
    import subprocess
    import sys

    host = subprocess.Popen([sys.executable, "-c", _HOST], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert host.stdin is not None and host.stdout is not None       # (both asked for as pipes)
    stdin, stdout = host.stdin, host.stdout
    try:
        port = int(await asyncio.get_running_loop().run_in_executor(None, stdout.readline))
        await asyncio.sleep(0.5)      # settled
        idle = _rss_mib(host.pid)
        most = idle
        task = asyncio.ensure_future(flood(port))
        while not task.done():
            most = max(most, _rss_mib(host.pid))
            await asyncio.sleep(0.02)
        task.result()
        return most - idle
    finally:
        stdin.close()
        host.kill()
        host.wait()


STRANGER_PATIENCE = 15.0
"""Seconds a flooding stranger waits for a host that stopped reading it, or for the end of its link, before it
gives up: a safety net, so that a host that stopped reading ends a flood in bounded time even if it never
closed the connection (tests/adversary/test_stopped_host.py shows that a stopping host closes them all)."""


async def flood_pings(port: int, source: str, pings: int) -> int:
    """One stranger: the preface, then ``pings`` plaintext PINGs, never reading, then it waits for the host to
    end the link; how many went out."""
    import socket

    from lanterne.protocol.net.framing import PING, PREFACE, encode_frame

    try:
        reader, writer = await asyncio.open_connection(LOCAL, port, local_addr=(source, 0))
    except OSError:
        return 0
    writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    transport = writer.transport
    assert isinstance(transport, asyncio.ReadTransport)     # (a TCP connection's transport reads and writes)
    transport.pause_reading()
    batch, sent = encode_frame(PING, b"flooding") * 500, 0
    try:
        writer.write(PREFACE)
        while sent < pings and not writer.transport.is_closing():
            writer.write(batch)
            await asyncio.wait_for(writer.drain(), STRANGER_PATIENCE)   # a host that stopped reading: back-pressure
            sent += 500
        transport.resume_reading()   # the flood is out: wait for the host to end the link
        while await asyncio.wait_for(reader.read(65536), STRANGER_PATIENCE):
            pass
    except (ConnectionError, OSError, asyncio.TimeoutError):
        pass
    writer.transport.abort()
    return sent


def ping_flood_rss_mib(connections: int = 100, pings: int = 20_000) -> float:
    """RSS above idle of a host while 4 addresses each open ``connections`` connections, one after the other,
    each sending up to ``pings`` PINGs and never reading (a flood of a fixed size, 4 x 100 x 260 kB offered)."""
    async def flood(port: int) -> None:
        async def one_address(source: str) -> None:
            for _ in range(connections):
                await flood_pings(port, source, pings)
        await asyncio.gather(*(one_address(s) for s in FLOOD_SOURCES))
    return asyncio.run(_under_flood(flood))


async def _hold_slots(port: int, sources: list[str], seconds: float) -> int:
    """Connections from ``sources`` that send nothing and connect again as soon as they are closed or
    turned away, for ``seconds``; how many connections were opened."""
    opened = 0
    stop = time.monotonic() + seconds

    async def hold(source: str) -> None:
        nonlocal opened
        while time.monotonic() < stop:
            try:
                reader, writer = await asyncio.open_connection(LOCAL, port, local_addr=(source, 0))
            except OSError:
                return
            opened += 1
            try:
                await asyncio.wait_for(reader.read(), max(0.01, stop - time.monotonic()))
            except (ConnectionError, OSError, asyncio.TimeoutError):
                pass
            writer.transport.abort()
            await asyncio.sleep(0.005)
    await asyncio.gather(*(hold(source) for source in sources))
    return opened


SLOT_FLOOD = ["127.0.0.2"] * 24 + [f"127.0.0.{i}" for i in range(3, 9) for _ in range(4)]
"""The slot flood: 24 connections from one address, 4 from each of six more (all loopback)."""


def slot_flood_rss_mib(seconds: float = 6.0) -> float:
    """RSS above idle of a host while :data:`SLOT_FLOOD` holds its slots for ``seconds`` (past one
    deadline before the proof, so the slots turn over once)."""
    return asyncio.run(_under_flood(lambda port: _hold_slots(port, SLOT_FLOOD, seconds)))


async def _back_in() -> float:
    import tempfile
    from dataclasses import replace

    from lanterne.engines.bots import make_bot
    from lanterne.engines.registry import get_game
    from lanterne.protocol.identity import Identity
    from lanterne.protocol.net.events import Linked
    from lanterne.protocol.net.peer import Peer, PeerOptions

    options = replace(PeerOptions(), move_delay=0.5)
    folder = tempfile.mkdtemp()
    host = Peer.host(Identity.generate(), "Host", get_game("pueblo"), 2, f"{folder}/host",
                     player=make_bot("random", 1), options=options, say=lambda line: None)
    guest = Peer.guest(Identity.generate(), "Guest", f"{folder}/guest", player=make_bot("random", 2),
                       options=options, say=lambda line: None)
    linked: list[float] = []
    host.on_peer_event = lambda e: linked.append(time.perf_counter()) if isinstance(e, Linked) else None
    tasks = [asyncio.ensure_future(host.run_host([LOCAL], 0, discover=False))]
    try:
        while not host.port:
            await asyncio.sleep(0.01)
        tasks.append(asyncio.ensure_future(guest.run_guest((LOCAL, host.port), [LOCAL], game="pueblo")))
        while not (host.session is not None and len(host.session.chain) >= 6 and linked):
            await asyncio.sleep(0.01)
        flood = asyncio.ensure_future(_hold_slots(host.port, SLOT_FLOOD, 30.0))
        while host.door.count() - host.door.in_reserve < host.door.shared or host.door.refused < 20:
            await asyncio.sleep(0.01)
        seen = len(linked)
        dropped = time.perf_counter()
        guest.links[host.me.public]._writer.transport.abort()
        while len(linked) == seen:
            await asyncio.sleep(0.005)
        flood.cancel()
        return linked[seen] - dropped
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def back_in_during_slot_flood_s() -> float:
    """Seconds from a seated guest's link dropping until the host links with it again, while
    :data:`SLOT_FLOOD` keeps every shared slot of the host full (its reconnect interval is 0.5 s)."""
    return asyncio.run(_back_in())


if __name__ == "__main__":
    print(f"handshake CPU per link (both sides): {handshake_cpu_ms():.3f} ms")
    plain, sealed = _move_paths(2000)
    print(f"move: plaintext path {statistics.median(plain) * 1000:.3f} ms, encrypted "
          f"{statistics.median(sealed) * 1000:.3f} ms, overhead {move_encryption_overhead_ms():.4f} ms")
    print(f"listed after start: {listed_after_start_s():.3f} s")
    print(f"signed move round trip: {move_round_trip_ms():.3f} ms")
    plain_ms, sealed_ms = pagode_deal_over_link_ms(11, secure=False), pagode_deal_over_link_ms(11)
    print(f"Pagode deal over one link (CPU, both peers): plaintext {plain_ms:.1f} ms, encrypted {sealed_ms:.1f} ms "
          f"({(sealed_ms / plain_ms - 1) * 100:+.1f} %)")
