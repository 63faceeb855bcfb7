"""Each game's side of the app, one folder per game (docs/client.md, "Layout of the code").

``client/games/<id>/__init__.py`` declares the game's side as ``CLIENT``, a
:class:`ClientGame`: its board screen (``<id>/screen.py``, a
:class:`lanterne.client.screens.game.GameScreen`), its read-only drawing for
the replay (``<id>/replay.py``) and, where a roll means more than its
number, how a person reads it. The screen's widgets sit beside it
(``widgets.py``, and a second module where a board has many parts) with
``<id>.tcss``, every style rule of that game; the colours come from
:mod:`lanterne.client.theme`. The folder is found by the game's id alone: a
registered game has no other entry on this side. A game without a folder
plays on the generic screen, and :func:`missing_parts` says so when the app
starts.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from rich.console import RenderableType

from lanterne.engines.core import Game, State, TableOp
from lanterne.engines.registry import GAMES

if TYPE_CHECKING:
    from lanterne.client.screens.game import GameScreen

Drawing = Callable[[Game, State, list[str]], RenderableType]
"""A position drawn read-only from a state alone (the replay's board), with the seats' labels."""
RollWords = Callable[[TableOp, int], "str | None"]
"""A roll's outcome as a person reads it (a die's printed face), or None where the number says it."""


@dataclass(frozen=True)
class ClientGame:
    """A game's side of the app; every field is required (None: none, on purpose)."""

    screen: type[GameScreen]
    drawing: Drawing
    roll_words: RollWords | None


def package(game_id: str) -> str:
    return f"{__name__}.{game_id}"


def client_side(game_id: str) -> ClientGame | None:
    """The app's side of ``game_id``; None if the game has no folder here (it plays on the generic screen)."""
    name = package(game_id)
    if importlib.util.find_spec(name) is None:
        return None
    declared = getattr(importlib.import_module(name), "CLIENT", None)
    if not isinstance(declared, ClientGame):
        raise TypeError(f"{name} declares no CLIENT (lanterne.client.games.ClientGame)")
    return declared


def missing_parts(games: dict[str, str] = GAMES) -> list[str]:
    """One line for each registered game whose engine package or side here is missing, for the log when the
    app starts (found without importing any game)."""
    out = []
    for game_id, engine in games.items():
        if importlib.util.find_spec(engine) is None:
            out.append(f"{game_id}: no engine package {engine} (the game is not offered)")
        elif importlib.util.find_spec(package(game_id)) is None:
            out.append(f"{game_id}: no client/games/{game_id}/ (the generic screen and replay, rolls as numbers)")
    return out
