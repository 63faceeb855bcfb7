"""Small modal dialogs: pass the keyboard, confirm, game over."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, OptionList, Static

from lanterne.client.i18n import N_, _


class HandoffScreen(ModalScreen[bool]):
    """Hot-seat: hides the board until the next player has the keyboard."""

    BINDINGS = [Binding("enter,space", "ready", N_("I am ready")), Binding("escape", "leave", N_("Leave the game"))]

    def __init__(self, label: str, note: str = ""):
        super().__init__()
        self.label = label
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff-box", classes="dialog"):
            yield Static(_("Pass the keyboard"), classes="screen-title")
            yield Static(_("{player}, it is your turn.").format(player=self.label), id="handoff-who")
            if self.note:
                yield Static(self.note, classes="muted")
            yield Static(_("The other players look away: your hand is shown next."), classes="muted")
            yield Button(_("I am {name}: show my hand").format(name=self.label.split(' ', 1)[-1]), id="handoff-ready",
                         variant="primary")

    AUTO_FOCUS = "#handoff-ready"
    """(Not a query in on_mount: an Enter typed at once can dismiss the dialog before it mounts.)"""

    def action_ready(self) -> None:
        self.dismiss(True)

    def action_leave(self) -> None:
        """Escape: leave the game (after a yes); the hands stay hidden meanwhile. Dismissed False."""

        def answer(yes: bool | None) -> None:
            if yes:
                self.dismiss(False)

        self.app.push_screen(ConfirmScreen(_("Leave this game? It is not saved.")), answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(True)


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS = [Binding("escape,n", "no", N_("No")), Binding("y", "yes", N_("Yes"))]

    def __init__(self, question: str):
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="screen-title")
            with Horizontal(classes="buttons"):
                yield Button(Text(_("Yes") + " [y]"), id="yes", variant="error")
                yield Button(Text(_("No") + " [n]"), id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no").focus()

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class LeaveScreen(ModalScreen[str]):
    """Leaving a network game on purpose: pause (back later) or resign (for good); ``""``: stay."""

    BINDINGS = [Binding("escape,s", "stay", N_("Stay")), Binding("p,y", "pause", N_("Pause")),
                Binding("r", "resign", N_("Resign"))]

    def __init__(self, question: str):
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.question), classes="screen-title")
            with Horizontal(classes="buttons"):
                yield Button(Text(_("Pause") + " [p]"), id="pause", variant="primary")
                yield Button(Text(_("Resign") + " [r]"), id="resign", variant="error")
                yield Button(Text(_("Stay") + " [s]"), id="stay")

    def on_mount(self) -> None:
        self.query_one("#stay").focus()

    def action_stay(self) -> None:
        self.dismiss("")

    def action_pause(self) -> None:
        self.dismiss("pause")

    def action_resign(self) -> None:
        """Resigning is for good: asked once more, so a stray ``r`` (a word typed for the chat) never resigns."""

        def answer(yes: bool | None) -> None:
            if yes:
                self.dismiss("resign")

        self.app.push_screen(ConfirmScreen(_("Resign this game for good?")), answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "resign":
            self.action_resign()
            return
        self.dismiss("" if event.button.id == "stay" else str(event.button.id))


class GameOverScreen(ModalScreen[str]):
    """The result, then back to the board or home."""

    BINDINGS = [Binding("escape", "board", N_("See the board")), Binding("h", "home", N_("Home")),
                Binding("m", "rematch", N_("Rematch"))]
    AUTO_FOCUS = "#board"  # focused when shown (a query in on_mount failed when the app closed meanwhile)

    def __init__(self, result: str, table: str, chart: Text | None = None, rematch: bool = False):
        super().__init__()
        self.result = result
        self.table = table
        self.chart = chart
        self.rematch = rematch
        """Offer a new deal with the same seats and options (a local game)."""
        """Each seat's score over the game (:class:`client.widgets.score_chart.ScoreChart`), if the screen had one."""

    def compose(self) -> ComposeResult:
        with Vertical(id="game-over-box", classes="dialog"):
            yield Static(_("Game over"), classes="screen-title")
            # names are not markup: "[computer] Ann 1" must show as it is
            yield Static(Text(self.result) if isinstance(self.result, str) else self.result, id="game-over-result")
            yield Static(Text(self.table) if isinstance(self.table, str) else self.table, id="game-over-scores")
            if self.chart is not None and self.chart.plain:
                yield Static(self.chart, id="game-over-chart")
            with Horizontal(classes="buttons"):
                yield Button(_("See the board"), id="board", variant="primary")
                if self.rematch:
                    yield Button(Text(_("Rematch [m]")), id="game-over-rematch")
                yield Button(Text(_("Home [h]")), id="game-over-home")  # not "#home": the home screen's box

    def action_board(self) -> None:
        self.dismiss("board")

    def action_home(self) -> None:
        self.dismiss("home")

    def action_rematch(self) -> None:
        if self.rematch:
            self.dismiss("rematch")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss({"game-over-home": "home", "game-over-rematch": "rematch"}.get(event.button.id or "", "board"))


class ChoiceScreen(ModalScreen[int | None]):
    """Pick one of several moves that a click could mean (e.g. which tile)."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, question: str, options: list[str]):
        super().__init__()
        self.question = question
        self.options = options

    def compose(self) -> ComposeResult:
        with Vertical(id="choice-box", classes="dialog"):
            yield Static(self.question, classes="screen-title")
            yield OptionList(*self.options, id="choices")
            yield Static(_("Click one, or arrows and Enter; Escape cancels."), classes="muted")

    def on_mount(self) -> None:
        self.query_one("#choices").focus()

    def on_option_list_option_selected(self, event) -> None:
        self.dismiss(event.option_index)

    def action_cancel(self) -> None:
        self.dismiss(None)
