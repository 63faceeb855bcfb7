"""Every speed figure of docs/benchmarks.md, measured in one run.

A benchmark is a function returning one number per repetition; we report the
median of the repetitions, with its target and unit. Each row's measurement is
a function of a module beside this one. A figure that cannot be measured here
(no root for network namespaces, a missing server package) raises
:class:`BenchUnavailable` and its row says why; a figure whose measurement
breaks says so too; either way the run goes on.
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable

from lanterne.client.i18n import C_, N_
from lanterne.client.local_play import HARD_MOVE_SECONDS
from lanterne.engines.bots import RandomBot
from lanterne.engines.core import OpenTable, RulesError, play_out
from lanterne.engines.registry import get_game

from . import netns
from .machine import Machine


class BenchUnavailable(Exception):
    """This figure cannot be measured on this machine; the message (one line) says why."""


@dataclass(frozen=True)
class Benchmark:
    key: str
    what: str
    unit: str
    better: str  # "higher" or "lower"
    limit: float
    """Every figure has a target; docs/benchmarks.md says where each comes from."""
    measure: Callable[..., float]
    repeat: int = 3
    game: str = ""
    """The game a ``{game}`` in :attr:`what` names."""
    per_repetition: bool = False
    """:attr:`measure` takes the repetition's number (0, 1, ...): the random-games rows play new games each one."""

    def words(self, say: Callable[[str], str] = str) -> str:
        """What the row measures, in the language ``say`` translates to (English by default: the docs)."""
        return say(self.what).format(game=self.game)

    @property
    def target(self) -> str:
        return f"{'>=' if self.better == 'higher' else '<='} {self.limit:g}"


@dataclass
class Result:
    bench: Benchmark
    median: float | None
    samples: list[float]
    note: str = ""
    failed: bool = False
    """The measurement broke (a bug), as opposed to being unavailable here."""

    @property
    def meets(self) -> bool | None:
        if self.median is None:
            return None
        if self.bench.better == "higher":
            return self.median >= self.bench.limit
        return self.median <= self.bench.limit

    @property
    def headroom(self) -> float | None:
        """How many times over the figure meets its target (under 1: it misses): a busy machine takes about
        half, so a row wants 2."""
        if self.median is None or self.median <= 0:
            return None
        return self.median / self.bench.limit if self.bench.better == "higher" else self.bench.limit / self.median

    def to_json(self) -> dict:
        return {"key": self.bench.key, "what": self.bench.words(), "unit": self.bench.unit,
                "target": self.bench.target, "median": self.median, "samples": self.samples,
                "meets_target": self.meets, "headroom": self.headroom, "note": self.note, "failed": self.failed}


def games_per_second(game_id: str, players: int, games: int, variant: str = "standard") -> Callable[[int], float]:
    """Complete random games on the open table, on this core.

    Repetition ``r`` plays the games of seeds ``bench/{g}`` for ``g`` from ``r * games`` to ``(r + 1) * games - 1``:
    new games each repetition, so that a memo an engine keeps from one game to the next is not flattered by
    games it has already seen (the same games every repetition made Pueblo's and Pacal's rows 10-20 % higher);
    the same games on every run, and the first repetition's are the games the row played before.

    A full collection first: otherwise the collector's pass over the whole app's objects (textual's,
    rich's: about 10 ms) lands in one repetition or another, a third of a 20-game Pueblo repetition.
    """

    def measure(repetition: int = 0) -> float:
        game = get_game(game_id)
        gc.collect()
        start = time.process_time()
        for g in range(repetition * games, (repetition + 1) * games):
            bots = [RandomBot(f"bench/{g}/{i}") for i in range(players)]
            play_out(game, game.setup(players=players, variant=variant), OpenTable(f"bench/{g}"), bots)
        return games / (time.process_time() - start)

    return measure


def _measure(module: str, attr: str, *args: Any, **kwargs: Any) -> Callable[[], float]:
    """A measurement of ``bench/<module>.py``, imported only when its row runs: ``--list`` and one row's run
    load none of the others (the client's, textual's and the network's modules)."""

    def measure() -> float:
        return getattr(importlib.import_module(f"{__package__}.{module}"), attr)(*args, **kwargs)

    return measure


NETNS_ROUNDS, NETNS_MOVES = 5, 500
_netns_run: dict[str, Any] = {}


def _shared(store: dict[str, Any], run: Callable[[], Any]) -> Any:
    """What ``run()`` gave the first row that asked, in this bench run: ONE run serves all its rows.

    The outcome is kept, failure included, so several rows cost one run (or one refusal).
    """
    if "figures" not in store:
        try:
            store["figures"] = run()
        except Exception as e:  # kept: the next rows report the same reason without a new run
            store["figures"] = e
    got = store["figures"]
    if isinstance(got, Exception):
        raise got
    return got


