"""Pandoria's hex map, drawn in the terminal and clickable.

The map is a text canvas: each hex is a cell 4 characters wide and 2 lines
high (terrain letter and symbols on top, the figure below), odd rows shifted
right as on the board. :func:`cell_origin` and :func:`hex_at` convert between
hexes and character offsets, so a click (or a test) finds its hex.

The widget draws what it is given (a view and :class:`Marks`) and reports
clicks, hovers and keys as messages; the screen decides what they mean.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.events import Click, MouseMove
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from lanterne.client.i18n import N_, _, ngettext
from lanterne.client.theme import Pandoria
from lanterne.client.widgets.scrolling import scroll_to_part
from lanterne.engines.pandoria.view import CASTLE, COLUMN_LETTERS, KIND, LAKE, OFF, PATH_HEXES, hex_name, hex_of
from lanterne.engines.pandoria.view import data as D

LABEL_WIDTH = 3
CELL = 5
"""Characters per hex: 4 of content and a gap."""
ODD_SHIFT = 2
MAP_WIDTH = LABEL_WIDTH + D.COLS * CELL + ODD_SHIFT
MAP_HEIGHT = 2 * D.ROWS + 2

TERRAIN_BG = Pandoria.TERRAIN_BG
CLOSED_BG = Pandoria.CLOSED_BG
PLAYER_COLOURS = Pandoria.PLAYERS
PLAYER_INK = Pandoria.PLAYER_INK
PLAYER_NAMES = ("red", "blue", "yellow", "white")
SCORING_BG = Pandoria.SCORING_BG
LAKE_BG = Pandoria.LAKE_BG
CASTLE_BG = Pandoria.CASTLE_BG
PATHS = dict(PATH_HEXES)


def cell_origin(h: int) -> tuple[int, int]:
    """The character offset (x, y) of the top-left corner of hex ``h``'s cell."""
    r, c = divmod(h, D.COLS)
    return LABEL_WIDTH + (ODD_SHIFT if r % 2 else 0) + c * CELL, 1 + 2 * r


def hex_at(x: int, y: int) -> int | None:
    """The board hex drawn at character offset (x, y), or None (labels, gaps, mountains)."""
    if not 1 <= y <= 2 * D.ROWS:
        return None
    r = (y - 1) // 2
    xx = x - LABEL_WIDTH - (ODD_SHIFT if r % 2 else 0)
    if xx < 0 or xx % CELL == CELL - 1:
        return None
    c = xx // CELL
    if c >= D.COLS:
        return None
    h = hex_of(r, c)
    return h if KIND[h] != OFF else None


def figure_chip(occupant: int) -> tuple[str, str]:
    """A figure as 4 characters in its player's colour: ● a figure, ★ the leader."""
    seat, leader = occupant >> 1, occupant & 1
    return f" {'★' if leader else '●'}{seat + 1} ", f"bold {PLAYER_INK[seat]} on {PLAYER_COLOURS[seat]}"


