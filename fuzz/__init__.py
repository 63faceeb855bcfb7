"""Fuzzing anyone can run: ``python -m fuzz --inputs N [--seed S]``.

The inputs are built in :mod:`.inputs` (real games, mutations), fed in :mod:`.targets`; this module runs them.

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
import signal
import sys
import time
from dataclasses import dataclass, field

from lanterne.protocol.log import LogFormatError
from lanterne.protocol.net.framing import FrameError
from lanterne.protocol.wire import ProtocolError

from .targets import Fuzzer

HANG = 1.0
"""Seconds one input may take before it counts as a hang."""
STOP = 10.0
"""Seconds after which an input is interrupted (and counted as a hang)."""
SHARES = (("session", 0.5), ("handshake", 0.15), ("frames", 0.15), ("log", 0.2))


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
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.split("\n\n")[0],
                                     epilog="exit status: 0 no crash and no hang, 1 otherwise")
    parser.add_argument("--inputs", type=int, default=10_000, help="how many hostile inputs (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and the mutations (default 1)")
    args = parser.parse_args(argv)
    result = run(args.inputs, args.seed)
    print(result.line())
    return 0 if result.ok else 1

