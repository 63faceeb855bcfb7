"""A fixed-size text widget whose updates repaint it without a new layout.

``Static.update`` asks the whole screen for a new layout; on a board with
dozens of pieces that is most of the cost of a move. Panels here have their
size set by the stylesheet, so a change of text only repaints the panel.
"""

from __future__ import annotations

from rich.console import RenderableType
from textual.widget import Widget


class TextPanel(Widget):
    def __init__(self, content: RenderableType = "", **kwargs):
        super().__init__(**kwargs)
        self._content = content

    def render(self) -> RenderableType:
        return self._content

    def set(self, content: RenderableType) -> bool:
        """Show ``content``; False (and no repaint) when it is already shown."""
        if content == self._content:
            return False
        self._content = content
        self.refresh()
        return True
