"""The search player against a baseline: seeded games, results records, Wilson intervals.

Sans-IO: :func:`play_match` plays one game and returns a JSON-safe record;
:func:`summarize` folds records into one row per (game, opponent); the
command (``lanterne strength``) does the files, the processes and the docs.

A match is named by (game, opponent, level, seed set, index). Its seed is
derived from that name alone, and the search runs by iterations, not seconds,
so the same match always plays the same game. The search player sits in seat
``index % players``: seats turn from one game to the next, so the advantage
of a seat cancels out over a multiple of the table's size. A table of 3 or
more seats the search player among that many opponents of one kind, each
with its own seed; its target there is to win more than its fair share
(one game in ``players``).

Two seed sets (:data:`SEED_SETS`): ``tune``, the seeds ``strength/{game}/
{opponent}/{level}/{index}`` that every tuning of the search (the games' ``tuning``, in
``ismcts.py``) looked at, the only seeds before seed sets existed (a record
without a ``seeds`` field is one of them); and ``measure``, ``measure/{game}/
{opponent}/{index}``, which no tuning looks at: the figures that count. A
measure seed leaves the level out, so two levels meet the same deals. A
table of more than 2 adds ``{players}p/`` before the index (2-player seeds
are those of every record before tables of more).

The opponent is ``greedy``, ``random``, ``openspiel`` (OpenSpiel's ISMCTS,
played by ``openspiel.play_openspiel_match``) or the search player itself at a
level (``ismcts:normal``). A level is a preset of :class:`IsmctsBot`, ``ceiling``
(20 times ``normal``'s iterations: what more search alone would buy) or a
number of iterations.

A shared win (a tie) counts as half a win for the search player. A ceiling
row is judged against ``normal`` on the measure deals both played
(:class:`Gap`): paired, since the luck of a deal weighs on both alike.
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from lanterne.engines.bots.ismcts import IsmctsBot
from lanterne.engines.bots.by_name import make_bot
from lanterne.engines.core import Action, Game, OpenTable, RulesError, State, only_digits, play_out
from lanterne.engines.registry import get_game

TARGET = 0.90
"""Share of 2-player games the search player must win against greedy at ``normal``."""

TARGETS = {("greedy", "normal"): TARGET, ("openspiel", "normal"): 0.90, ("ismcts:normal", "hard"): 0.65}
"""Share of 2-player games it must win, per (opponent, level) (docs/benchmarks.md); none elsewhere.
At a table of more, the target against greedy at ``normal`` is a fair share: more than one game in ``players``."""

OPPONENTS = ("greedy", "random", "openspiel", "ismcts:LEVEL")
"""``openspiel`` (OpenSpiel's ISMCTS, the optional extra ``bench``) is played by
``engines/bots/openspiel.play_openspiel_match``, not by :func:`play_match`;
``ismcts:LEVEL`` is the search player at a level (:func:`level_iterations`)."""

SEED_SETS = ("measure", "tune")
"""``tune``: the seeds tuning looked at (and every record before seed sets); ``measure``: seeds no tuning saw."""

CEILING = 20
"""Level ``ceiling`` is this many times ``normal``'s iterations."""

CEILING_GAP = 0.03
"""Where 90 % is out of reach, ``normal`` must come within this much of the ceiling's win rate."""
Z95 = 1.959963984540054


def level_iterations(level: str, game_id: str | None = None) -> int:
    """Iterations a move of a level: a preset, ``ceiling`` or a number; RulesError otherwise. With
    ``game_id`` a preset (and so the ceiling) follows that game's ``level_scale``, as the app's player does."""
    if level in IsmctsBot.LEVELS:
        return IsmctsBot.level_iterations(level, game_id)
    if level == "ceiling":
        return CEILING * IsmctsBot.level_iterations("normal", game_id)
    if only_digits(level) and not level.startswith("0") and len(level) <= 7:
        return int(level)
    raise RulesError(f"no level {level!r} (levels: {', '.join(IsmctsBot.LEVELS)}, ceiling "
                     f"({CEILING} x normal) or a number of iterations)")


def check_opponent(opponent: str) -> str:
    """``opponent`` if :func:`play_match` (or the OpenSpiel match) can play it; RulesError otherwise."""
    name, colon, level = opponent.partition(":")
    if (not colon and name in OPPONENTS) or (name == "ismcts" and colon and _is_level(level)):
        return opponent
    raise RulesError(f"no opponent {opponent!r} (opponents: {', '.join(OPPONENTS)})")


def _is_level(level: str) -> bool:
    try:
        level_iterations(level)
    except RulesError:
        return False
    return True


@dataclass(frozen=True)
class Match:
    """One game of the search player against ``opponent``, by index, on a seed set."""

    game: str
    opponent: str
    index: int
    level: str = "normal"
    seeds: str = "measure"
    players: int = 2

    @property
    def key(self) -> tuple[str, str, str, str, int, int]:
        return (self.game, self.opponent, self.level, self.seeds, self.players, self.index)

    @property
    def seed(self) -> str:
        table = f"{self.players}p/" if self.players != 2 else ""
        if self.seeds == "tune":
            return f"strength/{self.game}/{self.opponent}/{self.level}/{table}{self.index}"
        if self.seeds == "measure":
            return f"measure/{self.game}/{self.opponent}/{table}{self.index}"
        raise RulesError(f"no seed set {self.seeds!r} (seed sets: {', '.join(SEED_SETS)})")

    @property
    def search_seat(self) -> int:
        return self.index % self.players


def record_key(record: dict) -> tuple[str, str, str, str, int, int]:
    """A record's match key; a record without a seed set is from the ``tune`` seeds (they were the only ones),
    one without a table size from a 2-player table."""
    return (record["game"], record["against"], record["level"], record_seeds(record), record_players(record),
            record["index"])


def record_seeds(record: dict) -> str:
    return record.get("seeds", "tune")


def record_players(record: dict) -> int:
    return record.get("players", 2)


class TimedSearch:
    """Wraps the search player to time each move it had to think about (more than one legal action).

    In CPU time of this thread by default: what a move costs whatever else the machine runs, the
    figure to set beside the app's per-move budget (the wall clock of a loaded machine is not).
    """

    def __init__(self, bot: IsmctsBot, clock: Callable[[], float] = time.thread_time):
        self.bot = bot
        self.clock = clock
        self.move_ms: list[float] = []

    def choose(self, game: Game, view: State, seat: int) -> Action:
        started = self.clock()
        action = self.bot.choose(game, view, seat)
        if self.bot.last_iterations:
            self.move_ms.append((self.clock() - started) * 1000.0)
        return action


def play_match(match: Match, iterations: int | None = None) -> dict:
    """Play ``match`` to its end on the open table; a JSON-safe record of the result and move times (CPU).

    ``iterations`` overrides the level's (tests play cheap games with it).
    """
    game = get_game(match.game)
    if match.opponent == "openspiel":
        raise RulesError("the openspiel opponent is played by engines/bots/openspiel.play_openspiel_match")
    check_opponent(match.opponent)
    bot = search_player(match, iterations)
    search = TimedSearch(bot)
    players = [opponent_player(match, iterations, seat) for seat in range(match.players)]
    players[match.search_seat] = search
    started = time.perf_counter()
    final, record = play_out(game, game.setup(players=match.players), OpenTable(match.seed), players)
    return match_record(match, game, final, len(record), time.perf_counter() - started, search.move_ms)


def search_player(match: Match, iterations: int | None = None, settings: dict | None = None) -> IsmctsBot:
    """The search player of ``match`` at its level (``iterations`` overrides it: cheap test games; ``settings``
    are ``IsmctsBot`` keywords in place of the game's ``tuning``: trials)."""
    bot = IsmctsBot(f"{match.seed}/search",
                    iterations=iterations if iterations is not None else level_iterations(match.level, match.game),
                    **(settings or {}))
    if settings is None and match.level in IsmctsBot.LEVELS:
        bot.tuned_level = match.level       # a level's own settings (the game's ``level_tuning``), as the app's player at it
    return bot


def opponent_player(match: Match, iterations: int | None = None, seat: int = 0):
    """The opponent of ``match`` in ``seat``; a search opponent's ``iterations`` are scaled as the search
    player's are. At a 2-player table it is seeded as before tables of more existed (the same games)."""
    name, _, level = match.opponent.partition(":")
    seed = f"{match.seed}/{match.opponent}" + (f"/{seat}" if match.players != 2 else "")
    if name == "ismcts":
        wanted = level_iterations(level, match.game)
        if iterations is not None:
            wanted = max(1, iterations * wanted // level_iterations(match.level, match.game))
        bot = IsmctsBot(seed, iterations=wanted)
        bot.tuned_level = level if level in IsmctsBot.LEVELS else None
        return bot
    return make_bot(match.opponent, seed)


def match_record(match: Match, game: Game, final: State, steps: int, seconds: float,
                 move_ms: list[float], move_clock: str = "cpu") -> dict:
    """The JSON-safe record of a finished match (one line of docs/strength.jsonl), whoever the opponent.

    ``seconds`` is the whole game on the wall clock; ``move_ms`` the search player's moves on ``move_clock``:
    "cpu" (this thread's CPU time) or "wall" (records from before 2026-11-29 timed them so, and have no
    such field).
    """
    winners = game.winners(final)
    seat = match.search_seat
    return {
        "game": match.game, "against": match.opponent, "level": match.level, "seeds": match.seeds,
        "index": match.index, "seed": match.seed, "players": match.players, "search_seat": seat,
        "scores": list(game.scores(final)),
        "winners": sorted(winners), "score": 1.0 / len(winners) if seat in winners else 0.0, "steps": steps,
        "seconds": round(seconds, 3), "move_ms": [round(ms, 1) for ms in move_ms], "move_clock": move_clock,
    }


def schedule(games: Iterable[str], opponents: Iterable[str], count: int, level: str = "normal",
             seeds: str = "measure", players: int = 2) -> list[Match]:
    """Every match to play, target first: all games against the first opponent, round robin by index."""
    games = list(games)
    return [Match(g, opp, i, level, seeds, players) for opp in opponents for i in range(count) for g in games]


def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``score / n`` (``score`` may count halves)."""
    if n <= 0:
        return (0.0, 1.0)
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Gap:
    """The ceiling against ``normal`` on the same deals: per deal, the ceiling's score minus ``normal``'s."""

    differences: list[float]

    @property
    def deals(self) -> int:
        return len(self.differences)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.differences)

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % interval of the mean difference (normal approximation); the whole range below 2 deals."""
        if self.deals < 2:
            return (-1.0, 1.0)
        half = Z95 * statistics.stdev(self.differences) / math.sqrt(self.deals)
        return (self.mean - half, self.mean + half)

    @property
    def verdict(self) -> str:
        """'met' when the whole interval says ``normal`` is within :data:`CEILING_GAP` of the ceiling."""
        low, high = self.interval
        if high < CEILING_GAP:
            return "met"
        if low > CEILING_GAP:
            return "**not met**"
        return "met (rate)" if self.mean < CEILING_GAP else "**not met** (rate)"


@dataclass
class Row:
    """Results of the search player against one opponent in one game."""

    game: str
    against: str
    level: str
    seeds: str = "measure"
    players: int = 2
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: float = 0.0
    move_ms: list[float] | None = None
    """The search player's moves in CPU time (records with ``"move_clock": "cpu"``)."""
    timed_games: int = 0
    """Games whose moves ``move_ms`` holds."""
    wall_ms: list[float] | None = None
    """The moves of older records, timed on the wall clock of a machine often loaded."""
    gap: Gap | None = None

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.games)

    def move_percentile(self, q: float, wall: bool = False) -> float | None:
        times = sorted((self.wall_ms if wall else self.move_ms) or [])
        if not times:
            return None
        return times[min(len(times) - 1, int(q * len(times)))]

    def median_move_ms(self, wall: bool = False) -> float | None:
        times = self.wall_ms if wall else self.move_ms
        return statistics.median(times) if times else None

    @property
    def target(self) -> float | None:
        if self.players != 2:
            return 1.0 / self.players if (self.against, self.level) == ("greedy", "normal") else None
        return TARGETS.get((self.against, self.level))

    @property
    def verdict(self) -> str:
        """Where a target applies: 'met' when the whole interval is above it, 'not met' when below."""
        target = self.target
        if target is None:
            return "—"
        low, high = self.interval
        if low > target:
            return "met"
        if high < target:
            return "**not met**"
        return "met (rate)" if self.rate > target else "**not met** (rate)"


def summarize(records: Iterable[dict]) -> list[Row]:
    """One row per (game, opponent, level, seed set, table size), in first-seen order; a measure ceiling
    row with its :class:`Gap` to ``normal``."""
    records = list(records)
    rows: dict[tuple[str, str, str, str, int], Row] = {}
    for r in records:
        seeds, players = record_seeds(r), record_players(r)
        row = rows.setdefault((r["game"], r["against"], r["level"], seeds, players),
                              Row(r["game"], r["against"], r["level"], seeds, players, move_ms=[], wall_ms=[]))
        row.games += 1
        row.score += r["score"]
        if r["score"] >= 1.0:
            row.wins += 1
        elif r["score"] > 0.0:
            row.draws += 1
        else:
            row.losses += 1
        if r.get("move_clock") == "cpu":
            row.move_ms.extend(r.get("move_ms", []))
            row.timed_games += 1
        else:
            row.wall_ms.extend(r.get("move_ms", []))
    for (game, against, level, seeds, players), row in rows.items():
        if (level, seeds) == ("ceiling", "measure"):
            row.gap = _gap(records, (game, against, seeds, players))
    return list(rows.values())


def _gap(records: list[dict], where: tuple[str, str, str, int]) -> Gap | None:
    """The ceiling's score minus ``normal``'s on each measure deal (same seed, same seat) both played."""
    scores: dict[str, dict[int, float]] = {"normal": {}, "ceiling": {}}
    for r in records:
        if r["level"] in scores and (r["game"], r["against"], record_seeds(r), record_players(r)) == where:
            scores[r["level"]][r["index"]] = r["score"]
    both = sorted(scores["normal"].keys() & scores["ceiling"].keys())
    return Gap([scores["ceiling"][i] - scores["normal"][i] for i in both]) if both else None


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _secs(ms: float | None) -> str:
    return "—" if ms is None else f"{ms / 1000:.2f}"


def _move_times(r: Row) -> str:
    """CPU seconds a move, median / p95, from the records that timed them so; else the older wall-clock times."""
    if r.move_ms:
        games = "" if r.timed_games == r.games else f" ({r.timed_games} games)"
        return f"{_secs(r.median_move_ms())} / {_secs(r.move_percentile(0.95))} CPU{games}"
    if r.wall_ms:
        return f"{_secs(r.median_move_ms(wall=True))} / {_secs(r.move_percentile(0.95, wall=True))} wall"
    return "—"


def table(rows: list[Row], planned: int | None = None) -> str:
    """The markdown table of ``rows``; ``planned`` games per row, to say how far a partial run is."""
    lines = ["| game | players | against | level | seeds | games | wins / draws / losses | win rate (95 % CI) "
             "| target | s per move: median / p95 |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        low, high = r.interval
        games = f"{r.games} of {planned}" if planned and r.games < planned else str(r.games)
        target = "—" if r.target is None else f"> {100 * r.target:.0f} %: {r.verdict}"
        if r.gap is not None:
            g_low, g_high = r.gap.interval
            target = (f"`normal` within {100 * CEILING_GAP:.0f} points: {r.gap.verdict}; ceiling minus normal "
                      f"{100 * r.gap.mean:+.1f} ({100 * g_low:+.1f} – {100 * g_high:+.1f}) points on "
                      f"{r.gap.deals} same deals")
        lines.append(f"| {r.game} | {r.players} | {r.against} | {r.level} | {r.seeds} | {games} "
                     f"| {r.wins} / {r.draws} / {r.losses} "
                     f"| {_pct(r.rate)} ({_pct(low)} – {_pct(high)}) | {target} "
                     f"| {_move_times(r)} |")
    return "\n".join(lines)
