"""`lanterne bench`: every speed figure, measured on this machine, with its target."""

from __future__ import annotations

from lanterne.client.i18n import N_, _, pgettext

import json
import sys
from pathlib import Path

NAME = "bench"
HELP = N_("measure every figure of docs/benchmarks.md on this machine")


def add_arguments(p) -> None:
    p.add_argument("--json", action="store_true", help=_("print the results as JSON (progress goes to stderr)"))
    p.add_argument("--only", action="append", metavar="KEY", help=_("only benchmarks whose key starts with KEY"))
    p.add_argument("--list", action="store_true", help=_("list the benchmark keys with their targets, measure nothing"))
    p.add_argument("--write-docs", action="store_true", help=_("rewrite the table in docs/benchmarks.md"))


def run(args) -> int:
    """0 when every figure was measured or is unavailable here (its row says why); 1 when one broke."""
    from lanterne.client import bench
    from lanterne.client.cli import UserError

    if args.write_docs and args.only:
        raise UserError(_("--write-docs rewrites the whole table: run it without --only"))
    if args.write_docs and args.list:
        raise UserError(_("--list measures nothing, so it cannot --write-docs"))
    keys = [b.key for b in bench.BENCHMARKS]
    for o in args.only or []:
        if not any(k.startswith(o) for k in keys):
            raise UserError(_("no benchmark {o!r} (benchmarks: {value})").format(o=o, value=', '.join(keys)))
    if args.list:
        chosen = [b for b in bench.BENCHMARKS if not args.only or any(b.key.startswith(o) for o in args.only)]
        if args.json:
            print(json.dumps([{"key": b.key, "what": b.words(), "unit": b.unit, "target": b.target}
                              for b in chosen], indent=1))
        else:
            width = max(len(b.key) for b in chosen)
            for b in chosen:
                print(f"{b.key:<{width}}  {b.target} {b.unit}  {b.words(_)}")
        return 0
    results = bench.run(args.only, progress=lambda k: print(_("measuring {key}...").format(key=k), file=sys.stderr,
                                                                flush=True))
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=1))
    else:
        print(bench.markdown_table(results, say=_, say_term=pgettext))
    if args.write_docs:
        doc = Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md"
        if not doc.exists():
            raise UserError(_("{doc} not found (run from a source checkout)").format(doc=doc))
        bench.update_doc(doc, results)
    broken = [r.bench.key for r in results if r.failed]
    if broken:
        print(_("measurement broke: {keys} (see the table)").format(keys=", ".join(broken)), file=sys.stderr)
        return 1
    return 0
