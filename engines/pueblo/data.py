"""Pueblo's fixed data: stone counts from the rulebook, and the house data.

Every item the French rulebook does not fix is *house data*: it lives here,
in one named constant, so that real data can replace it in one place (see
docs/rules/pueblo.md, which lists every house rule and house datum).
"""

from __future__ import annotations

SIZE = 8
"""The building area is 8 x 8 cells (rulebook)."""

CELLS = SIZE * SIZE

COLOURS = ("red", "blue", "green", "purple")
"""Seat i plays COLOURS[i]; 2 players red and blue, 3 add green, 4 add purple (rulebook)."""

NEUTRAL = -1
"""The owner of a neutral stone's cubes."""

STONES_PER_PLAYER = {2: (8, 7), 3: (6, 5), 4: (5, 4)}
"""Players -> (coloured stones, neutral stones) each (rulebook's setup table)."""

STONE_CUBES = ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1))
"""HOUSE DATA: the stone's handedness. x east, y north, z up: an L of three cubes
on the table with a fourth cube on the east end (docs/rules/pueblo.md, components). The mirror
piece would give a mirror-image game."""

TRACK = 36
"""The chieftain's track: 8 spaces per side and 4 corners."""

CORNERS = (0, 9, 18, 27)
"""HOUSE DATA (numbering, docs/rules/pueblo.md): 0 = north-west corner, then clockwise:
1-8 north side (west to east, looking south), 9 north-east corner, 10-17 east
side (north to south, looking west), 18 south-east corner, 19-26 south side
(east to west, looking north), 27 south-west corner, 28-35 west side (south
to north, looking east)."""

TRACK_SIDES = (
    (1, (0, 7), (1, 0), (0, -1)),  # north side: a..h, looking south
    (10, (7, 7), (0, -1), (-1, 0)),  # east side: rows 8..1, looking west
    (19, (7, 0), (-1, 0), (0, 1)),  # south side: h..a, looking north
    (28, (0, 0), (0, 1), (1, 0)),  # west side: rows 1..8, looking east
)
"""HOUSE DATA (numbering): per side, (its first space, the cell nearest to that space, the step
to the next space's line, the direction the chieftain looks). Cells are (x, y): x = file a-h,
y = rank 1-8."""

CORNER_QUARTERS = {0: (0, 4), 9: (4, 4), 18: (4, 0), 27: (0, 0)}
"""HOUSE DATA (numbering): corner space -> the south-west cell of the 4x4 quarter he looks down on."""

START_SPACE = 0
"""HOUSE DATA: the rulebook puts the chieftain on "a corner"; Lanterne uses the
north-west corner (space 0)."""

MOVES = (1, 2, 3, 4)
"""The chieftain moves 1 to 4 spaces clockwise (rulebook)."""

SITE_SHAPE = ((0, 0), (1, 0), (0, 1))
"""HOUSE DATA: a sacred site is L-shaped and covers these 3 cells (an L-tromino, the
shape of a stone's footprint), in any of its 4 rotations; the rulebook does not give its size."""

MAX_SITES = 4
"""Four sacred sites are in the box (rulebook); 1 to 4 are used."""

DEFAULT_SITES = 2
"""HOUSE DATA: how many sacred sites the advanced game uses unless told."""

HELD_BLOCKS = 2
"""In the advanced game each player holds 2 blocks back for phase 2 (rulebook)."""

MIN_BID = 1
"""HOUSE DATA: the smallest bid in a turn-order auction (a pass is not a bid)."""

MAX_BID = 20
"""HOUSE DATA: the largest bid in a turn-order auction. The rulebook sets no
limit; a limit keeps the list of legal actions finite."""

VARIANTS = ("standard", "advanced", "dismantling", "advanced+dismantling")
"""The standard rules, the advanced rules (sacred sites, a turn-order auction, two building phases), the
dismantling end, and both together."""
