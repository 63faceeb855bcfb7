"""The Lanterne Textual app: home, local play, rules, settings, help.

``run_app()`` is what ``lanterne`` with no arguments runs; ``lanterne play``
starts the same app straight on a game screen. Screens live in
``client/screens``, widgets in ``client/widgets``, and every style in the
one stylesheet ``client/lanterne.tcss``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.theme import Theme

from client.settings import Settings

LANTERNE_THEME = Theme(
    name="lanterne",
    primary="#E8A33D",  # lantern light
    secondary="#B5442E",  # lacquer red
    accent="#F2C14E",
    foreground="#EDE6D6",
    background="#1B1A22",
    surface="#26242F",
    panel="#33303D",
    success="#7FB069",
    warning="#F2C14E",
    error="#E05A47",
    dark=True,
)

LEAVE_SECONDS = 5.0
"""On exit (quit, SIGTERM, SIGHUP): how long the network games may take to close their links and zeroconf."""


class LanterneApp(App):
    """A terminal board-game table. ``start`` opens a screen over the home screen."""

    CSS_PATH = "lanterne.tcss"
    TITLE = "Lanterne"
    SUB_TITLE = "a board-game table for the LAN"
    BINDINGS = [
        Binding("f1", "help", "Help", priority=True),
        Binding("question_mark", "help", "Help", show=False),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, settings: Settings | None = None, settings_path: Path | None = None,
                 start: Callable[[], Screen] | None = None, resilient: bool = False):
        super().__init__()
        self.resilient = resilient
        """True in the real app: an unexpected error ends it with one line, the traceback goes to a file."""
        self.settings = settings if settings is not None else Settings.load(settings_path)
        self.settings_path = settings_path
        self._start = start
        self._tables_to_close: list = []
        """The network games open when the app was asked to exit (closed in :meth:`on_unmount`)."""

    def on_mount(self) -> None:
        if self.resilient:
            self._exit_on_signals()
        self.register_theme(LANTERNE_THEME)
        self.theme = self.settings.theme if self.settings.theme in self.available_themes else "lanterne"
        from client.screens.home import HomeScreen

        self.push_screen(HomeScreen())
        if self._start is not None:
            try:
                self.push_screen(self._start())
            except Exception as e:  # a bad start shows as a message, never a traceback
                self.notify(f"Could not open the game: {e}", severity="error", timeout=10)

    def _exit_on_signals(self) -> None:
        """SIGTERM or SIGHUP (kill, a closed terminal) end the app the normal way: the terminal gets
        its screen, cursor and mouse back (the default action killed us with the mouse still on), and
        every network table closes its links and withdraws its zeroconf record (see :meth:`exit`)."""
        import asyncio
        import signal

        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if number is None:
                continue
            try:
                loop.add_signal_handler(number, lambda n=number: self.exit(return_code=128 + n))
            except (NotImplementedError, RuntimeError, ValueError):  # not on this platform or loop
                pass

    def exit(self, result=None, return_code: int = 0, message=None) -> None:
        """Exit (quit, SIGTERM, SIGHUP, a crash): the network games on the screens are remembered here,
        and :meth:`on_unmount` waits until they have closed their links and zeroconf."""
        import sys

        module = sys.modules.get("client.net_controller")
        try:
            screens = list(self.screen_stack) if module is not None else []  # else no network game was opened
        except Exception:  # no screen yet: nothing to close
            screens = []
        for screen in screens:
            for held in (getattr(screen, "controller", None), getattr(screen, "pending", None)):
                if isinstance(held, module.NetworkGame) and all(held is not g for g in self._tables_to_close):
                    self._tables_to_close.append(held)
        super().exit(result, return_code, message)

    async def on_unmount(self) -> None:
        """The app's last step, after the terminal is given back and the screens are gone (a game screen
        only cancels its peer): wait up to LEAVE_SECONDS until each network game has closed its links
        and sent its zeroconf goodbye, else the loop's end would cut that short (a ghost table in other
        lobbies for the record's TTL, about 75 min)."""
        import asyncio

        games, self._tables_to_close = self._tables_to_close, []
        if games:
            await asyncio.wait([asyncio.ensure_future(g.aclose()) for g in games], timeout=LEAVE_SECONDS)

    def watch_theme(self, theme: str) -> None:
        if getattr(self, "settings", None) is not None and self.settings.theme != theme:
            self.settings.theme = theme

    # -- actions the whole app shares
    def action_help(self) -> None:
        from client.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            game_help = getattr(self.screen, "help_text", None)  # a game screen: its own keys and mouse first
            self.push_screen(HelpScreen(game_help() if callable(game_help) else ""))

    def action_home(self) -> None:
        from client.screens.home import HomeScreen

        while len(self.screen_stack) > 2 and not isinstance(self.screen, HomeScreen):
            self.pop_screen()

    def action_open(self, name: str) -> None:
        """Open a screen by name: local, lan, replays, rules, settings."""
        from client.screens import home

        self.push_screen(home.make_screen(name, self.settings))

    def save_settings(self) -> str | None:
        """Save the settings; the error as one line, or None when saved."""
        try:
            self.settings.save(self.settings_path)
        except OSError as e:
            return f"could not save the settings: {e.strerror or e}"
        return None

    def _handle_exception(self, error: Exception) -> None:
        if not self.resilient:
            return super()._handle_exception(error)
        from client.logs import crash_line

        self._return_code = 1
        self.exit(return_code=1, message=crash_line(error, "the app"))   # the traceback: crash.log in the log folder

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Play locally", "Hot-seat or against computer players",
                            lambda: self.action_open("local"))
        yield SystemCommand("Play on the LAN", "Find players and open tables on this network",
                            lambda: self.action_open("lan"))
        yield SystemCommand("Replays", "Step through and verify a game's signed log", lambda: self.action_open("replays"))
        yield SystemCommand("Rules", "Read the rules of a game", lambda: self.action_open("rules"))
        yield SystemCommand("Settings", "Display name and identity", lambda: self.action_open("settings"))
        yield SystemCommand("Help", "Keys and how to play", self.action_help)
        yield SystemCommand("Home", "Back to the home screen", self.action_home)


def run_app(start: Callable[[], Screen] | None = None) -> int:
    """Run the app in this terminal; the exit status."""
    app = LanterneApp(start=start, resilient=True)
    before = dict(vars(app.settings))
    app.run()
    error = app.save_settings() if vars(app.settings) != before else None
    if error:
        import sys

        sys.stderr.write(f"lanterne: {error}\n")
    return app.return_code or 0
