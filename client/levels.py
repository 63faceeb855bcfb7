"""Computer players as a person reads them: a level in words, never an algorithm's name.

``ismcts:normal`` is what the command line and the settings file say; the
screens say *normal*, and a computer's seat is *Computer (normal)*.
"""

from __future__ import annotations

from lanterne.client.i18n import N_, _
from lanterne.engines.bots import GreedyBot, IsmctsBot, RandomBot

LEVELS = {
    "random": N_("random moves"),
    "greedy": N_("beginner"),
    "ismcts:easy": N_("easy"),
    "ismcts:normal": N_("normal"),
    "ismcts:hard": N_("hard"),
}
"""Every level the app offers, weakest first, and its words."""


def level_words(kind: str) -> str:
    """``ismcts:normal`` as *normal* (in the language in force); a level the app does not offer as typed."""
    return _(LEVELS[kind]) if kind in LEVELS else kind


def kind_of(player: object) -> str:
    """The level name of a computer player (``ismcts:normal``), or '' for a person or an unknown player."""
    if isinstance(player, IsmctsBot):
        return f"ismcts:{player.level}" if player.level else "ismcts"
    if isinstance(player, GreedyBot):
        return "greedy"
    if isinstance(player, RandomBot):
        return "random"
    return ""


def computer_name(seat: int, players: int) -> str:
    """The name of a computer's seat in a local game: *Computer*, or *Computer 2* where there are several."""
    return _("Computer") if players == 2 else _("Computer {n}").format(n=seat + 1)


__all__ = ["LEVELS", "computer_name", "kind_of", "level_words"]
