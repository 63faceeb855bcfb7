"""Every colour of the app, by name: the Textual theme and each game's board colours.

The stylesheets (``client/lanterne.tcss``, ``client/games/<game>/<game>.tcss``)
use only the theme's variables (``$primary``, ``$panel``...), which come
from :data:`LANTERNE_THEME` (or the theme chosen in the settings). The
boards are drawn as Rich text, whose colours no stylesheet reaches: they
take theirs from the classes below, one per game. A colour written anywhere
else is refused by ``tests/client/test_layout.py``.
"""

from __future__ import annotations

from typing import Final

from textual.theme import Theme

LANTERNE_THEME: Final = Theme(
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
"""The app's own theme (the default; the settings screen offers Textual's others)."""

# Terminal colours by name (Rich's), where the terminal's own shade is the point.
WHITE: Final = "white"
BLACK: Final = "black"
"""Text on a coloured ground (a card, a stone, a tile), whichever reads better on it."""
GOOD: Final = "green"
"""Good news in words: a link up, a player known before, a table open."""
CAUTION: Final = "yellow"
"""A table full, a tile that scores nothing yet, a piece a click acts on."""
ALARM: Final = "red"
"""A safety code that changed, a tile that does not fit."""
UNDER_WAY: Final = "cyan"
"""A table under way that can be watched (the lobby's line for it)."""

# One palette for the coloured pieces of Pagode (its cards) and Pueblo (its seats' stones).
RED, BLUE, GREEN, VIOLET, YELLOW = "#b83b3b", "#2f6db5", "#2e8b47", "#8a4fb0", "#e0b92c"
"""The pieces' faces."""
RED_INK, BLUE_INK, GREEN_INK, VIOLET_INK, YELLOW_INK = "#e05a5a", "#5a9be0", "#4cbb68", "#b07ad6", "#f0cc48"
"""The same colours as text on the dark background."""
NEW_INK: Final = "#ff9a3c"
"""What the other players did since your move (Pueblo's *new*, Pandoria's braces)."""


class Pagode:
    """Pagode's cards, by colour index (red, blue, green, violet, yellow)."""

    CARD_BG: Final = (RED, BLUE, GREEN, VIOLET, YELLOW)
    CARD_TEXT: Final = (WHITE, WHITE, WHITE, WHITE, BLACK)
    """The letters on a card face, readable on its colour."""
    INK: Final = (RED_INK, BLUE_INK, GREEN_INK, VIOLET_INK, YELLOW_INK)


class Pueblo:
    """Pueblo's board seen from above, its track and its panels."""

    SEAT_BG: Final = ((RED, "#9a2f2f"), (BLUE, "#25599a"), (GREEN, "#24723a"), (VIOLET, "#733f95"))
    """Per seat, two shades for the tops of its stones (stones alternate, so neighbours stay apart)."""
    SEAT_INK: Final = (RED_INK, BLUE_INK, GREEN_INK, VIOLET_INK)
    NEUTRAL_BG: Final = ("#a89470", "#8f7c5a")
    FLOOR_BG: Final = ("#2a2a2a", "#323232")
    FLOOR_INK: Final = "#6a6a6a"
    SITE_BG: Final = "#6b5a1e"
    SITE_INK: Final = YELLOW_INK
    LEGAL_BG: Final = "#7bd88f"
    """The stone in hand where it would rest."""
    ILLEGAL_BG: Final = "#c0392b"
    TRACK_INK, TRACK_BG = "#8a8a8a", "#1c1c1c"
    CHIEF_BG: Final = YELLOW
    OPTION_BG: Final = "#3d5a80"
    """A space the chieftain may move to; HOT: the one under the pointer."""
    OPTION_HOT_BG: Final = "#8fc1ef"
    HOVER_BG: Final = "#4a4a4a"
    NEW: Final = NEW_INK


class Pacal:
    """Pacal's Rocket: the city, its districts, the players' pieces and the die."""

    PLAYERS: Final = ("#ff6b6b", "#5aafff", "#5ee06a", "#ffe033", "#d98cff")
    """Seat 1 red, 2 blue, 3 green, 4 yellow, 5 violet (engines.pacal.data.COLOURS): bright on dark districts."""
    DISTRICT_BG: Final = {
        "A": "#4a3320", "B": "#2e4626", "C": "#48263a", "D": "#263d4d", "E": "#3d3b1f", "F": "#4f2c1c",
        "G": "#1f3d3b", "H": "#38284d", "I": "#4a3d18", "S": "#5a1f2a", "J": "#243a22", "K": "#40283a",
        "L": "#2a3346", "M": "#46341c", "N": "#1f3f30", "O": "#3f2626",
    }
    """Dark earth tones, one per district, so the players' bright colours stand out on every one."""
    LAKE_BG, LAKE_INK = "#173f6e", "#7fb8ff"
    RIVER_INK: Final = "#5aa0ff"
    COVERED_BG, COVERED_INK = "#17161c", "#3a3844"
    TARGET_BG: Final = "#2a4a7a"
    """A destination of this roll (or a cell to click now)."""
    PREVIEW_BG: Final = "#6a4a00"
    """The constellation of the build chosen in the list."""
    SELECTED_BG: Final = "#5a2d6a"
    LAST_BG: Final = "#6a3a10"
    """A cell another player changed since your last move."""
    WHITE: Final = "#ffffff"
    """The cursor's brackets and the figures written on a cell."""
    CHIP_INK: Final = "#101010"
    """Text on a player's chip and on the die."""
    LABEL_INK: Final = "#c8c0b0"
    """A cell's own label (its district and number)."""
    AXIS_INK: Final = "#a09a8a"
    """The column letters and row numbers."""
    DIE_BG: Final = "#f2e6c8"
    DIE_UNROLLED_BG: Final = "#d8d0c0"


class Pandoria:
    """Pandoria's hex map, its pieces and its cards."""

    TERRAIN_BG: Final = ("#2f6b2f", "#94761c", "#59618a", "#8e3f6e")
    """Forest green, hill gold, mountain slate, city plum (an open region)."""
    CLOSED_BG: Final = ("#1c401c", "#584611", "#363b54", "#552642")
    """The same terrains, darker: a closed region."""
    PLAYERS: Final = ("#e8453c", "#3d86f0", "#f0cc30", "#eeeeee")
    PLAYER_INK: Final = (WHITE, WHITE, BLACK, BLACK)
    """Text on a player's colour."""
    TERRAIN_INK: Final = WHITE
    """A terrain's letter and symbols on its colour (and a path's ``==``)."""
    SCORING_INK: Final = BLACK
    TARGET_INK: Final = CAUTION
    """A figure or a hex a click acts on."""
    CURSOR_INK: Final = WHITE
    SCORING_BG: Final = "#f2d04e"
    LAKE_BG: Final = "#1d3f73"
    LAKE_INK, SHORE_INK = "#8fbfff", "#d8d8d8"
    CASTLE_BG: Final = "#3a3a3a"
    OFF_MAP_INK: Final = "#5c5c5c"
    EMPTY_INK: Final = "#6a6a6a"
    NEW: Final = NEW_INK
    SPELL_INK, SPELL_BG = "#e8d8ff", "#3d2d63"
    """A card's spell line."""
    BUILDING_INK, BUILDING_BG = "#ffe8c8", "#5a3d1c"
    """A card's building line."""
