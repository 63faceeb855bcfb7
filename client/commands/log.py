"""`lanterne log show LOG`: a game log in move notation.

Exit 0 when the whole file was shown, finished or not (a game under way is
replayed as a watcher to name its moves); 1 when it is damaged: an entry
that does not open, a log that does not replay, or bytes after the last
complete entry; 2 when it is not a Lanterne log at all.
"""

from __future__ import annotations

from lanterne.client.cli import UserError
from lanterne.client.i18n import N_, _, ngettext, seat_tag
from lanterne.protocol.log import LogFormatError, open_entry, read_log
from lanterne.engines.core import ROLL
from lanterne.protocol import identity as ids
from lanterne.protocol.wire import ProtocolError

NAME = "log"
EXIT_DAMAGED = 1
HELP = N_("show a signed game log in move notation")


def add_arguments(p) -> None:
    sub = p.add_subparsers(dest="log_command", metavar="ACTION", required=True)
    show = sub.add_parser("show", help=_("print the game in move notation"))
    show.add_argument("log", metavar="LOG")


def run(args) -> int:
    # what this command alone needs: --version and --help import every command module
    from lanterne.client.replay_model import why_not_a_log_file

    try:
        why = why_not_a_log_file(args.log)
        if why:
            raise LogFormatError(why)
        raws, tail = read_log(args.log)
    except LogFormatError as e:
        raise UserError(_("{log}: {e}").format(log=args.log, e=e)) from None
    lines, sound = show(raws)
    for line in lines:
        print(line)
    if tail:
        print(ngettext("({n} byte after the last complete entry: the file was cut or damaged)",
                       "({n} bytes after the last complete entry: the file was cut or damaged)", tail).format(n=tail))
    return 0 if sound and not tail else EXIT_DAMAGED


def show_lines(raws: list[bytes], games=None) -> list[str]:
    """The game as text: players, every move in notation, table events, the result."""
    return show(raws, games)[0]


def show(raws: list[bytes], games=None) -> tuple[list[str], bool]:
    """:func:`show_lines`, and whether every entry opened and replayed (False: a damaged log)."""
    # what this command alone needs: --version and --help import every command module
    from lanterne.client.controller import describe_table_op
    from lanterne.protocol.session import Aborted, GameOver, Moved, Session, TableResolved
    from lanterne.protocol.verify import OUTSIDER

    entries = []
    for i, raw in enumerate(raws):
        try:
            entries.append(open_entry(raw))
        except ProtocolError as e:
            return [_("entry {n} is damaged: {error}").format(n=i, error=e)], False
    lines = []
    table = next((e for e in entries if e.kind == "table"), None)
    if table is None:
        return [ngettext("{n} entry; no table was set", "{n} entries; no table was set", len(entries)).format(
            n=len(entries))], True
    seats = table.body["seats"]
    lines.append(ngettext("{game} ({variant}), {n} player", "{game} ({variant}), {n} players", len(seats)).format(
        game=table.body["game"], variant=table.body["variant"], n=len(seats)))
    for i, (k, name) in enumerate(zip(seats, table.body["names"])):
        lines.append("  " + _("{seat}: {name} ({key})").format(seat=seat_tag(i), name=name, key=ids.fingerprint(k)))
    seeds = {e.author: e.body["seed"] for e in entries if e.kind in ("end", "abort") and "seed" in e.body}
    key = next((k for k in seats if k in seeds), None)
    try:
        if key is None:    # a game under way: watch it (no seat's secrets needed to name the moves)
            session = Session.replay(entries, OUTSIDER, bytes(32), games=games, keep_events=True)
        else:
            session = Session.replay(entries, key, seeds[key], games=games, keep_events=True)
        events = session.replayed_events
    except ProtocolError as e:
        return lines + [_("the log does not replay: {error} (run lanterne verify)").format(error=e)], False
    number = 0   # every move and every table operation, counted as the app's move log counts them
    for ev in events:
        if isinstance(ev, Moved):
            number += 1
            lines.append(f"{number:5}  " + seat_tag(ev.seat) + f"  {ev.text}")
        elif isinstance(ev, TableResolved):
            number += 1
            public = ev.outcome if ev.op.kind == ROLL else None
            lines.append(f"{number:5}  " + _("table") + "  " + describe_table_op(ev.op, public, table.body["game"]))
        elif isinstance(ev, GameOver):
            scores = " ".join(f"{seat_tag(i)}={s}" for i, s in enumerate(ev.scores))
            lines.append(_("result: {scores}; winner(s) {winners}").format(
                scores=scores, winners=",".join(seat_tag(w) for w in ev.winners)))
        elif isinstance(ev, Aborted):
            who = seat_tag(ev.culprit) if ev.culprit is not None else _("nobody")
            lines.append(_("aborted by {seat} ({who} at fault): {reason}").format(
                seat=seat_tag(ev.by) if ev.by is not None else "?", who=who, reason=ev.reason))
    if session.result is None:
        lines.append(_("unfinished: the log stops at entry {n} ({kind})").format(n=entries[-1].seq, kind=entries[-1].kind))
    return lines, True
