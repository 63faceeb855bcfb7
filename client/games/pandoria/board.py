"""The Pandoria board area: the map, the market, your buildings, every player's
resources, your hand of tiles and cards, and the buttons.

Everything here only draws what it is given and reports clicks (and Enter on
a focused piece) as messages; client/games/pandoria/screen.py decides what they
mean. A hand card has two halves: its spell on top, its building below; a
click on a half (or ``x`` / ``b`` on the focused card) chooses that half.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.events import Click
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Label

from lanterne.client.games.pandoria.widgets import (MAP_WIDTH, PLAYER_COLOURS, PLAYER_INK, TERRAIN_BG, HexMap, legend,
                                                    Marks)
from lanterne.client.i18n import N_, _, ngettext, translate_bindings
from lanterne.client.theme import Pandoria
from lanterne.engines.pandoria.view import data as D
from lanterne.engines.pandoria.view import face_text

MAX_HAND = 14
RIGHT_MIN = 36
"""The narrowest market and buildings column beside the map."""
MAX_TILES = 2
MONUMENT = 1000

BUTTONS = (
    ("rotate", N_("Rotate r")), ("tile", N_("Tile t")), ("castle", N_("Castle c")), ("leader", N_("Leader l")),
    ("monument", N_("Monument m")), ("pass", N_("Pass p")), ("skip", N_("Skip s")), ("cancel", N_("Cancel Esc")),
)


class Panel(Widget):
    """Text that repaints without a new layout (its size comes from CSS)."""

    def __init__(self, content: Text | str = "", **kwargs):
        super().__init__(**kwargs)
        self._content = content

    def render(self) -> Text | str:
        return self._content

    def set(self, content: Text | str) -> None:
        if content != self._content:
            self._content = content
            self.refresh()


SPELL_HELP = {
    "Master Builder": N_("also build a monument this turn"),
    "Acquire": N_("take a market card free"),
    "Conjure": N_("+1 per own figure next to each region scored this turn"),
    "Terrain": N_("draw a single tile and place it, then maybe a figure on it"),
    "Muster": N_("a reserve figure on any open space"),
    "Adopt": N_("an opponent's figure next to yours goes home; yours takes its space"),
    "Teleport": N_("move one of your figures to any open space"),
    "Enchanted Castle": N_("a reserve figure on one of your empty castles"),
    "Construct": N_("also build a building this turn, 2 wood less"),
    "Clone": N_("a reserve figure on an open space next to one of yours"),
    "Astral Ship": N_("a reserve figure on an empty ship"),
}
"""What each spell does (docs/rules/pandoria.md, the house card effects)."""

BUILDING_HELP = {
    "Small Tower": N_("+1 crystal per own figure at a mountain scoring"),
    "Large Tower": N_("+2 crystal per own figure at a mountain scoring"),
    "Small Saw Mill": N_("+1 wood per own figure at a forest scoring"),
    "Large Saw Mill": N_("+2 wood per own figure at a forest scoring"),
    "Small Treasury": N_("+1 gold per own figure at a hill scoring"),
    "Large Treasury": N_("+2 gold per own figure at a hill scoring"),
    "Statue": N_("+1 point per own figure at a city scoring"),
    "Carpenter": N_("buildings and monuments cost 1 wood less"),
    "Bank": N_("market cards cost 1 gold less"),
    "Shrine": N_("spells cost 1 crystal less"),
    "Store": N_("above 10, resources convert at 2 : 1"),
    "Vault": N_("gold converts at 2 : 1 at the end"),
    "Lumberyard": N_("wood converts at 2 : 1 at the end"),
    "Repository": N_("crystal converts at 2 : 1 at the end"),
}
"""What each building does while it is visible."""


def card_help(ident: int) -> str:
    spell, building, price = D.CARDS[ident]
    return (_("Spell {spell} ({n} crystal): {help}.").format(spell=spell, n=D.SPELL_COST[spell],
                                                             help=_(SPELL_HELP[spell])) + "\n"
            + _("Building {building} ({n} wood): {help}.").format(building=building, n=D.BUILDING_COST[building],
                                                                  help=_(BUILDING_HELP[building])) + "\n"
            + _("Market price {n} gold.").format(n=price))


def card_lines(ident: int | None) -> tuple[Text, Text]:
    """A card as its spell line and its building line (costs in crystal c, wood w, gold g; in French
    c, b, o). The card names stay as printed: the French edition prints them in English too."""
    if ident is None:
        return Text(" ░░ " + _("hidden card") + " ", style="dim"), Text("")
    spell, building, price = D.CARDS[ident]
    spell_line = _("{spell} {crystals}c").format(spell=spell, crystals=D.SPELL_COST[spell])
    building_line = _("{building} {wood}w · {gold}g").format(building=building, wood=D.BUILDING_COST[building],
                                                              gold=price)
    top = Text("✦ " + spell_line, style=f"bold {Pandoria.SPELL_INK} on {Pandoria.SPELL_BG}")
    bottom = Text("▣ " + building_line, style=f"bold {Pandoria.BUILDING_INK} on {Pandoria.BUILDING_BG}")
    return top, bottom


def tile_text(ident: int | None) -> Text:
    if ident is None:
        return Text("░░ " + _("hidden tile"), style="dim")
    a, sa, b, sb = D.DOUBLE_TILES[ident - D.TILE_BASE]
    text = Text()
    text.append(f" {D.TERRAIN_LETTERS[a]}{'•' * sa} ", style=f"bold {Pandoria.TERRAIN_INK} on {TERRAIN_BG[a]}")
    text.append(f" {D.TERRAIN_LETTERS[b]}{'•' * sb} ", style=f"bold {Pandoria.TERRAIN_INK} on {TERRAIN_BG[b]}")
    text.append(f" {face_text((a, sa, b, sb))}\n {_(D.TERRAIN_NAMES[a])}-{_(D.TERRAIN_NAMES[b])}", style="bold")
    return text


def building_name(view, cell: int) -> str:
    if cell < 0:
        return "—"
    if cell >= MONUMENT:
        return _("Monument {n}").format(n=cell - MONUMENT)
    ident = view.cards.ids[cell]
    return D.CARDS[ident][1] if ident is not None else "?"


def players_text(view, labels: list[str], viewer: int | None) -> Text:
    """Two lines per player: people, points, resources, figures, castles, hand sizes; buildings, spells.
    Other players' hands are counts only (the view does not know them)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    for seat in range(view.players):
        if seat:
            text.append("\n")
        turn = seat == view.current and view.phase not in ("over", "setup")
        text.append("▶" if turn else " ", style="bold")
        text.append(f" {labels[seat]} ", style=f"bold {PLAYER_INK[seat]} on {PLAYER_COLOURS[seat]}")
        people = _(D.PEOPLE_NAMES[view.people[seat]]) if view.people[seat] >= 0 else "?"
        wood, gold, crystal = view.resources[seat]
        team = " " + _("team {n}").format(n=seat % 2 + 1) if view.variant == "team" else ""
        text.append(f" {people}{team} ", style="bold")
        text.append(f"{view.points[seat]} " + _("pts"), style="bold")
        text.append(" │ " + _("wood {wood} gold {gold} crystal {crystal}").format(wood=wood, gold=gold, crystal=crystal)
                    + " │ ")
        figures = (_("figures {n} + leader") if view.leader_home[seat] else _("figures {n}")).format(n=view.reserve[seat])
        text.append(figures + " · " + _("castles {n}").format(n=view.castles_left[seat]) + " │ ")
        cards, tiles = len(view.piles[f"hand{seat}"]), len(view.piles[f"tiles{seat}"])
        text.append(ngettext("hand {n} card", "hand {n} cards", cards).format(n=cards) + ", "
                    + ngettext("{n} tile", "{n} tiles", tiles).format(n=tiles),
                    style="dim" if seat != viewer else "")
        text.append("\n    " + _("buildings:") + " ", style="dim")
        text.append(" · ".join(f"{i + 1} {building_name(view, b)}" for i, b in enumerate(view.buildings[seat])))
        spells = [D.CARDS[view.cards.ids[s]][0] for s in view.piles[f"spells{seat}"]
                  if view.cards.ids[s] is not None]
        if spells:
            text.append("  " + _("spells:") + " ", style="dim")
            text.append(", ".join(spells))
    return text


