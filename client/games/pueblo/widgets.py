"""Pueblo's board: the 8x8 top view inside the chieftain's track, and the stone in hand.

The board widget only draws a :class:`BoardPicture` and reports where the
pointer is (a cell or a track space); the screen decides what a click means
(client/games/pueblo/screen.py). The stone in hand is one of the 12 orientations,
turned a quarter at a time inside its family (flat bottom, flat top, corner
tall); its tall cell follows the pointer or the keyboard cursor.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from lanterne.client.game_terms import pueblo_space as space_name  # noqa: F401 - the panels say it from here
from lanterne.client.i18n import N_, _
from lanterne.client.theme import BLACK, WHITE, Pueblo
from lanterne.engines.pueblo.view import CORNERS, LINES, ORIENTATIONS, POSE_COLUMNS, SIZE, SPACE_NAMES

# ------------------------------------------------------------------ colours

SEAT_BG = Pueblo.SEAT_BG
"""Per seat, two shades for the tops of its stones (stones alternate, so neighbours stay apart)."""

SEAT_INK = Pueblo.SEAT_INK
"""Seat colours as text on the dark background."""

NEUTRAL_BG = Pueblo.NEUTRAL_BG
FLOOR_BG = Pueblo.FLOOR_BG
SITE_BG = Pueblo.SITE_BG
LEGAL_STYLE = f"bold {BLACK} on {Pueblo.LEGAL_BG}"
ILLEGAL_STYLE = f"bold {WHITE} on {Pueblo.ILLEGAL_BG}"
TRACK_STYLE = f"{Pueblo.TRACK_INK} on {Pueblo.TRACK_BG}"
CHIEF_STYLE = f"bold {BLACK} on {Pueblo.CHIEF_BG}"
OPTION_STYLE = f"bold {WHITE} on {Pueblo.OPTION_BG}"
OPTION_HOT_STYLE = f"bold {BLACK} on {Pueblo.OPTION_HOT_BG}"
HOVER_STYLE = f"bold {WHITE} on {Pueblo.HOVER_BG}"
CHIEF = "☻"

# ------------------------------------------------------------------ the stone in hand

FLAT_BOTTOM, FLAT_TOP, CORNER_TALL = 0, 1, 2
FAMILY_NAMES = (N_("flat bottom"), N_("flat top"), N_("corner tall"))
def family_of(orient: int) -> int:
    """Which of the three families an orientation belongs to (docs/rules/pueblo.md)."""
    cols = POSE_COLUMNS[orient]
    tall = next(c for c in cols if c.count == 2)
    lows = sorted(c.low for c in cols if c.count == 1)
    if lows == [tall.low, tall.low]:
        return FLAT_BOTTOM
    if lows == [tall.low + 1, tall.low + 1]:
        return FLAT_TOP
    return CORNER_TALL


def _quarter_turn(orient: int) -> int:
    """The orientation turned a quarter clockwise seen from above: (x, y) -> (y, -x)."""
    cubes = [(y, -x, z) for x, y, z in ORIENTATIONS[orient]]
    lx, ly = min(c[0] for c in cubes), min(c[1] for c in cubes)
    return ORIENTATIONS.index(tuple(sorted((x - lx, y - ly, z) for x, y, z in cubes)))


def _cycles() -> tuple[tuple[int, ...], ...]:
    """Per family, its 4 orientations in quarter-turn order, from the lowest index."""
    out = []
    for fam in (FLAT_BOTTOM, FLAT_TOP, CORNER_TALL):
        start = min(o for o in range(len(ORIENTATIONS)) if family_of(o) == fam)
        cycle = [start]
        while len(cycle) < 4:
            cycle.append(_quarter_turn(cycle[-1]))
        if _quarter_turn(cycle[-1]) != start or any(family_of(o) != fam for o in cycle):
            raise AssertionError("the quarter turns of a family do not close")
        out.append(tuple(cycle))
    return tuple(out)


CYCLES: tuple[tuple[int, ...], ...] = _cycles()
"""The 3 families, each 4 orientations a quarter turn apart."""

ORDER: tuple[int, ...] = tuple(o for cycle in CYCLES for o in cycle)
"""All 12 orientations, family by family: the order the mouse wheel turns through."""


def turn(orient: int, step: int = 1) -> int:
    """A quarter turn (``step`` quarters) inside the orientation's family."""
    cycle = CYCLES[family_of(orient)]
    return cycle[(cycle.index(orient) + step) % 4]


def next_family(orient: int, step: int = 1) -> int:
    """The same quarter of the next family."""
    fam = family_of(orient)
    return CYCLES[(fam + step) % 3][CYCLES[fam].index(orient)]


def wheel(orient: int, step: int) -> int:
    """One notch of the mouse wheel: the next of all 12 orientations."""
    return ORDER[(ORDER.index(orient) + step) % len(ORDER)]


def tall_offset(orient: int) -> tuple[int, int]:
    col = next(c for c in POSE_COLUMNS[orient] if c.count == 2)
    return col.dx, col.dy


