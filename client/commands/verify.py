"""`lanterne verify LOG...`: check signed game logs from their bytes alone."""

from __future__ import annotations

import json
import sys

NAME = "verify"
HELP = "check game logs: signatures, chain, every move re-run, every card and die audited"

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def add_arguments(p) -> None:
    p.add_argument("logs", nargs="+", metavar="LOG", help="log files (.lanterne)")
    p.add_argument("--json", action="store_true", help="one JSON object per log")


def run(args) -> int:
    from protocol.log import LogFormatError
    from protocol.verify import verify_file

    worst = EXIT_VALID
    for path in args.logs:
        try:
            report = verify_file(path)
        except LogFormatError as e:
            worst = max(worst, EXIT_UNREADABLE)
            if args.json:
                print(json.dumps({"path": path, "ok": False, "unreadable": str(e)}))
            else:
                sys.stderr.write(f"lanterne: {path}: {e}\n")
            continue
        if not report.ok:
            worst = max(worst, EXIT_INVALID)
        if args.json:
            print(json.dumps(report.to_json()))
        else:
            print(describe(report))
    return worst


def describe(r) -> str:
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
