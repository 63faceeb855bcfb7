"""Settings: the display name others see, and this player's identity."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Static

from client.settings import MAX_NAME, check_name, identity_fingerprint


class SettingsScreen(Screen):
    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def compose(self) -> ComposeResult:
        settings = self.app.settings  # type: ignore[attr-defined]
        fingerprint = identity_fingerprint()
        yield Header()
        with VerticalScroll(classes="form"):
            yield Static("Settings", classes="screen-title")
            yield Label("Display name (what other players see)")
            yield Input(settings.display_name, max_length=MAX_NAME, compact=True, id="display-name")
            yield Label("Identity fingerprint")
            yield Static(fingerprint or "not created yet: the identity keys come with LAN play",
                         id="fingerprint", classes="muted" if fingerprint is None else "")
            yield Static("", id="settings-status", classes="status")
            with Horizontal(classes="buttons"):
                yield Button("Save", id="save", variant="primary", compact=True)
                yield Button("Back", id="back", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Settings"
        self.query_one("#display-name").focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.save()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.save()
        else:
            self.app.pop_screen()

    def save(self) -> None:
        status = self.query_one("#settings-status", Static)
        try:
            name = check_name(self.query_one("#display-name", Input).value)
        except ValueError as e:
            status.update(f"Not saved: {e}")
            status.set_class(True, "-error")
            return
        self.app.settings.display_name = name  # type: ignore[attr-defined]
        error = self.app.save_settings()  # type: ignore[attr-defined]
        status.set_class(bool(error), "-error")
        status.update(f"Not saved: {error}" if error else f"Saved: you are {name}.")
