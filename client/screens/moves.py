"""The legal moves (``?``): every move the seat on screen may play now, in notation and in words.

The list scrolls, however long it is; a click or Enter plays the move (the
game screen submits it, so a refusal reads as any other); Escape closes it.
The words come from the engine itself: the move is tried on the seat's own
view and the events it would cause are described (``Game.describe_event``),
so the list never says more than the seat may know.
"""

from __future__ import annotations

import re

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from lanterne.client.i18n import N_, _, say
from lanterne.engines.core import Action, Game, RulesError, State, Words

SEAT_WORD = re.compile(r"\bseat (\d+)\b")


def move_words(game: Game, view: State, action: Action, labels: list[str], seat: int | None = None) -> str:
    """What ``action`` would do, in the engine's words (seats named as on screen, the mover left
    out: "builds a red column on site 1; scores 1"); '' if it says nothing."""
    try:
        _after, events = game.apply(view, action)
        words = [game.describe_event(e) for e in events]
    except (RulesError, ValueError, TypeError, IndexError, KeyError):
        return ""

    def label(m: re.Match) -> str:
        n = int(m.group(1))
        return labels[n - 1] if 1 <= n <= len(labels) else m.group(0)

    def name(n: int) -> str | None:
        return labels[n - 1] if 1 <= n <= len(labels) else None

    said = [say(w, name) if isinstance(w, Words) else SEAT_WORD.sub(label, w) for w in words if w]
    if seat is not None and 0 <= seat < len(labels):
        for me in (labels[seat] + " ", f"P{seat + 1} "):
            said = [w[len(me):] if w.startswith(me) else w for w in said]
    return _("; ").join(said)


class MovesScreen(ModalScreen[int | None]):
    """Pick one of the legal moves: its index in ``moves``, or None."""

    BINDINGS = [Binding("escape,question_mark", "cancel", N_("Close"))]

    def __init__(self, title: str, moves: list[tuple[str, str]]):
        super().__init__()
        self.title_text = title
        self.moves = moves

    def compose(self) -> ComposeResult:
        width = max((len(n) for n, _words in self.moves), default=0)
        options = []
        for notation, words in self.moves:
            line = Text(notation.ljust(width), style="bold")
            if words:
                line.append("  " + words, style="dim")
            options.append(Option(line))
        with Vertical(id="moves-box", classes="dialog"):
            yield Static(Text(self.title_text), classes="screen-title")
            yield OptionList(*options, id="legal-moves")
            yield Static(_("Click one, or arrows and Enter to play it; Escape closes."), classes="muted")

    def on_mount(self) -> None:
        self.query_one("#legal-moves").focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option_index)

    def action_cancel(self) -> None:
        self.dismiss(None)