def _netns_figures() -> dict[str, float]:
    """The figures between two network namespaces, from one run of bench/netns_lan.py."""
    return _shared(_netns_run, lambda: _run_netns_bench())


def _run_netns_bench() -> dict[str, float]:
    return _between_namespaces(lambda: importlib.import_module(f"{__package__}.netns_lan").figures(NETNS_ROUNDS,
                                                                                                   NETNS_MOVES))


def _between_namespaces(run: Callable[[], Any]) -> Any:
    """``run()`` between network namespaces: BenchUnavailable says what is missing (root, ``ip``)."""
    reason = netns.unavailable_reason()
    if reason:
        raise BenchUnavailable(reason)
    try:
        return run()
    except netns.NetnsUnavailable as e:
        raise BenchUnavailable(str(e)) from None


def _netns(key: str) -> Callable[[], float]:
    return lambda: _netns_figures()[key]


_online_run: dict[str, Any] = {}
_online_netns_run: dict[str, Any] = {}


def _run_online_bench() -> dict[str, float]:
    """A code's link on a mailbox and a relay of our own on 127.0.0.1 (bench/online.py)."""
    for module in ("wormhole_mailbox_server", "wormhole_transit_relay"):
        if importlib.util.find_spec(module) is None:
            raise BenchUnavailable(f"needs {module} (pip install magic-wormhole-mailbox-server "
                                   "magic-wormhole-transit-relay)")
    from bench.online import figures

    return figures()


def _online(key: str) -> Callable[[], float]:
    return lambda: _shared(_online_run, _run_online_bench)[key]


def _online_first_move() -> float:
    """A game by code between two homes behind NAT (bench/netns_online.py)."""
    return _shared(_online_netns_run,
                   lambda: _between_namespaces(lambda: importlib.import_module(f"{__package__}.netns_online")
                                               .first_move_s()))


def _search_move(game_id: str, level: str = "normal") -> Benchmark:
    """A move of the search player at ``level``: the app promises one within 1 s of CPU at ``normal``, and gives
    ``hard`` up to ``HARD_MOVE_SECONDS`` (3 s)."""
    what = {"normal": N_("{game}: search player's move, `normal` uncapped, 2 players vs greedy (CPU time, 15 moves)"),
            "hard": N_("{game}: search player's move, `hard` uncapped, 2 players vs greedy (CPU time, 15 moves)")}
    return Benchmark("search.move." + game_id if level == "normal" else f"search.{level}.{game_id}", what[level],
                     "s", "lower", HARD_MOVE_SECONDS if level == "hard" else 1.0,
                     _measure("search", "median_search_move_s", game_id, level=level),
                     repeat=1, game=get_game(game_id).name)


