"""The network game's banner: the link's state, the safety code, the other player's last move.

A line above the status line of any game screen playing a network game.
While the link is down it turns red and says that play resumes by itself;
the other player's last move is shown highlighted, so a move made while
you looked away is never missed.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class LinkBanner(Static):
    DEFAULT_CSS = """
    LinkBanner { height: auto; padding: 0 1; background: $panel; }
    LinkBanner.-down { background: $error; color: $text; text-style: bold; }
    """

    def __init__(self, **kwargs):
        super().__init__("", **kwargs)
        self.text = ""
        self.history: list[str] = []
        """Every distinct text shown (tests and the curious read it)."""

    def show(self, controller) -> None:
        """Draw the banner from a :class:`client.net_controller.NetworkGame`."""
        line = Text()
        down = controller.link_down
        if down:
            line.append("Link down: waiting for the other player; play resumes by itself when it is back.")
        elif controller.linked:
            line.append("Linked", style="bold green")
        else:
            line.append("Not linked", style="dim")
        if controller.safety_code:
            line.append(f"   safety code {controller.safety_code}", style="bold")
        last = controller.last_remote
        if last is not None and 0 <= last.actor < len(controller.seats):
            line.append("\n")
            line.append(f"{controller.seats[last.actor].label} played: ")
            line.append(f" {last.text} ", style="reverse bold")
        self.set_class(down, "-down")
        if line.plain != self.text:
            self.text = line.plain
            self.history.append(self.text)
            self.update(line)
