"""Pagode's board pieces: cards you can click, building sites you can click.

Widgets only draw what they are given and report clicks as messages; the
screen decides what a click means (client/screens/pagode.py).
"""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Button

from client.widgets.text_panel import TextPanel

from engines.pagode.data import ABILITY_OF_COLOUR, COLOURS, FLOOR_COLUMNS, LETTERS, TILES

COLOUR_STYLES = ("bold white on #b83b3b", "bold white on #2f6db5", "bold white on #2e8b47",
                 "bold white on #8a4fb0", "bold black on #e0b92c")
"""Card faces, by colour index (red, blue, green, violet, yellow)."""

INK = ("#e05a5a", "#5a9be0", "#4cbb68", "#b07ad6", "#f0cc48")
"""Colour names and columns drawn on the board's background."""

SHORT = ("red", "blu", "grn", "vio", "yel")
ABILITY_NAMES = tuple(a.capitalize() for a in ABILITY_OF_COLOUR)


def colour_of(ident: int) -> int:
    return ident // 11


def card_text(ident: int | None, hand: bool = False) -> Text:
    """A card as a short coloured word; an unknown card as a hatched back."""
    if ident is None:
        return Text(" ░░ ", style="dim")
    word = SHORT[colour_of(ident)]
    return Text(f" {word.upper() if hand else word} ", style=COLOUR_STYLES[colour_of(ident)])


def cards_line(idents: list[int | None], hand: bool = False) -> Text:
    line = Text()
    for i, ident in enumerate(idents):
        if i:
            line.append(" ")
        line.append_text(card_text(ident, hand))
    return line


class BoardButton(Button):
    """A board button: a click plays it without taking the keyboard focus from the board."""

    FOCUS_ON_CLICK = False


class CardWidget(TextPanel, can_focus=True):
    """One card of the seat on screen; a click (or Enter) selects it."""

    BINDINGS = [Binding("enter,space", "toggle", "Select card", show=False)]
    FOCUS_ON_CLICK = False  # a click selects; moving the focus would rebuild the footer for nothing

    class Toggled(Message):
        def __init__(self, card: "CardWidget"):
            super().__init__()
            self.card = card

    def __init__(self, place: str, index: int, **kwargs):
        super().__init__("", **kwargs)
        self.place = place
        self.index = index
        self.slot: int | None = None
        self.ident: int | None = None
        self.add_class("-empty")

    def set_card(self, slot: int | None, ident: int | None, selected: bool) -> None:
        """Show a card, or an empty place (the widget stays: no new layout when a card leaves)."""
        if slot is None:
            if self.slot is not None:
                self.slot = self.ident = None
                self.set("")
                self.tooltip = None
            self.set_classes_for(empty=True, selected=False)
            return
        changed = (slot, ident) != (self.slot, self.ident)
        self.slot, self.ident = slot, ident
        self.set_classes_for(empty=False, selected=selected)
        if changed:
            self.set(card_text(ident, self.place == "hand"))
            name = "unknown" if ident is None else COLOURS[colour_of(ident)]
            self.tooltip = f"{name} card from your {self.place} (slot {slot})"

    def set_classes_for(self, empty: bool, selected: bool) -> None:
        self.set_class(empty, "-empty")
        self.set_class(selected, "-selected")

    def on_click(self) -> None:
        if self.slot is not None:
            self.post_message(self.Toggled(self))

    def action_toggle(self) -> None:
        if self.slot is not None:
            self.post_message(self.Toggled(self))


class SiteWidget(TextPanel, can_focus=True):
    """A building site: its floors, columns, tiles and roof. Click to build there."""

    BINDINGS = [Binding("enter,space", "build", "Build here", show=False)]
    FOCUS_ON_CLICK = False

    class Clicked(Message):
        def __init__(self, site: int):
            super().__init__()
            self.site = site

    def __init__(self, site: int, **kwargs):
        super().__init__("", **kwargs)
        self.site = site
        self._key: tuple | None = None

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.site))

    def action_build(self) -> None:
        self.post_message(self.Clicked(self.site))

    def show(self, tiles: tuple[int, ...], columns: int, colour: int | None, floors: int,
             complete: bool) -> None:
        key = (tiles, columns, colour, floors, complete)
        if key == self._key:
            return
        self._key = key
        self.set_class(complete, "-roofed")
        self.set(site_text(self.site, tiles, columns, colour, floors, complete))


