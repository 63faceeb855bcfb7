"""Pacal's Rocket for the replay: the die, the city, the players and the water, read-only."""

from __future__ import annotations

from rich.console import Group, RenderableType

from lanterne.engines.core import Game, State

from .widgets import Marks, die_text, map_text, players_text, water_text


def draw(game: Game, view: State, labels: list[str]) -> RenderableType:
    """The position as the board screen draws it, nothing highlighted, nothing to click."""
    return Group(die_text(view, labels), map_text(view, Marks()), players_text(view, labels), water_text(view))
