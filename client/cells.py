"""Text measured in terminal cells, not characters: a wide character (漢, 🎲) takes two.

Names are padded and cut to columns in the boards and score tables; doing
it by ``len`` misaligns every column after a wide character. These helpers
use ``rich.cells`` (the measure Textual itself draws with).
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size

__all__ = ["cell_len", "cut", "fit"]


def cut(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` cells, never through a wide character (no padding)."""
    if cell_len(text) <= width:
        return text
    out, used = [], 0
    for ch in text:
        w = cell_len(ch)
        if used + w > width:
            break
        out.append(ch)
        used += w
    return "".join(out)


def fit(text: str, width: int, align: str = "<") -> str:
    """``text`` cut and padded to exactly ``width`` cells, like ``f"{text[:w]:<w}"`` but by cells.

    ``align`` is ``<`` (left, the default) or ``>`` (right). A wide
    character that would straddle the edge is left out and made up by a space.
    """
    if align == "<":
        return set_cell_size(cut(text, width), width)
    if align == ">":
        short = cut(text, width)
        return " " * (width - cell_len(short)) + short
    raise ValueError(f"align must be '<' or '>', not {align!r}")
