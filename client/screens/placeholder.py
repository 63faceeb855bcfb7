"""A clearly labelled screen for a part of Lanterne that is not built yet."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Static


class PlaceholderScreen(Screen):
    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, title: str, message: str):
        super().__init__()
        self.title_text = title
        self.message = message

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(classes="placeholder"):
            yield Static(f"{self.title_text}: coming soon", classes="screen-title")
            yield Static(self.message, classes="placeholder-text")
            yield Button("Back", id="back")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"{self.title_text} (coming soon)"
        self.query_one("#back").focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.app.pop_screen()
