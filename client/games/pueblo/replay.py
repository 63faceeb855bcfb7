"""Pueblo's board for the replay: the pueblo seen from above and the scores, read-only."""

from __future__ import annotations

from rich.console import Group, RenderableType

from lanterne.client.widgets.replay_board import generic_text
from lanterne.engines.core import Game, State

from .widgets import BoardPicture, render_board


def draw(game: Game, view: State, labels: list[str]) -> RenderableType:
    """The position as the board screen draws it, nothing highlighted, nothing to click."""
    tops = tuple((view.owners[stack[-1]], stack[-1]) if stack else None for stack in view.stacks)
    sites = frozenset(c for site in view.sites for c in site)
    picture = BoardPicture(tuple(view.heights), tops, sites, view.chief, {}, None, {})
    return Group(render_board(picture), generic_text(game, view, labels))
