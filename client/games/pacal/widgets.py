"""Pacal's Rocket board pieces: the city map you click, the die, the players.

The map draws the 13 x 13 city of Palenque: districts in their own colours
with their values, the lake, the river, covered areas, ships, divine stones
(hollow when a ship stands on them: not visible in the rules' sense),
pyramids with their storeys. What the screen wants highlighted (the
destinations of this roll, a constellation's preview) comes in as
:class:`Marks`. Widgets only draw and report clicks (and Enter on the
cursor cell); client/games/pacal/screen.py decides what a click means.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from rich.text import Text
from textual.binding import Binding
from textual.events import Click, MouseMove
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from lanterne.client.i18n import N_, _, say
from lanterne.client.theme import Pacal
from lanterne.client.widgets.scrolling import scroll_to_part
from lanterne.client.widgets.text_panel import TextPanel
from lanterne.engines.pacal.view import COLS, LAKE, LAKE_SCORING, RIVER_SCORING, ROWS, board_for, face_name
from lanterne.engines.pacal.view import data as D

CELL_W = 6
"""Characters of one cell; a separator column lies between cells (the river, the cursor brackets)."""
CELL_H = 2
LEFT = 3
"""The row numbers' width."""
TOP = 1
"""The column letters' line."""
MAP_WIDTH = LEFT + COLS * (CELL_W + 1) + 1
MAP_HEIGHT = TOP + ROWS * CELL_H

PLAYER_COLOURS = Pacal.PLAYERS
DISTRICT_BG = Pacal.DISTRICT_BG
LAKE_BG, LAKE_INK = Pacal.LAKE_BG, Pacal.LAKE_INK
RIVER_INK = Pacal.RIVER_INK
COVERED_BG, COVERED_INK = Pacal.COVERED_BG, Pacal.COVERED_INK
TARGET_BG = Pacal.TARGET_BG
PREVIEW_BG = Pacal.PREVIEW_BG
SELECTED_BG = Pacal.SELECTED_BG
LAST_BG = Pacal.LAST_BG
CURSOR_INK = Pacal.WHITE


@dataclass
class Marks:
    """What the map shows highlighted, besides the pieces."""

    targets: frozenset[int] = frozenset()
    preview: frozenset[int] = frozenset()
    preview_at: int | None = None
    preview_note: str = ""
    selected: frozenset[int] = frozenset()
    notes: dict[int, str] = field(default_factory=dict)
    """A short word on a target cell: the stones a move there allows (·· two, · one), a build's best points."""
    cursor: int = field(default=6 * COLS + 6)
    last: frozenset[int] = frozenset()
    """Cells the other players changed since the seat on screen last played (ships moved, stones)."""


