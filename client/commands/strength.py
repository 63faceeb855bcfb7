"""`lanterne strength`: the search player against greedy and random, resumable, into docs/benchmarks.md."""

from __future__ import annotations

import json
import sys
from pathlib import Path

NAME = "strength"
HELP = "measure the search player (ismcts) against the greedy and random players"

REPO = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO / "docs" / "strength.jsonl"
DEFAULT_DOC = REPO / "docs" / "benchmarks.md"
BEGIN, END = "<!-- strength:begin -->", "<!-- strength:end -->"


def add_arguments(p) -> None:
    p.add_argument("--games", type=int, default=200, metavar="N",
                   help="games per game and opponent, seats swapped every game (default 200)")
    p.add_argument("--games-of", default=None, metavar="G[,G...]", help="which games (default: every game)")
    p.add_argument("--against", default="greedy,random", metavar="B[,B...]",
                   help="opponents, in the order they are played (default greedy,random)")
    p.add_argument("--level", default="normal", help="the search player's level (default normal)")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="games played at once, one process each (default 1)")
    p.add_argument("--out", default=str(DEFAULT_OUT), metavar="FILE.jsonl",
                   help="results, one JSON line per game; games already there are skipped (default docs/strength.jsonl)")
    p.add_argument("--write-docs", action="store_true",
                   help="play nothing: rewrite the strength section of docs/benchmarks.md from the results file")
    p.add_argument("--docs", default=str(DEFAULT_DOC), metavar="FILE.md",
                   help="the markdown file whose strength section --write-docs rewrites (default docs/benchmarks.md)")


def _names(text: str, option: str) -> list[str]:
    from client.cli import UserError

    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if not names:
        raise UserError(f"{option} names nothing")
    if len(set(names)) != len(names):
        raise UserError(f"{option} names a player or game twice: {text}")
    return names


def options(args):
    """Checked options: (game ids, opponents, level); a one-line UserError for a bad one."""
    from client.cli import UserError
    from engines.bots.arena import OPPONENTS
    from engines.bots.ismcts import IsmctsBot
    from engines.registry import available_games, get_game

    if args.games < 1:
        raise UserError("--games must be at least 1")
    if args.jobs < 1:
        raise UserError("--jobs must be at least 1")
    if args.level not in IsmctsBot.LEVELS:
        raise UserError(f"no level {args.level!r} (levels: {', '.join(IsmctsBot.LEVELS)})")
    if args.games_of is None:
        games = [g.id for g in available_games()]
    else:
        games = [get_game(name).id for name in _names(args.games_of, "--games-of")]
    against = _names(args.against, "--against")
    for a in against:
        if a not in OPPONENTS:
            raise UserError(f"no opponent {a!r} (opponents: {', '.join(OPPONENTS)})")
    return games, against, args.level


