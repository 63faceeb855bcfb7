"""The home screen: every way into Lanterne, one key or one click each."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Static

BANNER = r"""
  _                _
 | |    __ _ _ __ | |_ ___ _ __ _ __   ___
 | |   / _` | '_ \| __/ _ \ '__| '_ \ / _ \
 | |__| (_| | | | | ||  __/ |  | | | |  __/
 |_____\__,_|_| |_|\__\___|_|  |_| |_|\___|
"""

ENTRIES = (
    ("lan", "Play on the LAN", "l"),
    ("local", "Play locally", "p"),
    ("replays", "Replays", "r"),
    ("rules", "Rules", "u"),
    ("settings", "Settings", "s"),
)


def make_screen(name: str, settings=None) -> Screen:
    """The screen behind a home entry."""
    if name == "local":
        from client.screens.local_setup import LocalSetupScreen

        return LocalSetupScreen()
    if name == "rules":
        from client.screens.rules import RulesScreen

        return RulesScreen()
    if name == "settings":
        from client.screens.settings import SettingsScreen

        return SettingsScreen()
    if name == "replays":
        from client.screens.replay import ReplayScreen

        return ReplayScreen()
    if name == "lan":
        from client.screens.lobby import LobbyScreen

        interfaces = list(getattr(settings, "interfaces", None) or []) or None
        return LobbyScreen(settings, interfaces=interfaces)
    raise ValueError(f"no screen {name!r}")


class HomeScreen(Screen):
    """Where the app starts."""

    BINDINGS = [Binding(key, f"app.open('{name}')", label) for name, label, key in ENTRIES] + [
        Binding("q", "app.quit", "Quit"),
        Binding("up", "app.focus_previous", show=False),
        Binding("down", "app.focus_next", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            with Center():
                yield Static(BANNER.strip("\n"), id="banner")
            yield Static("A terminal board-game table for the LAN", id="tagline")
            with Center():
                with Vertical(id="home-menu"):
                    for name, label, key in ENTRIES:
                        yield Button(f"{label}  \\[{key}]", id=f"home-{name}", classes="home-entry")
                    yield Button("Quit  \\[q]", id="home-quit", classes="home-entry")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#home-local", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        name = (event.button.id or "").removeprefix("home-")
        if name == "quit":
            self.app.exit()
        else:
            self.app.action_open(name)  # type: ignore[attr-defined]
