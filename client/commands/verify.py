"""`lanterne verify LOG...`: check signed game logs from their bytes alone.

Exit status (docs/protocol.md, section 8): 0 valid, 1 invalid, 2 unreadable,
3 unfinished (every entry sound, the game not over: a game under way or
paused is no accusation). With several logs, the worst: 2 > 1 > 3 > 0.
"""

from __future__ import annotations

import json
import sys

from lanterne.client.i18n import N_, _, ngettext, say
from lanterne.protocol.log import LogFormatError

NAME = "verify"
HELP = N_("check game logs: signatures, chain, every move re-run, every card and die audited")

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE, EXIT_UNFINISHED = 0, 1, 2, 3
_WORST = {EXIT_VALID: 0, EXIT_UNFINISHED: 1, EXIT_INVALID: 2, EXIT_UNREADABLE: 3}


def add_arguments(p) -> None:
    p.add_argument("logs", nargs="+", metavar="LOG",
                   help=_("game log files (<table>.log); "
                          "exit 0 valid, 1 invalid, 2 unreadable, 3 unfinished"))
    p.add_argument("--json", action="store_true",
                   help=_("one JSON object per log; seats (seats, winners, culprit, replayed) counted from 1 "
                        "as in the text (docs/protocol.md, section 8)"))


def run(args) -> int:
    # what this command alone needs: --version and --help import every command module
    from lanterne.client.replay_model import why_not_a_log_file
    from lanterne.protocol.verify import verify_file

    worst = EXIT_VALID

    def note(code: int) -> None:
        nonlocal worst
        worst = max(worst, code, key=_WORST.__getitem__)

    for path in args.logs:
        try:
            why = why_not_a_log_file(path)
            if why:
                raise LogFormatError(why)
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
        where = (ngettext("{game} ({variant}), {n} player", "{game} ({variant}), {n} players", len(r.seats)).format(
            game=r.game, variant=r.variant, n=len(r.seats)) if r.game else _("no table set yet"))
        return _("{path}: unfinished: {where}, {n} entries, every one sound so far; {problem}").format(
            path=r.path, where=where, n=r.entries, problem=say(r.problem))
    if not r.ok:
        where = _("entry {n}").format(n=r.bad_entry) if r.bad_entry is not None else _("log")
        by = " " + _("by {author}").format(author=say(r.bad_author)) if r.bad_author else ""
        return _("{path}: INVALID: {where}{by}: {problem}").format(path=r.path, where=where, by=by,
                                                                   problem=say(r.problem))
    head = _("{path}: valid: {game} ({variant}), {players}, {n} entries").format(
        path=r.path, game=r.game, variant=r.variant, n=r.entries,
        players=ngettext("{n} player", "{n} players", len(r.seats)).format(n=len(r.seats)))
    taken = [_("P{n} taken over by {computer}").format(n=i + 1, computer=s["computer"]["name"])
             for i, s in enumerate(r.seats) if isinstance(s, dict) and s.get("computer")]
    if taken:
        head += f" ({', '.join(taken)})"
    if r.result == "over":
        scores = " ".join(f"P{i + 1}={s}" for i, s in enumerate(r.scores))
        return _("{head}; {scores}; winner(s) {winners}").format(head=head, scores=scores,
                                                                  winners=",".join(f"P{w}" for w in r.winners))
    culprit = _("seat {n} at fault").format(n=r.culprit) if r.culprit else _("nobody blamed")
    return _("{head}; game aborted ({culprit}): {reason}").format(head=head, culprit=culprit, reason=say(r.reason))
