"""Keep the part of a big board that matters in view when the terminal shows only part of it."""

from __future__ import annotations

from textual.geometry import Region
from textual.widget import Widget


def scroll_to_part(widget: Widget, part: Region, center: bool = False) -> bool:
    """Scroll ``widget``'s nearest scrolling container so that ``part`` (in the widget's own
    coordinates, e.g. the map cell under the keyboard cursor) is visible; nothing if it already is.
    False when the widget has no place on the screen yet (not laid out): try again after a refresh."""
    if not widget.is_mounted or not widget.region.size:
        return False
    on_screen = part.translate(widget.region.offset)
    for ancestor in widget.ancestors:
        if isinstance(ancestor, Widget) and ancestor.is_scrollable and (
                ancestor.max_scroll_x or ancestor.max_scroll_y):
            inner = ancestor.content_region
            local = on_screen.translate((-inner.x + int(ancestor.scroll_x), -inner.y + int(ancestor.scroll_y)))
            ancestor.scroll_to_region(local, animate=False, immediate=True, force=True, center=center)
            return True
    return True
