"""The move log: every action in public words, table operations dimmed."""

from __future__ import annotations

from textual.widgets import RichLog
from rich.text import Text

from client.controller import TABLE, GameController, LogEntry


class MoveLog(RichLog):
    def __init__(self, **kwargs):
        super().__init__(wrap=True, markup=False, auto_scroll=True, min_width=16, **kwargs)
        self.shown = 0

    def line_for(self, controller: GameController, entry: LogEntry) -> Text:
        if entry.actor == TABLE:
            return Text(f"{entry.number:>3}. table: {entry.text}", style="dim")
        seat = controller.seats[entry.actor]
        return Text(f"{entry.number:>3}. P{seat.index + 1}: {entry.text}")

    def show(self, controller: GameController) -> None:
        """Append the entries not shown yet (the log only grows)."""
        if self.shown > len(controller.log):
            self.clear()
            self.shown = 0
        for entry in controller.log[self.shown:]:
            self.write(self.line_for(controller, entry))
        self.shown = len(controller.log)