def box_for(orient: int, cx: int, cy: int) -> tuple[int, int]:
    """The 2x2 box that puts the tall cell on (cx, cy), slid back inside the 8x8 area at an edge."""
    dx, dy = tall_offset(orient)
    return min(max(cx - dx, 0), SIZE - 2), min(max(cy - dy, 0), SIZE - 2)


def stone_sketch(orient: int) -> list[Text]:
    """The orientation in its 2x2 box, north up: per cell the levels it fills above its base."""
    cols = {(c.dx, c.dy): c for c in POSE_COLUMNS[orient]}
    lines = []
    for dy in (1, 0):
        line = Text()
        for dx in (0, 1):
            c = cols.get((dx, dy))
            if c is None:
                line.append(" ·  ", style="dim")
            elif c.count == 2:
                line.append(f"▲{c.low + 1}-{c.low + 2}", style=LEGAL_STYLE)
            else:
                line.append(f" {c.low + 1}  ", style=LEGAL_STYLE)
            line.append(" ")
        lines.append(line)
    return lines


# ------------------------------------------------------------------ board geometry on screen

CELL_W = 4
CELL_H = 2
BOARD_W = CELL_W * (SIZE + 2)
BOARD_H = CELL_H * SIZE + 2


def _track_places() -> dict[int, tuple[int, int, int]]:
    """Track space -> (column, line, lines tall) of its box on the board drawing."""
    out: dict[int, tuple[int, int, int]] = {}
    for space, line in LINES.items():
        near = line[0]
        x, y = near % SIZE, near // SIZE
        look = line[1] - line[0]
        row_top = 1 + (SIZE - 1 - y) * CELL_H
        if look == -SIZE:  # looks south: the north side
            out[space] = ((x + 1) * CELL_W, 0, 1)
        elif look == SIZE:
            out[space] = ((x + 1) * CELL_W, BOARD_H - 1, 1)
        elif look == -1:  # looks west: the east side
            out[space] = ((SIZE + 1) * CELL_W, row_top, CELL_H)
        else:
            out[space] = (0, row_top, CELL_H)
    right, bottom = (SIZE + 1) * CELL_W, BOARD_H - 1
    for space, name in zip(CORNERS, ("NW", "NE", "SE", "SW")):
        out[space] = ({"NW": 0, "SW": 0}.get(name, right), 0 if name[0] == "N" else bottom, 1)
    return out


TRACK_PLACES: dict[int, tuple[int, int, int]] = _track_places()


CORNER_MARKS = (N_("NW"), N_("NE"), N_("SE"), N_("SW"))
"""The corners' marks on the track, in the language in force (French: NO, NE, SE, SO)."""


def _space_label(space: int) -> str:
    if space in CORNERS:
        return _(CORNER_MARKS[CORNERS.index(space)])
    name = SPACE_NAMES[space]
    return name.split()[-1]  # the file letter or the row number


def cell_at(x: int, y: int) -> tuple[int, int] | None:
    """The board cell (file, rank) under a point of the drawing, if any."""
    col, row = x // CELL_W - 1, (y - 1) // CELL_H if y >= 1 else -1
    if 0 <= col < SIZE and 0 <= row < SIZE and 1 <= y < BOARD_H - 1:
        return col, SIZE - 1 - row
    return None


def space_at(x: int, y: int) -> int | None:
    """The track space under a point of the drawing, if any."""
    for space, (left, top, tall) in TRACK_PLACES.items():
        if left <= x < left + CELL_W and top <= y < top + tall:
            return space
    return None


def cell_centre(cx: int, cy: int) -> tuple[int, int]:
    """Where to point (or click) on the drawing to reach a cell."""
    return (cx + 1) * CELL_W + CELL_W // 2, 1 + (SIZE - 1 - cy) * CELL_H + 1


def space_centre(space: int) -> tuple[int, int]:
    left, top, tall = TRACK_PLACES[space]
    return left + CELL_W // 2, top + tall // 2


class Overlay(NamedTuple):
    """What a previewed cell shows instead of the pueblo: its text and style."""

    text: str
    style: str


def footprint_overlay(cells: tuple[tuple[int, int, int], ...], legal: bool) -> dict[int, Overlay]:
    """A previewed stone: per cell the levels it would fill ('▲1-2' on the tall cell), green or red."""
    style = LEGAL_STYLE if legal else ILLEGAL_STYLE
    return {c: Overlay(f"▲{first}-{last}" if last > first else f"{first}", style) for c, first, last in cells}


class BoardPicture(NamedTuple):
    """Everything the board drawing shows."""

    heights: tuple[int, ...]
    tops: tuple[tuple[int, int] | None, ...]  # per cell: (owner, stone id) of its top cube
    sites: frozenset[int]
    chief: int
    options: dict[int, int]  # track space -> chieftain move (1-4) reaching it
    hot_space: int | None  # the space under the pointer or chosen by keys
    overlay: dict[int, Overlay]  # cell index -> preview
    cursor: int | None = None  # the cell the keys (or the pointer) are on, marked when nothing covers it


