"""The rules of each game as written for players (docs/rules/en/, docs/rules/fr/)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, MarkdownViewer, Select

from lanterne.client.i18n import N_, _
from lanterne.client.rules_docs import players_rules
from lanterne.engines.registry import GAMES, game_name


class RulesScreen(Screen):
    BINDINGS = [Binding("escape", "app.pop_screen", N_("Back"))]

    def __init__(self, game_id: str = "pagode"):
        super().__init__()
        self.game_id = game_id if game_id in GAMES else next(iter(GAMES))

    def compose(self) -> ComposeResult:
        yield Header()
        yield Select([(game_name(g), g) for g in GAMES], value=self.game_id,
                     allow_blank=False, id="rules-game")
        viewer = MarkdownViewer(self._text(), id="rules-view", show_table_of_contents=False)
        viewer.can_focus = True   # the page takes the keys (arrows, Page Down) at once, not the game's list
        yield viewer
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = _("Rules")
        self.query_one("#rules-view").focus()

    def _text(self) -> str:
        return players_rules(self.game_id, game_name(self.game_id))

    async def on_select_changed(self, event: Select.Changed) -> None:
        if event.value in GAMES and event.value != self.game_id:
            self.game_id = str(event.value)
            await self.query_one(MarkdownViewer).document.update(self._text())
