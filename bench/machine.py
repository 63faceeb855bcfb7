"""What machine a run measured on: figures from two machines can only be set side by side knowing both.

The project's machines are all "2 cores", yet one ran random Pagode games at 332 a second under load and
another at 162 to 198 quiet: the cores differ, and a virtual machine's host takes its share (steal). A run
says its processor, its cores, the load average before and after it, and a reference: the CPU time of a
fixed pure-Python loop (no library, no allocation beyond ints), the median of 5, so a reader can tell a slow
machine from a slow change. The reference is taken before and after the run: a virtual machine's core can
change speed within the hour (76 to 131 ms here, quiet both times), and a run whose two references differ
mixes two machines. ``python -m bench.machine`` prints it alone.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from dataclasses import dataclass
from typing import Callable

from lanterne.client.i18n import N_

REFERENCE_LOOPS = 2_000_000
"""Iterations of the reference loop: about 0.1 to 0.3 s on the project's machines."""


DESCRIPTION = N_("{processor}, {cores} cores, load {load}; reference loop {reference} ms of CPU "
                 "(`python -m bench.machine`: lower is a faster core)")


def reference_ms(runs: int = 5) -> float:
    """The median CPU milliseconds of ``runs`` runs of a fixed loop: the interpreter's speed on this core."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        total = 0
        for i in range(REFERENCE_LOOPS):
            total += i & 7
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def processor() -> str:
    """The processor's model name (Linux's /proc/cpuinfo), else what ``platform`` knows, else "unknown"."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    return " ".join(line.partition(":")[2].split())
    except OSError:
        pass
    return platform.processor() or "unknown"


def cores() -> int:
    """The cores this process may run on (a container may be given fewer than the machine has)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def load() -> float | None:
    """The 1-minute load average, or None where the system has none."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


@dataclass(frozen=True)
class Machine:
    processor: str
    cores: int
    reference_ms: float
    load_before: float | None
    load_after: float | None = None
    reference_after_ms: float | None = None

    def finished(self) -> "Machine":
        """The same machine at the end of the run: its load average, and its reference again."""
        after = load()   # read before the reference loop adds to it
        return Machine(self.processor, self.cores, self.reference_ms, self.load_before, after, reference_ms())

    def describe(self, say: Callable[[str], str] = str) -> str:
        """One line, in the language ``say`` translates to (English by default: the docs)."""
        loads = [f"{x:.1f}" for x in (self.load_before, self.load_after) if x is not None]
        references = [f"{x:.0f}" for x in (self.reference_ms, self.reference_after_ms) if x is not None]
        return say(DESCRIPTION).format(processor=self.processor, cores=self.cores,
                                       load=" - ".join(loads) or "?", reference=" - ".join(references))


def this_machine() -> Machine:
    """This machine now: its load is read before the reference loop runs (which adds to it)."""
    before = load()
    return Machine(processor(), cores(), reference_ms(), before)


if __name__ == "__main__":
    print(this_machine().finished().describe())
