"""Every speed figure of docs/benchmarks.md, measured in one run.

A benchmark is a function returning one number per repetition; we report the
median of the repetitions, with its target and unit. Parts that are not built
yet are reported as such instead of failing the run.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Callable

from engines.bots import RandomBot
from engines.core import OpenTable, RulesError, play_out
from engines.registry import get_game


@dataclass(frozen=True)
class Benchmark:
    key: str
    what: str
    unit: str
    better: str  # "higher" or "lower"
    limit: float | None
    measure: Callable[[], float]
    repeat: int = 3

    @property
    def target(self) -> str:
        if self.limit is None:
            return "(none set)"
        return f"{'>=' if self.better == 'higher' else '<='} {self.limit:g}"


@dataclass
class Result:
    bench: Benchmark
    median: float | None
    samples: list[float]
    note: str = ""

    @property
    def meets(self) -> bool | None:
        if self.median is None or self.bench.limit is None:
            return None
        if self.bench.better == "higher":
            return self.median >= self.bench.limit
        return self.median <= self.bench.limit

    def to_json(self) -> dict:
        return {"key": self.bench.key, "what": self.bench.what, "unit": self.bench.unit,
                "target": self.bench.target, "median": self.median, "samples": self.samples,
                "meets_target": self.meets, "note": self.note}


def games_per_second(game_id: str, players: int, games: int, variant: str = "standard") -> Callable[[], float]:
    """Complete random games on the open table, on this core."""

    def measure() -> float:
        game = get_game(game_id)
        start = time.process_time()
        for g in range(games):
            bots = [RandomBot(f"bench/{g}/{i}") for i in range(players)]
            play_out(game, game.setup(players=players, variant=variant), OpenTable(f"bench/{g}"), bots)
        return games / (time.process_time() - start)

    return measure


def _measure(module: str, attr: str) -> Callable[[], float]:
    """A measurement that lives with the code it measures, imported only when run."""

    def measure() -> float:
        import importlib

        return getattr(importlib.import_module(module), attr)()

    return measure


BENCHMARKS: list[Benchmark] = [
    Benchmark("pagode.games", "Pagode: complete random games per second (one core)", "games/s",
              "higher", 200, games_per_second("pagode", 2, 100)),
    Benchmark("pueblo.games4", "Pueblo: complete random 4-player games per second", "games/s",
              "higher", None, games_per_second("pueblo", 4, 20)),
    Benchmark("pueblo.placements", "Pueblo: legal placements generated per second", "placements/s",
              "higher", None, _measure("engines.pueblo.bench", "placements_per_second")),
    Benchmark("pacal.games5", "Pacal's Rocket: complete random 5-player games per second", "games/s",
              "higher", None, games_per_second("pacal", 5, 20)),
    Benchmark("pandoria.games2", "Pandoria: complete random 2-player games per second", "games/s",
              "higher", None, games_per_second("pandoria", 2, 20)),
    Benchmark("pandoria.games4", "Pandoria: complete random 4-player games per second", "games/s",
              "higher", None, games_per_second("pandoria", 4, 10)),
    Benchmark("fair.deal55", "Dealing the 55-card Pagode deck for two peers (CPU)", "ms",
              "lower", 30, _measure("protocol.fair.bench", "deal_pagode_ms")),
    Benchmark("session.move", "Per-move overhead: sign + verify + apply", "ms",
              "lower", 0.5, _measure("protocol.bench", "move_overhead_ms")),
    Benchmark("session.verify", "Verifying a whole Pagode log", "ms",
              "lower", 100, _measure("protocol.bench", "verify_log_ms")),
    Benchmark("net.listed", "LAN: a starting peer lists one already advertising (127.0.0.1)", "s",
              "lower", 2.0, _measure("protocol.net.bench", "listed_after_start_s")),
    Benchmark("net.move_rtt", "LAN: signed move round trip over TCP (127.0.0.1)", "ms",
              "lower", 5.0, _measure("protocol.net.bench", "move_round_trip_ms")),
    Benchmark("tui.start", "App start to home screen", "s",
              "lower", 1.0, _measure("client.perf", "start_to_home_s")),
    Benchmark("tui.start.cpu", "App start to home screen, CPU time (load-independent)", "s",
              "lower", 1.0, _measure("client.perf", "start_to_home_cpu_s")),
    Benchmark("tui.redraw", "Board redraw after a move (Pagode)", "ms",
              "lower", 50, _measure("client.perf", "board_redraw_ms")),
]


def run(only: list[str] | None = None, progress: Callable[[str], None] | None = None) -> list[Result]:
    results = []
    for bench in BENCHMARKS:
        if only and not any(bench.key.startswith(o) for o in only):
            continue
        if progress:
            progress(bench.key)
        samples: list[float] = []
        note = ""
        try:
            for _ in range(bench.repeat):
                samples.append(float(bench.measure()))
        except RulesError as e:  # a game that cannot run here says why, the others go on
            note = str(e)
        median = statistics.median(samples) if samples else None
        results.append(Result(bench, median, samples, note))
    return results


def markdown_table(results: list[Result]) -> str:
    lines = ["| figure | median | target | met | reproduce |", "|---|---|---|---|---|"]
    for r in results:
        value = "—" if r.median is None else f"{r.median:.3g} {r.bench.unit}"
        met = {True: "yes", False: "**no**", None: "—"}[r.meets]
        if r.note:
            met = r.note
        lines.append(f"| {r.bench.what} | {value} | {r.bench.target} {r.bench.unit} | {met} |"
                     f" `lanterne bench --only {r.bench.key}` |")
    return "\n".join(lines)


BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def update_doc(path, results: list[Result]) -> None:
    """Replace the table between the markers of docs/benchmarks.md."""
    text = path.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    stamp = time.strftime("%Y-%m-%d", time.gmtime())
    path.write_text(f"{head}{BEGIN}\nMeasured {stamp} with `lanterne bench --write-docs` "
                    f"(median of the repetitions, this machine: 2 cores).\n\n"
                    f"{markdown_table(results)}\n{END}{tail}")
