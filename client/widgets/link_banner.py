"""The network game's banner: every other peer's link, the safety code, the others' last moves.

A line above the status line of any game screen playing a network game.
It names every other peer with its link (linked / link lost; once the game
is over, links close: "left"); while a link is
down it turns red and says that play resumes by itself. It shows the
table's policy for a player gone for good (``if a player is gone 5 min: a
computer takes the seat``), once a seat was given to a computer that
notice, and each other seat's last move, the newest highlighted, so a move
made while you looked away is never missed.
"""

from __future__ import annotations

from typing import Mapping, Protocol, Sequence

from rich.text import Text
from textual.widgets import Static

from lanterne.client.controller import LogEntry, Seat
from lanterne.client.i18n import _
from lanterne.client.theme import GOOD


class LinkFacts(Protocol):
    """What the banner reads from a network game (:class:`lanterne.client.net_controller.NetworkGame`)."""

    seats: Sequence[Seat]
    safety_code: str
    """The whole table's safety code ("" until the table is set)."""
    checked_by_code: bool
    """Every other seat came by a code, which proved its key: the safety code needs no comparing."""
    notice: str
    """One line when a seat was given to a computer ("" if none)."""
    watching: Sequence[str]
    """Everyone watching the table, through us or through another seat."""
    last_moves: Mapping[int, LogEntry]
    last_remote: LogEntry | None

    @property
    def link_down(self) -> bool: ...

    @property
    def my_safety_part(self) -> str: ...

    def peer_links(self) -> list[tuple[str, bool]]: ...

    def is_over(self) -> bool: ...

    def policy_text(self) -> str: ...


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

    def show(self, controller: LinkFacts, compact: bool = False) -> None:
        """Draw the banner from a network game's facts.

        ``compact`` (a small terminal): one line, the links and the safety code; the others' moves are
        on the screen's compact line already.
        """
        line = Text(no_wrap=compact, overflow="ellipsis")
        down = controller.link_down
        links = controller.peer_links()
        if down:
            line.append(_("Link down: play resumes by itself when every peer is back.") + "  ")
        over = controller.is_over()
        for i, (label, up) in enumerate(links):
            line.append("   " if i else "")
            line.append(f"{label} ")
            word = _("linked") if up else _("left") if over else _("link lost")   # "Ann lost" read as the result
            line.append(word, style=f"bold {GOOD}" if up else "bold")
        if not links:
            line.append(_("Not linked yet"), style="dim")
        if controller.watching:
            line.append("   " + _("watching: {names}").format(names=", ".join(controller.watching)), style="italic")
        if controller.safety_code and compact and controller.checked_by_code:   # nothing to read aloud
            line.append("   " + _("safety code checked by the code"), style="bold")
        elif controller.safety_code and compact:     # one line: our own key's part, the line we read aloud
            mine = controller.my_safety_part
            line.append("   " + _("safety code (yours) {code}").format(code=" ".join(mine[i:i + 5] for i in range(0, 30, 5))),
                        style="bold")
        elif controller.safety_code:
            line.append("   " + _("safety code {code}").format(code=controller.safety_code), style="bold")
            if controller.checked_by_code:
                line.append("  " + _("(checked by the code)"))
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
                line.append(_("{player} played:").format(player=controller.seats[seat].label) + " ")
                turn = controller.last_turns.get(seat) or [entry]   # the whole turn, in order
                line.append(f" {', '.join(e.text for e in turn)} ", style="reverse bold" if entry is last else "bold")
        self._draw(line, down)

    def _draw(self, line: Text, down: bool) -> None:
        self.set_class(down, "-down")
        if line.plain != self.text:
            self.text = line.plain
            self.history.append(self.text)
            self.update(line)