def seat_style(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def ship_text(seat: int) -> Text:
    return Text(f"◆{seat + 1}", style=f"bold {Pacal.CHIP_INK} on {seat_style(seat)}")


@functools.cache
def _district_labels(players: int) -> dict[int, str]:
    """The top-left cell of each district in play: where its letter and value are printed."""
    board = board_for(players)
    out = {}
    for name in board.districts:
        first = min(board.cells_of(name))
        out[first] = f"{name}{board.value(name)}"
    return out


def cell_bg(view, c: int, marks: Marks) -> str:
    board = board_for(view.players)
    if c in marks.preview:
        return PREVIEW_BG
    if c in marks.selected:
        return SELECTED_BG
    if c in marks.targets:
        return TARGET_BG
    if c in marks.last:
        return LAST_BG
    if c in LAKE:
        return LAKE_BG
    if board.covered[c]:
        return COVERED_BG
    return DISTRICT_BG.get(board.district[c] or "", COVERED_BG)


def _top_line(view, c: int, bg: str) -> Text:
    """A pyramid (one ▲ per storey, the owner's colour) or the stones on the cell."""
    owner = view.pyramid_owner[c]
    if owner >= 0:
        storeys = view.pyramid_size[c]
        return Text(f"{'▲' * storeys:<{CELL_W}}", style=f"bold {seat_style(owner)} on {bg}")
    text = Text(style=f"on {bg}")
    covered = c in view.ships
    for seat in range(view.players):
        if view.stones[seat] >> c & 1:
            text.append("○" if covered else "●", style=f"bold {seat_style(seat)} on {bg}")
    text.append(" " * (CELL_W - len(text)), style=f"on {bg}")
    return text


def _bottom_line(view, c: int, bg: str, marks: Marks, labels: dict[int, str]) -> Text:
    """The ship, else the district's label, else a destination's dots or the preview's points."""
    text = Text(style=f"on {bg}")
    seat = view.ship_at(c)
    if seat >= 0:
        text.append_text(ship_text(seat))
    else:
        if c == marks.preview_at and marks.preview_note:
            note = marks.preview_note
        elif c in marks.targets:
            note = marks.notes.get(c, "··")
        else:
            note = ""
        label = labels.get(c, "")
        if label and len(label) + 1 + len(note) <= CELL_W:
            text.append(label, style=f"{Pacal.LABEL_INK} on {bg}")
            text.append(f"{note:>{CELL_W - len(label)}}", style=f"bold {Pacal.WHITE} on {bg}")
        elif note:
            text.append(f"{note[:CELL_W]:^{CELL_W}}", style=f"bold {Pacal.WHITE} on {bg}")
    text.append(" " * (CELL_W - len(text)), style=f"on {bg}")
    return text


def _lake_or_covered(view, c: int, bg: str) -> Text | None:
    board = board_for(view.players)
    if c in LAKE:
        return Text("≈" * CELL_W, style=f"{LAKE_INK} on {bg}")
    if board.covered[c]:
        return Text("░" * CELL_W, style=f"{COVERED_INK} on {bg}")
    return None


def _separator(view, r: int, col: int, marks: Marks) -> Text:
    """The column left of cell (r, col): the cursor's brackets, the river, or the ground."""
    cursor_r, cursor_c = divmod(marks.cursor, COLS)
    if r == cursor_r and col in (cursor_c, cursor_c + 1):
        return Text("[" if col == cursor_c else "]", style=f"bold {CURSOR_INK}")
    here = r * COLS + col if col < COLS else None
    west = r * COLS + col - 1 if col > 0 else None
    if col == 3 and r >= 5:
        return Text("┃", style=f"bold {RIVER_INK}")
    if here is not None and west is not None:
        if here in LAKE and west in LAKE:
            return Text("≈", style=f"{LAKE_INK} on {LAKE_BG}")
        board = board_for(view.players)
        if board.covered[here] and board.covered[west]:
            return Text("░", style=f"{COVERED_INK} on {COVERED_BG}")
        if board.district[here] is not None and board.district[here] == board.district[west]:
            bg = DISTRICT_BG.get(board.district[here], COVERED_BG)
            return Text(" ", style=f"on {bg}")
    return Text(" ")


def axis_line() -> Text:
    """The column letters above the city."""
    text = Text(" " * LEFT, no_wrap=True)
    for col in range(COLS):
        text.append(f" {chr(ord('a') + col):^{CELL_W}}", style=f"bold {Pacal.AXIS_INK}")
    return text


def row_lines(view, marks: Marks, r: int) -> list[Text]:
    """The two lines of city row ``r`` (a cursor step changes the lines of two rows only)."""
    labels = _district_labels(view.players)
    lines = []
    for line in range(CELL_H):
        text = Text(no_wrap=True)
        text.append(f"{r + 1:>2} " if line == 0 else " " * LEFT, style=f"bold {Pacal.AXIS_INK}")
        for col in range(COLS):
            c = r * COLS + col
            text.append_text(_separator(view, r, col, marks))
            bg = cell_bg(view, c, marks)
            plain = _lake_or_covered(view, c, bg) if bg in (LAKE_BG, COVERED_BG) else None
            if plain is not None:
                text.append_text(plain)
            elif line == 0:
                text.append_text(_top_line(view, c, bg))
            else:
                text.append_text(_bottom_line(view, c, bg, marks, labels))
        text.append_text(_separator(view, r, COLS, marks))
        lines.append(text)
    return lines


def map_text(view, marks: Marks) -> Text:
    """The whole map as text: column letters, then two lines per row."""
    text = Text(no_wrap=True)
    for line in [axis_line()] + [line for r in range(ROWS) for line in row_lines(view, marks, r)]:
        text.append_text(line)
        text.append("\n")
    text.rstrip()
    return text


def cell_at(x: int, y: int) -> int | None:
    """The cell under map offset (x, y), or None (the margins)."""
    if x < LEFT or y < TOP:
        return None
    col, row = (x - LEFT) // (CELL_W + 1), (y - TOP) // CELL_H
    if not (0 <= col < COLS and 0 <= row < ROWS):
        return None
    return row * COLS + col


def cell_offset(c: int) -> tuple[int, int]:
    """A map offset inside cell ``c`` (for clicks in tests and tools)."""
    r, col = divmod(c, COLS)
    return LEFT + col * (CELL_W + 1) + 3, TOP + r * CELL_H + 1


class PacalMap(Widget, can_focus=True):
    """The city. Click a cell, or move the cursor with the arrow keys and press Enter."""

    KEEP_SCROLL_ON_FOCUS = True  # it scrolls to its cursor and targets itself (GameScreen.set_focus)

    BINDINGS = [
        Binding("up", "move(-1, 0)", N_("Cursor"), show=False),
        Binding("down", "move(1, 0)", show=False),
        Binding("left", "move(0, -1)", show=False),
        Binding("right", "move(0, 1)", show=False),
        Binding("enter,space", "activate", N_("Choose this cell")),
    ]

    class Clicked(Message):
        def __init__(self, cell: int):
            super().__init__()
            self.cell = cell

    class CursorMoved(Message):
        def __init__(self, cell: int):
            super().__init__()
            self.cell = cell

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.marks = Marks()
        self._view = None
        self._key: object = None
        self._lines: list[Text] = []
        """The map's lines as drawn (the last ones without trailing blanks, as map_text ends)."""
        self._strips: list[Strip | None] = []
        self._strips_for: tuple | None = None
        """The base style and width the strips were rendered with."""

    @property
    def cursor(self) -> int:
        return self.marks.cursor

    def render_line(self, y: int) -> Strip:
        """One line of the city (the Line API: each line is rendered once a change, and a change
        repaints only its own lines; the whole map's Text through Textual took 30-50 ms a cursor step)."""
        base, width = self.rich_style, self.size.width
        if self._strips_for != (base, width):  # a new style (focus) or width: every line again
            self._strips_for, self._strips = (base, width), [None] * len(self._lines)
        if not 0 <= y < len(self._lines):
            return Strip.blank(width, base)
        strip = self._strips[y]
        if strip is None:
            console = self.app.console
            options = console.options.update(width=max(1, width), no_wrap=True, overflow="crop", height=None)
            strip = self._strips[y] = Strip(console.render_lines(self._lines[y], options, style=base, pad=True)[0],
                                            width)
        return strip

    def show(self, view, marks: Marks) -> None:
        marks.cursor = self.marks.cursor
        self.marks = marks
        key = self._key_of(view, marks)
        if key == self._key:
            return
        self._key, self._view = key, view
        self._draw([axis_line()] + [line for r in range(ROWS) for line in row_lines(view, marks, r)])

    def _key_of(self, view, marks: Marks) -> tuple:
        return (tuple(view.ships), tuple(view.stones), tuple(view.pyramid_owner), tuple(view.pyramid_size),
                view.players, repr(marks))

    def _draw(self, lines: list[Text]) -> None:
        """Take ``lines`` as the map and repaint the lines that differ from those on screen."""
        for y in range(len(lines) - 1, -1, -1):  # the blanks that end the map are not drawn (map_text's rstrip)
            lines[y] = lines[y].copy()
            lines[y].rstrip()
            if lines[y].plain:
                break
        old, self._lines = self._lines, lines
        if len(old) != len(lines) or len(self._strips) != len(lines):
            self._strips = [None] * len(lines)
            self.refresh()
            return
        for y, (was, now) in enumerate(zip(old, lines)):
            if was != now:  # same characters and styles: the line on screen stands
                self._strips[y] = None
                self.refresh(Region(0, y, max(1, self.size.width), 1))

    def cell_region(self, c: int) -> Region:
        """Where cell ``c`` is drawn, in this widget's coordinates (its row and column labels too)."""
        r, col = divmod(c, COLS)
        return Region(LEFT + col * (CELL_W + 1), TOP + r * CELL_H, CELL_W + 2, CELL_H)

    def scroll_to_cell(self, c: int) -> None:
        """Bring cell ``c`` into the scrolling container's view (a small terminal shows part of the city)."""
        scroll_to_part(self, self.cell_region(c))

    def move_cursor(self, c: int, scroll: bool = True) -> None:
        if c == self.marks.cursor:
            return
        rows = sorted({self.marks.cursor // COLS, c // COLS})
        self.marks.cursor = c
        if scroll:  # the keyboard's cursor stays in view; the mouse's is where the mouse is
            self.scroll_to_cell(c)
        if self._view is not None:  # only the rows the cursor's brackets left and reached
            lines = list(self._lines)
            for r in rows:
                lines[TOP + r * CELL_H:TOP + (r + 1) * CELL_H] = row_lines(self._view, self.marks, r)
            self._key = self._key_of(self._view, self.marks)
            self._draw(lines)
        self.post_message(self.CursorMoved(c))

    def action_move(self, dr: int, dc: int) -> None:
        r, c = divmod(self.marks.cursor, COLS)
        r, c = max(0, min(ROWS - 1, r + dr)), max(0, min(COLS - 1, c + dc))
        self.move_cursor(r * COLS + c)

    def action_activate(self) -> None:
        self.post_message(self.Clicked(self.marks.cursor))

    def on_mouse_move(self, event: MouseMove) -> None:
        offset = event.get_content_offset(self)
        c = cell_at(offset.x, offset.y) if offset is not None else None
        if c is not None:
            self.move_cursor(c, scroll=False)

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        c = cell_at(offset.x, offset.y) if offset is not None else None
        if c is not None:
            self.move_cursor(c, scroll=False)
            self.post_message(self.Clicked(c))


# --------------------------------------------------------------------------
# Side panels


def die_text(view, labels: list[str]) -> Text:
    """The die in force, the round and who rolled."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if view.face is None:
        text.append(" " + _("die: —") + " ", style=f"bold {Pacal.CHIP_INK} on {Pacal.DIE_UNROLLED_BG}")
    else:
        face = "⇆ " + _("arrows") if view.face == D.ARROWS else f" {say(face_name(view.face))} "
        text.append(" " + _("die: {face}").format(face=face) + " ", style=f"bold {Pacal.CHIP_INK} on {Pacal.DIE_BG}")
    if view.round:
        text.append("  " + _("round {n}").format(n=view.round), style="bold")
        roller = view.roller if 0 <= view.roller < len(labels) else None
        if roller is not None:
            text.append("  " + _("rolled by") + " ", style="dim")
            text.append(labels[roller], style=f"bold {seat_style(roller)}")
    text.append("  " + _("end at {n} points").format(n=D.END_THRESHOLD[view.players]), style="dim")
    return text


def players_text(view, labels: list[str]) -> Text:
    """Two lines per seat: colour, name, points, stones in supply, energy; pyramids left by storeys."""
    text = Text(no_wrap=True, overflow="ellipsis")
    for seat in range(view.players):
        if seat:
            text.append("\n")
        turn = seat == view.current and view.phase not in ("over", "first")
        text.append("▶ " if turn else "  ", style="bold")
        text.append_text(ship_text(seat))
        text.append(f" {labels[seat].split(' ', 1)[-1][:10]:<10}", style=f"bold {seat_style(seat)}")
        text.append(f"{view.score[seat]:>3} " + _("pts"), style="bold")
        text.append(f" ●{view.stone_supply[seat]:<2}", style=f"bold {seat_style(seat)}")
        energy = " ".join(str(v) for v in view.energy[seat]) or "—"
        text.append(" " + _("energy {pieces}").format(pieces=energy))
        supply = view.pyramid_supply[seat]
        text.append("\n    ", style="dim")
        for k in range(5):
            text.append(f"{'▲' * (k + 1)}", style=seat_style(seat) if supply[k] else "dim")
            text.append(f"×{supply[k]} ", style="" if supply[k] else "dim")
    return text


def legend_text() -> Text:
    text = Text(no_wrap=True)
    text.append("◆1", style=f"bold {Pacal.CHIP_INK} on {PLAYER_COLOURS[0]}")
    text.append(" " + _("ship") + "  ")
    text.append("●", style=f"bold {PLAYER_COLOURS[1]}")
    text.append(" " + _("stone") + "  ")
    text.append("○", style=f"bold {PLAYER_COLOURS[1]}")
    text.append(" " + _("under a ship") + "  ")
    text.append("▲▲▲", style=f"bold {PLAYER_COLOURS[2]}")
    text.append(" " + _("pyramid of 3 storeys") + "\n")
    text.append("≈", style=f"{LAKE_INK} on {LAKE_BG}")
    text.append(" " + _("lake") + "  ")
    text.append("┃", style=f"bold {RIVER_INK}")
    text.append(" " + _("river") + "  ")
    text.append("░", style=f"{COVERED_INK} on {COVERED_BG}")
    text.append(" " + _("covered") + "  ")
    text.append("  ", style=f"on {TARGET_BG}")
    text.append(" " + _("click here:") + " ")
    text.append("··", style=f"bold {Pacal.WHITE} on {TARGET_BG}")
    text.append(" " + _("then 2 stones") + " ")
    text.append("·", style=f"bold {Pacal.WHITE} on {TARGET_BG}")
    text.append(" " + _("1 stone") + " ")
    text.append("+4", style=f"bold {Pacal.WHITE} on {TARGET_BG}")
    text.append(" " + _("points") + "  ")
    text.append("  ", style=f"on {PREVIEW_BG}")
    text.append(" " + _("constellation"))
    return text


def water_text(view) -> Text:
    """Storeys along the river and around the lake (12/8/4 at the end), per seat."""
    text = Text(no_wrap=True)
    for name, cells in (("river", RIVER_SCORING), ("lake", LAKE_SCORING)):
        text.append(f"{_(name):<6}", style="dim")
        for seat in range(view.players):
            storeys = sum(view.pyramid_size[c] for c in cells if view.pyramid_owner[c] == seat)
            text.append(f" {storeys:>2}", style=f"bold {seat_style(seat)}")
        text.append("\n")
    text.rstrip()
    return text


class PacalPanel(TextPanel):
    """A text panel of the Pacal screen (height from its content's line count)."""


    def put(self, text: Text) -> None:
        lines = text.plain.count("\n") + 1
        if self.styles.height is None or self.styles.height.value != lines:
            self.styles.height = lines
        self.set(text)


__all__ = ["PacalMap", "PacalPanel", "Marks", "map_text", "cell_at", "cell_offset", "die_text",
           "players_text", "legend_text", "water_text", "seat_style", "PLAYER_COLOURS", "DISTRICT_BG"]
