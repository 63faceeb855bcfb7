"""The clocks on the board: each seat's time on this move and in the game, and the table's move clock.

Two small panels read one :class:`~client.seat_clocks.SeatClocks`: the side panel's, a line per
seat, and the compact layout's, one line beside the scores. Each second only they repaint (a
:class:`TextPanel` of a fixed size): the board is not drawn again for a clock.
"""

from __future__ import annotations

from rich.text import Text

from lanterne.client.cells import fit
from lanterne.client.controller import GameController
from lanterne.client.i18n import _, seat_tag
from lanterne.client.seat_clocks import SeatClocks, clock_text
from lanterne.client.widgets.text_panel import TextPanel

TIME_WIDTH = 10
"""The cells of a time column in the side panel (a header, ``h:mm:ss``)."""
COMPACT_WIDTH = 24
"""The compact line's cells: the seat to move, its time on this move and in the game."""
COMPACT_WIDTH_WITH_MOVE_CLOCK = 38
"""... and the table's move clock counting down."""


def move_clock_words(left: float) -> str:
    """'9:48 left' of the table's move clock."""
    return _("{time} left").format(time=clock_text(left))


class ClockPanel(TextPanel):
    """The seats' clocks, a line each (the side panel); ``compact``: the seat to move's, one line."""

    def __init__(self, compact: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.compact = compact
        self._shown: tuple[GameController, SeatClocks, float] | None = None

    def on_resize(self) -> None:
        """The side panel's columns follow its width: drawn again at the width the layout gave it."""
        if self._shown is not None:
            self.show(*self._shown)

    def show(self, controller: GameController, clocks: SeatClocks, now: float) -> bool:
        """Draw the clocks at ``now``; False when nothing changed (no repaint)."""
        self._shown = (controller, clocks, now)
        left = controller.move_clock_left()
        if self.compact:
            return self.set(self._line(controller, clocks, now, left))
        lines = 1 + len(controller.seats) + (left is not None)
        if self.styles.height is None or self.styles.height.value != lines:
            self.styles.height = lines      # a new layout only when a line comes or goes, never for a tick
        return self.set(self._lines(controller, clocks, now, left))

    def _lines(self, controller: GameController, clocks: SeatClocks, now: float, left: float | None) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        width = max(20, (self.size.width or 40) - 2)
        name_width = width - 2 * TIME_WIDTH
        text.append(fit(_("Clocks"), name_width) + fit(_("this move"), TIME_WIDTH, ">")
                    + fit(_("game"), TIME_WIDTH, ">") + "\n", style="bold")
        for seat in controller.seats:
            moving = seat.index == clocks.seat
            move = clock_text(clocks.on_move(now)) if moving else ""
            text.append(fit(f"{'▶ ' if moving else '  '}{seat.label}", name_width), style="bold reverse" if moving else "")
            text.append(fit(move, TIME_WIDTH, ">") + fit(clock_text(clocks.in_game(seat.index, now)), TIME_WIDTH, ">")
                        + "\n", style="bold" if moving else "")
        if left is not None:
            text.append(_("Move clock: {left}").format(left=move_clock_words(left)), style="bold")
        text.rstrip()
        return text

    def _line(self, controller: GameController, clocks: SeatClocks, now: float, left: float | None) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis", justify="right")
        if clocks.seat is None or clocks.seat >= len(controller.seats):
            return text
        text.append(_("{seat} {move}, game {game}").format(
            seat=seat_tag(clocks.seat), move=clock_text(clocks.on_move(now)),
            game=clock_text(clocks.in_game(clocks.seat, now))))
        if left is not None:
            text.append(" · ")
            text.append(move_clock_words(left), style="bold")
        return text
