"""Each seat's score over the game, as one line of bars per seat (fits a side panel at 80x24).

:func:`chart_text` draws a series of scores (one list per position, one
score per seat) on a scale shared by every seat, from 0 (or the lowest score)
to the highest, so the lines compare; a long game is resampled to the width
(each column the score at the end of its stretch of moves). The replay marks
the position on screen and dims what comes after it.

:class:`ScoreChart` is the live panel: the game screen's scoreboard mounts it
under itself and feeds it after each change; it keeps one point per entry
of the move log and one for the start, so that every peer's chart of a game
is the same whenever its screen opened (a resumed game gives its history from
the log, ``controller.score_history``).
"""

from __future__ import annotations

from typing import Sequence

from rich.text import Text

from lanterne.client.i18n import _
from lanterne.client.widgets.text_panel import TextPanel

BARS = "▁▂▃▄▅▆▇█"


def columns_of(points: int, width: int) -> list[int]:
    """For each column, the index of the point it shows: every point when they fit, else the last of
    each equal stretch (the final position is always the last column)."""
    if points <= width:
        return list(range(points))
    return [min(points - 1, ((c + 1) * points) // width - 1) for c in range(width)]


def chart_text(series: Sequence[Sequence[int]], labels: Sequence[str], width: int, title: str = "score",
               at: int | None = None) -> Text:
    """The chart: a title line, then one line per seat (its label, its bars, its score at ``at`` or the
    last position). ``at``: the position on screen (the replay), shown reversed, later ones dimmed."""
    text = Text(no_wrap=True, overflow="crop")
    seats = len(labels)
    points = [list(p) for p in series if len(p) >= seats]
    if not points or not seats:
        return text
    at = len(points) - 1 if at is None else max(0, min(at, len(points) - 1))
    values = [v for p in points for v in p[:seats]]
    low, high = min(0, min(values)), max(values)
    name_width = max(len(label) for label in labels)
    value_width = max(len(str(v)) for v in values)
    room = max(4, width - name_width - value_width - 2)
    picks = columns_of(len(points), room)
    here = next((c for c, i in enumerate(picks) if i >= at), len(picks) - 1)
    span = high - low
    text.append(_("{score} over the game").format(score=_(title)), style="dim")
    for seat, label in enumerate(labels):
        text.append("\n")
        text.append(f"{label:<{name_width}} ", style="bold")
        for c, i in enumerate(picks):
            level = 0 if span == 0 else round((points[i][seat] - low) * (len(BARS) - 1) / span)
            style = "reverse" if c == here and at < len(points) - 1 else ("dim" if c > here else "")
            text.append(BARS[level], style=style)
        text.append(f" {points[at][seat]:>{value_width}}")
    return text


class ScoreChart(TextPanel):
    """The live chart: one point per entry of the move log (and one for the start)."""

    DEFAULT_CSS = "ScoreChart { height: 0; margin-top: 1; padding: 0 1; }"

    def __init__(self, **kwargs):
        super().__init__("", **kwargs)
        self.points: list[list[int]] = []
        self._at_log: int | None = None
        self._labels: list[str] = []
        self._title = "score"

    def follow(self, controller) -> None:
        """Take the controller's scores if the move log grew since the last point; redraw."""
        game = controller.game
        try:
            scores = list(game.display_scores(controller.view(None)))
        except Exception:  # noqa: BLE001 - a chart is a courtesy; a view that cannot say its scores has none
            return
        size = len(controller.log)
        if self._at_log is None:  # a resumed game gives the scores before it
            self.points = [list(p) for p in (controller.score_history or [])]
        if self._at_log is not None and size < self._at_log:
            self.points = []      # another game, or a log rebuilt: start again
        # One point per entry of the move log, whenever the screen came (two peers' charts of one game agree):
        # entries not seen one by one (before the screen, or in one batch) keep the last scores known.
        del self.points[size + 1:]
        while len(self.points) < size:
            self.points.append(list(self.points[-1]) if self.points else list(scores))
        if len(self.points) == size:
            self.points.append(scores)
        else:
            self.points[size] = scores
        self._at_log = size
        self._labels = [_("P{n}").format(n=s.index + 1) for s in controller.seats]
        self._title = getattr(game, "score_name", "score") or "score"
        self.draw()

    def text(self, width: int) -> Text:
        """The chart at ``width`` columns (the game-over dialog shows it too); empty before any point."""
        return chart_text(self.points, self._labels, width, title=self._title)

    def draw(self) -> None:
        width = self.size.width or 40
        lines = len(self._labels) + 1 if self.points else 0
        if self.styles.height is None or self.styles.height.value != lines:
            self.styles.height = lines  # a new layout only when the line count changes
        self.set(self.text(width))

    def on_resize(self) -> None:
        if self.points:
            self.draw()