@dataclass
class Marks:
    """What the screen wants highlighted on the map."""

    cursor: int | None = None
    preview: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Hex -> (terrain, symbols) of a tile not placed yet (terrain 4: a castle of ``seat``)."""
    seat: int = 0
    targets: frozenset[int] = frozenset()
    """Hexes where a click does something now."""
    scoring: frozenset[int] = frozenset()
    """Hexes of regions that will score (closed this turn, or closed by the preview)."""
    source: int | None = None
    """A figure picked up (Teleport, the Elves' move)."""
    last: frozenset[int] = frozenset()
    """Hexes the other players changed since the seat on screen last played (framed in orange)."""


class _Canvas:
    def __init__(self, width: int, height: int):
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [[""] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str, style: str = "") -> None:
        row, srow = self.chars[y], self.styles[y]
        for i, ch in enumerate(text):
            if 0 <= x + i < len(row):
                row[x + i] = ch
                srow[x + i] = style

    def runs(self) -> list[list[tuple[str, str]]]:
        """Each line as runs of (text, style) with one style each."""
        lines = []
        for row, srow in zip(self.chars, self.styles):
            line, start = [], 0
            for x in range(1, len(row) + 1):
                if x == len(row) or srow[x] != srow[start]:
                    line.append(("".join(row[start:x]), srow[start]))
                    start = x
            lines.append(line)
        return lines

    def text(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        for y, line in enumerate(self.runs()):
            if y:
                out.append("\n")
            for chunk, style in line:
                out.append(chunk, style=style or None)
        return out


@lru_cache(maxsize=512)
def _rich_style(style: str) -> Style:
    return Style.parse(style) if style else Style()


def _terrain_cell(terrain: int, symbols: int, closed: bool) -> tuple[str, str]:
    letter = D.TERRAIN_LETTERS[terrain]
    bg = CLOSED_BG[terrain] if closed else TERRAIN_BG[terrain]
    return f" {letter.lower() if closed else letter}{'•' * symbols:<2}", f"bold {Pandoria.TERRAIN_INK} on {bg}"


def map_text(view, marks: Marks) -> Text:
    """The whole map: column letters, row numbers, every hex, and the marks."""
    return map_canvas(view, marks).text()


def map_canvas(view, marks: Marks) -> _Canvas:
    canvas = _Canvas(MAP_WIDTH, MAP_HEIGHT)
    for c, letter in enumerate(COLUMN_LETTERS):
        canvas.put(LABEL_WIDTH + c * CELL + 1, 0, letter, "dim")
        canvas.put(LABEL_WIDTH + ODD_SHIFT + c * CELL + 1, MAP_HEIGHT - 1, letter, "dim")
    for r in range(D.ROWS):
        canvas.put(0, 1 + 2 * r, str(r), "dim")
    for h in range(D.ROWS * D.COLS):
        x, y = cell_origin(h)
        top, top_style, bottom, bottom_style = _cell(view, h)
        if h in marks.preview:
            terrain, symbols = marks.preview[h]
            if terrain == CASTLE:
                top, top_style = f" ♜{marks.seat + 1} ", f"bold {PLAYER_COLOURS[marks.seat]} on {CASTLE_BG}"
            else:
                top, top_style = _terrain_cell(terrain, symbols, False)
            bottom, bottom_style = "░░░░", top_style.replace("bold ", "")
        if h in marks.scoring:
            top_style = f"bold {Pandoria.SCORING_INK} on {SCORING_BG}"
        if h in marks.targets and view.occupant[h] < 0 and h not in marks.preview:
            bottom, bottom_style = " ◇◇ ", f"bold {Pandoria.TARGET_INK}" + (top_style[top_style.index(" on "):]
                                                          if " on " in top_style else "")
        canvas.put(x, y, top, top_style)
        canvas.put(x, y + 1, bottom, bottom_style)
        if h in marks.targets and view.occupant[h] >= 0:  # a figure a click acts on
            canvas.put(x + 3, y + 1, "◇", f"bold {Pandoria.TARGET_INK} on " + PLAYER_COLOURS[view.occupant[h] >> 1])
    for h in sorted(marks.last):
        x, y = cell_origin(h)
        for dy in (0, 1):
            canvas.put(x - 1, y + dy, "{", f"bold {Pandoria.NEW}")
            canvas.put(x + CELL - 1, y + dy, "}", f"bold {Pandoria.NEW}")
    for h, left, right, style in ((marks.source, "[", "]", f"bold {Pandoria.TARGET_INK}"),
                                  (marks.cursor, "▶", "◀", f"bold {Pandoria.CURSOR_INK}")):
        if h is not None:
            x, y = cell_origin(h)
            for dy in (0, 1):
                canvas.put(x - 1, y + dy, left, style)
                canvas.put(x + CELL - 1, y + dy, right, style)
    return canvas


def _cell(view, h: int) -> tuple[str, str, str, str]:
    """Top and bottom text and style of one hex as the view shows it."""
    kind = KIND[h]
    if kind == OFF:
        return " ^^ ", Pandoria.OFF_MAP_INK, "", ""
    terrain = view.terrain[h]
    occupant = view.occupant[h]
    bottom, bottom_style = "    ", ""
    if kind == LAKE:
        top, top_style = " ≈≈ ", f"{Pandoria.LAKE_INK} on {LAKE_BG}"
        bottom, bottom_style = "\\__/", f"{Pandoria.SHORE_INK} on {LAKE_BG}"
    elif terrain == CASTLE:
        seat = view.owner[h]
        top, top_style = f" ♜{seat + 1} ", f"bold {PLAYER_COLOURS[seat]} on {CASTLE_BG}"
        bottom_style = f"on {CASTLE_BG}"
    elif terrain >= 0:
        top, top_style = _terrain_cell(terrain, view.symbols[h], bool(view.closed[h]))
        bottom_style = top_style.replace(f"bold {Pandoria.TERRAIN_INK} ", "")
        if h in PATHS and PATHS[h] == terrain:
            bottom = " == "
            bottom_style = f"{Pandoria.TERRAIN_INK} {bottom_style}"
    elif h in PATHS:
        letter = D.TERRAIN_LETTERS[PATHS[h]].lower()
        top, top_style = f"={letter}= ", f"bold {TERRAIN_BG[PATHS[h]]}"
    else:
        top, top_style = " ·· ", Pandoria.EMPTY_INK
    if occupant >= 0:
        bottom, bottom_style = figure_chip(occupant)
    return top, top_style, bottom, bottom_style


def legend() -> Text:
    """The key to the map, in the language in force."""
    return Text.assemble(
        *((D.TERRAIN_LETTERS[t], f"bold {Pandoria.TERRAIN_INK} on {TERRAIN_BG[t]}") for t in range(4)),
        " " + _("forest hill mountain city  • symbol  ●2 figure  ★2 leader  ♜2 castle  \\__/ ship on a lake  "
                "=m= path") + "\n" + _("f (lowercase) closed region") + "  ",
        ("F", f"bold {Pandoria.SCORING_INK} on {SCORING_BG}"), " " + _("region that will score") + "  ",
        _("░░ preview  ◇ a click acts here  ▶◀ cursor (arrows, Enter)"), style="dim")


def describe_hex(view, h: int, labels: list[str]) -> str:
    """One line about a hex, for the cursor and for refusals."""
    name = hex_name(h)
    terrain = view.terrain[h]
    if KIND[h] == LAKE:
        what = _("a lake with a ship")
    elif terrain == CASTLE:
        what = _("a castle of {player}").format(player=labels[view.owner[h]])
    elif terrain >= 0:
        what = ngettext("{terrain}, {n} symbol", "{terrain}, {n} symbols", view.symbols[h]).format(
            terrain=_(D.TERRAIN_NAMES[terrain]), n=view.symbols[h]) + (", " + _("closed") if view.closed[h] else "")
    else:
        what = _("empty land")
    if h in PATHS:
        what += " " + _("({terrain} path)").format(terrain=_(D.TERRAIN_NAMES[PATHS[h]]))
    occupant = view.occupant[h]
    if occupant >= 0:
        said = _("the leader of {player}") if occupant & 1 else _("a figure of {player}")
        what += "; " + said.format(player=labels[occupant >> 1])
    return f"{name}: {what}"


def step(h: int, key: str) -> int:
    """The hex the cursor moves to with an arrow key (it stays put at the edge)."""
    r, c = divmod(h, D.COLS)
    r += {"up": -1, "down": 1}.get(key, 0)
    c += {"left": -1, "right": 1}.get(key, 0)
    if not (0 <= r < D.ROWS and 0 <= c < D.COLS):
        return h
    return hex_of(r, c)


class HexMap(Widget, can_focus=True):
    """The board. Click a hex (or move the cursor with the arrows and press Enter)."""

    KEEP_SCROLL_ON_FOCUS = True  # it scrolls to its cursor itself (GameScreen.set_focus)

    BINDINGS = [
        Binding("up", "move('up')", N_("Cursor"), show=False),
        Binding("down", "move('down')", show=False),
        Binding("left", "move('left')", show=False),
        Binding("right", "move('right')", show=False),
        Binding("enter,space", "activate", N_("Play on this hex")),
    ]

    class Clicked(Message):
        def __init__(self, hex: int):
            super().__init__()
            self.hex = hex

    class CursorMoved(Message):
        def __init__(self, hex: int):
            super().__init__()
            self.hex = hex

    class Turned(Message):
        """The mouse wheel over the map: turn the tile in hand."""

    def _on_mouse_scroll_down(self, event) -> None:
        event.stop()
        self.post_message(self.Turned())

    def _on_mouse_scroll_up(self, event) -> None:
        event.stop()
        self.post_message(self.Turned())

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.cursor = hex_of(4, 5)
        self._lines: list[list[tuple[str, str]]] = []
        self._strips: dict[tuple[int, Style, int], Strip] = {}
        self._key: object = None
        self.marks = Marks()
        """What the map shows highlighted now (the preview, targets, scoring regions)."""

    def render_line(self, y: int) -> Strip:
        """One line of the map (the Line API: a move repaints without re-laying out text)."""
        base = self.rich_style
        key = (y, base, self.size.width)
        strip = self._strips.get(key)
        if strip is None:
            runs = self._lines[y] if 0 <= y < len(self._lines) else []
            segments = [Segment(chunk, base + _rich_style(style)) for chunk, style in runs]
            strip = Strip(segments).adjust_cell_length(self.size.width, base)
            self._strips[key] = strip
        return strip

    def show(self, view, marks: Marks) -> None:
        marks.cursor = self.cursor
        self.marks = marks
        key = (tuple(view.terrain), tuple(view.occupant), tuple(view.closed), tuple(view.owner), repr(marks))
        if key == self._key:
            return
        self._key = key
        self._lines = map_canvas(view, marks).runs()
        self._strips.clear()
        self.refresh()

    def move_cursor(self, h: int, scroll: bool = True) -> None:
        if h != self.cursor:
            self.cursor = h
            if scroll:  # the keyboard's cursor stays in view; the mouse's is where the mouse is
                x, y = cell_origin(h)
                scroll_to_part(self, Region(x - 1, y - 1, CELL + 2, 3))
            self.post_message(self.CursorMoved(h))

    def action_move(self, key: str) -> None:
        h = self.cursor
        for _ in range(D.COLS):  # hop over the mountains off the board
            h = step(h, key)
            if KIND[h] != OFF:
                self.move_cursor(h)
                return
            if step(h, key) == h:
                return

    def action_activate(self) -> None:
        self.post_message(self.Clicked(self.cursor))

    def on_mouse_move(self, event: MouseMove) -> None:
        offset = event.get_content_offset(self)
        h = hex_at(offset.x, offset.y) if offset is not None else None
        if h is not None:
            self.move_cursor(h, scroll=False)

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        h = hex_at(offset.x, offset.y) if offset is not None else None
        if h is not None:
            self.move_cursor(h, scroll=False)
            self.post_message(self.Clicked(h))
