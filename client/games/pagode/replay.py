"""Pagode's board for the replay: its sites, the seats' reserves and hands, the abilities, read-only."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from lanterne.client.i18n import _
from lanterne.engines.core import Game, State
from lanterne.engines.pagode.view import VARIANTS

from .widgets import abilities_text, cards_line, site_text, tiles_left_text


def draw(game: Game, view: State, labels: list[str]) -> RenderableType:
    """The position as the board screen draws it, nothing highlighted, nothing to click."""
    floors = VARIANTS[view.variant].floors
    grid = Table.grid(padding=(0, 2))
    for _column in range(3):
        grid.add_column(width=24, no_wrap=True)
    sites = [site_text(i, view.site_tiles[i], view.site_cols[i], view.site_colour[i], floors,
                       len(view.site_tiles[i]) == floors) for i in range(len(view.site_tiles))]
    for row in range(0, len(sites), 3):
        grid.add_row(*sites[row:row + 3])
    ids = view.cards.ids
    seats = Text()
    for seat, label in enumerate(labels):
        seats.append(f"{label[:16]:<16} ", style="bold")
        seats.append(_("reserve") + " ", style="dim")
        seats.append_text(cards_line([ids[s] for s in view.reserves[seat]]) or Text("—", style="dim"))
        seats.append("  " + _("hand {n}").format(n=len(view.hands[seat])) + " ", style="dim")
        seats.append_text(cards_line([ids[s] for s in view.hands[seat]], hand=True))
        seats.append("\n")
    seats.append(_("Played this turn:") + " ", style="dim")
    seats.append_text(cards_line([ids[s] for s in view.played]) if view.played else Text("—", style="dim"))
    piles = _("Draw pile {draw} · discard {discard}").format(draw=len(view.draw), discard=len(view.discard))
    seats.append("\n" + piles, style="dim")
    short = [label.split(" ", 1)[0] for label in labels]
    return Group(grid, seats, abilities_text(view.uses, view.used, view.current, short),
                 tiles_left_text(view.tiles_left))
