"""The help screen (F1 or ?): keys, and how a game is played here."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from rich.markdown import Markdown as RichMarkdown
from textual.widgets import Button, Static

from lanterne.client.i18n import N_, _

HELP = N_("""\
# Lanterne help

| Key | Where | What |
|---|---|---|
| F1 (or ? outside a game) | everywhere | this help |
| Ctrl+P | everywhere | command palette: screens, themes, keys |
| Ctrl+Q | everywhere | quit |
| Escape | most screens | back |
| l p r u s | home | LAN, play locally, replays, rules, settings |
| : | game | type a move in the move notation |
| ? | game | every legal move, in words: Enter or a click plays it |
| F2 | game, small terminal | scores, game facts and the move log instead of the board, and back |
| Enter | game | play the highlighted move |
| u | game | take back your last action of this turn (a network table: if its host allows it, the others are asked) |
| arrows, Tab | Pagode | move between cards, sites and buttons |
| e | Pagode | end the turn |

**Playing.** The status line under the board always says whose turn it is
and what the app is waiting for. A move the rules refuse is not played;
the reason appears in the status line. Every game can be played by typing
its move notation in the command line (`?` lists the legal moves).

**Hot-seat.** Between the turns of two people at one keyboard, a
*pass the keyboard* screen hides the hands; the next player presses Enter.
""")


class HelpScreen(ModalScreen):
    BINDINGS = [Binding("escape,f1,question_mark,q", "dismiss", N_("Close"))]

    def __init__(self, game_help: str = ""):
        super().__init__()
        self.game_help = game_help
        """Markdown for the game on screen (its keys, from its bindings, and its mouse), shown first."""
        self.source = game_help + "\n\n" + _(HELP) if game_help else _(HELP)
        """The whole help, as Markdown."""

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="dialog"):
            with VerticalScroll(id="help-scroll"):
                # rich's Markdown in one Static: Textual's Markdown widget (a widget per block and per table
                # cell) took 0.5 s to open, a pause people noticed on F1
                yield Static(RichMarkdown(self.source), id="help-text")
            yield Button(_("Close"), id="help-close")

    def on_mount(self) -> None:
        # the text has the keys: arrows, Page Up/Down, Home/End scroll it at once; Tab reaches Close
        self.query_one("#help-scroll").focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss()
