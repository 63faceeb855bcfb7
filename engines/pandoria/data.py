"""Pandoria's house data: the Lanterne edition.

The French rulebook gives no map, no tile list and no card list. Every table
here is *house data* (docs/rules/pandoria.md lists every item): invented,
plausible data that fits the rulebook, kept in this one module so that the
real data can replace it in one place. docs/rules/pandoria.md names each item.
"""

from __future__ import annotations

# --------------------------------------------------------------------------
# Terrains and resources

FOREST, HILL, MOUNTAIN, CITY = 0, 1, 2, 3
TERRAINS = (FOREST, HILL, MOUNTAIN, CITY)
TERRAIN_LETTERS = "FHMC"
TERRAIN_NAMES = ("forest", "hill", "mountain", "city")
RESOURCE_NAMES = ("wood", "gold", "crystal")
"""Resources are indexed by the terrain that yields them: forest wood, hill gold,
mountain crystal. A city yields points."""
WOOD, GOLD, CRYSTAL = FOREST, HILL, MOUNTAIN

RESOURCE_CAP = 10
OVERFLOW_RATE = 3
"""Above 10 of a resource during a scoring: 1 point per 3 (rulebook §7.2)."""
FINAL_RATE = 3
"""At the end: 1 point per 3 resources of a kind (rulebook §10)."""

# --------------------------------------------------------------------------
# HOUSE DATA: the map sketch (docs/rules/pandoria.md), offset rows, odd rows shifted right.
#   '#' off the board, '.' empty land, 'L' lake with one ship, 'S' start hex,
#   'M' 'H' 'F' 'C' printed mountain / hill / forest / city space (1 symbol).

MAP_SKETCH = (
    "##..........##",
    "#............#",
    "#....L.......#",
    "..M.......F...",
    "......SS......",
    "......SS......",
    "..H.......C...",
    "#.......L....#",
    "#....L.......#",
    "##..........##",
)
ROWS = len(MAP_SKETCH)
COLS = len(MAP_SKETCH[0])

START_PAIRS = (((4, 6), (4, 7)), ((5, 6), (5, 7)))
"""HOUSE DATA: the 4 start hexes as two pairs; a start tile goes on each pair."""

PATHS = (((1, 1), MOUNTAIN), ((1, 12), FOREST), ((8, 1), HILL), ((8, 12), CITY))
"""HOUSE DATA, paths reading A: the board-edge hex where a path of a terrain
leaves the plain. A region of that terrain containing or touching it never closes."""

# --------------------------------------------------------------------------
# HOUSE DATA: tiles (docs/rules/pandoria.md)

PAIRS = ((FOREST, HILL), (FOREST, MOUNTAIN), (FOREST, CITY),
         (HILL, MOUNTAIN), (HILL, CITY), (MOUNTAIN, CITY))
SYMBOL_COUNTS = ((1, 1), (1, 2), (2, 1), (2, 2))


def _double_tiles() -> tuple[tuple[int, int, int, int], ...]:
    tiles = []
    for a, b in PAIRS:
        for sa, sb in SYMBOL_COUNTS:
            tiles += [(a, sa, b, sb)] * 2
    return tuple(tiles)


DOUBLE_TILES = _double_tiles()
"""HOUSE DATA: the 48 double tiles as (terrain a, symbols a, terrain b, symbols b):
each of the 6 terrain pairs 8 times, symbols (1,1) (1,2) (2,1) (2,2) twice each."""

START_TILES = ((FOREST, 1, HILL, 1), (MOUNTAIN, 1, CITY, 1))
"""HOUSE DATA: the 2 start double tiles."""

SINGLE_TILES = tuple((t, 1) for t in TERRAINS for _ in range(2))
"""HOUSE DATA: the 8 single tiles (terrain, symbols): 2 per terrain, 1 symbol."""

SET_ASIDE = {2: 12, 3: 8, 4: 4}
"""Double tiles set aside unseen at setup, by players (rulebook §5)."""

# --------------------------------------------------------------------------
# HOUSE DATA: monuments (docs/rules/pandoria.md): 4 x 3, 3 x 4, 3 x 5, 3 x 6 points.

MONUMENTS = (3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6)
"""Bottom of the stack first: the 3s at the bottom, then 4, 5 and 6 on top."""
MONUMENTS_REMOVED = {2: (4, 4, 5, 5, 6, 6), 3: (4, 5, 6), 4: ()}
MONUMENT_WOOD = 8

# --------------------------------------------------------------------------
# Pieces

FIGURES = {2: 6, 3: 5, 4: 4}
"""Figures per player besides the leader (rulebook §5)."""
CASTLES = 2
BUILDING_SLOTS = 5
MARKET_SIZE = 4

# --------------------------------------------------------------------------
# Peoples (rulebook §11 and §12)

HUMANS, DWARVES, ELVES, MAGES, HALFLINGS = range(5)
PEOPLE_NAMES = ("Humans", "Dwarves", "Elves", "Mages", "Halflings")
START_B = ((5, 4, 5), (5, 10, 2), (4, 3, 8), (2, 2, 9), (7, 3, 4))
"""Side B (classic) start resources as (wood, gold, crystal) (rulebook §11)."""
START_A = ((5, 5, 5), (5, 8, 2), (4, 3, 6), (2, 2, 7), (6, 3, 5))
"""Side A (beginner) start resources as (wood, gold, crystal) (rulebook §12)."""
HAND_B = 4
HAND_A = 2
"""Cards dealt from the deck: 4 on side B; 2 on side A (plus the second individual card)."""

