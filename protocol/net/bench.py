"""Network figures on 127.0.0.1, for ``lanterne bench`` (no root needed).

The same figures between two network namespaces (a real veth link, real
multicast) come from ``sudo .venv/bin/python -m tests.e2e.bench_net``.

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
  ``python -m lanterne.protocol.net.bench`` also measures it over a plaintext link,
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
    from lanterne.protocol.net.transport import bound_port, connect, serve

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
    from lanterne.protocol.net.transport import bound_port, connect, serve

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
