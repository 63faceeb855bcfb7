"""Fuzzing anyone can run: ``python -m lanterne.protocol.fuzz --inputs N [--seed S]``.

Hostile inputs go to every reader of untrusted bytes:

- **session**: real two-seat games of each of the four games are played
  (random players, deterministic keys); at several points of each (setup,
  genesis, play, the end) a seat's session is rebuilt from the log and fed
  the next entry mutated: bytes flipped, cut, inserted or spliced, and
  envelopes *re-signed* with a real key of the table (another body, kind,
  sequence number or previous hash; an ``abort`` or ``replace`` at an old
  place), so the checks behind the signature are reached;
- **handshake**: the Noise XX handshake of a link
  (:class:`~protocol.net.handshake.Handshake`): real Noise messages 1, 2
  and 3 with bytes flipped, cut, inserted or spliced, each into the side
  that expects it; messages 2 and 3 properly encrypted by a real Noise peer
  around a hostile identity payload (mutated fields, random values, a
  signature over another static key), so the checks behind the encryption
  are reached; mutated encrypted records into the
  :class:`~protocol.net.framing.Opener` of a finished handshake; and
  mutated and random messages into :func:`~protocol.net.handshake.decode`;
- **frames**: random and mutated byte streams into
  :class:`~protocol.net.framing.FrameDecoder` (pre-authentication limit and
  the full one), fed in random chunks;
- **log**: byte-mutated log files through :func:`protocol.log.parse_log` and
  :func:`protocol.verify.verify_entries`, and logs with one entry's body
  replaced and the chain after it re-signed by the real keys.

The documented errors are one line each: ``ProtocolError`` (and its kinds:
``WireError``, ``SchemaError``, ``SignatureError``, ``HandshakeError``),
``FrameError`` and ``LogFormatError``; ``verify`` returns a report and raises
nothing. Anything else, or a documented error over more than one line, is a
*crash*; an input that takes over 1 s of CPU time is a *hang* (and one still
running after 10 s of wall time is stopped and counted as a hang). CPU time,
not wall time: on a shared machine a busy neighbour can stretch any input
past 1 s of wall time (the slowest wall time is reported too). The
report is one line; each crash or hang adds a line with the input's hex. The
exit status is 1 if there was any crash or hang.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import Game
from lanterne.protocol.identity import Identity
from lanterne.protocol.log import ENVELOPE_DOMAIN, MAGIC, Entry, LogFormatError, open_entry, parse_log
from lanterne.protocol.memory import make_sessions, play
from lanterne.protocol.net.framing import DATA, DEFAULT_MAX_FRAME, PREFACE, FrameDecoder, FrameError, Opener, Sealer, encode_frame
from lanterne.protocol.net.handshake import (NOISE_PROTOCOL, SCHEMAS as HANDSHAKE_SCHEMAS, STATIC_DOMAIN, Handshake,
                                             HandshakeError, decode as decode_handshake, run_locally)
from lanterne.protocol.session import Session
from lanterne.protocol.verify import verify_entries
from lanterne.protocol.wire import ProtocolError, pack

GAMES = ("pacal", "pagode", "pandoria", "pueblo")
HANG = 1.0
"""Seconds one input may take before it counts as a hang."""
STOP = 10.0
"""Seconds after which an input is interrupted (and counted as a hang)."""
KINDS = ["hello", "table", "genesis", "move", "abort", "claim", "replace", "agree", "refuse", "end", "fair_final",
         "fair_keys", "fair_shuffle", "fair_lock", "fair_open", "x"]
SHARES = (("session", 0.5), ("handshake", 0.15), ("frames", 0.15), ("log", 0.2))


def games(game_id: str) -> Game:
    """The registry's games, and High card (the tests' tiny game)."""
    from lanterne.engines.example import GAME as HIGHCARD
    from lanterne.engines.registry import get_game

    return HIGHCARD if game_id == HIGHCARD.id else get_game(game_id)


def _sent(message: bytes | None) -> bytes:
    """A handshake message the side in hand sends at this step."""
    if message is None:
        raise HandshakeError("handshake: no message where the step sends one")
    return message


# --------------------------------------------------------------------------- mutations


def random_value(rng: random.Random, depth: int = 0) -> Any:
    """Plain data of every shape: what a hostile peer may sign as a body."""
    r = rng.random()
    if depth > 3 or r < 0.4:
        return rng.choice([None, True, False, rng.randint(-2**63, 2**64 - 1), rng.randint(-5, 300),
                           "".join(chr(rng.randint(32, 0x2FF)) for _ in range(rng.randint(0, 12))),
                           rng.randbytes(rng.choice([0, 1, 31, 32, 33, 64]))])
    if r < 0.7:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    keys = ["seat", "key", "name", "scores", "evidence", "reason", "culprit", "seed", "seats", "names", "game",
            "variant", "players", "options", "action", "digest", "proof", "nonce", "versions", "replace", "claim", "seat",
            "x"]
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randint(0, 8))}


def mutate_value(rng: random.Random, value: Any) -> Any:
    """``value`` with one field (at any depth) replaced, dropped or added; or a random value."""
    if isinstance(value, dict) and value and rng.random() < 0.85:
        out = dict(value)
        key = rng.choice(list(out))
        r = rng.random()
        if r < 0.5:
            out[key] = mutate_value(rng, out[key]) if rng.random() < 0.5 else random_value(rng)
        elif r < 0.7:
            del out[key]
        else:
            out[rng.choice(["x", key + "?", "evidence", "seat", "seats"])] = random_value(rng)
        return out
    if isinstance(value, list) and value and rng.random() < 0.8:
        items = list(value)
        i = rng.randrange(len(items))
        if rng.random() < 0.7:
            items[i] = mutate_value(rng, items[i]) if rng.random() < 0.5 else random_value(rng)
        else:
            del items[i]
        return items
    return random_value(rng)


def mutate_bytes(rng: random.Random, raw: bytes) -> bytes:
    b = bytearray(raw)
    if not b:
        return rng.randbytes(rng.randint(1, 16))
    op = rng.randrange(5)
    if op == 0:
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    elif op == 1:
        b = b[:rng.randrange(len(b))]
    elif op == 2:
        i = rng.randrange(len(b) + 1)
        b[i:i] = rng.randbytes(rng.randint(1, 8))
    elif op == 3:
        i, j = sorted(rng.randrange(len(b)) for _ in range(2))
        del b[i:j + 1]
    else:
        i = rng.randrange(len(b))
        b[i] = rng.choice([0x00, 0x7F, 0x80, 0x90, 0xC0, 0xC1, 0xFF, 0xDD, 0xDF, 0xC4, 0xD9, 0xCF])
    return bytes(b)


def sign(signer: Identity, fields: dict) -> bytes:
    """An envelope of ``fields`` (all but ``sig``) signed by ``signer``: a real signature on hostile content."""
    return pack({**fields, "sig": signer.sign(ENVELOPE_DOMAIN, pack(fields))})


def fields_of(entry: Entry) -> dict:
    return {"v": entry.v, "game": entry.game, "seq": entry.seq, "prev": entry.prev, "author": entry.author,
            "kind": entry.kind, "body": entry.body}


# --------------------------------------------------------------------------- corpus


@dataclass
class Played:
    """One finished game: its log, and every seat's identity and seed."""

    game: str
    raws: list[bytes]
    identities: dict[bytes, Identity]
    seeds: dict[bytes, bytes]


