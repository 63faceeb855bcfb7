"""The replay's board: any game's position drawn read-only, from a state alone.

Each game's side (``client/games/<id>/replay.py``) draws through the pure functions of its widget module
(Pacal's ``map_text``, Pueblo's ``render_board``, Pagode's ``site_text``...);
a replay calls the same functions on the position of the step on screen,
with nothing highlighted and nothing clickable. A game without such a
drawing, or a drawing that fails (a widget being rewritten), gets the
generic view: scores and whose turn it is, never a traceback.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from lanterne.client.games import client_side
from lanterne.client.i18n import _
from lanterne.engines.core import TABLE, Game, State

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


def draw(game: Game, state: State, labels: list[str]) -> tuple[RenderableType, str | None]:
    """The picture of ``state``, and why the game's own drawing could not be used (None if it was)."""
    side = client_side(game.id)
    if side is not None:
        try:
            return side.drawing(game, state, labels), None
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
