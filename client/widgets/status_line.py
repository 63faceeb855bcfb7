"""The status line: whose turn it is, what the app waits for, or why a move was refused."""

from __future__ import annotations

from lanterne.client.widgets.text_panel import TextPanel


class StatusLine(TextPanel):
    def show(self, text: str, error: bool = False) -> None:
        self.set(text)
        self.set_class(error, "-error")
