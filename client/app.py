"""The Lanterne Textual app: home, local play, rules, settings, help.

``run_app()`` is what ``lanterne`` with no arguments runs; ``lanterne play``
starts the same app straight on a game screen. Screens live in
``client/screens``, widgets in ``client/widgets``, each game's board screen,
widgets and stylesheet in ``client/games/<game>/``; the app-wide style rules
in ``client/lanterne.tcss``, every colour in ``client/theme.py``.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
import signal
import sys
from typing import Callable, Iterable

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual._context import active_message_pump    # whose handler is running: Textual has no public name for it
from textual.await_complete import AwaitComplete
from textual.dom import NoScreen
from textual.screen import Screen
from textual.widget import Widget

from lanterne.client.driver import TerminalDriver
from lanterne.client.games import missing_parts
from lanterne.client.i18n import (LANGUAGES, N_, _, choose_language, language, language_from_environment,
                                  set_language, translate_bindings)
from lanterne.client.keys import keep_alt, split_alt
from lanterne.client.logs import crash_line
from lanterne.client.screens import home
from lanterne.client.screens.dialogs import ConfirmScreen
from lanterne.client.screens.home import HomeScreen
from lanterne.client.settings import Settings
from lanterne.client.theme import LANTERNE_THEME
from lanterne.client.window_title import WindowTitle, title_for

log = logging.getLogger(__name__)

QUIT_QUESTION = N_("Quit Lanterne? Your network game pauses: the others see you left on purpose, and r in the "
                   "lobby brings you back.")
"""Asked by Ctrl+Q while a network game is being played (Ctrl+Q again, or y, quits)."""

LEAVE_SECONDS = 5.0
"""On exit (quit, SIGTERM, SIGHUP): how long the network games may take to close their links and zeroconf."""


class LanterneApp(App):
    """A terminal board-game table. ``start`` opens a screen over the home screen."""

    CSS_PATH = "lanterne.tcss"
    TITLE = "Lanterne"
    SUB_TITLE = N_("a board-game table for the LAN and online")
    BINDINGS = [
        Binding("f1", "help", N_("Help"), priority=True),
        Binding("question_mark", "help", N_("Help"), show=False),
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
    ]

    def __init__(self, settings: Settings | None = None, settings_path: Path | None = None,
                 start: Callable[[], Screen] | None = None, resilient: bool = False):
        super().__init__()
        keep_alt()
        translate_bindings(self)
        self.sub_title = _(self.SUB_TITLE)
        self.resilient = resilient
        """True in the real app: an unexpected error ends it with one line, the traceback goes to a file."""
        self.settings = settings if settings is not None else Settings.load(settings_path)
        self.settings_path = settings_path
        self._start = start
        self._tables_to_close: list = []
        """The network games open when the app was asked to exit (closed in :meth:`on_unmount`)."""
        self.window_title = WindowTitle()
        """The terminal window's title (client/window_title.py): the game, and your turn."""

    def on_mount(self) -> None:
        if self.resilient:
            self._exit_on_signals()
        for line in missing_parts():
            log.warning(line)
        self.register_theme(LANTERNE_THEME)
        self.theme = self.settings.theme if self.settings.theme in self.available_themes else "lanterne"
        self.window_title.show(self, title_for())

        self.push_screen(HomeScreen())
        if self._start is not None:
            try:
                self.push_screen(self._start())
            except Exception as e:  # a bad start shows as a message, never a traceback
                self.notify(_("Could not open the game: {error}").format(error=e), severity="error", timeout=10)

    async def on_event(self, event: events.Event) -> None:
        """Alt+X is Escape then X (:mod:`client.keys`), each handled before the next key is routed."""
        if isinstance(event, events.Key) and not event.is_forwarded:
            keys = split_alt(event)
            if keys is not None:
                for key in keys:
                    await super().on_event(key)
                return
        await super().on_event(event)

    def _exit_on_signals(self) -> None:
        """SIGTERM or SIGHUP (kill, a closed terminal) end the app the normal way: the terminal gets
        its screen, cursor and mouse back (the default action killed us with the mouse still on), and
        every network table closes its links and withdraws its zeroconf record (see :meth:`exit`)."""
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if number is None:
                continue
            try:
                loop.add_signal_handler(number, lambda n=number: self.exit(return_code=128 + n))
            except (NotImplementedError, RuntimeError, ValueError):  # not on this platform or loop
                pass

    def get_driver_class(self):
        """Textual's terminal driver, made to outlive its terminal (client/driver.py); any other
        (the browser's under ``lanterne serve``, Windows') as Textual chooses it."""
        chosen = super().get_driver_class()
        if chosen.__module__ != "textual.drivers.linux_driver":
            return chosen

        return TerminalDriver

    async def action_quit(self) -> None:
        """Ctrl+Q: at once, but asked first while a network game is being played (the others wait for us);
        a yes pauses it, as Escape's Pause does, so the others see we left on purpose."""
        playing = self._network_games(playing=True)
        if not playing or isinstance(self.screen, ConfirmScreen) and self.screen.question == _(QUIT_QUESTION):
            self.exit()
            return

        def answer(yes: bool | None) -> None:
            if yes:
                for game in playing:
                    game.leave(resign=False)
                self.exit()

        self.push_screen(ConfirmScreen(_(QUIT_QUESTION)), answer)

    def _network_games(self, playing: bool = False) -> list:
        """The network games the screens hold: those played on a game screen and those of the lobby
        (``playing``: only games on a game screen, not over)."""
        module = sys.modules.get("lanterne.client.net_controller")
        try:
            screens = list(self.screen_stack) if module is not None else []  # else no network game was opened
        except Exception:  # no screen yet: nothing to close
            screens = []
        held = [h for screen in screens
                for h in (getattr(screen, "controller", None), None if playing else getattr(screen, "pending", None))
                if module is not None and isinstance(h, module.NetworkGame)]
        return [h for h in held if not (playing and h.is_over())]

    def exit(self, result=None, return_code: int = 0, message=None) -> None:
        """Exit (quit, SIGTERM, SIGHUP, a crash): the network games on the screens are remembered here,
        and :meth:`on_unmount` waits until they have closed their links and zeroconf."""
        for held in self._network_games():
            if all(held is not g for g in self._tables_to_close):
                self._tables_to_close.append(held)
        super().exit(result, return_code, message)

    async def on_unmount(self) -> None:
        """The app's last step, after the terminal is given back and the screens are gone (a game screen
        only cancels its peer): wait up to LEAVE_SECONDS until each network game has closed its links
        and sent its zeroconf goodbye, else the loop's end would cut that short (a ghost table in other
        lobbies for the record's TTL, about 75 min)."""
        games, self._tables_to_close = self._tables_to_close, []
        if games:
            await asyncio.wait([asyncio.ensure_future(g.aclose()) for g in games], timeout=LEAVE_SECONDS)

    def push_screen(self, screen, *args, **kwargs):
        """Every screen's footer in the language in force (its bindings' words are message ids)."""
        if isinstance(screen, Screen):
            translate_bindings(screen)
        return super().push_screen(screen, *args, **kwargs)

    def pop_screen(self) -> AwaitComplete:
        """Pop the top screen, unless a screen that is no longer on top asks: then nothing.

        A dialog's handlers may still run after it closed: ``?`` then Enter, Enter in one burst made
        the list of moves answer twice, and its second ``dismiss`` popped the game screen under it
        (Textual's dismiss pops whatever is on top). A screen below the top never pops the top.
        """
        asking = _screen_of(active_message_pump.get(None))
        if asking is not None and asking is not self.screen:
            self.log.warning(f"{type(asking).__name__} asked to close {type(self.screen).__name__}: ignored")
            return AwaitComplete.nothing()
        return super().pop_screen()

    def switch_screen(self, screen):
        if isinstance(screen, Screen):
            translate_bindings(screen)
        return super().switch_screen(screen)

    def watch_theme(self, theme: str) -> None:
        if getattr(self, "settings", None) is not None and self.settings.theme != theme:
            self.settings.theme = theme

    # -- actions the whole app shares
    def action_help(self) -> None:
        from lanterne.client.screens.help import HelpScreen  # its Markdown (markdown-it, pygments) loads when asked

        if not isinstance(self.screen, HelpScreen):
            game_help = getattr(self.screen, "help_text", None)  # a game screen: its own keys and mouse first
            self.push_screen(HelpScreen(game_help() if callable(game_help) else ""))

    def action_home(self) -> None:
        while len(self.screen_stack) > 2 and not isinstance(self.screen, HomeScreen):
            self.pop_screen()

    def action_open(self, name: str) -> None:
        """Open a screen by name: local, lan, replays, rules, settings."""
        self.push_screen(home.make_screen(name, self.settings))

    def save_settings(self) -> str | None:
        """Save the settings; the error as one line, or None when saved."""
        try:
            self.settings.save(self.settings_path)
        except OSError as e:
            return _("could not save the settings: {error}").format(error=e.strerror or e)
        return None

    def _handle_exception(self, error: Exception) -> None:
        if not self.resilient:
            return super()._handle_exception(error)

        self._return_code = 1
        self.exit(return_code=1, message=crash_line(error, "the app"))   # the traceback: crash.log in the log folder

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand(_("Play locally"), _("Hot-seat or against computer players"),
                            lambda: self.action_open("local"))
        yield SystemCommand(_("Play on the LAN or online"), _("Find players on this network, or invite a friend anywhere by a code"),
                            lambda: self.action_open("lan"))
        yield SystemCommand(_("Replays"), _("Step through and verify a game's signed log"),
                            lambda: self.action_open("replays"))
        yield SystemCommand(_("Rules"), _("Read the rules of a game"), lambda: self.action_open("rules"))
        yield SystemCommand(_("Settings"), _("Display name and identity"), lambda: self.action_open("settings"))
        yield SystemCommand(_("Help"), _("Keys and how to play"), self.action_help)
        yield SystemCommand(_("Home"), _("Back to the home screen"), self.action_home)
        here = LANGUAGES[language_from_environment()]
        for code, name in [("", _("from the environment ({language})").format(language=here)),
                           *LANGUAGES.items()]:
            yield SystemCommand(_("Language: {name}").format(name=name),
                                _("Lanterne's words in this language, saved in the settings (the games are the "
                                  "same in every language)"),
                                lambda code=code: self.choose_language(code))

    def choose_language(self, code: str) -> None:
        """The settings' language ("": the environment's): in force at once, saved with the settings; the
        home screen is redrawn in it, the other screens as they are opened."""
        self.settings.language = code
        set_language(choose_language(None, code))
        translate_bindings(self)
        self.sub_title = _(self.SUB_TITLE)
        for screen in self.screen_stack:
            translate_bindings(screen)
            retranslate = getattr(screen, "retranslate", None)
            if callable(retranslate):
                retranslate()
        error = self.save_settings()
        self.notify(error or _("Language: {name}").format(name=LANGUAGES[language()]),
                    severity="error" if error else "information")


def _screen_of(pump: object) -> Screen | None:
    """The screen whose handler is running (a widget's screen), or None for the app or outside Textual."""
    if isinstance(pump, Screen):
        return pump
    if isinstance(pump, Widget):
        try:
            return pump.screen
        except NoScreen:
            return None
    return None


def run_app(start: Callable[[], Screen] | None = None) -> int:
    """Run the app in this terminal; the exit status."""
    app = LanterneApp(start=start, resilient=True)
    before = dict(vars(app.settings))
    app.run()
    error = app.save_settings() if vars(app.settings) != before else None
    if error:
        say_after(f"lanterne: {error}", error=True)
    return app.return_code or 0


def say_after(line: str, error: bool = False) -> None:
    """One line on the terminal after the app has ended; dropped if the terminal is gone (it hung
    up: EIO), so that the exit status stays the app's own (129 for a closed terminal)."""
    try:
        print(line, file=sys.stderr if error else sys.stdout, flush=True)
    except OSError:
        pass
