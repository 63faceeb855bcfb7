"""Scores per seat, with a marker on the seat whose turn it is."""

from __future__ import annotations

from rich.text import Text
from client.widgets.text_panel import TextPanel

from client.controller import COMPUTER, GameController


class ScoreBoard(TextPanel):
    def show(self, controller: GameController) -> None:
        scores = controller.scores()
        waiting = controller.waiting
        over = waiting.kind == "over"
        winners = set(controller.winners()) if over else set()
        text = Text()
        for seat, score in zip(controller.seats, scores):
            turn = waiting.seat == seat.index
            mark = "▶ " if turn else ("★ " if seat.index in winners else "  ")
            kind = " (computer)" if seat.kind == COMPUTER else ""
            style = "bold reverse" if turn else ("bold" if seat.index in winners else "")
            name = f"{mark}{seat.label}{kind}"
            text.append(f"{name[:28]:<28}", style=style)
            text.append(f"{score:>4}\n", style="bold")
        text.rstrip()
        self.styles.height = len(controller.seats)
        self.set(text)
