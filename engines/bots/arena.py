"""The search player against a baseline: seeded games, results records, Wilson intervals.

Sans-IO: :func:`play_match` plays one game and returns a JSON-safe record;
:func:`summarize` folds records into one row per (game, opponent); the
command (``lanterne strength``) does the files, the processes and the docs.

A match is named by (game, opponent, level, index). Its seed is derived from
that name alone, and the search runs by iterations, not seconds, so the same
match always plays the same game. The search player sits in seat
``index % 2``: seats swap from one game to the next, so first-player
advantage cancels out over an even number of games.

A shared win (a tie) counts as half a win for the search player.
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from engines.bots.ismcts import IsmctsBot
from engines.bots.simple import make_bot
from engines.core import Action, Game, OpenTable, RulesError, State, play_out
from engines.registry import get_game

TARGET = 0.70
"""Share of 2-player games the search player must win against greedy."""

OPPONENTS = ("greedy", "random")
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Match:
    """One game of the search player against ``opponent``, by index."""

    game: str
    opponent: str
    index: int
    level: str = "normal"

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.game, self.opponent, self.level, self.index)

    @property
    def seed(self) -> str:
        return f"strength/{self.game}/{self.opponent}/{self.level}/{self.index}"

    @property
    def search_seat(self) -> int:
        return self.index % 2


def record_key(record: dict) -> tuple[str, str, str, int]:
    return (record["game"], record["against"], record["level"], record["index"])


class _Timed:
    """Wraps the search player to time each move it had to think about (more than one legal action)."""

    def __init__(self, bot: IsmctsBot, clock: Callable[[], float]):
        self.bot = bot
        self.clock = clock
        self.move_ms: list[float] = []

    def choose(self, game: Game, view: State, seat: int) -> Action:
        started = self.clock()
        action = self.bot.choose(game, view, seat)
        if self.bot.last_iterations:
            self.move_ms.append((self.clock() - started) * 1000.0)
        return action


def play_match(match: Match, clock: Callable[[], float] = time.perf_counter, iterations: int | None = None) -> dict:
    """Play ``match`` to its end on the open table; a JSON-safe record of the result and move times.

    ``iterations`` overrides the level's (tests play cheap games with it).
    """
    game = get_game(match.game)
    if match.opponent not in OPPONENTS:
        raise RulesError(f"no opponent {match.opponent!r} (opponents: {', '.join(OPPONENTS)})")
    bot = IsmctsBot.at_level(match.level, f"{match.seed}/search")
    if iterations is not None:
        bot.iterations = iterations
    search = _Timed(bot, clock)
    other = make_bot(match.opponent, f"{match.seed}/{match.opponent}")
    players = [other, other]
    players[match.search_seat] = search
    started = clock()
    final, record = play_out(game, game.setup(players=2), OpenTable(match.seed), players)
    winners = game.winners(final)
    seat = match.search_seat
    score = 1.0 / len(winners) if seat in winners else 0.0
    return {
        "game": match.game, "against": match.opponent, "level": match.level, "index": match.index,
        "seed": match.seed, "search_seat": seat, "scores": list(game.scores(final)),
        "winners": sorted(winners), "score": score, "steps": len(record),
        "seconds": round(clock() - started, 3), "move_ms": [round(ms, 1) for ms in search.move_ms],
    }


def schedule(games: Iterable[str], opponents: Iterable[str], count: int, level: str = "normal") -> list[Match]:
    """Every match to play, target first: all games against the first opponent, round robin by index."""
    games = list(games)
    return [Match(g, opp, i, level) for opp in opponents for i in range(count) for g in games]


def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``score / n`` (``score`` may count halves)."""
    if n <= 0:
        return (0.0, 1.0)
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Row:
    """Results of the search player against one opponent in one game."""

    game: str
    against: str
    level: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: float = 0.0
    move_ms: list[float] | None = None

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.games)

    def move_percentile(self, q: float) -> float | None:
        times = sorted(self.move_ms or [])
        if not times:
            return None
        return times[min(len(times) - 1, int(q * len(times)))]

    @property
    def median_move_ms(self) -> float | None:
        return statistics.median(self.move_ms) if self.move_ms else None

    @property
    def verdict(self) -> str:
        """Against greedy: 'met' when the whole interval is above the target, 'not met' when below."""
        if self.against != "greedy":
            return "—"
        low, high = self.interval
        if low > TARGET:
            return "met"
        if high < TARGET:
            return "**not met**"
        return "met (rate)" if self.rate > TARGET else "**not met** (rate)"


def summarize(records: Iterable[dict]) -> list[Row]:
    """One row per (game, opponent, level), in first-seen order."""
    rows: dict[tuple[str, str, str], Row] = {}
    for r in records:
        row = rows.setdefault((r["game"], r["against"], r["level"]), Row(r["game"], r["against"], r["level"], move_ms=[]))
        row.games += 1
        row.score += r["score"]
        if r["score"] >= 1.0:
            row.wins += 1
        elif r["score"] > 0.0:
            row.draws += 1
        else:
            row.losses += 1
        row.move_ms.extend(r.get("move_ms", []))
    return list(rows.values())


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _secs(ms: float | None) -> str:
    return "—" if ms is None else f"{ms / 1000:.2f}"


def table(rows: list[Row], planned: int | None = None) -> str:
    """The markdown table of ``rows``; ``planned`` games per row, to say how far a partial run is."""
    lines = ["| game | against | level | games | wins / draws / losses | win rate (95 % CI) "
             "| target > 70 % | s per move: median / p95 |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        low, high = r.interval
        games = f"{r.games} of {planned}" if planned and r.games < planned else str(r.games)
        lines.append(f"| {r.game} | {r.against} | {r.level} | {games} | {r.wins} / {r.draws} / {r.losses} "
                     f"| {_pct(r.rate)} ({_pct(low)} – {_pct(high)}) | {r.verdict} "
                     f"| {_secs(r.median_move_ms)} / {_secs(r.move_percentile(0.95))} |")
    return "\n".join(lines)
