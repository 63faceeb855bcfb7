"""The replay's list of steps: row 0 is the start, row i the position after step i; click to jump."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from lanterne.client.i18n import _
from lanterne.client.replay_model import Replay, Step
from lanterne.engines.core import TABLE


def step_line(step: Step) -> Text:
    if step.actor == TABLE:
        return Text(f"{step.number:>4}. " + _("table: {text}").format(text=step.text), style="dim")
    return Text(f"{step.number:>4}. " + _("P{n}").format(n=step.actor + 1) + f": {step.text}")


class ReplaySteps(OptionList):
    """Every step of a replay; the highlighted row is the position on screen."""

    DEFAULT_CSS = """
    ReplaySteps { height: 1fr; min-width: 24; }
    """

    def show_replay(self, replay: Replay) -> None:
        self.clear_options()
        rows = [Option(Text("   0. " + _("start"), style="bold"))]
        rows += [Option(step_line(step)) for step in replay.steps]
        self.add_options(rows)

    def mark(self, position: int) -> None:
        """Highlight the row of ``position`` (and scroll to it) without jumping anywhere."""
        if self.option_count and self.highlighted != position:
            with self.prevent(OptionList.OptionHighlighted):
                self.highlighted = position
