"""The status line: whose turn it is, what the app waits for, or why a move was refused."""

from __future__ import annotations

from textual.widgets import Static


class StatusLine(Static):
    def show(self, text: str, error: bool = False) -> None:
        self.update(text)
        self.set_class(error, "-error")
