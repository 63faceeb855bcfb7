"""Scores per seat, with a marker on the seat whose turn it is."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from client.controller import COMPUTER, GameController


class ScoreBoard(Static):
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
            text.append(f"{mark}{seat.label}{kind}", style=style)
            text.append(f"  {score:>3}\n", style="bold")
        self.update(text)