def top_style(owner: int, stone: int) -> str:
    if owner < 0:
        return f"bold {BLACK} on {NEUTRAL_BG[stone % 2]}"
    return f"bold {WHITE} on {SEAT_BG[owner][stone % 2]}"


def _cell_lines(pic: BoardPicture, cx: int, cy: int) -> list[tuple[str, str]]:
    c = cy * SIZE + cx
    h = pic.heights[c]
    top = pic.tops[c]
    if top is not None:
        style = top_style(*top)
    elif c in pic.sites:
        style = f"bold {Pueblo.SITE_INK} on {SITE_BG}"
    else:
        style = f"{Pueblo.FLOOR_INK} on {FLOOR_BG[(cx + cy) % 2]}"
    middle = str(h) if h else ("site" if c in pic.sites else "·")
    over = pic.overlay.get(c)
    if over is not None:
        lines = [(middle, over.style), (over.text, over.style)]
    else:
        lines = [(middle, style), ("▾" if c == pic.cursor else "", style)]
    return [("", lines[0][1])] * (CELL_H - 2) + lines  # height on top, preview levels (or the cursor) under it


def _space_lines(pic: BoardPicture, space: int) -> tuple[str, str]:
    label = _space_label(space)
    if space == pic.chief:
        text, style = f"{label} {CHIEF}", CHIEF_STYLE
    elif space in pic.options:
        text = f"{label} {pic.options[space]}"
        style = OPTION_HOT_STYLE if space == pic.hot_space else OPTION_STYLE
    else:
        text, style = label, HOVER_STYLE if space == pic.hot_space else TRACK_STYLE
    return text, style


def board_grid(pic: BoardPicture) -> list[list[tuple[str, str]]]:
    """The drawing as rows of (text, style) boxes, CELL_W wide: track, cells, track."""
    grid: list[list[tuple[str, str]]] = [[("", "")] * (SIZE + 2) for _ in range(BOARD_H)]
    for space, (left, top, tall) in TRACK_PLACES.items():
        text, style = _space_lines(pic, space)
        for k in range(tall):
            grid[top + k][left // CELL_W] = (text if k == max(tall - 2, 0) else "", style)  # level with heights
    for cy in range(SIZE):
        for cx in range(SIZE):
            for k, part in enumerate(_cell_lines(pic, cx, cy)):
                grid[1 + (SIZE - 1 - cy) * CELL_H + k][cx + 1] = part
    return grid


def render_board(pic: BoardPicture) -> Text:
    """The pueblo from above, heights and top colours, inside the 36-space track."""
    out = Text(no_wrap=True, overflow="crop")
    for n, row in enumerate(board_grid(pic)):
        if n:
            out.append("\n")
        for text, style in row:
            out.append(f"{text:^{CELL_W}}", style=style or None)
    return out


def _strip(row: list[tuple[str, str]]) -> Strip:
    return Strip([Segment(f"{text:^{CELL_W}}", Style.parse(style) if style else None) for text, style in row],
                 BOARD_W)


class PuebloBoard(Widget, can_focus=True):
    """The top view and the track; reports the pointer as a cell or a track space."""

    KEEP_SCROLL_ON_FOCUS = True  # the screen scrolls it to the keyboard cursor (GameScreen.set_focus)


    class Pointed(Message):
        """The pointer is over a cell (x, y), a track space, or nothing of the board."""

        def __init__(self, cell: tuple[int, int] | None, space: int | None, click: bool):
            super().__init__()
            self.cell = cell
            self.space = space
            self.click = click

    class Turned(Message):
        """The mouse wheel turned the stone in hand by ``step`` orientations."""

        def __init__(self, step: int):
            super().__init__()
            self.step = step

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._grid: list[list[tuple[str, str]]] = []
        self._strips: list[Strip] = []
        self.picture: BoardPicture | None = None

    def show(self, picture: BoardPicture) -> None:
        """Draw ``picture``; only the lines that changed are rebuilt and repainted."""
        self.picture = picture
        grid = board_grid(picture)
        if len(self._grid) != len(grid):
            self._grid, self._strips = grid, [_strip(row) for row in grid]
            self.refresh()
            return
        for y, row in enumerate(grid):
            if row != self._grid[y]:
                self._grid[y] = row
                self._strips[y] = _strip(row)
                self.refresh(Region(0, y, BOARD_W, 1))

    def lines(self) -> list[str]:
        """The drawing as plain text, one string per line."""
        return [strip.text for strip in self._strips]

    def render_line(self, y: int) -> Strip:
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width)

    def _point(self, event: events.MouseEvent, click: bool) -> None:
        self.post_message(self.Pointed(cell_at(event.x, event.y), space_at(event.x, event.y), click))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._point(event, False)

    def on_click(self, event: events.Click) -> None:
        self._point(event, True)

    def on_leave(self, event: events.Leave) -> None:
        self.post_message(self.Pointed(None, None, False))

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.post_message(self.Turned(1))

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.post_message(self.Turned(-1))
