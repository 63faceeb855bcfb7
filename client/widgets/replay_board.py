"""The replay's board: any game's position drawn read-only, from a state alone.

Each game's board screen draws through pure functions of its widget module
(Pacal's ``map_text``, Pueblo's ``render_board``, Pagode's ``site_text``...);
a replay calls the same functions on the position of the step on screen,
with nothing highlighted and nothing clickable. A game without such a
drawing, or a drawing that fails (a widget being rewritten), gets the
generic view: scores and whose turn it is, never a traceback.
"""

from __future__ import annotations

from typing import Callable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from lanterne.client.i18n import _
from lanterne.engines.core import TABLE, Game, State

Drawing = Callable[[Game, State, list[str]], RenderableType]


def generic_text(game: Game, state: State, labels: list[str]) -> Text:
    """Scores and whose turn it is: what every game can show through the contract."""
    text = Text()
    over = game.is_over(state)
    actor = None if over else game.next_actor(state)
    scores = game.display_scores(state)
    winners = set(game.winners(state)) if over else set()
    text.append(f"{game.name}", style="bold")
    text.append(" · " + _("turn {n}").format(n=game.turn(state)) + "\n", style="dim")
    for seat, label in enumerate(labels):
        mark = "▶ " if actor == seat else ("★ " if seat in winners else "  ")
        text.append(f"{mark}{label[:24]:<24}", style="bold reverse" if actor == seat else "")
        text.append(f"{scores[seat] if seat < len(scores) else '?':>5} {_(game.score_name)}\n")
    if over:
        text.append(_("The game is over."), style="bold")
    elif actor == TABLE:
        text.append(_("The table acts next (shuffle, deal or roll)."), style="dim")
    return text


def _pagode(game: Game, view: State, labels: list[str]) -> RenderableType:
    from lanterne.client.games.pagode.widgets import abilities_text, cards_line, site_text, tiles_left_text
    from lanterne.engines.pagode.data import VARIANTS

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


def _pueblo(game: Game, view: State, labels: list[str]) -> RenderableType:
    from lanterne.client.games.pueblo.widgets import BoardPicture, render_board

    tops = tuple((view.owners[stack[-1]], stack[-1]) if stack else None for stack in view.stacks)
    sites = frozenset(c for site in view.sites for c in site)
    picture = BoardPicture(tuple(view.heights), tops, sites, view.chief, {}, None, {})
    return Group(render_board(picture), generic_text(game, view, labels))


def _pacal(game: Game, view: State, labels: list[str]) -> RenderableType:
    from lanterne.client.games.pacal.widgets import Marks, die_text, map_text, players_text, water_text

    return Group(die_text(view, labels), map_text(view, Marks()), players_text(view, labels), water_text(view))


def _pandoria(game: Game, view: State, labels: list[str]) -> RenderableType:
    from lanterne.client.games.pandoria.widgets import Marks, map_text
    from lanterne.client.games.pandoria.board import card_lines, players_text

    hands = Text()
    for seat, label in enumerate(labels):
        known = [view.cards.ids[s] for s in view.piles[f"hand{seat}"] if view.cards.ids[s] is not None]
        if known:
            hands.append("\n" + _("{seat} holds:").format(seat=label) + " ", style="bold")
            hands.append(" · ".join(card_lines(ident)[0].plain for ident in known))
    return Group(map_text(view, Marks()), players_text(view, labels, None), hands)


DRAWINGS: dict[str, Drawing] = {"pagode": _pagode, "pueblo": _pueblo, "pacal": _pacal, "pandoria": _pandoria}
"""Game id -> its read-only drawing; any other game gets :func:`generic_text`."""


def draw(game: Game, state: State, labels: list[str]) -> tuple[RenderableType, str | None]:
    """The picture of ``state``, and why the game's own drawing could not be used (None if it was)."""
    drawing = DRAWINGS.get(game.id)
    if drawing is not None:
        try:
            return drawing(game, state, labels), None
        except Exception as e:  # noqa: BLE001 - a board being rewritten must not break the replay
            why = _("the {game} board could not be drawn ({error})").format(
                game=game.name, error=f"{type(e).__name__}: {str(e)[:120]}")
            return generic_text(game, state, labels), why
    return generic_text(game, state, labels), None


class ReplayBoard(VerticalScroll, can_focus=False):
    """The position on screen: the game's board (``board=True``) or the generic view."""

    DEFAULT_CSS = """
    ReplayBoard { height: 1fr; padding: 0 1; }
    ReplayBoard > #replay-picture { width: auto; height: auto; }
    ReplayBoard > #replay-note { height: auto; color: $warning; }
    """

    def compose(self):
        yield Static("", id="replay-picture")
        yield Static("", id="replay-note")

    def show(self, game: Game | None, state: State | None, labels: list[str], board: bool = True,
             empty: str = "") -> str | None:
        """Draw ``state``; returns the note shown when the board could not be drawn."""
        note: str | None = None
        picture: RenderableType
        try:
            if game is None or state is None:
                picture = Text(empty or _("No position to show."), style="dim")
            elif board:
                picture, note = draw(game, state, labels)
            else:
                picture = generic_text(game, state, labels)
        except Exception as e:  # noqa: BLE001 - an engine that cannot describe a position is a line
            picture = Text(_("No position to show."), style="dim")
            note = _("the position cannot be shown ({error})").format(error=f"{type(e).__name__}: {str(e)[:120]}")
        self.query_one("#replay-picture", Static).update(picture)
        self.query_one("#replay-note", Static).update(note or "")
        return note
