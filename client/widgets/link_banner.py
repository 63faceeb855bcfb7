"""The network game's banner: every other peer's link, the safety code, the others' last moves.

A line above the status line of any game screen playing a network game.
It names every other peer with its link (linked / lost); while a link is
down it turns red and says that play resumes by itself. It shows the
table's policy for a player gone for good (``if a player is gone 5 min: a
computer takes the seat``), once a seat was given to a computer that
notice, and each other seat's last move, the newest highlighted, so a move
made while you looked away is never missed.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from protocol.identity import safety_part


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

    def show(self, controller, compact: bool = False) -> None:
        """Draw the banner from a :class:`client.net_controller.NetworkGame`.

        ``compact`` (a small terminal): one line, the links and the safety code; the others' moves are
        on the screen's compact line already.
        """
        line = Text(no_wrap=compact, overflow="ellipsis")
        down = controller.link_down
        links = controller.peer_links()
        if down:
            line.append("Link down: play resumes by itself when every peer is back.  ")
        for i, (label, up) in enumerate(links):
            line.append("   " if i else "")
            line.append(f"{label} ")
            line.append("linked" if up else "lost", style="bold green" if up else "bold")
        if not links:
            line.append("Not linked yet", style="dim")
        watchers = getattr(controller, "watchers", {})
        if watchers:
            line.append(f"   watching: {', '.join(sorted(watchers.values()))}", style="italic")
        if controller.safety_code and compact:     # one line: our own key's part, the line we read aloud
            mine = safety_part(controller.peer.me.public)
            line.append(f"   safety code (yours) {' '.join(mine[i:i + 5] for i in range(0, 30, 5))}", style="bold")
        elif controller.safety_code:
            line.append(f"   safety code {controller.safety_code}", style="bold")
        if compact:
            self._draw(line, down)
            return
        policy = controller.policy_text()
        if policy:
            line.append(f"   {policy}", style="italic")
        if controller.notice:
            line.append("\n")
            line.append(controller.notice, style="bold")
        moves, last = controller.last_moves, controller.last_remote
        if moves:
            line.append("\n")
            for i, seat in enumerate(sorted(moves)):
                entry = moves[seat]
                line.append("   " if i else "")
                line.append(f"{controller.seats[seat].label} played: ")
                line.append(f" {entry.text} ", style="reverse bold" if entry is last else "bold")
        self._draw(line, down)

    def _draw(self, line: Text, down: bool) -> None:
        self.set_class(down, "-down")
        if line.plain != self.text:
            self.text = line.plain
            self.history.append(self.text)
            self.update(line)