BENCHMARKS: list[Benchmark] = [
    Benchmark("pagode.games", N_("Pagode: complete random games per second (one core)"), "games/s",
              "higher", 200, games_per_second("pagode", 2, 100), per_repetition=True),
    Benchmark("pueblo.games4", N_("Pueblo: complete random 4-player games per second"), "games/s",
              "higher", 150, games_per_second("pueblo", 4, 100), per_repetition=True),
    Benchmark("pueblo.placements", N_("Pueblo: legal placements generated per second"), "placements/s",
              "higher", 1e6, _measure("pueblo", "placements_per_second")),
    Benchmark("pacal.games5", N_("Pacal's Rocket: complete random 5-player games per second"), "games/s",
              "higher", 20, games_per_second("pacal", 5, 20), per_repetition=True),
    Benchmark("pandoria.games2", N_("Pandoria: complete random 2-player games per second"), "games/s",
              "higher", 70, games_per_second("pandoria", 2, 20), per_repetition=True),
    Benchmark("pandoria.games4", N_("Pandoria: complete random 4-player games per second"), "games/s",
              "higher", 100, games_per_second("pandoria", 4, 10), per_repetition=True),
    *(_search_move(g) for g in ("pagode", "pueblo", "pacal", "pandoria")),
    Benchmark("search.move.pandoria4",
              N_("{game}: search player's move, `normal` uncapped, 4 players vs greedy (CPU time, 15 moves)"),
              "s", "lower", 0.9, _measure("search", "median_search_move_s", "pandoria",
                                          players=4), repeat=1, game=get_game("pandoria").name),
    *(_search_move(g, "hard") for g in ("pagode", "pueblo", "pacal", "pandoria")),
    Benchmark("fair.deal55", N_("Dealing the 55-card Pagode deck for two peers (CPU)"), "ms",
              "lower", 30, _measure("fair", "deal_pagode_ms")),
    Benchmark("session.move", N_("Per-move overhead: a move made and received through both sessions (CPU)"), "ms",
              "lower", 0.5, _measure("session", "move_overhead_ms")),
    Benchmark("session.floor", N_("Per-move floor, same moves: Ed25519 sign + verify, a msgpack round trip, "
              "the engine's apply and digest on both peers (CPU)"), "ms",
              "lower", 0.5, _measure("session", "move_floor_ms")),
    Benchmark("session.over_floor", N_("Per-move overhead over its floor, measured in the same run"), "x",
              "lower", 2.0, _measure("session", "move_over_floor")),
    Benchmark("session.verify", N_("Verifying a whole Pagode log"), "ms",
              "lower", 100, _measure("session", "verify_log_ms")),
    Benchmark("net.listed", N_("LAN: a starting peer lists one already advertising (127.0.0.1)"), "s",
              "lower", 2.0, _measure("net", "listed_after_start_s")),
    Benchmark("net.move_rtt", N_("LAN: signed move round trip over TCP (127.0.0.1)"), "ms",
              "lower", 5.0, _measure("net", "move_round_trip_ms")),
    Benchmark("net.handshake", N_("LAN: Noise XX handshake of one link, both sides (CPU)"), "ms",
              "lower", 5.0, _measure("net", "handshake_cpu_ms")),
    Benchmark("net.move_crypto", N_("LAN: per-move cost of the link's encryption (seal + open of its record, "
              "over the plaintext path)"), "ms", "lower", 0.3,
              _measure("net", "move_encryption_overhead_ms")),
    Benchmark("net.deal55", N_("LAN: a 2-peer Pagode game from the hello to the first move (55-card shuffle and "
              "deal) over one encrypted link, CPU of both peers"), "ms",
              "lower", 30.0, _measure("net", "pagode_deal_over_link_ms")),
    Benchmark("net.ping_flood_rss", N_("LAN: RSS of a host above idle under a PING flood (4 addresses, 400 "
              "connections that never read)"), "MiB", "lower", 32.0,
              _measure("net", "ping_flood_rss_mib"), repeat=1),
    Benchmark("net.slot_flood_rss", N_("LAN: RSS of a host above idle under a slot flood (48 connections "
              "that never prove a key, 6 s)"), "MiB", "lower", 32.0,
              _measure("net", "slot_flood_rss_mib"), repeat=1),
    Benchmark("net.back_in", N_("LAN: a seated player's link drops during a slot flood, until it is linked "
              "again (reconnect interval 0.5 s)"), "s", "lower", 1.0,
              _measure("net", "back_in_during_slot_flood_s"), repeat=1),
    Benchmark("table.deal4", N_("Pandoria, 4 peers in one process: host's hello to the first move "
              "(deck and tile stack shuffled and dealt by all)"), "s",
              "lower", 2.0, _measure("tables", "deal4_s")),
    Benchmark("table.move5", N_("Pacal's Rocket, 5 peers in one process: a move until all 4 others accepted it "
              "(median of 150 moves)"), "ms",
              "lower", 50.0, _measure("tables", "move5_ms"), repeat=1),
    Benchmark("netns.listed_joiner", N_("Namespaces: host already advertising, until a starting joiner lists it "
              "(needs root)"), "s", "lower", 2.0, _netns("listed_after_joiner_start_s_median"), repeat=1),
    Benchmark("netns.listed_host", N_("Namespaces: host starts advertising (mDNS probing included) until listed "
              "(needs root)"), "s", "lower", 2.0, _netns("listed_after_host_start_s_median"), repeat=1),
    Benchmark("netns.join_command", N_("Namespaces: whole `lanterne join NAME` process until the host is found "
              "(needs root)"), "s", "lower", 2.0, _netns("join_command_lists_host_s_median"), repeat=1),
    Benchmark("netns.move_rtt", N_("Namespaces: signed move round trip over the encrypted veth link (needs root)"),
              "ms", "lower", 2.0, _netns("move_rtt_median_ms"), repeat=1),
    Benchmark("online.link", N_("Online: from the code typed to both links authenticated by Noise (a local "
              "mailbox and relay on 127.0.0.1, relay only)"), "s", "lower", 3.0, _online("connect_s"), repeat=1),
    Benchmark("online.move_rtt", N_("Online: move round trip through a stock transit relay (127.0.0.1, relay "
              "only)"), "ms", "lower", 150.0, _online("move_rtt_ms"), repeat=1),
    Benchmark("online.pause", N_("Online: the app loop's longest pause while a code is made, connects and "
              "carries 4 MB"), "ms", "lower", 50.0, _online("pause_ms"), repeat=1),
    Benchmark("online.first_move", N_("Online, namespaces: from `lanterne join CODE` started to the first move, "
              "two homes behind NAT, through the relay (needs root)"), "s", "lower", 10.0, _online_first_move,
              repeat=1),
    Benchmark("tui.start", N_("App start to home screen"), "s",
              "lower", 1.0, _measure("tui", "start_to_home_s")),
    Benchmark("tui.start.cpu", N_("App start to home screen, CPU time (load-independent)"), "s",
              "lower", 1.0, _measure("tui", "start_to_home_cpu_s")),
    Benchmark("tui.redraw", N_("Board redraw after a move (Pagode)"), "ms",
              "lower", 50, _measure("tui", "board_redraw_ms")),
    Benchmark("tui.pause", N_("Longest screen pause (key to redraw) while the computer thinks at ismcts:hard"),
              "ms", "lower", 50, _measure("tui", "pause_while_thinking_ms")),
    Benchmark("tui.key", N_("Longest screen pause (key to redraw) with nobody thinking (Pacal, 120x40)"),
              "ms", "lower", 50, _measure("tui", "pause_idle_ms")),
]


