"""`lanterne log show LOG`: a game log in move notation.

Exit 0 when the whole file was shown, finished or not (a game under way is
replayed as a watcher to name its moves); 1 when it is damaged: an entry
that does not open, a log that does not replay, or bytes after the last
complete entry; 2 when it is not a Lanterne log at all.
"""

from __future__ import annotations

NAME = "log"
EXIT_DAMAGED = 1
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
    lines, sound = show(raws)
    for line in lines:
        print(line)
    if tail:
        print(f"({tail} bytes after the last complete entry: the file was cut or damaged)")
    return 0 if sound and not tail else EXIT_DAMAGED


def show_lines(raws: list[bytes], games=None) -> list[str]:
    """The game as text: players, every move in notation, table events, the result."""
    return show(raws, games)[0]


def show(raws: list[bytes], games=None) -> tuple[list[str], bool]:
    """:func:`show_lines`, and whether every entry opened and replayed (False: a damaged log)."""
    from client.controller import roll_words
    from protocol import identity as ids
    from protocol.log import open_entry
    from protocol.session import Aborted, GameOver, Moved, Session, TableResolved
    from protocol.verify import OUTSIDER
    from protocol.wire import ProtocolError

    entries = []
    for i, raw in enumerate(raws):
        try:
            entries.append(open_entry(raw))
        except ProtocolError as e:
            return [f"entry {i} is damaged: {e}"], False
    lines = []
    table = next((e for e in entries if e.kind == "table"), None)
    if table is None:
        return [f"{len(entries)} entries; no table was set"], True
    seats = table.body["seats"]
    lines.append(f"{table.body['game']} ({table.body['variant']}), {len(seats)} players")
    for i, (k, name) in enumerate(zip(seats, table.body["names"])):
        lines.append(f"  seat {i + 1}: {name} ({ids.fingerprint(k)})")
    seeds = {e.author: e.body["seed"] for e in entries if e.kind in ("end", "abort") and "seed" in e.body}
    key = next((k for k in seats if k in seeds), None)
    try:
        if key is None:    # a game under way: watch it (no seat's secrets needed to name the moves)
            session = Session.replay(entries, OUTSIDER, bytes(32), games=games, keep_events=True)
        else:
            session = Session.replay(entries, key, seeds[key], games=games, keep_events=True)
        events = session.replayed_events
    except ProtocolError as e:
        return lines + [f"the log does not replay: {e} (run lanterne verify)"], False
    for ev in events:
        if isinstance(ev, Moved):
            lines.append(f"{ev.entry:5}  seat {ev.seat + 1}  {ev.text}")
        elif isinstance(ev, TableResolved) and ev.op.kind == "roll":
            value = ev.outcome[1]   # 0-based in the log: a seat, or an index into the die's faces
            shown = (f"seat {value + 1} starts" if ev.op.why == "first player"
                     else roll_words(ev.op, value, table.body["game"]))   # the face as printed on the die
            lines.append(f"       table  roll{' (' + ev.op.why + ')' if ev.op.why else ''}: {shown}")
        elif isinstance(ev, GameOver):
            scores = " ".join(f"P{i + 1}={s}" for i, s in enumerate(ev.scores))
            lines.append(f"result: {scores}; winner(s) {','.join(f'P{w + 1}' for w in ev.winners)}")
        elif isinstance(ev, Aborted):
            who = f"seat {ev.culprit + 1}" if ev.culprit is not None else "nobody"
            lines.append(f"aborted by seat {ev.by + 1 if ev.by is not None else '?'} ({who} at fault): {ev.reason}")
    if session.result is None:
        lines.append(f"unfinished: the log stops at entry {entries[-1].seq} ({entries[-1].kind})")
    return lines, True
