"""The new local game dialog: game, variant, hot-seat or computers, seed."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, RadioButton, RadioSet, Select, Static

from lanterne.client.game_terms import variant_name
from lanterne.client.i18n import N_, _, seconds_text, say_refusal
from lanterne.client.levels import level_words
from lanterne.client.local_play import BOT_KINDS, DEFAULT_BOT, HOT_SEAT, VS_COMPUTER, WATCH, make_local_game, playable_games
from lanterne.client.local_games import local_folder
from lanterne.client.screens.game import game_screen_for
from lanterne.engines.core import RulesError
from lanterne.engines.registry import get_game


DELAYS = (0.0, 0.2, 0.4, 1.0, 2.0, 5.0)
"""The pauses offered after a computer's move (seconds)."""


class MarkedRadio(RadioButton):
    """A radio button whose choice shows by shape too (a dot, and a bold label), not by colour alone."""

    @property
    def BUTTON_INNER(self) -> str:  # noqa: N802 - the name ToggleButton reads
        return "●" if self.value else " "


class LocalSetupScreen(Screen):
    BINDINGS = [Binding("escape", "app.pop_screen", N_("Back")), Binding("ctrl+s", "start", N_("Start"))]
    AUTO_FOCUS = "#game, #back"
    """The first field, not the form's scroll container: Enter opens the game list at once."""

    def compose(self) -> ComposeResult:
        games = playable_games()
        yield Header()
        with VerticalScroll(classes="form"):
            yield Static(_("Play locally"), classes="screen-title")
            if not games:
                yield Static(_("No game is built yet."), id="setup-status", classes="status -error")
                yield Button(_("Back"), id="back", compact=True)
                yield Footer()
                return
            yield Label(_("Game"))
            yield Select([(g.name, g.id) for g in games], value=games[0].id, allow_blank=False, compact=True, id="game")
            yield Label(_("Variant"))
            yield Select(self._variants(games[0].id), value="standard", allow_blank=False, compact=True, id="variant")
            yield Label(_("Number of players"))
            yield Select(self._counts(games[0].id), value=games[0].min_players, allow_blank=False, compact=True,
                         id="players")
            yield Label(_("Players"))
            with RadioSet(compact=True, id="mode"):
                yield MarkedRadio(_("Against the computer"), value=True, id="mode-vs")
                yield MarkedRadio(_("Hot-seat: everyone at this keyboard"), id="mode-hot-seat")
                yield MarkedRadio(_("Watch computers play each other"), id="mode-watch")
            yield Label(_("Computer player"))
            level = getattr(self.app.settings, "computer_level", DEFAULT_BOT)  # type: ignore[attr-defined]
            kinds = list(BOT_KINDS) + ([level] if level not in BOT_KINDS else [])
            yield Select([(level_words(k), k) for k in kinds], value=level, allow_blank=False, compact=True, id="bot")
            yield Label(_("Pause after each computer move (the speed when watching)"))
            delay = float(getattr(self.app.settings, "computer_delay", 0.4))  # type: ignore[attr-defined]
            delays = sorted(set(DELAYS) | {delay})
            yield Select([(seconds_text(d), d) for d in delays], value=delay, allow_blank=False, compact=True, id="delay")
            yield Label(_("Seed (empty: a new random game)"))
            yield Input("", placeholder=_("any text or number"), compact=True, id="seed")
            yield Static("", id="setup-status", classes="status")
            with Horizontal(classes="buttons"):
                yield Button(_("Start"), id="start", variant="primary", compact=True)
                yield Button(_("Back"), id="back", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = _("Play locally")

    @staticmethod
    def _variants(game_id: str) -> list[tuple[str, str]]:
        return [(variant_name(v), v) for v in get_game(game_id).variants]

    @staticmethod
    def _counts(game_id: str) -> list[tuple[str, int]]:
        game = get_game(game_id)
        return [(str(n), n) for n in range(game.min_players, game.max_players + 1)]

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "game" and isinstance(event.value, str):
            game = get_game(event.value)
            variant = self.query_one("#variant", Select)
            variant.set_options(self._variants(event.value))
            variant.value = "standard" if "standard" in game.variants else game.variants[0]
            players = self.query_one("#players", Select)
            players.set_options(self._counts(event.value))
            players.value = game.min_players

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.app.pop_screen()

    def action_start(self) -> None:
        status = self.query_one("#setup-status", Static)
        try:
            game = get_game(str(self.query_one("#game", Select).value))
            mode = (VS_COMPUTER if self.query_one("#mode-vs", RadioButton).value
                    else WATCH if self.query_one("#mode-watch", RadioButton).value else HOT_SEAT)
            controller = make_local_game(
                game, mode=mode, bot=str(self.query_one("#bot", Select).value),
                seed=self.query_one("#seed", Input).value.strip() or None,
                variant=str(self.query_one("#variant", Select).value),
                players=int(self.query_one("#players", Select).value),
                you=self.app.settings.display_name,  # type: ignore[attr-defined]
                computer_delay=float(self.query_one("#delay", Select).value),
                save_to=local_folder())  # written as it is played: resumable, listed under Replays, verifiable
            screen = game_screen_for(controller)
        except (RulesError, ValueError) as e:
            status.update(_("Cannot start: {error}").format(error=say_refusal(e)))
            status.set_class(True, "-error")
            return
        self.app.switch_screen(screen)
