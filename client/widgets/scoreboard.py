"""Scores per seat, with a marker on the seat whose turn it is, and each seat's score over the game.

The chart (:class:`~client.widgets.score_chart.ScoreChart`) is mounted beside the scoreboard, before
the move log's title, on the first update: it stays in view where a game screen shows its own scores
instead (Pueblo's penalties).
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Label

from lanterne.client.widgets.move_log import MoveLog
from lanterne.client.widgets.score_chart import ScoreChart
from lanterne.client.widgets.text_panel import TextPanel

from lanterne.client.controller import COMPUTER, GameController
from lanterne.client.i18n import _


class ScoreBoard(TextPanel):
    def show(self, controller: GameController) -> None:
        self._controller = controller
        self._chart(controller)
        scores = controller.scores()
        waiting = controller.waiting
        over = waiting.kind == "over"
        winners = set(controller.winners()) if over else set()
        text = Text()
        width = max(12, (self.size.width or 40) - 5)  # the name column; a long name goes on, never cut
        lines = 0
        for seat, score in zip(controller.seats, scores):
            turn = waiting.seat == seat.index
            mark = "▶ " if turn else ("★ " if seat.index in winners else "  ")
            kind = "" if seat.kind != COMPUTER else f" ({seat.level})" if seat.level else " " + _("(computer)")
            style = "bold reverse" if turn else ("bold" if seat.index in winners else "")
            name = f"{mark}{seat.label}{kind}"
            parts = [name[i:i + width] for i in range(0, len(name), width)] or [""]
            for part in parts[:-1]:
                text.append(f"{part}\n", style=style)
            text.append(f"{parts[-1]:<{width}}", style=style)
            text.append(f"{score:>4}\n", style="bold")
            lines += len(parts)
        text.rstrip()
        if self.styles.height is None or self.styles.height.value != lines:
            self.styles.height = lines
        self.set(text)

    def _chart(self, controller: GameController) -> None:
        chart = getattr(self, "_score_chart", None)
        if chart is None:
            parent = self.parent
            if parent is None:
                return
            chart = self._score_chart = ScoreChart(id="score-chart")
            logs = [w for w in parent.children if isinstance(w, MoveLog)]
            children = list(parent.children)
            at = children.index(logs[0]) if logs else -1
            if at > 0 and isinstance(children[at - 1], Label):   # above the log's title
                parent.mount(chart, before=children[at - 1])
            else:
                parent.mount(chart, after=self)
        chart.follow(controller)

    def on_resize(self) -> None:
        controller = getattr(self, "_controller", None)
        if controller is not None:
            self.show(controller)
