"""`lanterne log show LOG`: a game log in move notation."""

from __future__ import annotations

NAME = "log"
HELP = "show a signed game log in move notation"


def add_arguments(p) -> None:
    sub = p.add_subparsers(dest="log_command", metavar="ACTION", required=True)
    show = sub.add_parser("show", help="print the game in move notation")
    show.add_argument("log", metavar="LOG")


def run(args) -> int:
    from client.cli import UserError
    from protocol.log import LogFormatError, read_log

    try:
        raws, tail = read_log(args.log)
    except LogFormatError as e:
        raise UserError(f"{args.log}: {e}") from None
    for line in show_lines(raws):
        print(line)
    if tail:
        print(f"({tail} bytes after the last complete entry: the file was cut)")
    return 0


def show_lines(raws: list[bytes], games=None) -> list[str]:
    """The game as text: players, every move in notation, table events, the result."""
    from protocol import identity as ids
    from protocol.log import open_entry
    from protocol.session import Aborted, GameOver, Moved, Session, TableResolved
    from protocol.wire import ProtocolError

    entries = []
    for i, raw in enumerate(raws):
        try:
            entries.append(open_entry(raw))
        except ProtocolError as e:
            return [f"entry {i} is damaged: {e}"]
    lines = []
    table = next((e for e in entries if e.kind == "table"), None)
    if table is None:
        return [f"{len(entries)} entries; no table was set"]
    seats = table.body["seats"]
    lines.append(f"{table.body['game']} ({table.body['variant']}), {len(seats)} players")
    for i, (k, name) in enumerate(zip(seats, table.body["names"])):
        lines.append(f"  seat {i + 1}: {name} ({ids.fingerprint(k)})")
    seeds = {e.author: e.body["seed"] for e in entries if e.kind in ("end", "abort") and "seed" in e.body}
    key = next((k for k in seats if k in seeds), None)
    if key is None:
        lines.append("(no seat revealed its seed: the moves as logged)")
        for e in entries:
            if e.kind == "move":
                lines.append(f"{e.seq:5}  seat {seats.index(e.author) + 1}  {' '.join(map(str, e.body['action']))}")
        return lines
    try:
        session = Session.replay(entries, key, seeds[key], games=games, keep_events=True)
        events = session.replayed_events
    except ProtocolError as e:
        return lines + [f"the log does not replay: {e} (run lanterne verify)"]
    for ev in events:
        if isinstance(ev, Moved):
            lines.append(f"{ev.entry:5}  seat {ev.seat + 1}  {ev.text}")
        elif isinstance(ev, TableResolved) and ev.op.kind == "roll":
            value = ev.outcome[1]
            shown = f"seat {value + 1} starts" if ev.op.why == "first player" else str(value)
            lines.append(f"       table  roll{' (' + ev.op.why + ')' if ev.op.why else ''}: {shown}")
        elif isinstance(ev, GameOver):
            scores = " ".join(f"P{i + 1}={s}" for i, s in enumerate(ev.scores))
            lines.append(f"result: {scores}; winner(s) {','.join(f'P{w + 1}' for w in ev.winners)}")
        elif isinstance(ev, Aborted):
            who = f"seat {ev.culprit + 1}" if ev.culprit is not None else "nobody"
            lines.append(f"aborted by seat {ev.by + 1 if ev.by is not None else '?'} ({who} at fault): {ev.reason}")
    return lines
