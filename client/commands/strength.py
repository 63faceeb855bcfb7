"""`lanterne strength`: the search player against greedy and random, resumable, into docs/benchmarks.md."""

from __future__ import annotations

from lanterne.client.cli import UserError
from lanterne.client.i18n import N_, _
from lanterne.engines.core import RulesError
from lanterne.engines.registry import GAMES, available_games, get_game

import hashlib
import json
import sys
from pathlib import Path
import tempfile

NAME = "strength"
HELP = N_("measure the search player (ismcts) against the greedy and random players, or OpenSpiel's ISMCTS")

REPO = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO / "docs" / "strength.jsonl"
DEFAULT_DOC = REPO / "docs" / "benchmarks.md"
BEGIN, END = "<!-- strength:begin -->", "<!-- strength:end -->"


def add_arguments(p) -> None:
    p.add_argument("--games", type=int, default=200, metavar="N",
                   help=_("games per game and opponent, seats swapped every game (default 200)"))
    p.add_argument("--games-of", default=None, metavar="G[,G...]", help=_("which games (default: every game)"))
    p.add_argument("--against", default="greedy,random", metavar="B[,B...]",
                   help=_("opponents, in the order they are played: greedy, random, openspiel (OpenSpiel's ISMCTS at "
                          "the same CPU time a move; needs the extra 'bench'), ismcts:LEVEL (the search player at "
                          "a level) (default greedy,random)"))
    p.add_argument("--level", default="normal",
                   help=_("the search player's level: easy, normal, hard, ceiling (20 x normal's iterations) or a "
                          "number of iterations a move (default normal)"))
    p.add_argument("--seeds", default="measure", choices=("measure", "tune"),
                   help=_("seed set: measure (seeds no tuning looked at) or tune (the seeds the tuning of the "
                          "search looked at) (default measure)"))
    p.add_argument("--players", type=int, default=2, metavar="N",
                   help=_("seats at the table: the search player and N-1 opponents of one kind (default 2; "
                          "without --games-of, the games that seat N)"))
    p.add_argument("--jobs", type=int, default=1, metavar="J",
                   help=_("games played at once, one process each (default 1)"))
    p.add_argument("--out", default=str(DEFAULT_OUT), metavar="FILE.jsonl",
                   help=_("results, one JSON line per game; games already there are skipped (default docs/strength.jsonl)"))
    p.add_argument("--write-docs", action="store_true",
                   help=_("play nothing: rewrite the strength section of docs/benchmarks.md from the results file"))
    p.add_argument("--docs", default=str(DEFAULT_DOC), metavar="FILE.md",
                   help=_("the markdown file whose strength section --write-docs rewrites (default docs/benchmarks.md)"))


def _names(text: str, option: str) -> list[str]:
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if not names:
        raise UserError(_("{option} names nothing").format(option=option))
    if len(set(names)) != len(names):
        raise UserError(_("{option} names a player or game twice: {text}").format(option=option, text=text))
    return names


def options(args):
    """Checked options: (game ids, opponents, level); a one-line UserError for a bad one.

    Without ``--games-of``, the games are those that seat ``--players``; a game named that does not is an error.
    """
    # what this command alone needs: --version and --help import every command module
    from lanterne.engines.bots.arena import OPPONENTS, check_opponent, level_iterations
    if args.games < 1:
        raise UserError(_("--games must be at least 1"))
    if args.jobs < 1:
        raise UserError(_("--jobs must be at least 1"))
    if args.players < 2:
        raise UserError(_("--players must be at least 2"))
    try:
        level_iterations(args.level)
    except RulesError:
        raise UserError(_("no level {level!r} (levels: {value})").format(
            level=args.level, value="easy, normal, hard, ceiling or a number of iterations")) from None
    if args.games_of is None:
        games = [g.id for g in available_games() if g.min_players <= args.players <= g.max_players]
        if not games:
            raise UserError(_("no game seats {players} players").format(players=args.players))
    else:
        games = [get_game(name).id for name in _names(args.games_of, "--games-of")]
        for game_id in games:
            game = get_game(game_id)
            if not game.min_players <= args.players <= game.max_players:
                raise UserError(_("{game} seats {low} to {high} players, not {players}").format(
                    game=game.name, low=game.min_players, high=game.max_players, players=args.players))
    against = _names(args.against, "--against")
    if "openspiel" in against and args.players != 2:
        raise UserError(_("--against openspiel plays 2-player games only"))
    for a in against:
        try:
            check_opponent(a)
        except RulesError:
            raise UserError(_("no opponent {a!r} (opponents: {value})").format(a=a, value=', '.join(OPPONENTS))) from None
    if "openspiel" in against and not args.write_docs:
        try:
            import lanterne.engines.bots.openspiel  # noqa: F401
        except ImportError as e:
            raise UserError(_("--against openspiel needs OpenSpiel, the optional extra 'bench' "
                              "(pip install -e '.[bench]'): {error}").format(error=e)) from None
    return games, against, args.level


