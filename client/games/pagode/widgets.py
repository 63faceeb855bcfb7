"""Pagode's board pieces: cards you can click, building sites you can click.

Widgets only draw what they are given and report clicks as messages; the
screen decides what a click means (client/games/pagode/screen.py).
"""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Button

from lanterne.client.i18n import C_, N_, _, pgettext
from lanterne.client.theme import Pagode
from lanterne.client.widgets.text_panel import TextPanel
from lanterne.engines.pagode.view import ABILITY_OF_COLOUR, COLOURS, FLOOR_COLUMNS, LETTERS, TILES

COLOUR_STYLES = tuple(f"bold {text} on {bg}" for text, bg in zip(Pagode.CARD_TEXT, Pagode.CARD_BG))
"""Card faces, by colour index (red, blue, green, violet, yellow)."""

INK = Pagode.INK
"""Colour names and columns drawn on the board's background."""

SHORT = (C_("card face", "red"), C_("card face", "blu"), C_("card face", "grn"), C_("card face", "vio"),
         C_("card face", "yel"))
"""A card's face: its colour in three letters."""
MASCULINE = (C_("pagode colour, masculine", "red"), C_("pagode colour, masculine", "blue"),
             C_("pagode colour, masculine", "green"), C_("pagode colour, masculine", "violet"),
             C_("pagode colour, masculine", "yellow"))
"""The colours of a roof, a summit, a floor (French agrees: *un toit bleu*); a column's, a card's, a tile's
are the engines' term, ``pagode colour``."""


def colour_name(colour: int, thing: str = "column") -> str:
    """The name of ``colour`` said of ``thing`` ("column", "tile", "card": feminine in French; "roof",
    "summit", "floor": masculine)."""
    if thing in ("roof", "summit", "floor"):
        return pgettext("pagode colour, masculine", COLOURS[colour])
    return pgettext("pagode colour", COLOURS[colour])


def ability_name(colour: int) -> str:
    return _(ABILITY_OF_COLOUR[colour]).capitalize()


def colour_of(ident: int) -> int:
    return ident // 11


def card_text(ident: int | None, hand: bool = False) -> Text:
    """A card as a short coloured word; an unknown card as a hatched back."""
    if ident is None:
        return Text(" ░░ ", style="dim")
    word = pgettext("card face", SHORT[colour_of(ident)])
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

    BINDINGS = [Binding("enter,space", "toggle", N_("Select card"), show=False)]
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
            name = _("unknown") if ident is None else colour_name(colour_of(ident), "card")
            where = _("from your reserve") if self.place == "reserve" else _("from your hand")
            self.tooltip = _("{colour} card {where} (slot {slot})").format(colour=name, where=where, slot=slot)

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

    BINDINGS = [Binding("enter,space", "build", N_("Build here"), show=False)]
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
             complete: bool, short: bool = False) -> None:
        key = (tiles, columns, colour, floors, complete, short)
        if key == self._key:
            return
        self._key = key
        self.set_class(complete, "-roofed")
        self.set(site_text(self.site, tiles, columns, colour, floors, complete, short))


SITE_LINES = 7
"""Lines inside a site's border: the floors sit at the bottom, like a building."""
SHORT_SITE_LINES = 5
"""Lines inside a site's border on a short terminal (80x24 shows both rows of sites): the head line,
then one line per floor; the roof's words go into the head."""


def site_text(site: int, tiles: tuple[int, ...], columns: int, colour: int | None, floors: int,
              complete: bool, short: bool = False) -> Text:
    """The site drawn bottom-up: one line per floor, the roof and summit on top (``short``: the head
    line says what the roof line would, so the site takes two lines less)."""
    text = Text()
    floor = len(tiles) + 1
    roofed = len(tiles) == floors
    if roofed:
        head = _("roof built")
    elif complete:
        head = _("no tile left")
    elif columns == FLOOR_COLUMNS:
        head = _("needs a roof") if len(tiles) == floors - 1 else _("needs a tile")
    else:
        head = _("· F{floor} · {floor} pt").format(floor=floor)
    text.append(_("Site {n}").format(n=site + 1) + " ", style="bold")
    text.append(head, style="dim" if not complete else "bold")
    if short:
        if roofed:
            summit = TILES[tiles[-1]][2]
            text.append(" ▲▲", style=f"bold {INK[summit]}")
        text.append("\n" * max(1, SHORT_SITE_LINES - floors))
    else:
        text.append("\n")
        text.append_text(roof_line(tiles, columns, colour, floors))
        text.append("\n" * max(0, SITE_LINES - 2 - floors))
    for f in range(floors, 0, -1):
        text.append("  " + _("F{n}").format(n=f) + " ", style="dim")
        if f < floor or roofed:
            # a finished floor: 4 columns of the colour of the tile they carry
            text.append("┃┃┃┃", style=f"bold {INK[TILES[tiles[f - 1]][0]]}")
            tile = tiles[f - 1]
            b, spots, _summit = TILES[tile]
            if f == floors:
                text.append(" ▬", style=f"bold {INK[b]}")
                text.append(" " + _("roof") + "\n", style="dim")
            else:
                text.append(" ▬", style=f"bold {INK[b]}")
                text.append(f" {LETTERS[b]}/{LETTERS[spots]}\n", style=INK[spots])
        elif f == floor:
            if colour is None:
                text.append("····", style="dim")
                text.append(" " + _("any") + "\n", style="dim")
            else:
                text.append("┃" * columns, style=f"bold {INK[colour]}")
                text.append("·" * (FLOOR_COLUMNS - columns), style=INK[colour])
                text.append(f" {colour_name(colour)} {columns}/4\n", style=INK[colour])
        else:
            text.append("\n")
    text.rstrip()
    return text


def roof_line(tiles: tuple[int, ...], columns: int, colour: int | None, floors: int) -> Text:
    """The line above the floors: the roof built and its summit, or what the roof will need."""
    if len(tiles) == floors:
        summit = TILES[tiles[-1]][2]
        line = Text("  " + _("roof") + " ", style="dim")
        line.append("▲▲", style=f"bold {INK[summit]}")
        line.append(" " + _("{colour} summit").format(colour=colour_name(summit, "summit")) + "\n", style=INK[summit])
        return line
    if len(tiles) == floors - 1:
        words = (_("roof: a {colour} tile + summit").format(colour=colour_name(colour, "tile"))
                 if columns == FLOOR_COLUMNS else _("roof next"))
        return Text("  " + words + "\n", style="dim")
    return Text("\n")


def abilities_text(uses: list[tuple[int, ...]], used: int, current: int, labels: list[str]) -> Text:
    """Each seat's ability track: ●● two uses left, ●○ one, ○○ none; * used this turn."""
    text = Text()
    text.append(f"{'':9}" + "".join(f"{label[:9]:>10}" for label in labels) + "\n", style="dim")
    for colour in range(len(ABILITY_OF_COLOUR)):
        name = ability_name(colour)
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
        text.append(pgettext("card face", SHORT[b]) + " ", style=INK[b])
        for f in range(5):
            if tiles_left >> (b * 5 + f) & 1:
                text.append(LETTERS[f], style=f"bold {INK[f]}")
            else:
                text.append("·", style="dim")
        text.append("  " if b % 3 != 2 else "\n")
    text.rstrip()
    return text
