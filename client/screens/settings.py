"""Settings: the display name others see, the theme, the computer player and its pace, the identity."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static

from client.local_play import BOT_KINDS
from client.settings import MAX_NAME, check_name, identity_fingerprint

DELAYS = (0.0, 0.2, 0.4, 0.8, 1.5)
LEVEL_WORDS = {"random": "random (plays any legal move)", "greedy": "greedy (best points this turn)",
               "ismcts:easy": "search, easy", "ismcts:normal": "search, normal (answers within 1 s)",
               "ismcts:hard": "search, hard"}


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
            yield Label("Theme (colours of the whole app)")
            themes = sorted(self.app.available_themes)
            yield Select([(t, t) for t in themes], value=self.app.theme if self.app.theme in themes else themes[0],
                         allow_blank=False, compact=True, id="theme")
            yield Label("Computer player for new local games")
            levels = list(BOT_KINDS) + ([settings.computer_level] if settings.computer_level not in BOT_KINDS
                                        else [])
            yield Select([(LEVEL_WORDS.get(k, k), k) for k in levels], value=settings.computer_level,
                         allow_blank=False, compact=True, id="computer-level")
            yield Label("Pause after each computer move (so you can follow it)")
            delays = sorted(set(DELAYS) | {settings.computer_delay})
            yield Select([(f"{d:g} s", d) for d in delays], value=settings.computer_delay, allow_blank=False,
                         compact=True, id="computer-delay")
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
        settings = self.app.settings  # type: ignore[attr-defined]
        settings.display_name = name
        settings.computer_level = str(self.query_one("#computer-level", Select).value)
        settings.computer_delay = float(self.query_one("#computer-delay", Select).value)  # type: ignore[arg-type]
        theme = str(self.query_one("#theme", Select).value)
        if theme in self.app.available_themes:
            self.app.theme = theme  # the app's watcher keeps settings.theme in step
            settings.theme = theme
        error = self.app.save_settings()  # type: ignore[attr-defined]
        status.set_class(bool(error), "-error")
        status.update(f"Not saved: {error}" if error else f"Saved: you are {name}.")

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "theme" and isinstance(event.value, str) and event.value in self.app.available_themes:
            self.app.theme = event.value  # seen at once; kept when saved