def results_lock(path: Path):
    """Held while a record is appended to ``path`` or ``path`` is read: two runs of `lanterne strength` on one
    file (two rows measured at once, or ``--write-docs`` during a run) never read a line half written, nor
    cut one off. Its file is in the temporary folder, named after ``path``'s absolute path."""
    # what this command alone needs: --version and --help import every command module
    from filelock import FileLock

    name = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    return FileLock(Path(tempfile.gettempdir()) / f"lanterne-strength-{name}.lock")


def load(path: Path, cut_torn: bool = False) -> list[dict]:
    """The records in ``path`` (none if it does not exist); a torn last line (a run killed while writing it) is
    left out, and cut off the file with ``cut_torn`` (a run about to append)."""
    try:
        with results_lock(path):
            if not path.exists():
                return []
            raw = path.read_bytes()
            if raw and not raw.endswith(b"\n"):
                raw = raw[:raw.rfind(b"\n") + 1]
                if cut_torn:
                    print(f"{path}: dropping an unfinished last line", file=sys.stderr)
                    with path.open("r+b") as f:
                        f.truncate(len(raw))
    except OSError as e:
        raise UserError(_("{path}: {reason}").format(path=path, reason=e.strerror or e)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(_("{path}: not a strength results file (not UTF-8 text)").format(path=path)) from None
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            names = (record["game"], record["against"], record["level"], record.get("seeds", "tune"))
            players = record.get("players", 2)      # absent: a 2-player table (records from before tables of more)
            score = record["score"]                 # the search player's share of the win: 1, 1/k shared, or 0
            times = record.get("move_ms", [])       # the table's move times: milliseconds
            if (not all(type(x) is str for x in names) or type(record["index"]) is not int or record["index"] < 0
                    or type(score) not in (int, float) or not 0 <= score <= 1
                    or type(players) is not int or players < 2
                    or type(times) is not list or not all(type(t) in (int, float) for t in times)
                    or record.get("move_clock", "wall") not in ("cpu", "wall")):
                raise ValueError(line)
        except (ValueError, KeyError, TypeError):
            raise UserError(_("{path}:{number}: not a strength record").format(path=path, number=number)) from None
        records.append(record)
    return records


def run(args) -> int:
    # what this command alone needs: --version and --help import every command module
    from lanterne.engines.bots import arena

    games, against, level = options(args)
    out = Path(args.out)
    if args.write_docs:
        doc = Path(args.docs)
        if not doc.exists():
            raise UserError(_("{doc} not found").format(doc=doc))
        try:
            found = out.is_file()
        except OSError as e:
            raise UserError(_("{path}: {reason}").format(path=out, reason=e.strerror or e)) from None
        if not found:  # the docs' table would be emptied: surely a mistyped --out
            raise UserError(_("{out}: no results file to write the docs from").format(out=out))
        write_docs(doc, load(out), args.games, command_line(args, games, against))
        print(f"rewrote the strength section of {doc}")
        return 0
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.open("a", encoding="utf-8").close()   # a folder, a name too long, no right to write: said now
    except OSError as e:
        raise UserError(_("{path}: {reason}").format(path=out, reason=e.strerror or e)) from None
    done = {arena.record_key(r) for r in load(out, cut_torn=True)}
    todo = [m for m in arena.schedule(games, against, args.games, level, args.seeds, args.players)
            if m.key not in done]
    print(f"{len(todo)} games to play ({len(done)} already in {out})", file=sys.stderr)
    with out.open("a", encoding="utf-8") as f:
        for record in _play(todo, args.jobs):
            with results_lock(out):
                f.write(json.dumps(record, separators=(",", ":")) + "\n")
                f.flush()
            outcome = {1.0: "win"}.get(record["score"], "loss" if record["score"] == 0 else "tie")
            print(f"{record['game']} vs {record['against']} #{record['index']}: {outcome} "
                  f"(seat {record['search_seat'] + 1}, {record['seconds']} s)", file=sys.stderr, flush=True)
    wanted = set(games), set(against)
    rows = [r for r in arena.summarize(load(out))
            if r.game in wanted[0] and r.against in wanted[1] and r.level == level and r.seeds == args.seeds
            and r.players == args.players]
    print(arena.table(rows, args.games))
    return 0


def play_one(match) -> dict:
    """One match: OpenSpiel's ISMCTS through its wrapper (the extra 'bench'), the others through the arena."""
    if match.opponent == "openspiel":
        from lanterne.engines.bots.openspiel import play_openspiel_match  # OpenSpiel: the optional extra 'bench'

        return play_openspiel_match(match)
    # what this command alone needs: --version and --help import every command module
    from lanterne.engines.bots.arena import play_match

    return play_match(match)


def _play(todo, jobs: int):
    if jobs == 1 or len(todo) <= 1:
        for match in todo:
            yield play_one(match)
        return
    # what this command alone needs: --version and --help import every command module
    import multiprocessing

    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(play_one, todo)


def command_line(args, games: list[str], against: list[str]) -> str:
    players = f" --players {args.players}" if args.players != 2 else ""
    return (f"lanterne strength --games {args.games} --games-of {','.join(games)} --against {','.join(against)} "
            f"--level {args.level} --seeds {args.seeds}{players} --out docs/strength.jsonl")


def section(records: list[dict], planned: int, command: str) -> str:
    """The text between the markers: the table, how to read it and how to reproduce it."""
    # what this command alone needs: --version and --help import every command module
    from lanterne.engines.bots import arena

    def order(row):
        kind = row.against.split(":")[0]
        kinds = [o.split(":")[0] for o in arena.OPPONENTS]
        against = kinds.index(kind) if kind in kinds else len(kinds)
        game = list(GAMES).index(row.game) if row.game in GAMES else len(GAMES)
        seeds = arena.SEED_SETS.index(row.seeds) if row.seeds in arena.SEED_SETS else len(arena.SEED_SETS)
        return (seeds, row.players, against, row.against, game, row.level)

    spiel = [r for r in records if r["against"] == "openspiel"]
    rows = sorted(arena.summarize(r for r in records if r["against"] != "openspiel"), key=order)
    total = sum(r.games for r in rows)
    partial = [r for r in rows if r.games < planned]
    status = (f"{total} games so far; a row short of {planned} games says 'k of {planned}' (a run still going or "
              f"stopped there: a sample)" if partial
              else f"{total} games, {planned} per row")
    return "\n".join([
        "## Computer players",
        "",
        "- `random`: a uniformly random legal action.",
        "- `greedy`: the action that gains it the most points this turn (it looks ahead over its own "
        "consecutive actions only).",
        "- `ismcts:easy|normal|hard`: information-set Monte Carlo tree search, 150 / 600 / 2500 iterations a "
        "move. Each iteration deals the cards its seat cannot see at random from the cards it has not seen, "
        "walks one shared tree, then plays two turns a seat (random actions) and scores the "
        "position. In Pagode, where a turn is many actions, the search is tuned (its `tuning` in "
        "`engines/pagode/search.py`): since 2026-11-28 it compares whole-turn plans instead of growing a tree "
        "(UCB over the 6 best lines of a beam search over the turn, each played in every determinization "
        "then rolled out; the records of the tree before it are in "
        "[docs/strength-before.jsonl](strength-before.jsonl)); rollouts take the best by points of 3 random "
        "actions, exploration 0.4; with the defaults the tree won 13 of its first 20 Pagode games "
        "against greedy. In Pandoria a new node is the best of 4 untried actions and exploration is 0.4 "
        "(the defaults won 17 of its first 25 games against greedy), and a rollout covers 4 turns of the "
        "table in whole rounds (2 a seat at 2 players, 1 at 3 or 4: a 4-player move fits the app's 0.9 s); "
        "since 2026-11-28 (a later session) its levels are twice the presets (`level_scale`: `normal` is "
        "1,200 iterations, about what 600 cost before its engine got faster; the Pandoria records of the "
        "600-iteration player are in [docs/strength-before.jsonl](strength-before.jsonl)); `hard` there is "
        "5,000, up to 2.5 s of CPU a move, so the app gives `hard` 3 s a move where `easy` and `normal` get "
        "0.9 s (`client/local_play.move_seconds`): held to 2,000 so that it fit the second (2026-11-28 to "
        "29), it won 6 of 13 games against `normal`, and those games are in strength-before.jsonl. "
        "In Pueblo, since 2026-11-28 (the same later session), a rollout's end is scored by an estimate: the "
        "penalties so far plus those the final round would give on the pueblo as it stands (its walk of the "
        "36 spaces is most of a game's penalties; `engines/pueblo/search.py`); it won 19 of 20 tune "
        "matches against OpenSpiel's ISMCTS where the player without it won 16 (the Pueblo records of the "
        "player before are in [docs/strength-before.jsonl](strength-before.jsonl)). "
        "These settings were chosen on the "
        "`tune` seeds; the trials since are in 'Trials toward 90 % against greedy' below. It reads only its "
        "seat's view. `normal` is the app's default computer player; it thinks apart from the screen, so keys "
        "are answered meanwhile (docs/architecture.md, 'Computer players').",
        "",
        "## Strength of the search player",
        "",
        f"The search player (`ismcts`, by iterations, so the same seed plays the same game) against the "
        f"greedy and random players (and against itself at another level: `ismcts:LEVEL`), seats turning "
        f"every game; 2-player tables unless the 'players' column says more (the search player against N-1 "
        f"opponents of one kind): {status}.",
        "**Seeds.** A match's seed is derived from its name, in one of two sets (the 'seeds' column). `tune`: "
        "`strength/GAME/OPPONENT/LEVEL/INDEX`, the seeds that every tuning of the search looked at (`tuning` "
        "was chosen on their games) and the only seeds before seed sets existed, so their rows flatter the "
        "search player. `measure`: `measure/GAME/OPPONENT/INDEX`, seeds that no tuning looks at; they are "
        "the figures that count. Tuning plays `--seeds tune` only. A measure seed leaves the level out, so "
        "`normal` and `ceiling` (20 x normal's iterations: what more search alone buys) meet the same deals.",
        "A shared win counts as half a win (the 'draws' column). The interval is the Wilson 95 % score interval. "
        "Targets: above 90 % against greedy at `normal`; `hard` above 65 % against `ismcts:normal`; "
        "at a table of N > 2 against greedy at `normal`, more than its fair share (one game in N); where 90 % "
        "is out of reach, `normal` within 3 points of the ceiling. A ceiling row is judged on the measure deals "
        "that `normal` played too (same seed, same seat): deal by deal the ceiling's score minus `normal`'s, "
        "their mean and its 95 % interval (normal approximation), since the luck of a deal weighs on both. "
        "'met' means the win rate is above the target and so is the whole interval, 'met (rate)' that the rate "
        "is above it but the interval still reaches below it. Move times are per move the search player had to "
        "think about (more than one legal action): CPU time of its thread since 2026-11-29 ('CPU': what a move "
        "costs, whatever else the machine runs, to set beside the app's budget of 0.9 s a move at `easy` and "
        "`normal`, 3 s at `hard`), with the number of games so timed when a row has older games too; a row "
        "with only older games gives their wall-clock times ('wall'), measured while the run shared the "
        "machine's 2 cores with other work, some of it at a load of 8 or more: upper bounds, often far above "
        "the CPU time.",
        "",
        arena.table(rows, planned),
        "",
        f"Reproduce (resumable: games already in the file are skipped): `{command}`, then "
        "`lanterne strength --write-docs`; another row's the same with its `--against`, `--level`, "
        "`--seeds` and `--players`. Every game is one line of "
        "[docs/strength.jsonl](strength.jsonl) (seed set, seed, seats, scores, move times).",
        *openspiel_section(spiel, planned),
    ])


def openspiel_section(records: list[dict], planned: int) -> list[str]:
    """The rows against OpenSpiel's ISMCTS (``play_openspiel_match`` records), with what makes them fair."""
    # what this command alone needs: --version and --help import every command module
    from lanterne.engines.bots import arena

    if not records:
        return []
    rows = sorted(arena.summarize(records),
                  key=lambda r: (list(GAMES).index(r.game) if r.game in GAMES else 99, r.level, r.seeds))

    def median(values, scale=1.0, fmt="{:.3f}"):
        import statistics  # with decimal and fractions: not on the path of --version, which loads every command

        return fmt.format(statistics.median(values) * scale) if values else "—"

    lines = ["| game | level | seeds | games | wins / draws / losses | win rate (95 % CI) | target > 90 % "
             "| CPU s per move, Lanterne (median) | CPU s per move, OpenSpiel: budget / used (median) "
             "| OpenSpiel simulations per move (median) | wrapper share given back |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        mine = [x for x in records if x["game"] == r.game and x["level"] == r.level and arena.record_seeds(x) == r.seeds]
        cpu = [ms for x in mine for ms in x.get("move_cpu_ms", [])]
        budget = [ms for x in mine for ms in x["openspiel"]["budget_ms"]]
        used = [ms for x in mine for ms in x["openspiel"]["cpu_ms"]]
        sims = [n for x in mine for n in x["openspiel"]["simulations"]]
        share = sorted({x["openspiel"]["overhead_fraction"] for x in mine})
        low, high = r.interval
        games = f"{r.games} (a sample)" if r.games < planned else str(r.games)
        lines.append(f"| {r.game} | {r.level} | {r.seeds} | {games} | {r.wins} / {r.draws} / {r.losses} "
                     f"| {arena._pct(r.rate)} ({arena._pct(low)} – {arena._pct(high)}) | {r.verdict} "
                     f"| {median(cpu, 0.001)} | {median(budget, 0.001)} / {median(used, 0.001)} "
                     f"| {median(sims, fmt='{:.0f}')} | {', '.join(f'{100 * x:.1f} %' for x in share)} |")
    versions = sorted({f"open_spiel {x['openspiel']['open_spiel']}, numpy {x['openspiel']['numpy']}" for x in records})
    most = max(r.games for r in rows)
    games_of = ",".join(dict.fromkeys(r.game for r in rows if (r.level, r.seeds) == (rows[0].level, rows[0].seeds)))
    return [
        "",
        "## Against OpenSpiel's ISMCTS",
        "",
        f"The search player against OpenSpiel's own `ISMCTSBot` ({'; '.join(versions)}; "
        "`open_spiel.python.algorithms.ismcts`, random-rollout evaluator with one rollout to the end of the "
        "game, `uct_c` 2 as in OpenSpiel's MCTS examples, final move by most visits) through the wrapper of "
        "`engines/bots/openspiel.py`, 2-player games, seats swapped every game. OpenSpiel's bot gets, each "
        "move, the median CPU time of the search player's moves so far in the game (before its first, the "
        "game's `search.move` figure), divided by one minus the wrapper's share of its search time (the "
        "wrapper's cost, given back); it stops at that CPU deadline (`TimedISMCTSBot`: the library's search "
        "loop with a deadline instead of a simulation count). CPU times are `time.thread_time`.",
        "",
        "\n".join(lines),
        "",
        f"Reproduce: `nice -n 19 lanterne strength --games {most} --games-of {games_of} --against openspiel "
        f"--level {rows[0].level} --seeds {rows[0].seeds} --out docs/strength.jsonl` (needs the extra `bench`: "
        "`pip install -e '.[bench]'`), then `lanterne strength --write-docs`.",
    ]


def write_docs(doc: Path, records: list[dict], planned: int, command: str) -> None:
    """Rewrite what lies between the strength markers of ``doc``; everything else stays byte for byte."""
    text = doc.read_text(encoding="utf-8")
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise UserError(_("{doc} has no {BEGIN} ... {END} section").format(doc=doc, BEGIN=BEGIN, END=END))
    body = section(records, planned, command)
    doc.write_text(text[: start + len(BEGIN)] + "\n" + body + "\n" + text[end:], encoding="utf-8")
