"""Benchmark: deal the 55-card Pagode deck between two peers on fair tables.

Run ``python -m bench.fair`` (or ``lanterne bench --only fair``). It measures the CPU time (both peers
together, in one process, messages through msgpack) of the shuffle passes,
the rekey and dealing 2 face-down cards to each seat, and splits it per seat.
The target is 30 ms of CPU or less.
"""

from __future__ import annotations

import argparse
import statistics
import time

from lanterne.engines.core import DEAL, SHUFFLE, TableOp

from lanterne.protocol.fair.driver import LocalTables
from lanterne.protocol.fair.table import FairTable

DECK = 55


def _timed_tables(tables: list[FairTable], spent: list[float]) -> None:
    """Wrap each table's methods to add its own CPU time to ``spent[seat]``."""
    for table in tables:
        for name in ("begin", "produce", "consume", "outcome"):
            method = getattr(table, name)

            def timed(*args, _method=method, _seat=table.seat, **kwargs):
                start = time.process_time()
                try:
                    return _method(*args, **kwargs)
                finally:
                    spent[_seat] += time.process_time() - start

            setattr(table, name, timed)


def deal_once(seed: int) -> tuple[float, list[float]]:
    """One deal: (total CPU seconds, CPU seconds per seat)."""
    local = LocalTables(bytes(32), 2, range(DECK), seed=seed)
    spent = [0.0, 0.0]
    _timed_tables(local.tables, spent)
    start = time.process_time()
    local.run(TableOp(SHUFFLE, "draw", tuple(range(DECK))))
    local.run(TableOp(DEAL, "draw", (0, 1), to=0))
    local.run(TableOp(DEAL, "draw", (2, 3), to=1))
    return time.process_time() - start, spent


def deal_pagode_ms(runs: int = 5) -> float:
    """The figure for ``lanterne bench`` (key fair.deal55): median CPU ms, both peers."""
    return statistics.median(deal_once(seed)[0] for seed in range(runs)) * 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    results = [deal_once(seed) for seed in range(args.runs)]
    totals = [t for t, _ in results]
    seats = [[s[i] for _, s in results] for i in range(2)]
    ms = lambda xs: f"median {statistics.median(xs) * 1e3:.1f} ms, best {min(xs) * 1e3:.1f} ms"  # noqa: E731
    print(f"55-card deck, 2 peers, shuffle + rekey + deal 4 cards ({args.runs} runs)")
    print(f"  both peers:  {ms(totals)}")
    for i, xs in enumerate(seats):
        print(f"  seat {i + 1} only: {ms(xs)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
