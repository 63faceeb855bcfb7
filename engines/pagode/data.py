"""Pagode's fixed data: colours, abilities, tiles, points, variants.

Everything printed on the components lives here, in one place, so that the
house data (marked below) can be replaced by the real data in one edit.
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS: tuple[str, ...] = ("red", "blue", "green", "violet", "yellow")
"""The five colours, in the one order used everywhere (card ident // 11 indexes it)."""

LETTERS = "rbgvy"
"""One letter per colour for the move notation (same order as COLOURS)."""

RED, BLUE, GREEN, VIOLET, YELLOW = range(5)

CARDS_PER_COLOUR = 11
DECK_SIZE = 55
"""Card identities 0..54; a card's colour is ``ident // CARDS_PER_COLOUR``."""

ABILITY_OF_COLOUR: tuple[str, ...] = ("lantern", "buddha", "rice bowl", "fan", "dragon")
"""The ability a tile of each colour gives: red Lantern, blue Buddha, green Rice bowl, violet Fan, yellow Dragon."""

LANTERN, BUDDHA, RICE_BOWL, FAN, DRAGON = RED, BLUE, GREEN, VIOLET, YELLOW
"""Abilities are indexed by the colour of the tile that gives them."""

USES_PER_TILE = 2
SITES = 6
RESERVE_SIZE = 5
HAND_SIZE = 2
FAN_HAND_SIZE = 4
HAND_LIMIT = 4
FLOOR_COLUMNS = 4
COLUMN_LIMIT = 3
LANTERN_COLUMN_LIMIT = 4
MODIFIED_DISCARDS = 4
TILE_POINTS = 1
PAGODAS_TO_END = 3


COLOUR_OF_IDENT: tuple[int, ...] = tuple(i // CARDS_PER_COLOUR for i in range(DECK_SIZE))


def colour_of(ident: int) -> int:
    return ident // CARDS_PER_COLOUR


# --------------------------------------------------------------------------
# Tiles: 25, one per (background colour, column-spot colour) pair.

TILES: tuple[tuple[int, int, int], ...] = tuple(
    (background, spots, spots) for background in range(5) for spots in range(5)
)
"""Tile id -> (background, column spots, summit on the back).

The pairs (background, spots) are confirmed (every pair occurs once).
HOUSE DATA: the summit colour on a tile's back is taken equal to its
column-spot colour (the real list is unknown; the rulebook's one example,
a green tile with a violet summit, fits it). Replace the third item here.
"""

# --------------------------------------------------------------------------
# Variants


@dataclass(frozen=True)
class Variant:
    name: str
    floors: int
    """Floors of columns of a complete pagoda; the tile on the last floor is the roof."""
    summit_points: int
    abilities: bool


VARIANTS: dict[str, Variant] = {
    "standard": Variant("standard", floors=4, summit_points=5, abilities=True),
    "quick": Variant("quick", floors=3, summit_points=4, abilities=True),
    "beginner": Variant("beginner", floors=4, summit_points=5, abilities=False),
}
