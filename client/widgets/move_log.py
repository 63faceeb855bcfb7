"""The move log: every action in public words, table operations dimmed."""

from __future__ import annotations

import re

from textual.widgets import RichLog
from rich.text import Text

from client.controller import TABLE, GameController, LogEntry


SLOT = re.compile(r"@\d+")
SEAT_WORD = re.compile(r"\b(?:seat |P)(\d+)\b")


def said(controller: GameController, entry: LogEntry) -> str:
    """The move's events in words, the mover left out ("builds a red column on site 3, floor 1")."""
    try:
        words = [controller.game.describe_event(e) for e in entry.events]
    except Exception:  # noqa: BLE001 - words are a courtesy; the notation is always there
        return ""
    labels = [s.label for s in controller.seats]

    def name(m: re.Match) -> str:
        n = int(m.group(1))
        return labels[n - 1] if 1 <= n <= len(labels) else m.group(0)

    me = labels[entry.actor] + " "
    out = []
    for w in words:
        if not w:
            continue
        w = SEAT_WORD.sub(name, w)
        out.append(w[len(me):] if w.startswith(me) else w)
    return "; ".join(out)


class MoveLog(RichLog):
    def __init__(self, **kwargs):
        super().__init__(wrap=True, markup=False, auto_scroll=True, min_width=16, **kwargs)
        self.shown = 0

    def line_for(self, controller: GameController, entry: LogEntry) -> Text:
        """A seat's move said in words (the engine's own, from the move's events), its notation beside
        it, dimmed; a hidden card's slot (Pagode's ``B@4``) is no business of a reader and is left out."""
        if entry.actor == TABLE:
            return Text(f"{entry.number:>3}. table: {entry.text}", style="dim")
        seat = controller.seats[entry.actor]
        notation = SLOT.sub("", entry.text)
        words = said(controller, entry)
        line = Text(f"{entry.number:>3}. ")
        line.append(seat.label, style="bold")
        if words:
            line.append(f" {words}")
            line.append(f"  {notation}", style="dim")
        else:
            line.append(f": {notation}")
        return line

    def show(self, controller: GameController) -> None:
        """Append the entries not shown yet (the log only grows)."""
        if self.shown > len(controller.log):
            self.clear()
            self.shown = 0
        for entry in controller.log[self.shown:]:
            self.write(self.line_for(controller, entry))
        self.shown = len(controller.log)
