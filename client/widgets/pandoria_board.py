"""The Pandoria board area: the map, the market, your buildings, every player's
resources, your hand of tiles and cards, and the buttons.

Everything here only draws what it is given and reports clicks (and Enter on
a focused piece) as messages; client/screens/pandoria.py decides what they
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

from client.widgets.pandoria import LEGEND, MAP_WIDTH, PLAYER_COLOURS, PLAYER_INK, TERRAIN_BG, HexMap, Marks
from engines.pandoria import data as D
from engines.pandoria.notation import face_text

MAX_HAND = 14
RIGHT_MIN = 36
"""The narrowest market and buildings column beside the map."""
MAX_TILES = 2
MONUMENT = 1000

BUTTONS = (
    ("rotate", "Rotate r"), ("tile", "Tile t"), ("castle", "Castle c"), ("leader", "Leader l"),
    ("monument", "Monument m"), ("pass", "Pass p"), ("skip", "Skip s"), ("cancel", "Cancel Esc"),
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
    "Master Builder": "also build a monument this turn",
    "Acquire": "take a market card free",
    "Conjure": "+1 per own figure next to each region scored this turn",
    "Terrain": "draw a single tile and place it, then maybe a figure on it",
    "Muster": "a reserve figure on any open space",
    "Adopt": "an opponent's figure next to yours goes home; yours takes its space",
    "Teleport": "move one of your figures to any open space",
    "Enchanted Castle": "a reserve figure on one of your empty castles",
    "Construct": "also build a building this turn, 2 wood less",
    "Clone": "a reserve figure on an open space next to one of yours",
    "Astral Ship": "a reserve figure on an empty ship",
}
"""What each spell does (docs/rules/pandoria.md, the house card effects)."""

BUILDING_HELP = {
    "Small Tower": "+1 crystal per own figure at a mountain scoring",
    "Large Tower": "+2 crystal per own figure at a mountain scoring",
    "Small Saw Mill": "+1 wood per own figure at a forest scoring",
    "Large Saw Mill": "+2 wood per own figure at a forest scoring",
    "Small Treasury": "+1 gold per own figure at a hill scoring",
    "Large Treasury": "+2 gold per own figure at a hill scoring",
    "Statue": "+1 point per own figure at a city scoring",
    "Carpenter": "buildings and monuments cost 1 wood less",
    "Bank": "market cards cost 1 gold less",
    "Shrine": "spells cost 1 crystal less",
    "Store": "above 10, resources convert at 2 : 1",
    "Vault": "gold converts at 2 : 1 at the end",
    "Lumberyard": "wood converts at 2 : 1 at the end",
    "Repository": "crystal converts at 2 : 1 at the end",
}
"""What each building does while it is visible."""


def card_help(ident: int) -> str:
    spell, building, price = D.CARDS[ident]
    return (f"Spell {spell} ({D.SPELL_COST[spell]} crystal): {SPELL_HELP[spell]}.\n"
            f"Building {building} ({D.BUILDING_COST[building]} wood): {BUILDING_HELP[building]}.\n"
            f"Market price {price} gold.")


def card_lines(ident: int | None) -> tuple[Text, Text]:
    """A card as its spell line and its building line (costs in crystal c, wood w, gold g)."""
    if ident is None:
        return Text(" ░░ hidden card ", style="dim"), Text("")
    spell, building, price = D.CARDS[ident]
    top = Text(f"✦ {spell} {D.SPELL_COST[spell]}c", style="bold #e8d8ff on #3d2d63")
    bottom = Text(f"▣ {building} {D.BUILDING_COST[building]}w · {price}g", style="bold #ffe8c8 on #5a3d1c")
    return top, bottom


def tile_text(ident: int | None) -> Text:
    if ident is None:
        return Text("░░ hidden tile", style="dim")
    a, sa, b, sb = D.DOUBLE_TILES[ident - D.TILE_BASE]
    text = Text()
    text.append(f" {D.TERRAIN_LETTERS[a]}{'•' * sa} ", style=f"bold white on {TERRAIN_BG[a]}")
    text.append(f" {D.TERRAIN_LETTERS[b]}{'•' * sb} ", style=f"bold white on {TERRAIN_BG[b]}")
    text.append(f" {face_text((a, sa, b, sb))}\n {D.TERRAIN_NAMES[a]}-{D.TERRAIN_NAMES[b]}", style="bold")
    return text


def building_name(view, cell: int) -> str:
    if cell < 0:
        return "—"
    if cell >= MONUMENT:
        return f"Monument {cell - MONUMENT}"
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
        people = D.PEOPLE_NAMES[view.people[seat]] if view.people[seat] >= 0 else "?"
        wood, gold, crystal = view.resources[seat]
        team = f" team {seat % 2 + 1}" if view.variant == "team" else ""
        text.append(f" {people}{team} ", style="bold")
        text.append(f"{view.points[seat]} pts", style="bold")
        text.append(f" │ wood {wood} gold {gold} crystal {crystal} │ ")
        leader = " + leader" if view.leader_home[seat] else ""
        text.append(f"figures {view.reserve[seat]}{leader} · castles {view.castles_left[seat]} │ ")
        cards, tiles = len(view.piles[f"hand{seat}"]), len(view.piles[f"tiles{seat}"])
        text.append(f"hand {cards} card{'s' if cards != 1 else ''}, {tiles} tile{'s' if tiles != 1 else ''}",
                    style="dim" if seat != viewer else "")
        text.append("\n    buildings: ", style="dim")
        text.append(" · ".join(f"{i + 1} {building_name(view, b)}" for i, b in enumerate(view.buildings[seat])))
        spells = [D.CARDS[view.cards.ids[s]][0] for s in view.piles[f"spells{seat}"]
                  if view.cards.ids[s] is not None]
        if spells:
            text.append("  spells: ", style="dim")
            text.append(", ".join(spells))
    return text


class HandCard(Widget, can_focus=True):
    """One card of your hand: click its spell (top) or its building (bottom)."""

    DEFAULT_CSS = """
    HandCard { width: 1fr; height: 2; }
    HandCard:focus { text-style: bold; outline-left: thick $accent; }
    HandCard.-selected { outline-left: thick $success; }
    """
    BINDINGS = [Binding("enter,space,x", "choose('spell')", "Cast spell"),
                Binding("b", "choose('building')", "Build")]

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

    BINDINGS = [Binding("enter,space", "pick", "Choose")]

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

    DEFAULT_CSS = """
    TileCard { width: 1fr; height: 2; }
    TileCard:focus { outline-left: thick $accent; }
    TileCard.-selected { outline-left: thick $success; }
    """


class MarketCard(Piece):
    """A market card: click to buy it (or to Acquire it)."""

    DEFAULT_CSS = """
    MarketCard { width: 1fr; height: 2; }
    MarketCard:focus { outline-left: thick $accent; }
    """


class BuildingSlot(Piece):
    """One of your 5 building slots: click to build there or to cover it with a monument."""

    DEFAULT_CSS = """
    BuildingSlot { width: 1fr; height: 1; }
    BuildingSlot:focus { text-style: bold reverse; }
    BuildingSlot.-target { color: $success; text-style: bold; }
    """


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
    DEFAULT_CSS = """
    PandoriaBoard { height: 1fr; }
    PandoriaBoard #pandoria-scroll { height: 1fr; }
    PandoriaBoard.-narrow #pandoria-top { layout: vertical; }
    PandoriaBoard.-narrow #pandoria-right { width: 100%; padding: 0 1; }
    PandoriaBoard #pandoria-top { height: auto; }
    PandoriaBoard #pandoria-right { width: 1fr; height: auto; padding: 0 0 0 1; }
    PandoriaBoard #pandoria-info { height: 7; text-wrap: nowrap; text-overflow: ellipsis; }
    PandoriaBoard #pandoria-legend { height: 2; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    PandoriaBoard .pandoria-title { text-style: bold; color: $accent; height: 1; }
    PandoriaBoard #pandoria-market { grid-size: 1; grid-rows: 2; height: 8; }
    PandoriaBoard #pandoria-players { height: auto; max-height: 8; padding: 0 1; text-wrap: nowrap;
                                      text-overflow: ellipsis; }
    PandoriaBoard #pandoria-hand { grid-size: 3; grid-rows: 2; grid-gutter: 0 1; height: auto; max-height: 8;
                                   padding: 0 1; overflow-y: auto; }
    PandoriaBoard.-narrow #pandoria-hand { grid-size: 2; max-height: 4; }
    PandoriaBoard #pandoria-buttons { height: 1; padding: 0 1; }
    PandoriaBoard #pandoria-buttons Button { margin-right: 1; min-width: 8; }
    PandoriaBoard.-narrow #pandoria-buttons Button { margin-right: 0; min-width: 4; }
    PandoriaBoard #pandoria-buttons Button.-unavailable { opacity: 50%; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="pandoria-scroll"):  # the map and the table scroll; the hand and buttons stay
            with Horizontal(id="pandoria-top"):
                yield HexMap(id="hexmap")
                with Vertical(id="pandoria-right"):
                    yield Panel("", id="pandoria-info")
                    yield Label("Market (click or 1-4 to buy)", classes="pandoria-title")
                    with Grid(id="pandoria-market"):
                        for i in range(D.MARKET_SIZE):
                            yield MarketCard(i, id=f"market-{i}")
                    yield Label("Your buildings", classes="pandoria-title")
                    for i in range(D.BUILDING_SLOTS):
                        yield BuildingSlot(i, id=f"building-{i}")
            yield Panel(LEGEND, id="pandoria-legend")
            yield Panel("", id="pandoria-players")
        yield Label("Your hand: tiles, and cards (spell on top, building below)", classes="pandoria-title",
                    id="hand-title")
        with Grid(id="pandoria-hand"):  # as many rows as the hand needs; it scrolls when it is long
            for i in range(MAX_TILES):
                yield TileCard(i, id=f"tile-{i}")
            for i in range(MAX_HAND):
                yield HandCard(i, id=f"card-{i}")
        with Horizontal(id="pandoria-buttons"):
            for key, label in BUTTONS:
                yield Button(label, id=f"btn-{key}", compact=True)

    def on_resize(self) -> None:
        """Too narrow for the map and the market side by side: one under the other, and scroll."""
        self.set_class(self.size.width < MAP_WIDTH + RIGHT_MIN, "-narrow")

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