SITE_LINES = 7
"""Lines inside a site's border: the floors sit at the bottom, like a building."""


def site_text(site: int, tiles: tuple[int, ...], columns: int, colour: int | None, floors: int,
              complete: bool) -> Text:
    """The site drawn bottom-up: one line per floor, the roof and summit on top."""
    text = Text()
    floor = len(tiles) + 1
    roofed = len(tiles) == floors
    if roofed:
        head = "roof built"
    elif complete:
        head = "done: no tile left"
    elif columns == FLOOR_COLUMNS:
        head = "needs a roof" if len(tiles) == floors - 1 else "needs a tile"
    else:
        head = f"· F{floor} · {floor} pt"
    text.append(f"Site {site + 1} ", style="bold")
    text.append(f"{head}\n", style="dim" if not complete else "bold")
    if roofed:
        b, _, summit = TILES[tiles[-1]]
        text.append("  roof ", style="dim")
        text.append("▲▲", style=f"bold {INK[summit]}")
        text.append(f" {COLOURS[summit]} summit\n", style=INK[summit])
    elif len(tiles) == floors - 1:
        text.append(f"  roof: a {COLOURS[colour]} tile + summit\n" if columns == FLOOR_COLUMNS
                    else "  roof next\n", style="dim")
    else:
        text.append("\n")
    text.append("\n" * max(0, SITE_LINES - 2 - floors))
    for f in range(floors, 0, -1):
        text.append(f"  F{f} ", style="dim")
        if f < floor or roofed:
            # a finished floor: 4 columns of the colour of the tile they carry
            text.append("┃┃┃┃", style=f"bold {INK[TILES[tiles[f - 1]][0]]}")
            tile = tiles[f - 1]
            b, spots, _ = TILES[tile]
            if f == floors:
                text.append(" ▬", style=f"bold {INK[b]}")
                text.append(" roof\n", style="dim")
            else:
                text.append(" ▬", style=f"bold {INK[b]}")
                text.append(f" {LETTERS[b]}/{LETTERS[spots]}\n", style=INK[spots])
        elif f == floor:
            if colour is None:
                text.append("····", style="dim")
                text.append(" any\n", style="dim")
            else:
                text.append("┃" * columns, style=f"bold {INK[colour]}")
                text.append("·" * (FLOOR_COLUMNS - columns), style=INK[colour])
                text.append(f" {COLOURS[colour]} {columns}/4\n", style=INK[colour])
        else:
            text.append("\n")
    text.rstrip()
    return text


def abilities_text(uses: list[tuple[int, ...]], used: int, current: int, labels: list[str]) -> Text:
    """Each seat's ability track: ●● two uses left, ●○ one, ○○ none; * used this turn."""
    text = Text()
    text.append(f"{'':9}" + "".join(f"{label[:9]:>10}" for label in labels) + "\n", style="dim")
    for colour, name in enumerate(ABILITY_NAMES):
        text.append(f"{name[:9]:<9}", style=INK[colour])
        for seat, track in enumerate(uses):
            left = track[colour]
            dots = "●" * left + "○" * (2 - left)
            star = "*" if seat == current and used >> colour & 1 else " "
            text.append(f"{dots + star:>10}", style="bold" if left else "dim")
        text.append("\n")
    text.rstrip()
    return text


def tiles_left_text(tiles_left: int) -> Text:
    """The tile supply: per background colour, the spot colours still there."""
    text = Text()
    for b in range(5):
        text.append(f"{SHORT[b]} ", style=INK[b])
        for f in range(5):
            if tiles_left >> (b * 5 + f) & 1:
                text.append(LETTERS[f], style=f"bold {INK[f]}")
            else:
                text.append("·", style="dim")
        text.append("  " if b % 3 != 2 else "\n")
    text.rstrip()
    return text
