"""Pueblo's side panels: what the chieftain sees, his 1-4 choices, the stone in hand, penalties.

Each panel draws text it is given data for; clickable parts are named
regions, reported as :class:`HotText.Clicked` messages with their key.
"""

from __future__ import annotations

from typing import Hashable, Sequence

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from lanterne.client.i18n import N_, _
from lanterne.client.games.pueblo.widgets import NEUTRAL_BG, SEAT_INK, space_name, top_style
from lanterne.engines.pueblo.view import COLOURS, LINES, QUARTERS, SIZE, ChiefOption, Square, cell_name

Region = tuple[int, int, int, Hashable]  # (line, first column, end column, key)

LOOKS = {-SIZE: N_("looking south"), SIZE: N_("looking north"), -1: N_("looking west"), 1: N_("looking east")}
MAX_LEVELS = 12


class HotText(Widget):
    """Text with clickable regions; a click on one posts its key."""


    class Clicked(Message):
        def __init__(self, panel: "HotText", key: Hashable):
            super().__init__()
            self.panel = panel
            self.key = key

        @property
        def control(self) -> "HotText":
            return self.panel

    class Hovered(Message):
        def __init__(self, panel: "HotText", key: Hashable | None):
            super().__init__()
            self.panel = panel
            self.key = key

        @property
        def control(self) -> "HotText":
            return self.panel

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._text = Text()
        self.regions: list[Region] = []

    def set(self, text: Text, regions: Sequence[Region] = ()) -> None:
        self.regions = list(regions)
        if text != self._text:
            self._text = text
            self.refresh()

    def render(self) -> Text:
        return self._text

    def key_at(self, x: int, y: int) -> Hashable | None:
        for line, left, right, key in self.regions:
            if y == line and left <= x < right:
                return key
        return None

    def _key_of(self, event: events.MouseEvent) -> Hashable | None:
        offset = event.get_content_offset(self)
        return None if offset is None else self.key_at(offset.x, offset.y)

    def on_click(self, event: events.Click) -> None:
        key = self._key_of(event)
        if key is not None:
            self.post_message(self.Clicked(self, key))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.post_message(self.Hovered(self, self._key_of(event)))

    def on_leave(self, event: events.Leave) -> None:
        self.post_message(self.Hovered(self, None))


def seat_name(seat: int) -> Text:
    return Text(_(COLOURS[seat]), style=f"bold {SEAT_INK[seat]}")


def costs_line(penalties: Sequence[int], short: bool = False) -> Text:
    """'red 3  blue 0' in the seats' colours ('R 3 B 0 G 1' when ``short``)."""
    out = Text()
    for seat, pts in enumerate(penalties):
        if seat:
            out.append(" ")
        name = _(COLOURS[seat])
        out.append(f"{name[0].upper() if short else name} ", style=f"bold {SEAT_INK[seat]}")
        out.append(f"{pts:>2}", style="bold" if pts else "dim")
    return out


# ------------------------------------------------------------------ side view


def side_view_text(heights: Sequence[int], stacks: Sequence[tuple[int, ...]], owners: Sequence[int],
                   space: int, seen: Sequence[Square], players: int) -> Text:
    """What the chieftain sees from ``space``.

    A side space: the row or column in front of him cut lengthwise, nearest
    cell on the left; each level's first cube (the one he sees) in its
    colour with its cost, the cubes hidden behind it shaded. A corner: the
    4x4 quarter from above, north up, each coloured top costing 1.
    """
    visible = {(sq.level, sq.cell): sq for sq in seen}
    cost = [0] * players
    for sq in seen:
        if sq.owner >= 0:
            cost[sq.owner] += sq.penalty
    out = Text(no_wrap=True, overflow="crop")
    if space in QUARTERS:
        out.append(_("From the {space}, looking down").format(space=space_name(space)) + "\n", style="bold")
        cells = QUARTERS[space]
        for dy in (3, 2, 1, 0):
            row = cells[dy * 4: dy * 4 + 4]
            out.append(f"{row[0] // SIZE + 1:>2} ", style="dim")
            for c in row:
                sq = visible.get((0, c))
                if sq is None:
                    out.append(" · ", style="dim")
                else:
                    out.append(f"{sq.penalty if sq.owner >= 0 else '·':>2}", style=top_style(sq.owner, stacks[c][-1]))
                    out.append(" ")
            out.append("\n")
        out.append("   " + "".join(f" {cell_name(c)[0]} " for c in cells[:4]), style="dim")
    else:
        line = LINES[space]
        look = _(LOOKS[line[1] - line[0]])
        out.append(_("From {space}, {look}").format(space=space_name(space), look=look) + "\n", style="bold")
        top = min(max([heights[c] for c in line] + [1]), MAX_LEVELS)
        for z in range(top, 0, -1):
            out.append(f"{z:>2} ", style="dim")
            for c in line:
                if heights[c] >= z:
                    sid = stacks[c][z - 1]
                    owner = owners[sid]
                    sq = visible.get((z, c))
                    if sq is not None:
                        out.append(f"{sq.penalty if owner >= 0 else '·':>2}", style=top_style(owner, sid))
                    else:
                        ink = SEAT_INK[owner] if owner >= 0 else NEUTRAL_BG[0]
                        out.append("░░", style=ink)
                else:
                    out.append("  ")
                out.append(" ")
            out.append("\n")
        out.append("   " + "".join(f"{cell_name(c):<3}" for c in line), style="dim")
        out.append("\n   " + _("nearest → farthest"), style="dim")
    out.append("\n" + _("Costs") + " ", style="dim")
    out.append_text(costs_line(cost, short=players > 2))
    return out


