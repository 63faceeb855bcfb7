"""The Pagode game screen: six building sites, reserves, your hand, abilities.

Everything works by mouse and by keyboard. You select cards (click them, or
Enter on a focused card), then click a site (or press its number): the
screen finds the legal move that uses exactly those cards there. When the
click could mean several moves (which tile to lay, which colour for a Rice
bowl column), a short list asks which one. Buttons (and keys) play the
abilities and end the turn. A move the rules refuse is not played; the
engine's reason appears in the status line.
"""

from __future__ import annotations

from collections import Counter

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Label

from lanterne.client.controller import GameController
from lanterne.client.game_terms import variant_name
from lanterne.client.i18n import N_, _, ngettext, say_refusal
from lanterne.client.games.pagode.widgets import (BoardButton, CardWidget, SiteWidget, abilities_text, cards_line,
                                                  colour_name, colour_of, tiles_left_text)
from lanterne.client.screens.dialogs import ChoiceScreen
from lanterne.client.screens.game import GameScreen, NetworkPart
from lanterne.client.widgets.text_panel import TextPanel
from lanterne.engines.core import Action, State
from lanterne.engines.pagode.view import COLOURS, FLOOR_COLUMNS, HAND_LIMIT, RESERVE_SIZE, SITES, TILES, VARIANTS

BUILDS = ("column", "tile", "roof")
BUTTONS = (
    ("lantern", N_("Lantern"), ("lantern",)),
    ("dragon", N_("Dragon"), ("dragon",)),
    ("draw", N_("Draw"), ("draw",)),
    ("modified", N_("Modify"), ("modified",)),
    ("discard", N_("Discard"), None),
    ("end", N_("End turn"), ("end", False)),
    ("end-fan", N_("End+Fan"), ("end", True)),
)
"""Button id, label, and the action it plays (None: discard the selected cards)."""
BUTTON_KEYS = {"lantern": "l", "dragon": "d", "draw": "w", "modified": "m", "discard": "x", "end": "e",
               "end-fan": "f"}
MAX_HAND_SHOWN = HAND_LIMIT + 2
PHASES = (N_("dragon"), N_("modified"), N_("modified column"), N_("modified end"))
"""The phases the info panel names (the engine's words for them)."""


