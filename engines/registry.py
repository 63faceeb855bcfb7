"""Where the games live: one line a game, each package's ``GAME_TYPE`` loaded on first use.

A game declares itself in its own package (``GAME_TYPE``, an
:class:`engines.game_type.GameType`: the engine and what generic code needs of
it); this module only says which packages are games, so that adding a game
here is one line (docs/adding-a-game.md). A package is imported when its game
is first asked for, so that a broken or unbuilt game does not stop the others.
"""

from __future__ import annotations

import importlib

from lanterne.engines.core import Game, RulesError, Words
from lanterne.engines.game_type import GameType, SearchHints

GAMES: dict[str, str] = {
    "pagode": "lanterne.engines.pagode",
    "pueblo": "lanterne.engines.pueblo",
    "pacal": "lanterne.engines.pacal",
    "pandoria": "lanterne.engines.pandoria",
}
"""Game id -> the package whose ``GAME_TYPE`` declares it, in the order players see them."""

_loaded: dict[str, GameType] = {}


def game_type(game_id: str) -> GameType:
    """The declaration of ``game_id`` (an id or an alias, any case); RulesError with the known ids if none."""
    key = game_id.lower()
    if key in _loaded:
        return _loaded[key]
    if key not in GAMES:
        for other in available_types():
            if key in other.aliases:
                return other
        raise RulesError(Words("no game {game} (games: {games})", game=repr(game_id), games=", ".join(GAMES)))
    _loaded[key] = load_type(GAMES[key], key)
    return _loaded[key]


def load_type(package: str, game_id: str) -> GameType:
    """``package``'s ``GAME_TYPE``, checked to declare ``game_id``; RulesError in one line if it cannot load."""
    try:
        module = importlib.import_module(package)
    except ModuleNotFoundError as e:
        if e.name and package.startswith(e.name):
            raise RulesError(f"the game {game_id!r} is not built yet") from None
        raise
    declared = getattr(module, "GAME_TYPE", None)
    if not isinstance(declared, GameType):
        raise RulesError(f"{package} declares no GAME_TYPE (engines.game_type.GameType)")
    if declared.id != game_id:
        raise RulesError(f"{package} declares the game {declared.id!r}, registered as {game_id!r}")
    return declared


def get_game(game_id: str) -> Game:
    """The Game for ``game_id``; RulesError with the known ids if there is none."""
    return game_type(game_id).engine


def search_hints(game_id: str) -> SearchHints | None:
    """What the search needs of the game ``game_id``; None for a game outside the registry (a test's, the
    example), which the search plays with its own defaults."""
    try:
        return game_type(game_id).search
    except RulesError:
        return None


def game_name(game_id: str) -> str:
    """The name people read (``Pacal's Rocket``) for a game id; an id no engine has, as it was given."""
    try:
        return game_type(game_id).name
    except RulesError:
        return game_id


def available_types() -> list[GameType]:
    """The games that are built, in registry order."""
    out = []
    for key in GAMES:
        try:
            out.append(game_type(key))
        except RulesError:
            pass
    return out


def available_games() -> list[Game]:
    """The engines of the games that are built, in registry order."""
    return [declared.engine for declared in available_types()]