# --------------------------------------------------------------------------
# HOUSE DATA: the 54 cards (docs/rules/pandoria.md). A card is a spell (crystals) on top
# and a building (wood) below; the price in gold is for buying it at the market.

SPELL_COST = {
    "Master Builder": 3, "Acquire": 2, "Conjure": 1, "Terrain": 3, "Muster": 2,
    "Adopt": 4, "Teleport": 2, "Enchanted Castle": 4, "Construct": 2, "Clone": 3,
    "Astral Ship": 2,
}
BUILDING_COST = {
    "Small Tower": 3, "Small Saw Mill": 3, "Small Treasury": 3,
    "Large Tower": 6, "Large Saw Mill": 6, "Large Treasury": 6,
    "Statue": 4, "Carpenter": 4, "Bank": 4, "Shrine": 4, "Store": 3,
    "Vault": 4, "Lumberyard": 4, "Repository": 4,
}
PRODUCTION = {
    "Small Tower": (MOUNTAIN, 1), "Large Tower": (MOUNTAIN, 2),
    "Small Saw Mill": (FOREST, 1), "Large Saw Mill": (FOREST, 2),
    "Small Treasury": (HILL, 1), "Large Treasury": (HILL, 2),
    "Statue": (CITY, 1),
}
"""HOUSE DATA: bonus per own adjacent figure (leader counts 1) when a region of that terrain is scored."""
FINAL_EXCHANGE = {"Vault": GOLD, "Lumberyard": WOOD, "Repository": CRYSTAL}
"""HOUSE DATA: end-game exchange at 2 : 1 for that resource."""
BETTER_RATE = 2
STORE_RATE = 2
"""HOUSE DATA: with a Store, resources above 10 convert at 2 : 1."""
CARPENTER_DISCOUNT = 1
BANK_DISCOUNT = 1
SHRINE_DISCOUNT = 1
CONSTRUCT_DISCOUNT = 2

INDIVIDUAL_CARDS = (
    ("Master Builder", "Bank", 3), ("Acquire", "Statue", 2),
    ("Conjure", "Carpenter", 2), ("Terrain", "Lumberyard", 3),
    ("Muster", "Small Saw Mill", 2), ("Adopt", "Store", 3),
    ("Teleport", "Large Tower", 3), ("Enchanted Castle", "Shrine", 3),
    ("Construct", "Small Treasury", 2), ("Clone", "Large Treasury", 3),
)
"""Cards 0-9: people p holds cards 2p (its "A" card, the beginner's starting
building) and 2p+1 (names from the seed, values HOUSE DATA)."""

COMMON_DESIGNS = (
    ("Astral Ship", "Small Tower", 2), ("Astral Ship", "Repository", 2),
    ("Teleport", "Small Saw Mill", 2), ("Teleport", "Vault", 2),
    ("Muster", "Small Treasury", 2), ("Muster", "Lumberyard", 2),
    ("Clone", "Large Tower", 3), ("Clone", "Statue", 3),
    ("Terrain", "Large Saw Mill", 3), ("Terrain", "Carpenter", 3),
    ("Conjure", "Large Treasury", 3), ("Conjure", "Small Tower", 2),
    ("Acquire", "Small Saw Mill", 2), ("Acquire", "Bank", 2),
    ("Construct", "Small Treasury", 2), ("Construct", "Shrine", 2),
    ("Master Builder", "Large Tower", 3), ("Master Builder", "Vault", 3),
    ("Enchanted Castle", "Large Saw Mill", 4), ("Enchanted Castle", "Repository", 3),
    ("Adopt", "Large Treasury", 4), ("Adopt", "Lumberyard", 3),
)
"""HOUSE DATA: the 22 common designs, 2 copies each: cards 10-53 (10 + 2d, 11 + 2d)."""

CARDS = INDIVIDUAL_CARDS + tuple(d for d in COMMON_DESIGNS for _ in range(2))
"""All 54 cards by identity: (spell, building, price in gold)."""
assert len(CARDS) == 54

# --------------------------------------------------------------------------
# Identities in the one card registry (engines.core.Cards)

CARD_BASE, TILE_BASE, SINGLE_BASE, PEOPLE_BASE = 0, 100, 200, 300
"""Identity ranges: cards 0-53, double tiles 100-147, single tiles 200-207,
people boards 300-304. Slots are laid out in the same order."""
IDENTITIES = (tuple(range(CARD_BASE, CARD_BASE + len(CARDS)))
              + tuple(range(TILE_BASE, TILE_BASE + len(DOUBLE_TILES)))
              + tuple(range(SINGLE_BASE, SINGLE_BASE + len(SINGLE_TILES)))
              + tuple(range(PEOPLE_BASE, PEOPLE_BASE + len(PEOPLE_NAMES))))


DESIGN = tuple(CARDS.index(c) for c in CARDS)
"""Cards with the same spell, building and price are alike: their design is the lowest such identity."""


def card_design(ident: int) -> int:
    return DESIGN[ident]


def card_name(ident: int) -> str:
    spell, building, _ = CARDS[ident]
    return f"{spell}/{building}"

VARIANTS = ("classic", "beginner", "team")
