"""Pagode's compiled build against its sources in CPU time, in pairs that share the machine's load of the moment.

Usage (from the repository root, after ``pip install -e .``)::

    .venv/bin/python tests/engines/build_pairs.py games|search PAIRS

starts two processes of this install, one on the compiled build and one with
``LANTERNE_PURE=1`` (engines/pagode/compiled.py), warms both, then has them
play the same work in turn ``PAIRS`` times, the order swapped every pair:
``games`` the 20 random games of the ``pagode.games`` row's first seeds,
``search`` three moves of the search player (``search_move_seconds`` of
engines/bots/bench.py). It prints the median of the per-pair ratios of CPU
time (sources over compiled) and its quartiles. On a machine shared with other
work, single timed runs of either build moved by 40 %; a pair's two halves
run seconds apart, so the ratio keeps less of the load. The load-independent
figure is the instruction count (tests/engines/instructions.py).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

WORK = {
    "games": """
from lanterne.engines.bots.simple import RandomBot
from lanterne.engines.core import OpenTable, play_out
from lanterne.engines.registry import get_game
game = get_game("pagode")
def work():
    start = time.process_time()
    for g in range(20):
        play_out(game, game.setup(players=2), OpenTable(f"bench/{g}"), [RandomBot(f"bench/{g}/{i}") for i in range(2)])
    return time.process_time() - start
""",
    "search": """
from lanterne.engines.bots.bench import search_move_seconds
def work():
    return sum(search_move_seconds("pagode", decisions=3))
""",
}

WORKER = """
import sys, time
from lanterne.engines.pagode import compiled
{work}
work()
print(compiled.BUILD, flush=True)
for line in sys.stdin:
    print(work(), flush=True)
"""

USAGE = "usage: tests/engines/build_pairs.py games|search PAIRS"


def main(argv: list[str]) -> int:
    try:
        kind, pairs = argv[1], int(argv[2])
    except (IndexError, ValueError):
        raise SystemExit(USAGE) from None
    if kind not in WORK or pairs < 1 or len(argv) > 3:
        raise SystemExit(USAGE)
    workers = {}
    for name, pure in (("compiled", "0"), ("sources", "1")):
        worker = subprocess.Popen([sys.executable, "-c", WORKER.format(work=WORK[kind])], text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=dict(os.environ, LANTERNE_PURE=pure))
        print(f"{name}: {worker.stdout.readline().strip()}")
        workers[name] = worker
    ratios = []
    for i in range(pairs):
        seconds = {}
        for name in ("compiled", "sources") if i % 2 == 0 else ("sources", "compiled"):
            workers[name].stdin.write("go\n")
            workers[name].stdin.flush()
            seconds[name] = float(workers[name].stdout.readline())
        ratios.append(seconds["sources"] / seconds["compiled"])
    for worker in workers.values():
        worker.stdin.close()
        worker.wait()
    low, _, high = statistics.quantiles(ratios, n=4) if pairs > 1 else (ratios[0],) * 3
    print(f"{kind}, {pairs} pairs: CPU time of the sources over the compiled build {statistics.median(ratios):.3f}"
          f" (quartiles {low:.3f}-{high:.3f}), load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
