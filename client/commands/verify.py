"""`lanterne verify LOG...`: check signed game logs from their bytes alone.

Exit status (docs/protocol.md, section 8): 0 valid, 1 invalid, 2 unreadable,
3 unfinished (every entry sound, the game not over: a game under way or
paused is no accusation). With several logs, the worst: 2 > 1 > 3 > 0.
"""

from __future__ import annotations

import json
import sys

NAME = "verify"
HELP = "check game logs: signatures, chain, every move re-run, every card and die audited"

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE, EXIT_UNFINISHED = 0, 1, 2, 3
_WORST = {EXIT_VALID: 0, EXIT_UNFINISHED: 1, EXIT_INVALID: 2, EXIT_UNREADABLE: 3}


def add_arguments(p) -> None:
    p.add_argument("logs", nargs="+", metavar="LOG",
                   help="game log files (<table>.log of a LAN game, or a selfplay .lanterne); "
                        "exit 0 valid, 1 invalid, 2 unreadable, 3 unfinished")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per log; seats (seats, winners, culprit, replayed) counted from 1 "
                        "as in the text (docs/protocol.md, section 8)")


def run(args) -> int:
    from protocol.log import LogFormatError
    from protocol.verify import verify_file

    worst = EXIT_VALID

    def note(code: int) -> None:
        nonlocal worst
        worst = max(worst, code, key=_WORST.__getitem__)

    for path in args.logs:
        try:
            report = verify_file(path)
        except LogFormatError as e:
            note(EXIT_UNREADABLE)
            if args.json:
                print(json.dumps({"path": path, "ok": False, "unreadable": str(e)}))
            else:
                sys.stderr.write(f"lanterne: {path}: {e}\n")
            continue
        if report.unfinished:
            note(EXIT_UNFINISHED)
        elif not report.ok:
            note(EXIT_INVALID)
        if args.json:
            print(json.dumps(report.to_json()))
        else:
            print(describe(report))
    return worst


def describe(r) -> str:
    if r.unfinished:
        where = f"{r.game} ({r.variant}), {len(r.seats)} players" if r.game else "no table set yet"
        return (f"{r.path}: unfinished: {where}, {r.entries} entries, every one sound so far; "
                f"{r.problem}")
    if not r.ok:
        where = f"entry {r.bad_entry}" if r.bad_entry is not None else "log"
        by = f" by {r.bad_author}" if r.bad_author else ""
        return f"{r.path}: INVALID: {where}{by}: {r.problem}"
    head = f"{r.path}: valid: {r.game} ({r.variant}), {len(r.seats)} players, {r.entries} entries"
    taken = [f"P{i + 1} taken over by {s['computer']['name']}" for i, s in enumerate(r.seats)
             if isinstance(s, dict) and s.get("computer")]
    if taken:
        head += f" ({', '.join(taken)})"
    if r.result == "over":
        scores = " ".join(f"P{i + 1}={s}" for i, s in enumerate(r.scores))
        return f"{head}; {scores}; winner(s) {','.join(f'P{w}' for w in r.winners)}"
    culprit = f"seat {r.culprit} at fault" if r.culprit else "nobody blamed"
    return f"{head}; game aborted ({culprit}): {r.reason}"
