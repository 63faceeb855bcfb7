"""Settings: the display name others see, the language, the theme, the computer player and its pace,
the identity."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Header, Input, Label, Select, Static

from lanterne.client.i18n import LANGUAGES, N_, _, language_from_environment, seconds_text
from lanterne.client.local_play import BOT_KINDS
from lanterne.client.settings import MAX_NAME, check_name, identity_fingerprint

DELAYS = (0.0, 0.2, 0.4, 0.8, 1.5)
LEVEL_WORDS = {"random": N_("random (plays any legal move)"), "greedy": N_("greedy (best points this turn)"),
               "ismcts:easy": N_("search, easy"), "ismcts:normal": N_("search, normal (answers within 1 s)"),
               "ismcts:hard": N_("search, hard (thinks up to 3 s)")}


class SettingsScreen(Screen):
    BINDINGS = [Binding("escape", "app.pop_screen", N_("Back")),
                Binding("ctrl+s", "save", N_("Save"))]

    def compose(self) -> ComposeResult:
        settings = self.app.settings  # type: ignore[attr-defined]
        fingerprint = identity_fingerprint()
        yield Header()
        with VerticalScroll(classes="form"):
            yield Static(_("Settings"), classes="screen-title")
            yield Label(_("Display name (what other players see)"))
            yield Input(settings.display_name, max_length=MAX_NAME, compact=True, id="display-name")
            yield Label(_("Language (the games are the same in every language)"))
            here = LANGUAGES[language_from_environment()]
            choices = [(_("from the environment ({language})").format(language=here), ""), *(
                (name, code) for code, name in LANGUAGES.items())]
            yield Select(choices, value=settings.language if settings.language in LANGUAGES else "",
                         allow_blank=False, compact=True, id="language")
            yield Label(_("Theme (colours of the whole app)"))
            themes = sorted(self.app.available_themes)
            yield Select([(t, t) for t in themes], value=self.app.theme if self.app.theme in themes else themes[0],
                         allow_blank=False, compact=True, id="theme")
            yield Label(_("Computer player for new local games"))
            levels = list(BOT_KINDS) + ([settings.computer_level] if settings.computer_level not in BOT_KINDS
                                        else [])
            yield Select([(_(LEVEL_WORDS[k]) if k in LEVEL_WORDS else k, k) for k in levels],
                         value=settings.computer_level,
                         allow_blank=False, compact=True, id="computer-level")
            yield Label(_("Pause after each computer move (so you can follow it)"))
            delays = sorted(set(DELAYS) | {settings.computer_delay})
            yield Select([(seconds_text(d), d) for d in delays], value=settings.computer_delay, allow_blank=False,
                         compact=True, id="computer-delay")
            yield Checkbox(_("Ring the terminal's bell when a network game's turn comes back to you"),
                           value=settings.turn_bell, compact=True, id="turn-bell")
            yield Label(_("Identity fingerprint"))
            yield Static(fingerprint or _("not created yet: the identity keys come with LAN play"),
                         id="fingerprint", classes="muted" if fingerprint is None else "")
            yield Static("", id="settings-status", classes="status")
            with Horizontal(classes="buttons"):
                yield Button(_("Save"), id="save", variant="primary", compact=True)
                yield Button(_("Back"), id="back", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = _("Settings")
        self.query_one("#display-name").focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.save()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.save()
        else:
            self.app.pop_screen()

    def action_save(self) -> None:
        self.save()

    def save(self) -> None:
        status = self.query_one("#settings-status", Static)
        try:
            name = check_name(self.query_one("#display-name", Input).value)
        except ValueError as e:
            status.update(_("Not saved: {error}").format(error=e))
            status.set_class(True, "-error")
            return
        settings = self.app.settings  # type: ignore[attr-defined]
        settings.display_name = name
        settings.computer_level = str(self.query_one("#computer-level", Select).value)
        settings.computer_delay = float(self.query_one("#computer-delay", Select).value)  # type: ignore[arg-type]
        settings.turn_bell = self.query_one("#turn-bell", Checkbox).value
        theme = str(self.query_one("#theme", Select).value)
        if theme in self.app.available_themes:
            self.app.theme = theme  # the app's watcher keeps settings.theme in step
            settings.theme = theme
        code = str(self.query_one("#language", Select).value)
        if code != settings.language:
            self.app.choose_language(code)  # type: ignore[attr-defined]  # saves, says so, redraws this screen
            return
        error = self.app.save_settings()  # type: ignore[attr-defined]
        status.set_class(bool(error), "-error")
        status.update(_("Not saved: {error}").format(error=error) if error
                      else _("Saved: you are {name}.").format(name=name))

    def retranslate(self) -> None:
        """In the language just chosen (the app calls it on every screen): the saved values redrawn."""
        self.sub_title = _("Settings")
        self.refresh(recompose=True)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "theme" and isinstance(event.value, str) and event.value in self.app.available_themes:
            self.app.theme = event.value  # seen at once; kept when saved
