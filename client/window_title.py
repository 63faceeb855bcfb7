"""The terminal window's title: the game on screen, and that it is your turn.

A person who plays in another window sees the turn in the title bar or the task list, with the
bell (client/turn_bell.py) and under the same setting (``Settings.turn_bell``). The title is
written to the terminal as xterm's OSC 2 sequence, which terminals and tmux understand; a
terminal that does not ignores it.
"""

from __future__ import annotations

from lanterne.client.i18n import _

APP_NAME = "Lanterne"


def title_for(game: str | None = None, your_turn: bool = False) -> str:
    """'Lanterne', 'Pagode — Lanterne', or 'Your turn: Pagode — Lanterne'."""
    if game is None:
        return APP_NAME
    if your_turn:
        return _("Your turn: {game} — {app}").format(game=game, app=APP_NAME)
    return f"{game} — {APP_NAME}"


def title_sequence(title: str) -> str:
    """The bytes that set the window title (control characters left out: a name can hold none)."""
    return "\x1b]2;" + "".join(ch for ch in title if ch.isprintable()) + "\x07"


class WindowTitle:
    """The title written last, so that a title is written once, not on every redraw."""

    def __init__(self) -> None:
        self.text = ""

    def show(self, app, title: str) -> None:
        if title == self.text:
            return
        self.text = title
        driver = getattr(app, "_driver", None)    # Textual keeps its driver private; None while headless-less
        if driver is not None:
            driver.write(title_sequence(title))
