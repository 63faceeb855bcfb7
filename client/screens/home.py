"""The home screen: every way into Lanterne, one key or one click each."""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Static

from lanterne.client.i18n import N_, _
from lanterne.client.local_games import describe_unfinished, unfinished_local
from lanterne.protocol.net.files import ResumeError

BANNER = r"""
  _                _
 | |    __ _ _ __ | |_ ___ _ __ _ __   ___
 | |   / _` | '_ \| __/ _ \ '__| '_ \ / _ \
 | |__| (_| | | | | ||  __/ |  | | | |  __/
 |_____\__,_|_| |_|\__\___|_|  |_| |_|\___|
"""

TAGLINE = N_("A board-game table for the LAN and, by a code, anywhere")

ENTRIES = (
    ("lan", N_("Play on the LAN or online"), "l"),
    ("local", N_("Play locally"), "p"),
    ("replays", N_("Replays"), "r"),
    ("rules", N_("Rules"), "u"),
    ("settings", N_("Settings"), "s"),
)


def describe(meta_path: Path) -> str:
    return describe_unfinished(meta_path)


def make_screen(name: str, settings=None) -> Screen:
    """The screen behind a home entry."""
    if name == "local":
        from lanterne.client.screens.local_setup import LocalSetupScreen  # loaded when its button opens it: start-up stays light

        return LocalSetupScreen()
    if name == "rules":
        from lanterne.client.screens.rules import RulesScreen  # loaded when its button opens it: start-up stays light

        return RulesScreen()
    if name == "settings":
        from lanterne.client.screens.settings import SettingsScreen  # loaded when its button opens it: start-up stays light

        return SettingsScreen()
    if name == "replays":
        from lanterne.client.screens.replay import ReplayScreen  # loaded when its button opens it: start-up stays light

        return ReplayScreen()
    if name == "lan":
        from lanterne.client.screens.lobby import LobbyScreen  # loaded when its button opens it: start-up stays light

        interfaces = list(getattr(settings, "interfaces", None) or []) or None
        return LobbyScreen(settings, interfaces=interfaces)
    raise ValueError(f"no screen {name!r}")


class HomeScreen(Screen):
    """Where the app starts."""

    BINDINGS = [Binding(key, f"app.open('{name}')", label) for name, label, key in ENTRIES] + [
        Binding("c", "resume", N_("Resume"), show=False),
        Binding("q", "app.quit", N_("Quit")),
        Binding("up", "app.focus_previous", show=False),
        Binding("down", "app.focus_next", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            with Center():
                yield Static(BANNER.strip("\n"), id="banner")
            yield Static(_(TAGLINE), id="tagline")
            with Center():
                yield Button(_("Resume"), id="home-resume", classes="home-entry")
            with Center():
                with Vertical(id="home-menu"):
                    for name, label, key in ENTRIES:
                        yield Button(f"{_(label)}  \\[{key}]", id=f"home-{name}", classes="home-entry")
                    yield Button(_("Quit") + "  \\[q]", id="home-quit", classes="home-entry")
        yield Footer()

    def on_mount(self) -> None:
        self.show_resume()
        self.query_one("#home-resume" if self.resumable else "#home-local", Button).focus()

    def on_screen_resume(self) -> None:
        self.show_resume()

    def retranslate(self) -> None:
        """The words again, in the language now in force (the command palette's Language)."""
        self.query_one("#tagline", Static).update(_(TAGLINE))
        for name, label, key in ENTRIES:
            self.query_one(f"#home-{name}", Button).label = f"{_(label)}  \\[{key}]"
        self.query_one("#home-quit", Button).label = _("Quit") + "  \\[q]"
        self.show_resume()
        self.refresh_bindings()

    # -- the last unfinished local game
    resumable: Path | None = None

    def show_resume(self) -> None:
        """The resume entry, shown only when a local game was left (or cut off) before its end."""
        found = unfinished_local()
        self.resumable = found[0] if found else None
        button = self.query_one("#home-resume", Button)
        button.display = self.resumable is not None
        button.styles.width = "auto"  # longer than the menu's entries: a game, who, how far
        button.styles.max_width = 76
        if self.resumable is not None:
            button.label = _("Resume: {game}").format(game=describe_unfinished(self.resumable)) + "  \\[c]"

    def action_resume(self) -> None:
        """Go on with the last unfinished local game, from the position where it stopped."""
        self.show_resume()
        if self.resumable is None:
            self.notify(_("No unfinished local game to resume."), severity="warning")
            return
        self.notify(_("Resuming {game} ...").format(game=describe(self.resumable)))
        self._resume(self.resumable, float(getattr(self.app.settings, "computer_delay", 0.0)))  # type: ignore[attr-defined]

    @work(thread=True, exclusive=True, group="resume", exit_on_error=False)
    def _resume(self, path: Path, delay: float) -> None:
        """Every seat's session replayed from the log (a second for a long game): off the screen's loop."""
        from lanterne.client.local_record import resume_local  # the sessions load when a game resumes, not at start

        try:
            controller = resume_local(path, computer_delay=delay)
        except (ResumeError, OSError, ValueError) as e:
            self.app.call_from_thread(self.notify, str(e), severity="error")
            return
        self.app.call_from_thread(self._resumed, controller)

    def _resumed(self, controller) -> None:
        from lanterne.client.screens.game import game_screen_for  # the board screens load with the first game

        if self.app.screen is not self:  # the person went elsewhere meanwhile
            controller.close()
            return
        self.app.push_screen(game_screen_for(controller))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        name = (event.button.id or "").removeprefix("home-")
        if name == "quit":
            self.app.exit()
        elif name == "resume":
            self.action_resume()
        else:
            self.app.action_open(name)  # type: ignore[attr-defined]
