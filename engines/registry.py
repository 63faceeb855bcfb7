"""Where the games live: one id per game, loaded on first use."""

from __future__ import annotations

import importlib

from lanterne.engines.core import Game, RulesError, Words

GAMES: dict[str, str] = {
    "pagode": "lanterne.engines.pagode",
    "pueblo": "lanterne.engines.pueblo",
    "pacal": "lanterne.engines.pacal",
    "pandoria": "lanterne.engines.pandoria",
}
"""Game id -> the package whose ``GAME`` attribute is the Game."""

ALIASES = {"pacals-rocket": "pacal", "pacal's rocket": "pacal"}

_loaded: dict[str, Game] = {}


def get_game(game_id: str) -> Game:
    """The Game for ``game_id``; RulesError with the known ids if there is none."""
    key = ALIASES.get(game_id.lower(), game_id.lower())
    if key in _loaded:
        return _loaded[key]
    if key not in GAMES:
        raise RulesError(Words("no game {game} (games: {games})", game=repr(game_id), games=", ".join(GAMES)))
    try:
        module = importlib.import_module(GAMES[key])
    except ModuleNotFoundError as e:
        if e.name and GAMES[key].startswith(e.name):
            raise RulesError(f"the game {key!r} is not built yet") from None
        raise
    _loaded[key] = module.GAME
    return module.GAME


def game_name(game_id: str) -> str:
    """The name people read (``Pacal's Rocket``) for a game id; an id no engine has, as it was given."""
    try:
        return get_game(game_id).name
    except RulesError:
        return game_id


def available_games() -> list[Game]:
    """The games that are built, in registry order."""
    out = []
    for key in GAMES:
        try:
            out.append(get_game(key))
        except RulesError:
            pass
    return out
