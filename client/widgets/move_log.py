"""The move log: every action in public words, table operations dimmed."""

from __future__ import annotations

import re

from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import RichLog

from lanterne.client.controller import TABLE, GameController, LogEntry
from lanterne.client.game_terms import QUIET_MOVES
from lanterne.client.i18n import _, say
from lanterne.engines.core import Words


SLOT = re.compile(r"@\d+")
SEAT_WORD = re.compile(r"\b(?:seat |P)(\d+)\b")


def said(controller: GameController, entry: LogEntry) -> str:
    """The move's events in words, the mover left out ("builds a red column on site 3, floor 1"); a move
    that tells no event, said from its notation when the client knows it (Pacal's ``pass``)."""
    words = words_of(controller.game, [s.label for s in controller.seats], entry.actor, entry.events)
    quiet = QUIET_MOVES.get(entry.text) if not words else None
    return _(quiet) if quiet else words


def public_notation(text: str) -> str:
    """A move's notation without hidden cards' slots (Pagode's ``B@4``): no business of a reader."""
    return SLOT.sub("", text)


def words_of(game, labels: list[str], actor: int, events) -> str:
    """A seat's move in the engine's own words (from its events), seats by their labels, the mover left
    out; empty if the game cannot say it (the notation is always there)."""
    try:
        words = [game.describe_event(e) for e in events]
    except Exception:  # noqa: BLE001 - words are a courtesy; the notation is always there
        return ""

    def name(n: int) -> str | None:
        return labels[n - 1] if 1 <= n <= len(labels) else None

    me = labels[actor] + " " if 0 <= actor < len(labels) else "\0"
    out = []
    for w in words:
        if not w:
            continue
        w = say(w, name) if isinstance(w, Words) else SEAT_WORD.sub(lambda m: name(int(m.group(1))) or m.group(0), w)
        out.append(w[len(me):] if w.startswith(me) else w)
    return _("; ").join(out)


class MoveLog(RichLog):
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
    """Grows by a line a move: that repaints the log and its scrollbar. Textual's own ``virtual_size``
    asks for a layout of the whole screen, which renders every widget of the board again."""

    def watch_virtual_size(self, size: Size) -> None:
        # The scrollbar's length, as Textual's layout would set it (``Widget._scroll_update``, Textual 8, which
        # pyproject pins below 9); showing or hiding the scrollbar is a layout reactive of its own.
        self._scroll_update(size)

    def __init__(self, **kwargs):
        super().__init__(wrap=True, markup=False, auto_scroll=True, min_width=16, **kwargs)
        self.shown = 0
        self._waiting: GameController | None = None
        """The game whose new moves wait for the log to have a size (hidden behind F2 at 80x24, or not laid
        out yet): written at a width of 0, a line would wrap at ``min_width`` for good."""

    def on_resize(self, event: Resize) -> None:
        """A new size (the log's panel shown again, the terminal resized): the moves that waited are written,
        and the newest move is in view."""
        super().on_resize(event)
        if self._waiting is not None:
            self.show(self._waiting)
        self.scroll_end(animate=False, x_axis=False)

    def line_for(self, controller: GameController, entry: LogEntry) -> Text:
        """A seat's move said in words (the engine's own, from the move's events), its notation beside
        it, dimmed; a hidden card's slot (Pagode's ``B@4``) is no business of a reader and is left out."""
        if entry.actor == TABLE:
            return Text(f"{entry.number:>3}. " + _("table: {text}").format(text=entry.text), style="dim")
        seat = controller.seats[entry.actor]
        notation = public_notation(entry.text)
        words = said(controller, entry)
        line = Text(f"{entry.number:>3}. ")
        line.append(seat.label, style="bold")
        if words:
            line.append(f" {words}")
            line.append(f"  {notation}", style="dim")
        else:
            line.append(f": {notation}")
        return line

    def show(self, controller: GameController) -> None:
        """Append the entries not shown yet (the log only grows), at the log's width: while it has none,
        they wait for it (:meth:`on_resize`)."""
        if not self.size:
            self._waiting = controller
            return
        self._waiting = None
        if self.shown > len(controller.log):
            self.clear()
            self.shown = 0
        entries = controller.log[self.shown:]
        for entry in entries:
            self.write(self.line_for(controller, entry), scroll_end=False)
        if entries:     # in this frame, not in one after it (a second paint a move)
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.shown = len(controller.log)
