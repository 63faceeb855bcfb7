"""House data and fixed numbers of Pacal's Rocket, in one place.

The printed board, the die's doubled face and a few readings of the rulebook
are not known (docs/rules/pacal.md lists each house datum and house reading).
Every such item below is marked **house data**: replace it here and nothing
else changes. The numbers the French rulebook prints are marked *rulebook*.
"""

from __future__ import annotations

ROWS = 13
COLS = 13
"""House data: a 13x13 grid; row 0 is the top (north) row, column 0 the left."""

DISTRICTS: dict[str, tuple[int, tuple[tuple[int, int, int, int], ...]]] = {
    "A": (3, ((0, 2, 0, 3),)),
    "B": (4, ((0, 2, 4, 6),)),
    "C": (4, ((0, 2, 7, 9),)),
    "D": (3, ((0, 3, 10, 12),)),
    "E": (3, ((3, 4, 0, 1), (5, 8, 0, 2))),
    "F": (6, ((3, 4, 4, 6),)),
    "G": (6, ((3, 4, 7, 9),)),
    "H": (4, ((4, 8, 10, 12),)),
    "I": (5, ((5, 8, 3, 4),)),
    "S": (7, ((5, 7, 5, 7),)),
    "J": (6, ((5, 7, 8, 9), (8, 8, 5, 9))),
    "K": (3, ((9, 12, 0, 2),)),
    "L": (4, ((9, 12, 3, 5),)),
    "M": (5, ((9, 12, 6, 7),)),
    "N": (4, ((9, 12, 8, 9),)),
    "O": (3, ((9, 12, 10, 12),)),
}
"""House data: the 16 districts, name -> (value, rectangles [row0, row1, col0, col1] inclusive).

Only the sacred district's value 7 and central 3x3 place are rulebook facts."""

SACRED = "S"
"""The sacred district (rulebook: the one worth 7 in the centre, where the ships start)."""

LAKE: tuple[tuple[int, int], ...] = ((3, 2), (3, 3), (4, 2), (4, 3))
"""House data: the lake cells (an obstacle; in no district)."""

RIVER_SCORING: tuple[tuple[int, int], ...] = tuple((r, c) for r in range(5, 13) for c in (2, 3))
"""House data: the cells along the river (both banks of the edge between columns 2 and 3, rows 5-12)."""

LAKE_SCORING: tuple[tuple[int, int], ...] = ((2, 2), (2, 3), (3, 1), (4, 1), (3, 4), (4, 4), (5, 2), (5, 3))
"""House data: the cells around the lake (orthogonally next to it)."""

COVERS: dict[str, tuple[str, ...]] = {"4": ("D",), "2/3": ("D", "H"), "2": ("N", "O")}
"""House data: the districts each cover piece hides."""

COVERS_BY_PLAYERS: dict[int, tuple[str, ...]] = {5: (), 4: ("4",), 3: ("2/3",), 2: ("2", "2/3")}
"""Rulebook: which cover pieces lie on the board for each player count."""

ARROWS = 0
"""The arrows face of the die (any distance in one direction, over obstacles)."""

DIE_FACES: tuple[int, ...] = (2, 3, 3, 4, 5, ARROWS)
"""House data: the special die; the table's roll value 0..5 indexes this table."""

STONES_PER_COLOUR = 11
"""Rulebook: 11 divine stones per colour; one of them marks the score (rulebook: "sur la case 0")."""

STONES_IN_PLAY = STONES_PER_COLOUR - 1
"""The stones a player can put into ships (the eleventh is the score marker)."""

PYRAMIDS: dict[int, int] = {1: 1, 2: 3, 3: 3, 4: 2, 5: 2}
"""Rulebook: pyramids per colour by storeys (11 in all)."""

PYRAMIDS_PER_COLOUR = sum(PYRAMIDS.values())

ENERGY: tuple[int, ...] = (2, 4, 6)
"""Rulebook: each player's energy pieces (worth their value at the end if unused)."""

END_THRESHOLD: dict[int, int] = {2: 45, 3: 40, 4: 35, 5: 30}
"""Rulebook: the score that ends the game, by player count."""

LAST_PYRAMID_BONUS = 5
"""Rulebook: building one's last pyramid ends the game and scores 5 more."""

SECOND_TO_LAST_BONUS = 5
"""Rulebook: after the point threshold, building one's second-to-last pyramid scores 5."""

WATER_AWARDS: tuple[int, ...] = (12, 8, 4)
"""Rulebook: first, second and third place around the river, and around the lake."""

DISTRICT_SECOND_PLACE = 2
"""Rulebook: second place in a district at the end scores 2."""

ROTATED_SQUARES = False
"""House data (rule flag): whether a square turned 45 degrees makes 5 storeys. The rulebook
says only "un carré"; Lanterne reads an axis-aligned square."""

TWO_PLAYER_ENDS_AT_ONCE = True
"""House reading: with 2 players the game ends as soon as a player reaches 45
(rulebook: "dès qu'un joueur obtient 45 points"), without finishing the round."""

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "violet")
"""House data: the colour of each seat (seat 1 = red ...); only names for the screen."""

STANDARD, EXPERT = "standard", "expert"
VARIANTS = (STANDARD, EXPERT)
