"""Random and mutated frames fed to a live session: a ProtocolError each time, nothing else.

By default 10,000 frames (a few seconds); set LANTERNE_FUZZ_FRAMES=100000 for
the full run of the issue. Frames: random bytes, real frames with flipped,
cut, inserted or spliced bytes, random msgpack values, and envelopes properly
signed by the other seat but out of place or with garbage bodies. With
``on_error="raise"`` a rejected frame must leave the session unchanged, and
the game must still finish afterwards.
"""

from __future__ import annotations

import os
import random

from lanterne.engines.bots import RandomBot
from fuzz.inputs import mutate_bytes, random_value
from lanterne.protocol.log import FIRST_PREV, open_entry, seal
from lanterne.protocol.memory import Pipe
from lanterne.protocol.wire import ProtocolError, pack
from tests.protocol.helpers import highcard_sessions

FRAMES = int(os.environ.get("LANTERNE_FUZZ_FRAMES", "10000"))


ENVELOPE_KEYS = ("v", "game", "seq", "prev", "author", "kind", "body", "sig", "action", "digest", "proof", "x")


def _random_value(rng: random.Random):
    return random_value(rng, keys=ENVELOPE_KEYS)


def _session_waiting_for_its_opponent():
    sessions = highcard_sessions(2, "fuzz")
    pipe = Pipe(sessions)
    pipe.collect(0, sessions[0].start())
    bots = [RandomBot(1), RandomBot(2)]
    held = []

    def hold(src, dst, raw):
        if src == 1 and open_entry(raw).kind == "move" and not held:
            held.append(raw)
            return None
        return raw
    while not held:
        pipe.deliver(hold)
        i = next(i for i, s in enumerate(sessions) if s.my_turn)
        pipe.collect(i, sessions[i].act(bots[i].choose(sessions[i].game, sessions[i].view, i)))
        pipe.deliver(hold)
    return sessions, pipe, bots, held[0]


def test_random_and_mutated_frames_are_all_protocol_errors():
    sessions, pipe, bots, pending = _session_waiting_for_its_opponent()
    victim, other = sessions
    real = [e.raw for e in other.chain] + [pending]
    head = victim.head
    known = set(real) | {e.raw for e in victim.chain}
    rng = random.Random(20261121)
    kinds = {}
    for n in range(FRAMES):
        r = rng.random()
        if r < 0.25:
            frame = rng.randbytes(rng.choice([0, 1, 2, 5, 40, 200, 1000]))
        elif r < 0.7:
            frame = mutate_bytes(rng, rng.choice(real))
        elif r < 0.85:
            frame = pack(_random_value(rng))
        else:
            entry = open_entry(pending)
            body = rng.choice([_random_value(rng), {**entry.body, "action": _random_value(rng)},
                               {**entry.body, "digest": rng.randbytes(32)}])
            seq = rng.choice([entry.seq, entry.seq, entry.seq + 1, 0, rng.randint(0, 2**32)])
            prev = entry.prev if seq == entry.seq and rng.random() < 0.8 else rng.choice([FIRST_PREV, rng.randbytes(32)])
            kind = rng.choice(["move", "move", "fair_keys", "abortx", "end", "hello"])
            try:
                frame = seal(other.identity, game=entry.game, seq=seq, prev=prev, kind=kind, body=body).raw
            except (TypeError, ValueError):
                continue
        if frame in known:
            continue                              # a mutation that changed nothing: a harmless resend
        try:
            victim.receive(open_entry(frame), sender=other.public, on_error="raise")
        except ProtocolError as e:
            kinds[type(e).__name__] = kinds.get(type(e).__name__, 0) + 1
            assert str(e) and "\n" not in str(e)
        else:
            raise AssertionError(f"frame {n} was accepted: {frame[:80]!r}")
        assert victim.head == head and not victim.over
    assert sum(kinds.values()) >= FRAMES * 0.95, kinds
    # the real frame still goes through and the game finishes
    pipe.collect(0, victim.receive(open_entry(pending), sender=other.public))
    for _ in range(200):
        pipe.deliver()
        if all(s.over for s in sessions):
            break
        i = next(i for i, s in enumerate(sessions) if s.my_turn)
        pipe.collect(i, sessions[i].act(bots[i].choose(sessions[i].game, sessions[i].view, i)))
    assert victim.result == other.result and victim.result is not None and "Over" in type(victim.result).__name__


def test_frames_before_the_game_begins_are_protocol_errors():
    """The same against a host waiting for its guest and a guest waiting for the table."""
    host, guest = highcard_sessions(2, "fuzz-setup")
    host.start()
    hello = host.chain[0].raw
    guest.receive(host.chain[0], sender=host.public)
    guest_hello = guest.chain[-1].raw
    rng = random.Random(7)
    for victim, other, real in ((host, guest, [hello, guest_hello]), (guest, host, [hello, guest_hello])):
        head = victim.head
        known = set(real) | {e.raw for e in victim.chain}   # a mutation that changed nothing is the real frame
        for n in range(max(1, FRAMES // 10)):
            r = rng.random()
            if r < 0.3:
                frame = rng.randbytes(rng.choice([1, 3, 60, 300]))
            elif r < 0.8:
                frame = mutate_bytes(rng, rng.choice(real))
            else:                                   # signed by the peer, but wrong in place or content
                kind = rng.choice(["table", "genesis", "move", "hello"])
                seq = rng.choice([0, 1, 2, 3, 9])
                body = rng.choice([_random_value(rng), {"versions": [2], "name": "x"},
                                   {"game": "nope", "variant": "standard", "players": 2, "options": {},
                                    "seats": [host.public, guest.public], "names": ["a", "b"]}])
                frame = seal(other.identity, game=rng.choice([b"", bytes(32)]), seq=seq,
                             prev=rng.choice([FIRST_PREV, victim.head[1], rng.randbytes(32)]),
                             kind=kind, body=body).raw
            if frame in known:
                continue
            try:
                victim.receive(open_entry(frame), sender=other.public, on_error="raise")
            except ProtocolError as e:
                assert str(e) and "\n" not in str(e)
            else:
                raise AssertionError(f"frame {n} was accepted: {frame[:80]!r}")
            assert victim.head == head and not victim.over
