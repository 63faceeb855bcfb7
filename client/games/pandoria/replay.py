"""Pandoria for the replay: the map, the players and the cards each seat is known to hold, read-only."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from lanterne.client.i18n import _
from lanterne.engines.core import Game, State

from .board import card_lines, players_text
from .widgets import Marks, map_text


def draw(game: Game, view: State, labels: list[str]) -> RenderableType:
    """The position as the board screen draws it, nothing highlighted, nothing to click."""
    hands = Text()
    for seat, label in enumerate(labels):
        known = [view.cards.ids[s] for s in view.piles[f"hand{seat}"] if view.cards.ids[s] is not None]
        if known:
            hands.append("\n" + _("{seat} holds:").format(seat=label) + " ", style="bold")
            hands.append(" · ".join(card_lines(ident)[0].plain for ident in known))
    return Group(map_text(view, Marks()), players_text(view, labels, None), hands)
