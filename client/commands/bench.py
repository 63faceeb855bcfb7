"""`lanterne bench`: every speed figure, measured on this machine, with its target."""

from __future__ import annotations

import json
import sys
from pathlib import Path

NAME = "bench"
HELP = "measure every figure of docs/benchmarks.md on this machine"


def add_arguments(p) -> None:
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--only", action="append", metavar="KEY", help="only benchmarks whose key starts with KEY")
    p.add_argument("--write-docs", action="store_true", help="rewrite the table in docs/benchmarks.md")


def run(args) -> int:
    from client import bench
    from client.cli import UserError

    if args.write_docs and args.only:
        raise UserError("--write-docs rewrites the whole table: run it without --only")
    keys = [b.key for b in bench.BENCHMARKS]
    for o in args.only or []:
        if not any(k.startswith(o) for k in keys):
            raise UserError(f"no benchmark {o!r} (benchmarks: {', '.join(keys)})")
    results = bench.run(args.only, progress=None if args.json else lambda k: print(f"measuring {k}...",
                                                                                       file=sys.stderr))
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=1))
    else:
        print(bench.markdown_table(results))
    if args.write_docs:
        doc = Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md"
        if not doc.exists():
            raise UserError(f"{doc} not found (run from a source checkout)")
        bench.update_doc(doc, results)
    return 0