class HandCard(Widget, can_focus=True):
    """One card of your hand: click its spell (top) or its building (bottom)."""

    BINDINGS = [Binding("enter,space,x", "choose('spell')", N_("Cast spell")),
                Binding("b", "choose('building')", N_("Build"))]

    class Chosen(Message):
        def __init__(self, card: "HandCard", part: str):
            super().__init__()
            self.card = card
            self.part = part

    def __init__(self, index: int, **kwargs):
        super().__init__(**kwargs)
        self.index = index
        self.slot: int | None = None
        self.ident: int | None = None
        self.display = False
        self._text = Text()

    def render(self) -> Text:
        return self._text

    def set_card(self, slot: int | None, ident: int | None, selected: bool) -> None:
        self.display = slot is not None
        self.set_class(selected, "-selected")
        if (slot, ident) == (self.slot, self.ident):
            return
        self.slot, self.ident = slot, ident
        top, bottom = card_lines(ident)
        self._text = Text.assemble(top, "\n", bottom)
        self.tooltip = card_help(ident) if ident is not None else None
        self.refresh()

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        self.post_message(self.Chosen(self, "building" if offset is not None and offset.y >= 1 else "spell"))

    def action_choose(self, part: str) -> None:
        self.post_message(self.Chosen(self, part))