def load(path: Path) -> list[dict]:
    """The records in ``path``; a torn last line (the run was killed while writing) is cut off."""
    from client.cli import UserError

    if not path.exists():
        return []
    raw = path.read_bytes()
    if raw and not raw.endswith(b"\n"):
        cut = raw.rfind(b"\n") + 1
        print(f"{path}: dropping an unfinished last line", file=sys.stderr)
        path.write_bytes(raw[:cut])
        raw = raw[:cut]
    records = []
    for number, line in enumerate(raw.decode("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            record["game"], record["against"], record["level"], record["index"], record["score"]
        except (ValueError, KeyError, TypeError):
            raise UserError(f"{path}:{number}: not a strength record") from None
        records.append(record)
    return records


def run(args) -> int:
    from client.cli import UserError
    from engines.bots import arena

    games, against, level = options(args)
    out = Path(args.out)
    if args.write_docs:
        doc = Path(args.docs)
        if not doc.exists():
            raise UserError(f"{doc} not found")
        write_docs(doc, load(out), args.games, command_line(args, games, against))
        print(f"rewrote the strength section of {doc}")
        return 0
    done = {arena.record_key(r) for r in load(out)}
    todo = [m for m in arena.schedule(games, against, args.games, level) if m.key not in done]
    print(f"{len(todo)} games to play ({len(done)} already in {out})", file=sys.stderr)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as f:
        for record in _play(todo, args.jobs):
            f.write(json.dumps(record, separators=(",", ":")) + "\n")
            f.flush()
            outcome = {1.0: "win"}.get(record["score"], "loss" if record["score"] == 0 else "tie")
            print(f"{record['game']} vs {record['against']} #{record['index']}: {outcome} "
                  f"(seat {record['search_seat'] + 1}, {record['seconds']} s)", file=sys.stderr, flush=True)
    wanted = set(games), set(against)
    rows = [r for r in arena.summarize(load(out)) if r.game in wanted[0] and r.against in wanted[1] and r.level == level]
    print(arena.table(rows, args.games))
    return 0


def _play(todo, jobs: int):
    from engines.bots.arena import play_match

    if jobs == 1 or len(todo) <= 1:
        for match in todo:
            yield play_match(match)
        return
    import multiprocessing

    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(play_match, todo)


def command_line(args, games: list[str], against: list[str]) -> str:
    return (f"lanterne strength --games {args.games} --games-of {','.join(games)} --against {','.join(against)} "
            f"--level {args.level} --out docs/strength.jsonl")


def section(records: list[dict], planned: int, command: str) -> str:
    """The text between the markers: the table, how to read it and how to reproduce it."""
    from engines.bots import arena

    from engines.registry import GAMES

    def order(row):
        against = arena.OPPONENTS.index(row.against) if row.against in arena.OPPONENTS else len(arena.OPPONENTS)
        game = list(GAMES).index(row.game) if row.game in GAMES else len(GAMES)
        return (against, game, row.level)

    rows = sorted(arena.summarize(records), key=order)
    total = sum(r.games for r in rows)
    partial = [r for r in rows if r.games < planned]
    status = (f"{total} games so far; the run is still going (rows say 'k of {planned}')" if partial
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
        "position. In Pagode, where a turn is many actions, the search is tuned (`TUNING` in "
        "`engines/bots/ismcts.py`): rollouts take the best by points of 3 random actions, a new node is the "
        "best of 4 untried actions, exploration 0.4; with the defaults it won 13 of its first 20 Pagode games "
        "against greedy. In Pandoria a new node is the best of 4 untried actions and exploration is 0.4 "
        "(the defaults won 17 of its first 25 games against greedy). It reads only its "
        "seat's view. `normal` is the app's default computer player; it thinks on a worker thread.",
        "",
        "## Strength of the search player",
        "",
        f"The search player (`ismcts`, by iterations, so the same seed plays the same game) against the "
        f"greedy and random players, 2-player games, seats swapped every game: {status}.",
        "A shared win counts as half a win (the 'draws' column). The interval is the Wilson 95 % score interval; "
        "'met' means the win rate is above 70 % and so is the whole interval, 'met (rate)' that the rate is "
        "above 70 % but the interval still reaches below it. Move times are wall clock, per move the search "
        "player had to think about (more than one legal action), measured while the run shared the machine's "
        "2 cores with other work (`nice -n 10`), so they are upper bounds.",
        "",
        arena.table(rows, planned),
        "",
        f"Reproduce (resumable: games already in the file are skipped): `{command}`, then "
        "`lanterne strength --write-docs`. Every game is one line of "
        "[docs/strength.jsonl](strength.jsonl) (seed, seats, scores, move times).",
    ])


def write_docs(doc: Path, records: list[dict], planned: int, command: str) -> None:
    """Rewrite what lies between the strength markers of ``doc``; everything else stays byte for byte."""
    from client.cli import UserError

    text = doc.read_text(encoding="utf-8")
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise UserError(f"{doc} has no {BEGIN} ... {END} section")
    body = section(records, planned, command)
    doc.write_text(text[: start + len(BEGIN)] + "\n" + body + "\n" + text[end:], encoding="utf-8")