class SideView(HotText):
    """What the chieftain sees from his space: the columns facing him, nearest first."""


# ------------------------------------------------------------------ chieftain's choices


def chief_text(chief: int, options: Sequence[ChiefOption], hot: int | None, active: bool,
               note: str) -> tuple[Text, list[Region]]:
    """The chieftain's space and, per move 1-4, the space reached and the penalty per seat."""
    out = Text(no_wrap=True, overflow="crop")
    out.append(_("On") + " ", style="dim")
    out.append(space_name(chief), style="bold")
    if note:
        out.append(f"  {note}", style="dim")
    regions: list[Region] = []
    for n, opt in enumerate(options, start=1):
        out.append("\n")
        row = Text()
        row.append(f" {opt.steps} ", style="bold reverse" if active else "dim")
        row.append(f" {space_name(opt.space):<13} ", style="bold" if active else "dim")
        row.append_text(costs_line(opt.penalties, short=len(opt.penalties) > 2))
        if hot == opt.steps:
            row.stylize("reverse")
        out.append_text(row)
        regions.append((n, 0, 60, opt.steps))
    return out, regions


class ChiefPanel(HotText):
    """The chieftain's space and his four moves, each with the penalty per seat (click one)."""


# ------------------------------------------------------------------ the stone in hand


class StonePanel(HotText):
    """The stone in hand: its kind and turn (click a chip to change the kind)."""


def column_text(state, x: int, y: int) -> Text:
    """One cell's column, top first: whose cubes are stacked there (the chieftain sees only some)."""
    c = y * SIZE + x
    out = Text(no_wrap=True, overflow="crop")
    out.append(f"{cell_name(c)}: ", style="bold")
    stack = state.stacks[c]
    if not stack:
        out.append(_("the board (a sacred site)") if any(c in site for site in state.sites) else _("the board"),
                   style="dim")
        return out
    out.append(_("{n} high — ").format(n=len(stack)), style="dim")
    for z in range(len(stack) - 1, -1, -1):
        owner = state.owners[stack[z]]
        out.append(_(COLOURS[owner]) if owner >= 0 else _("neutral"), style=f"bold {SEAT_INK[owner]}" if owner >= 0 else "")
        if z:
            out.append(" " + _("on") + " ", style="dim")
    return out


def chip(out: Text, regions: list[Region], line: int, label: str, key: Hashable, on: bool,
         usable: bool) -> None:
    """A clickable word on the current line of ``out``."""
    start = cell_len(out.plain.rsplit("\n", 1)[-1])
    style = "bold reverse" if on else ("bold" if usable else "dim strike")
    out.append(f"[{label}]", style=style)
    regions.append((line, start, start + len(label) + 2, key))
    out.append(" ")


# ------------------------------------------------------------------ penalties


def penalties_text(labels: Sequence[str], penalties: Sequence[int], reserves: Sequence[tuple[int, int, int]],
                   turn: int | None, winners: Sequence[int]) -> Text:
    """Per seat: whose turn (▶), the winners at the end (★), penalty points, stones left (C, N, held)."""
    out = Text(no_wrap=True, overflow="crop")
    for seat, (label, pts, (col, neu, held)) in enumerate(zip(labels, penalties, reserves)):
        if seat:
            out.append("\n")
        mark = "▶ " if seat == turn else ("★ " if seat in winners else "  ")
        short = label.replace("[computer] ", "[c] ")  # "P2 [computer] Ann 1" and "... Ann 2" stay apart in 16
        style = "bold reverse" if seat == turn else "bold"
        if len(short) > 16:  # a long name on its own line, never cut; the figures under it
            out.append(f"{mark}{short}\n", style=style)
            mark, short = "  ", ""
        out.append(f"{mark}{short:<16} ", style=style)
        out.append(f"{_(COLOURS[seat]):<6}", style=f"bold {SEAT_INK[seat]}")
        out.append(f"{pts:>4}", style="bold")
        out.append(f"  C{col} N{neu}" + (f" +{held}" if held else ""), style="dim")
    return out


class PenaltyBoard(HotText):
    """Each seat's penalty points."""