class Piece(Widget, can_focus=True):
    """A piece that reports a click or Enter with its index."""

    BINDINGS = [Binding("enter,space", "pick", N_("Choose"))]

    class Picked(Message):
        def __init__(self, piece: "Piece"):
            super().__init__()
            self.piece = piece

    def __init__(self, index: int, **kwargs):
        super().__init__(**kwargs)
        self.index = index
        self.slot: int | None = None
        self._text: Text | str = ""

    def render(self) -> Text | str:
        return self._text

    def set(self, slot: int | None, text: Text | str, selected: bool = False) -> None:
        self.slot = slot
        self.display = slot is not None
        self.set_class(selected, "-selected")
        if text != self._text:
            self._text = text
            self.refresh()

    def on_click(self) -> None:
        self.post_message(self.Picked(self))

    def action_pick(self) -> None:
        self.post_message(self.Picked(self))


class TileCard(Piece):
    """A double tile in your hand: click to choose it for placing."""


class MarketCard(Piece):
    """A market card: click to buy it (or to Acquire it)."""


class BuildingSlot(Piece):
    """One of your 5 building slots: click to build there or to cover it with a monument."""


@dataclass
class BoardModel:
    """Everything the board area shows."""

    view: object
    viewer: int | None
    labels: list[str]
    marks: Marks = field(default_factory=Marks)
    info: Text = field(default_factory=Text)
    tile_slot: int | None = None
    card_slot: int | None = None
    slot_targets: frozenset[int] = frozenset()
    buttons: frozenset[str] = frozenset()
    """The buttons that do something now (the others are dimmed)."""