class PagodeScreen(GameScreen):
    CSS_PATH = "pagode.tcss"  # every style of this game, next to this module; the colours come from the theme
    MOUSE_HELP = N_(
        'Click the cards to pay with (your reserve and hand), then the site to build on; a list asks when the'
        " click could mean several moves (which tile, a Rice bowl column's colour). The buttons play the "
        'abilities and end the turn; Discard throws the selected cards.')

    BINDINGS = [
        Binding("escape", "escape", N_("Clear / leave")),
        Binding("e", "button('end')", N_("End turn")),
        Binding("f", "button('end-fan')", N_("End + Fan"), show=False),
        Binding("l", "button('lantern')", N_("Lantern"), show=False),
        Binding("d", "button('dragon')", N_("Dragon"), show=False),
        Binding("w", "button('draw')", N_("Draw"), show=False),
        Binding("m", "button('modified')", N_("Modified"), show=False),
        Binding("x", "button('discard')", N_("Discard"), show=False),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
        Binding("up", "focus_row(-1)", N_("Row above (sites, your cards)"), show=False),
        Binding("down", "focus_row(1)", N_("Row below"), show=False),
    ] + [Binding(str(i + 1), f"site({i})", N_("Site {n}").format(n=i + 1), show=False)
         for i in range(SITES)]

    def __init__(self, controller: GameController, network: NetworkPart | None = None):
        super().__init__(controller, network)
        self.selected: list[int] = []
        self._followed: set[int] = set()
        """The sites last brought into view for being just built on (each build scrolls once)."""

    # -- layout
    def compose_board(self) -> ComposeResult:
        with Vertical(id="pagode-board"):
            with VerticalScroll(id="pagode-scroll"):  # the sites scroll; the cards and the buttons stay
                with Grid(id="sites"):
                    for site in range(SITES):
                        yield SiteWidget(site, id=f"site-{site + 1}")
            yield TextPanel("", id="opponent-row", classes="pagode-row")
            yield TextPanel("", id="played-row", classes="pagode-row")
            with Horizontal(classes="card-row"):
                yield Label(_("Reserve"), classes="card-row-label", id="reserve-label")
                for i in range(RESERVE_SIZE):
                    yield CardWidget("reserve", i, id=f"reserve-{i}")
                yield Label("  " + _("Hand"), classes="card-row-label", id="hand-label")
                for i in range(MAX_HAND_SHOWN):
                    yield CardWidget("hand", i, id=f"hand-{i}")
            controls = Horizontal(id="pagode-controls")
            # each column as wide as its word wants (French 'Fin+éventail' is twice 'Draw'): 80 columns fit all
            controls.styles.grid_columns = " ".join(f"{len(_(label)) + 2}fr" for _key, label, _action in BUTTONS)
            with controls:
                for key, label, _action in BUTTONS:
                    button = BoardButton(_(label), id=f"btn-{key}", compact=True)
                    button.styles.line_pad = 0   # the word fills its column: no blank cell either side
                    button.tooltip = _("{label} (key {key})").format(label=_(label), key=BUTTON_KEYS[key])
                    yield button

    def compose_info(self) -> ComposeResult:
        yield TextPanel("", id="pagode-info")
        yield Label(_("Abilities (uses left, * used this turn)"), classes="panel-title")
        yield TextPanel("", id="abilities")
        yield Label(_("Tiles left: background + spots"), classes="panel-title")
        yield TextPanel("", id="tiles-left")

    def focus_default(self) -> None:
        for widget in self.query(CardWidget):
            if widget.slot is not None:
                widget.focus()
                return
        self.query_one("#site-1").focus()

    def focus_rows(self) -> list[list]:
        """The rows Up and Down move between, top to bottom: the upper sites, the lower sites, your cards."""
        sites = list(self.query(SiteWidget))
        cards = [card for card in self.query(CardWidget) if card.slot is not None]
        return [row for row in (sites[:SITES // 2], sites[SITES // 2:], cards) if row]

    def action_focus_row(self, step: int) -> None:
        """Up and Down: the nearest piece (by its column on the screen) in the row above or below."""
        rows = self.focus_rows()
        here = next((n for n, row in enumerate(rows) if self.focused in row), None)
        target = (len(rows) - 1 if step < 0 else 0) if here is None else max(0, min(len(rows) - 1, here + step))
        if target == here:
            return
        x = self.focused.region.center[0] if self.focused is not None else 0
        min(rows[target], key=lambda widget: abs(widget.region.center[0] - x)).focus()

    def fit_to(self, size) -> None:
        was_short = self.has_class("-short")
        super().fit_to(size)
        short = self.compact
        self.query_one("#reserve-label", Label).update(_("Res.") if short else _("Reserve"))
        self.query_one("#hand-label", Label).update(_("Hand") if short else "  " + _("Hand"))
        if self._started and was_short != self.has_class("-short"):  # a short terminal's sites: two lines less
            self.refresh_game()

    def on_mount(self) -> None:
        super().on_mount()
        variant = getattr(self.controller, "variant", "standard")
        self.sub_title = f"Pagode ({variant_name(variant)}) — {self.controller.mode}"

    # -- drawing
    def refresh_board(self, view: State) -> None:
        game = self.game
        seat = self.viewer
        floors = VARIANTS[view.variant].floors
        complete = game.complete_mask(view)
        changed = {e[2] for entry in self.others_since_my_move() for e in entry.events
                   if e and e[0] in BUILDS and len(e) > 2 and isinstance(e[2], int)}
        short = self.has_class("-short")
        for site in range(SITES):
            widget = self.query_one(f"#site-{site + 1}", SiteWidget)
            widget.show(view.site_tiles[site], view.site_cols[site], view.site_colour[site], floors,
                        bool(complete >> site & 1), short)
            widget.set_class(site in changed, "-last")  # built on by another player since your move
            title = _("just built") if site in changed else ""
            if widget.border_title != title:
                widget.border_title = title
        if changed and changed != self._followed:  # a site out of view that was just built on comes into view
            self.query_one(f"#site-{max(changed) + 1}").scroll_visible(animate=False)
        self._followed = changed
        ids = view.cards.ids
        self.selected = [s for s in self.selected
                         if seat is not None and (s in view.reserves[seat] or s in view.hands[seat])]
        reserve = list(view.reserves[seat]) if seat is not None else []
        hand = list(view.hands[seat]) if seat is not None else []
        for i in range(RESERVE_SIZE):
            slot = reserve[i] if i < len(reserve) else None
            self.query_one(f"#reserve-{i}", CardWidget).set_card(
                slot, ids[slot] if slot is not None else None, slot in self.selected)
        for i in range(MAX_HAND_SHOWN):
            slot = hand[i] if i < len(hand) else None
            self.query_one(f"#hand-{i}", CardWidget).set_card(
                slot, ids[slot] if slot is not None else None, slot in self.selected)
        self._put("#opponent-row", self.others_text(view))
        played = Text(_("Played this turn: "), style="dim")
        played.append_text(cards_line([ids[s] for s in view.played]) if view.played else Text("—", style="dim"))
        self._put("#played-row", played)
        self.refresh_buttons()
        self.refresh_info(view)

    def others_text(self, view: State) -> Text:
        """The other seats' reserves (public) and hand sizes (hidden), or everyone's between turns."""
        text = Text()
        seats = [s for s in range(len(self.controller.seats)) if s != self.viewer]
        for n, s in enumerate(seats):
            if n:
                text.append("   ·   ", style="dim")
            label = self.controller.seats[s].label
            text.append(f"{label}: ", style="bold")
            text.append(_("reserve") + " ", style="dim")
            text.append_text(cards_line([view.cards.ids[x] for x in view.reserves[s]]))
            hand = view.hands[s]
            text.append("  " + ngettext("hand {n} card", "hand {n} cards", len(hand)).format(n=len(hand)) + " ",
                        style="dim")
            text.append_text(cards_line([view.cards.ids[x] for x in hand], hand=True))
        return text

    def refresh_buttons(self) -> None:
        seat = self.acting_seat
        legal = set(self.controller.legal_actions(seat)) if seat is not None else set()
        discards = any(a[0] == "discard" for a in legal)
        for key, _label, action in BUTTONS:
            ok = discards if action is None else action in legal
            button = self.query_one(f"#btn-{key}", Button)
            button.set_class(not ok, "-unavailable")

    def refresh_info(self, view: State) -> None:
        game = self.game
        limit = game.column_limit(view)
        info = Text()
        info.append(_("Turn {n}").format(n=view.turn + 1), style="bold")
        info.append(" · " + _("columns this turn {done}/{limit}").format(done=view.columns, limit=limit))
        info.append("\n" + _("Draw pile {draw} · discard {discard}").format(draw=len(view.draw),
                                                                          discard=len(view.discard)))
        info.append(" · " + _("pagodas done {n}/3").format(n=game.complete_pagodas(view)))
        if view.phase not in ("play", "over", "setup", "draw"):
            info.append("\n" + _("Phase: {phase}").format(phase=_(view.phase)), style="bold")
            if view.phase == "modified":
                info.append(" " + _("({n} to discard)").format(n=view.mod_left))
        self._put("#pagode-info", info)
        labels = [_("P{n}").format(n=i + 1) for i in range(len(self.controller.seats))]
        self._put("#abilities", abilities_text(view.uses, view.used, view.current, labels))
        self._put("#tiles-left", tiles_left_text(view.tiles_left))

    def _put(self, selector: str, text: Text) -> None:
        self.query_one(selector, TextPanel).set(text)

    def status_text(self) -> str:
        text = super().status_text()
        if self.acting_seat is None:
            return text
        view = self.view()
        if view.phase == "dragon":
            return _("{status}: Dragon — select cards and Discard, then Draw").format(status=text)
        if view.phase == "modified":
            return _("{status}: modified turn — discard {n} more (select, then Discard)").format(
                status=text, n=view.mod_left)
        if view.phase == "modified column":
            return _("{status}: modified turn — click a site for its free column").format(status=text)
        if view.phase == "modified end":
            return _("{status}: modified turn — End turn (or End turn + Fan)").format(status=text)
        picked = " " + _("[{n} selected]").format(n=len(self.selected)) if self.selected else ""
        return _("{status}: select cards (Enter), then a site (1-6)").format(status=text) + picked

    # -- what clicks mean
    def on_card_widget_toggled(self, message: CardWidget.Toggled) -> None:
        slot = message.card.slot
        if slot is None:
            return
        if slot in self.selected:
            self.selected.remove(slot)
        else:
            self.selected.append(slot)
        message.card.set_class(slot in self.selected, "-selected")
        self.show_game_status()

    def on_site_widget_clicked(self, message: SiteWidget.Clicked) -> None:
        self.build_on(message.site)

    def action_site(self, site: int) -> None:
        self.query_one(f"#site-{site + 1}").scroll_visible(animate=False)
        self.build_on(site)

    def _signature(self, view: State, seat: int, cards) -> Counter:
        """What matters about cards for a move: where each comes from and its colour."""
        return Counter((0 if slot in view.reserves[seat] else 1, colour_of(ident)) for slot, ident in cards)

    def _substitute(self, view: State, seat: int, cards) -> tuple:
        """The same move paid with the very cards selected (the engine takes any fitting card)."""
        left = list(self.selected)
        out = []
        for slot, ident in cards:
            key = (0 if slot in view.reserves[seat] else 1, colour_of(ident))
            pick = next(s for s in left
                        if (0 if s in view.reserves[seat] else 1, colour_of(view.cards.ids[s])) == key)
            left.remove(pick)
            out.append((pick, view.cards.ids[pick]))
        return tuple(out)

    @staticmethod
    def _paid(action: Action) -> tuple:
        return action[3] + action[4] if action[0] == "roof" else action[3]

    def build_on(self, site: int) -> None:
        """Build on ``site`` with the selected cards: one legal move, a choice, or the reason why not."""
        seat = self.acting_seat
        if seat is None:
            self.play(())  # says whose turn it is
            return
        view = self.view()
        chosen = self._signature(view, seat, [(s, view.cards.ids[s]) for s in self.selected])
        matches = []
        for action in self.controller.legal_actions(seat):
            if action[0] in BUILDS and action[1] == site and self._signature(view, seat, self._paid(action)) == chosen:
                matches.append(self._with_selected(view, seat, action))
        if len(matches) == 1:
            self.play_and_clear(matches[0])
        elif matches:
            labels = [self.describe(view, seat, a) for a in matches]

            def picked(index: int | None) -> None:
                if index is not None:
                    self.play_and_clear(matches[index])

            self.app.push_screen(ChoiceScreen(_("Site {n}: which move?").format(n=site + 1), labels), picked)
        else:
            self.show_status(_("Refused: {reason}").format(reason=self.why_not(view, seat, site)), error=True)

    def _with_selected(self, view: State, seat: int, action: Action) -> Action:
        if action[0] == "roof":
            paid = self._substitute(view, seat, action[3] + action[4])
            n = len(action[3])
            return action[:3] + (paid[:n], paid[n:])
        return action[:3] + (self._substitute(view, seat, action[3]),)

    def describe(self, view: State, seat: int, action: Action) -> str:
        text = self.controller.format(seat, action)
        if action[0] == "column":
            return text + "   " + _("{colour} column").format(colour=colour_name(action[2]))
        background = view.site_colour[action[1]]
        tile = TILES[background * 5 + action[2]]
        if action[0] == "tile":
            return text + "   " + _("{colour} tile, next floor {next}").format(colour=colour_name(tile[0], "tile"),
                                                                            next=colour_name(tile[1], "floor"))
        return text + "   " + _("{colour} roof, {summit} summit").format(colour=colour_name(tile[0], "roof"),
                                                                       summit=colour_name(tile[2], "summit"))

    def why_not(self, view: State, seat: int, site: int) -> str:
        """The engine's reason for the move a person most likely meant."""
        cards = tuple((s, view.cards.ids[s]) for s in self.selected)
        tiles, cols, colour = view.site_tiles[site], view.site_cols[site], view.site_colour[site]
        floors = VARIANTS[view.variant].floors
        if not cards and view.phase != "modified column":
            return _("select the cards to pay with first (your reserve or hand), then click site {n}").format(n=site + 1)
        if len(tiles) == floors:
            guess: Action = ("column", site, colour_of(cards[0][1]) if cards else 0, cards)
        elif cols < FLOOR_COLUMNS or not cards:
            if len(cards) == 1 or (cards and colour is None):
                target = colour_of(cards[0][1])
            else:
                target = colour if colour is not None else 0
            guess = ("column", site, target, cards)
        else:
            spots = self.game.tile_spots_left(view, colour) or [0]
            if len(tiles) == floors - 1:
                guess = ("roof", site, spots[0], cards[:1], cards[1:])
            else:
                guess = ("tile", site, spots[0], cards)
        reason = self.game.check(view, guess)
        return say_refusal(reason) if reason else _("those cards do not pay for a move on site {n}").format(n=site + 1)

    def play_listed(self, action: Action) -> None:
        self.play_and_clear(action)

    def forget_half_move(self) -> None:
        self.selected = []

    def play_and_clear(self, action: Action) -> bool:
        if self.play(action):
            self.selected = []
            return True
        return False

    # -- buttons and keys
    def on_button_pressed(self, event: Button.Pressed) -> None:
        key = (event.button.id or "").removeprefix("btn-")
        self.action_button(key)

    def action_button(self, key: str) -> None:
        action = next((a for k, _label, a in BUTTONS if k == key), "missing")
        if action == "missing":
            return
        if action is not None:
            self.play_and_clear(action)
            return
        view = self.view()
        if not self.selected:
            self.show_status(_("Refused: {reason}").format(reason=_("select the cards to discard first")), error=True)
            return
        for slot in list(self.selected):
            if not self.play(("discard", slot, view.cards.ids[slot])):
                return
            self.selected.remove(slot)
        self.refresh_game()

    def action_escape(self) -> None:
        if self.selected:
            self.selected = []
            self.refresh_game()
            return
        self.action_leave()

    def _handed_over(self, seat: int) -> None:
        self.selected = []
        super()._handed_over(seat)