def run(only: list[str] | None = None, progress: Callable[[str], None] | None = None) -> list[Result]:
    """Measure the rows whose key starts with one of ``only`` (all by default), in table order."""
    for store in (_netns_run, _online_run, _online_netns_run):
        store.clear()  # one run of each shared bench per run, shared by its rows
    results = []
    for bench in BENCHMARKS:
        if only and not any(bench.key.startswith(o) for o in only):
            continue
        if progress:
            progress(bench.key)
        results.append(measure_row(bench))
    return results


def measure_row(bench: Benchmark) -> Result:
    """One row: the median of its repetitions, or a one-line note saying why there is none."""
    samples: list[float] = []
    try:
        for repetition in range(bench.repeat):
            samples.append(float(bench.measure(repetition) if bench.per_repetition else bench.measure()))
    except (BenchUnavailable, RulesError) as e:  # cannot run here: say why, the others go on
        return Result(bench, None, [], _one_line(e))
    except Exception as e:  # a broken measurement must not cost the other figures
        return Result(bench, None, [], f"failed: {type(e).__name__}: {_one_line(e)}", failed=True)
    return Result(bench, statistics.median(samples), samples)


def _one_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


def _english(context: str, text: str) -> str:
    return text


def markdown_table(results: list[Result], say: Callable[[str], str] = str,
                   say_term: Callable[[str, str], str] = _english) -> str:
    """The table of docs/benchmarks.md (English); ``say`` and ``say_term`` (``_`` and ``pgettext``)
    translate it for the terminal."""
    headers = (C_("bench", "figure"), C_("bench", "median"), C_("bench", "target"), C_("bench", "met"),
               C_("bench", "headroom"), C_("bench", "reproduce"))
    lines = ["| " + " | ".join(say_term("bench", h) for h in headers) + " |", "|---|---|---|---|---|---|"]
    for r in results:
        value = "—" if r.median is None else f"{r.median:.3g} {r.bench.unit}"
        met = {True: say_term("bench", C_("bench", "yes")), False: "**" + say_term("bench", C_("bench", "no")) + "**",
               None: "—"}[r.meets]
        if r.note:
            met = r.note
        what = r.bench.words(say)
        reproduce = f"`lanterne bench --only {r.bench.key}`"
        room = "—" if r.headroom is None else f"{r.headroom:.2f}x"
        if r.headroom is not None and r.headroom < 2:
            room = f"**{room}**"
        lines.append(f"| {what} | {value} | {r.bench.target} {r.bench.unit} | {met} | {room} | {reproduce} |")
    return "\n".join(lines)


BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def update_doc(path, results: list[Result], machine: Machine) -> None:
    """Replace the table between the markers of docs/benchmarks.md: every row is of this one run, dated and
    said to be of ``machine``."""
    text = path.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    stamp = time.strftime("%Y-%m-%d", time.gmtime())
    path.write_text(f"{head}{BEGIN}\nEvery row measured {stamp} in one run of `lanterne bench --write-docs` "
                    f"(the median of each row's repetitions), on {machine.describe()}.\n\n"
                    f"{markdown_table(results)}\n{END}{tail}")