class PandoriaBoard(Vertical):
    """The board area: the map, the market and buildings, the players, the hand and the buttons."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="pandoria-scroll"):  # the map and the table scroll; the hand and buttons stay
            with Horizontal(id="pandoria-top"):
                yield HexMap(id="hexmap")
                with Vertical(id="pandoria-right"):
                    yield Panel("", id="pandoria-info")
                    yield Label(_("Market (click or 1-4 to buy)"), classes="pandoria-title")
                    with Grid(id="pandoria-market"):
                        for i in range(D.MARKET_SIZE):
                            yield MarketCard(i, id=f"market-{i}")
                    yield Label(_("Your buildings"), classes="pandoria-title")
                    for i in range(D.BUILDING_SLOTS):
                        yield BuildingSlot(i, id=f"building-{i}")
            yield Panel(legend(), id="pandoria-legend")
            yield Panel("", id="pandoria-players")
        yield Label(_("Your hand: tiles, and cards (spell on top, building below)"), classes="pandoria-title",
                    id="hand-title")
        with Grid(id="pandoria-hand"):  # as many rows as the hand needs; it scrolls when it is long
            for i in range(MAX_TILES):
                yield TileCard(i, id=f"tile-{i}")
            for i in range(MAX_HAND):
                yield HandCard(i, id=f"card-{i}")
        with Horizontal(id="pandoria-buttons"):
            for key, label in BUTTONS:
                yield Button(_(label), id=f"btn-{key}", compact=True)

    def on_resize(self) -> None:
        """Too narrow for the map and the market side by side: one under the other, and scroll; the
        buttons' words then lose their blank cell either side (the eight fit 80 columns in French too;
        Textual's CSS refuses ``line-pad: 0``)."""
        narrow = self.size.width < MAP_WIDTH + RIGHT_MIN
        self.set_class(narrow, "-narrow")
        for button in self.query("#pandoria-buttons Button").results(Button):
            button.styles.line_pad = 0 if narrow else 1
            button.styles.width = len(button.label.plain) if narrow else "auto"

    def show(self, model: BoardModel) -> None:
        view, seat = model.view, model.viewer
        self.query_one(HexMap).show(view, model.marks)
        self.query_one("#pandoria-info", Panel).set(model.info)
        ids = view.cards.ids
        market = sorted(view.piles["market"])
        for i in range(D.MARKET_SIZE):
            slot = market[i] if i < len(market) else None
            text = Text("")
            if slot is not None:
                top, bottom = card_lines(ids[slot])
                text = Text.assemble((f"{i + 1} ", "bold"), top, "\n  ", bottom)
            widget = self.query_one(f"#market-{i}", MarketCard)
            widget.set(slot, text)
            widget.tooltip = card_help(ids[slot]) if slot is not None and ids[slot] is not None else None
        for i in range(D.BUILDING_SLOTS):
            widget = self.query_one(f"#building-{i}", BuildingSlot)
            if seat is None:
                widget.set(None, "")
                continue
            cell = view.buildings[seat][i]
            widget.set(i, Text(f"{i + 1} {building_name(view, cell)}", style="" if cell >= 0 else "dim"))
            widget.set_class(i in model.slot_targets, "-target")
        self.query_one("#pandoria-players", Panel).set(players_text(view, model.labels, seat))
        players = self.query_one("#pandoria-players")
        if players.styles.height is None or players.styles.height.value != 2 * view.players:
            players.styles.height = 2 * view.players
        tiles = sorted(view.piles[f"tiles{seat}"]) if seat is not None else []
        for i in range(MAX_TILES):
            slot = tiles[i] if i < len(tiles) else None
            self.query_one(f"#tile-{i}", TileCard).set(slot, tile_text(ids[slot]) if slot is not None else "",
                                                         slot is not None and slot == model.tile_slot)
        hand = sorted(view.piles[f"hand{seat}"]) if seat is not None else []
        cards = list(self.query(HandCard))
        if len(hand) > len(cards):  # a hand larger than ever before: more places, never a card left out
            grid = self.query_one("#pandoria-hand", Grid)
            extra = [HandCard(i, id=f"card-{i}") for i in range(len(cards), len(hand))]
            for card in extra:
                translate_bindings(card)
            grid.mount_all(extra)
            cards += extra
        for i, card in enumerate(cards):
            slot = hand[i] if i < len(hand) else None
            card.set_card(slot, ids[slot] if slot is not None else None,
                          slot is not None and slot == model.card_slot)
        for key, _ in BUTTONS:
            self.query_one(f"#btn-{key}", Button).set_class(key not in model.buttons, "-unavailable")
        shown = (len(tiles), len(hand))
        if shown != getattr(self, "_hand_shown", None):  # the grid's own height follows its pieces:
            self._hand_shown = shown                      # ask for a new layout (it stayed 0 rows high)
            self.query_one("#pandoria-hand", Grid).refresh(layout=True)
            self.refresh(layout=True)