def play_game(game_id: str, seed: int) -> Played:
    sessions = make_sessions(games(game_id), 2, f"fuzz/{game_id}/{seed}", games=games, on_gone="computer")
    play(sessions, [RandomBot(f"{seed}/{i}") for i in range(len(sessions))])
    signers = {s.public: s.identity for s in sessions if s.identity is not None}     # (every memory seat signs)
    return Played(game_id, [e.raw for e in sessions[0].chain], signers, {s.public: s.seed for s in sessions})


@dataclass
class Point:
    """A seat's session rebuilt at ``k`` entries, waiting for entry ``k`` (by another seat)."""

    played: Played
    k: int
    key: bytes
    session: Session | None = None

    def fresh(self) -> Session:
        if self.session is None:
            self.session = Session.from_log(self.played.raws[:self.k], self.played.identities[self.key],
                                            self.played.seeds[self.key], games=games)
        return self.session


def points_of(played: Played, rng: random.Random, count: int = 5) -> list[Point]:
    entries = [open_entry(raw) for raw in played.raws]
    n = len(entries)
    spots = {1, 2, 3, 4, n // 3, n // 2, (2 * n) // 3, n - 3, n - 1}
    spots |= {rng.randrange(2, n) for _ in range(count)}
    out = []
    for k in sorted(x for x in spots if 1 <= x < n):
        author = entries[k].author
        other = next(key for key in played.identities if key != author)
        out.append(Point(played, k, other))
    return out


# --------------------------------------------------------------------------- one input per target


class Fuzzer:
    def __init__(self, seed: int, quick: bool = False):
        self.rng = random.Random(seed)
        self.seed = seed
        self.corpus = [play_game(g, seed) for g in GAMES]
        self.points = [p for played in self.corpus for p in points_of(played, self.rng)]
        small = [play_game("highcard", seed)]
        self.logs: list[Played] = small + [
            Played(p.game, p.raws[:min(len(p.raws), 40)], p.identities, p.seeds) for p in self.corpus]
        if not quick:
            self.logs += [p for p in self.corpus if len(p.raws) <= 200]
        hs_a, hs_b = Identity.from_seed(b"fuzz/a"), Identity.from_seed(b"fuzz/b")
        self.hs_ids = (hs_a, hs_b)
        opening = _sent(Handshake(hs_a, "Al").opening())
        self.frames = [PREFACE + encode_frame(0, opening) + encode_frame(1, b"ping") + encode_frame(3, b"bye"),
                       PREFACE + encode_frame(0, self.corpus[0].raws[5]) + encode_frame(2, b"")]

    # each returns (input bytes, the call to run)
    def session(self) -> tuple[bytes, Callable[[], Any]]:
        rng = self.rng
        point = rng.choice(self.points)
        victim = point.fresh()
        entry = open_entry(point.played.raws[point.k])
        r = rng.random()
        if r < 0.35:
            frame = mutate_bytes(rng, entry.raw)
        else:
            fields = fields_of(entry)
            signer = point.played.identities[entry.author]
            choice = rng.random()
            if choice < 0.35:
                fields["body"] = mutate_value(rng, entry.body)
            elif choice < 0.55:
                fields["body"] = random_value(rng)
            elif choice < 0.85:          # an abort or a replace at an old, the current or a later place
                fields["kind"] = rng.choice(["abort", "replace", "claim", "agree", "refuse"])
                fields["seq"] = rng.choice([rng.randrange(max(point.k, 1)), point.k, point.k + 1])
                if fields["seq"] < point.k:
                    fields["prev"] = open_entry(point.played.raws[fields["seq"]]).prev
                fields["body"] = rng.choice([
                    random_value(rng), [random_value(rng)], {"reason": "x", "evidence": random_value(rng)},
                    {"reason": "x", "evidence": [random_value(rng), entry.raw]},
                    {"seat": rng.choice([0, 1, 2, -1, "0"]), "key": rng.randbytes(32), "name": "~ bot",
                     "scores": random_value(rng)}])
            else:
                fields["kind"] = rng.choice(KINDS)
                fields["seq"] = rng.choice([entry.seq, entry.seq + 1, max(entry.seq - 1, 0), rng.randint(0, 2**32)])
                fields["prev"] = rng.choice([entry.prev, bytes(32), rng.randbytes(32)])
                fields["body"] = mutate_value(rng, entry.body)
            if rng.random() < 0.1:        # signed by the other seat, naming itself
                signer = point.played.identities[point.key]
                fields["author"] = signer.public
            try:
                frame = sign(signer, fields)
            except (TypeError, ValueError):
                frame = mutate_bytes(rng, entry.raw)

        def run() -> None:
            try:
                victim.receive(open_entry(frame), sender=entry.author, on_error="raise")
            except ProtocolError:
                raise                        # refused: the session is left as it was
            except BaseException:
                point.session = None
                raise
            point.session = None             # accepted (a legal move, say): the next input starts afresh
        return frame, run

    def handshake(self) -> tuple[bytes, Callable[[], Any]]:
        rng = self.rng
        me, other = self.hs_ids
        r = rng.random()
        if r < 0.15:                      # a join, resume, accept... (they travel in records after the handshake)
            kind = rng.choice(list(HANDSHAKE_SCHEMAS))
            base = {"t": kind, **{name.rstrip("?"): random_value(rng) for name in HANDSHAKE_SCHEMAS[kind]
                                  if name != "t" and rng.random() < 0.8}}
            payload = pack(mutate_value(rng, base) if rng.random() < 0.5 else base) if rng.random() < 0.7 \
                else rng.randbytes(rng.choice([0, 1, 5, 40, 300, 5000]))
            expected = rng.sample(list(HANDSHAKE_SCHEMAS), rng.randint(1, 3))
            return payload, lambda: decode_handshake(payload, *expected)
        step = rng.choice([1, 2, 3])
        if r < 0.45:                      # a real Noise message with its bytes mutated
            return self._noise_bytes(step)
        if r < 0.85 and step != 1:        # a hostile identity, properly encrypted by a real Noise peer
            return self._noise_payload(step)
        return self._records()

    def _noise_bytes(self, step: int) -> tuple[bytes, Callable[[], Any]]:
        rng = self.rng
        me, other = self.hs_ids
        if step == 1:
            message = mutate_bytes(rng, _sent(Handshake(other, "Bea").opening()))
            return message, lambda: Handshake(me, "Al", initiator=False).receive(message)
        if step == 2:
            victim, peer = Handshake(me, "Al"), Handshake(other, "Bea", initiator=False)
            message = mutate_bytes(rng, _sent(peer.receive(_sent(victim.opening()))))
        else:
            peer, victim = Handshake(other, "Bea"), Handshake(me, "Al", initiator=False)
            message = mutate_bytes(rng, _sent(peer.receive(_sent(victim.receive(_sent(peer.opening()))))))

        def run() -> None:
            victim.receive(message)
        return message, run

    def _noise_payload(self, step: int) -> tuple[bytes, Callable[[], Any]]:
        from noise.connection import Keypair, NoiseConnection

        rng = self.rng
        me, other = self.hs_ids
        raw = NoiseConnection.from_name(NOISE_PROTOCOL)
        raw.set_keypair_from_private_bytes(Keypair.STATIC, rng.randbytes(32))
        raw.set_prologue(PREFACE)
        static = raw.noise_protocol.keypairs["s"].public_bytes
        signed_static = static if rng.random() < 0.8 else rng.randbytes(32)     # a relay's signature
        base = {"t": "id", "v": 2, "key": other.public, "name": "Bea",
                "sig": other.sign(STATIC_DOMAIN, signed_static)}
        choice = rng.random()
        if choice < 0.5:
            payload = pack(mutate_value(rng, base))
        elif choice < 0.65:
            payload = pack(random_value(rng))
        elif choice < 0.9:
            payload = mutate_bytes(rng, pack(base))
        else:
            payload = pack(base)
        if step == 2:
            raw.set_as_responder()
            raw.start_handshake()
            victim = Handshake(me, "Al", expect=other.public if rng.random() < 0.3 else None)
            raw.read_message(_sent(victim.opening()))
            message = bytes(raw.write_message(payload))
        else:
            raw.set_as_initiator()
            raw.start_handshake()
            victim = Handshake(me, "Al", initiator=False)
            raw.read_message(_sent(victim.receive(bytes(raw.write_message(b"")))))
            message = bytes(raw.write_message(payload))

        def run() -> None:
            victim.receive(message)
        return payload, run

    def _records(self) -> tuple[bytes, Callable[[], Any]]:
        rng = self.rng
        me, other = self.hs_ids
        initiator, responder = Handshake(me, "Al"), Handshake(other, "Bea", initiator=False)
        run_locally(initiator, responder)
        sealer = Sealer(initiator.send_cipher)
        good = [sealer.seal(DATA, rng.randbytes(rng.choice([0, 5, 300]))) for _ in range(3)]
        records = [FrameDecoder(expect_preface=False).feed(g)[0].payload for g in good]
        i = rng.randrange(3)
        choice = rng.random()
        if choice < 0.5:
            records[i] = mutate_bytes(rng, records[i])
        elif choice < 0.7:
            records.insert(i, records[max(i - 1, 0)])         # a replay
        elif choice < 0.85:
            records[0], records[-1] = records[-1], records[0]  # reordered
        else:
            records[i] = rng.randbytes(rng.choice([0, 1, 16, 17, 100]))
        opener = Opener(responder.recv_cipher, rng.choice([DEFAULT_MAX_FRAME, 64]))
        data = b"".join(records)

        def run() -> None:
            for record in records:
                opener.open(record)
        return data, run

    def frames_input(self) -> tuple[bytes, Callable[[], Any]]:
        rng = self.rng
        r = rng.random()
        if r < 0.6:
            data = mutate_bytes(rng, rng.choice(self.frames))
        elif r < 0.8:
            data = PREFACE + rng.randbytes(rng.choice([1, 4, 5, 9, 64, 600]))
        else:
            data = rng.randbytes(rng.choice([1, 8, 64]))
        limit = rng.choice([4096, DEFAULT_MAX_FRAME, 64])
        cuts = sorted(rng.randrange(len(data) + 1) for _ in range(rng.randint(0, 3)))

        def run() -> None:
            dec = FrameDecoder(limit)
            last = 0
            for cut in cuts + [len(data)]:
                dec.feed(data[last:cut])
                last = cut
        return data, run

    def log(self) -> tuple[bytes, Callable[[], Any]]:
        rng = self.rng
        played = rng.choice(self.logs)
        raws = list(played.raws)
        if rng.random() < 0.5:
            data = MAGIC + b"".join(len(r).to_bytes(4, "big") + r for r in raws)
            for _ in range(rng.randint(1, 3)):
                data = mutate_bytes(rng, data)
        else:                               # one entry's body changed, the chain after it re-signed by real keys
            entries = [open_entry(r) for r in raws]
            telling = [j for j, e in enumerate(entries) if e.kind in ("table", "replace", "claim", "abort", "end")]
            i = rng.choice(telling) if telling and rng.random() < 0.5 else rng.randrange(len(raws))
            fields = fields_of(entries[i])
            if rng.random() < 0.5 and entries[i].kind in ("table", "replace", "claim", "abort", "end"):
                fields["body"] = mutate_value(rng, fields["body"])
            elif rng.random() < 0.3:
                fields["kind"], fields["body"] = rng.choice(["table", "replace", "claim", "refuse", "abort", "end"]), \
                    random_value(rng)
            else:
                fields["body"] = mutate_value(rng, fields["body"])
            try:
                raws[i] = sign(played.identities[fields["author"]], fields)
                prev = open_entry(raws[i]).hash
                for j in range(i + 1, len(raws)):
                    later = fields_of(entries[j])
                    later["prev"] = prev
                    raws[j] = sign(played.identities[later["author"]], later)
                    prev = open_entry(raws[j]).hash
            except (TypeError, ValueError, ProtocolError):
                pass
            raws = raws[:rng.randint(i + 1, len(raws))] if rng.random() < 0.5 else raws
            data = MAGIC + b"".join(len(r).to_bytes(4, "big") + r for r in raws)

        def run() -> None:
            entries, tail = parse_log(data)
            report = verify_entries(entries, tail, games=games)
            if "\n" in report.problem:
                raise AssertionError(f"verify's problem is not one line: {report.problem[:200]!r}")
        return data, run


# --------------------------------------------------------------------------- running


ONE_LINE = (ProtocolError, FrameError, LogFormatError)


class _Stopped(Exception):
    pass


def _alarm(_signum: int, _frame: object) -> None:
    raise _Stopped()


@dataclass
class Result:
    inputs: int = 0
    by_target: dict[str, int] = field(default_factory=dict)
    crashes: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    slowest: float = 0.0
    slowest_wall: float = 0.0
    seconds: float = 0.0
    seed: int = 0

    @property
    def ok(self) -> bool:
        return not self.crashes and not self.hangs

    def line(self) -> str:
        targets = ", ".join(f"{name} {self.by_target.get(name, 0)}" for name, _ in SHARES)
        return (f"fuzz: {self.inputs} inputs ({targets}), {len(self.crashes)} crashes, {len(self.hangs)} hangs "
                f"over {HANG:g} s, slowest {self.slowest * 1000:.0f} ms CPU ({self.slowest_wall * 1000:.0f} ms wall), "
                f"{self.seconds:.1f} s (seed {self.seed})")


def run(inputs: int, seed: int = 1, quick: bool = False, out=None) -> Result:
    """Feed ``inputs`` hostile inputs; print a line per crash or hang to ``out``; return the result."""
    started = time.perf_counter()
    fuzzer = Fuzzer(seed, quick=quick)
    makers = {"session": fuzzer.session, "handshake": fuzzer.handshake, "frames": fuzzer.frames_input,
              "log": fuzzer.log}
    names = [name for name, _ in SHARES]
    weights = [w for _, w in SHARES]
    result = Result(seed=seed)
    use_alarm = hasattr(signal, "setitimer")
    old = signal.signal(signal.SIGALRM, _alarm) if use_alarm else None
    try:
        for n in range(inputs):
            target = fuzzer.rng.choices(names, weights)[0]
            data, call = makers[target]()
            t, cpu = time.perf_counter(), time.process_time()
            problem = None
            try:
                if use_alarm:
                    signal.setitimer(signal.ITIMER_REAL, STOP)
                try:
                    call()
                finally:
                    if use_alarm:
                        signal.setitimer(signal.ITIMER_REAL, 0)
            except _Stopped:
                problem = f"stopped after {STOP:g} s"
            except ONE_LINE as e:
                if not str(e) or "\n" in str(e):
                    problem = f"{type(e).__name__} not on one line: {str(e)[:200]!r}"
            except Exception as e:  # noqa: BLE001 - the point: anything else is a crash
                problem = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
            took, wall = time.process_time() - cpu, time.perf_counter() - t
            result.slowest = max(result.slowest, took)
            result.slowest_wall = max(result.slowest_wall, wall)
            result.inputs += 1
            result.by_target[target] = result.by_target.get(target, 0) + 1
            if problem is not None and not problem.startswith("stopped"):
                result.crashes.append(f"crash: {target} input {n}: {problem}; input {data.hex()}")
                print(result.crashes[-1], file=out or sys.stdout, flush=True)
            elif problem is not None or took > HANG:
                result.hangs.append(f"hang: {target} input {n}: {took:.2f} s CPU, {wall:.2f} s wall; "
                                    f"input {data.hex()}")
                print(result.hangs[-1], file=out or sys.stdout, flush=True)
    finally:
        if use_alarm:
            signal.signal(signal.SIGALRM, old)
    result.seconds = time.perf_counter() - started
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lanterne.protocol.fuzz", description=__doc__.split("\n\n")[0],
                                     epilog="exit status: 0 no crash and no hang, 1 otherwise")
    parser.add_argument("--inputs", type=int, default=10_000, help="how many hostile inputs (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and the mutations (default 1)")
    args = parser.parse_args(argv)
    result = run(args.inputs, args.seed)
    print(result.line())
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
