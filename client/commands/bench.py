"""`lanterne bench`: every speed figure, measured on this machine, with its target.

The figures and what measures them are the checkout's ``bench/`` folder, not the product: the command imports
it by its path beside the sources it runs from, so an installed ``lanterne`` (no checkout) says so in one line.
"""

from __future__ import annotations

from lanterne.client.i18n import N_, _, pgettext

import importlib
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

NAME = "bench"
HELP = N_("measure every figure of docs/benchmarks.md on this machine")

CHECKOUT = Path(__file__).resolve().parents[2]
"""The checkout these sources are in, when they are one (an install has its package folder here instead)."""


def add_arguments(p) -> None:
    p.add_argument("--json", action="store_true", help=_("print the results as JSON (progress goes to stderr)"))
    p.add_argument("--only", action="append", metavar="KEY", help=_("only benchmarks whose key starts with KEY"))
    p.add_argument("--list", action="store_true", help=_("list the benchmark keys with their targets, measure nothing"))
    p.add_argument("--write-docs", action="store_true", help=_("rewrite the table in docs/benchmarks.md"))


def run(args) -> int:
    """0 when every figure was measured or is unavailable here (its row says why); 1 when one broke."""
    from lanterne.client.cli import UserError

    bench = load_rows(CHECKOUT)
    if bench is None:
        raise UserError(_("lanterne bench measures from a source checkout: no bench/ folder beside this lanterne "
                          "({root})").format(root=CHECKOUT))
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
    machine = importlib.import_module("bench.machine").this_machine()   # (its package: loaded by load_rows)
    results = bench.run(args.only, progress=lambda k: print(_("measuring {key}...").format(key=k), file=sys.stderr,
                                                                flush=True))
    machine = machine.finished()
    print(_("measured on {machine}").format(machine=machine.describe(_)), file=sys.stderr)
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=1))
    else:
        print(bench.markdown_table(results, say=_, say_term=pgettext))
    if args.write_docs:
        doc = CHECKOUT / "docs" / "benchmarks.md"
        if not doc.exists():
            raise UserError(_("{doc} not found (run from a source checkout)").format(doc=doc))
        bench.update_doc(doc, results, machine)
    broken = [r.bench.key for r in results if r.failed]
    if broken:
        print(_("measurement broke: {keys} (see the table)").format(keys=", ".join(broken)), file=sys.stderr)
        return 1
    return 0


def load_rows(checkout: Path) -> ModuleType | None:
    """``bench/rows.py`` of ``checkout``, its ``bench`` package imported from that path, not looked for on
    ``sys.path`` (the tests, which import the same folder, may have imported it already); None when the checkout
    has no ``bench/``."""
    folder = checkout / "bench"
    init = folder / "__init__.py"
    if not init.is_file():
        return None
    if "bench" not in sys.modules:
        spec = importlib.util.spec_from_file_location("bench", init, submodule_search_locations=[str(folder)])
        assert spec is not None and spec.loader is not None   # (a file location always has both)
        package = importlib.util.module_from_spec(spec)
        sys.modules["bench"] = package
        spec.loader.exec_module(package)
    return importlib.import_module("bench.rows")
