"""The computer players by name, as the command line, the settings and the logs name them.

Its own module, above the players it names: the search player uses the greedy
player's look-ahead, and the greedy player's module names no other player.
"""

from __future__ import annotations

import re

from lanterne.engines.bots.ismcts import IsmctsBot
from lanterne.engines.bots.simple import GreedyBot, RandomBot
from lanterne.engines.core import RulesError, Words


def make_bot(kind: str, seed: int | str = 0, max_seconds: float | None = None):
    """A bot by name: 'random', 'greedy', 'ismcts' with a level.

    The search player's level is a preset ('ismcts:easy|normal|hard'), a
    number of iterations a move ('ismcts:2000') or a thinking time a move
    ('ismcts:2.5s'). ``max_seconds`` caps a move by iterations (the app passes
    0.9); without it the search runs its iterations exactly, so the same seed
    plays the same game. A time level is the user's own choice and is kept.
    """
    name, _, level = kind.partition(":")
    if name == "random" and not level:
        return RandomBot(seed)
    if name == "greedy" and not level:
        return GreedyBot(seed)
    if name == "ismcts":
        level = level or "normal"
        if level in IsmctsBot.LEVELS:
            return IsmctsBot.at_level(level, seed, max_seconds=max_seconds)
        if re.fullmatch(r"[1-9][0-9]{0,6}", level):
            return IsmctsBot(seed, iterations=int(level), seconds=max_seconds)
        if re.fullmatch(r"[0-9]{1,3}(\.[0-9]{1,3})?s", level) and 0.01 <= float(level[:-1]) <= 600:
            return IsmctsBot(seed, iterations=None, seconds=float(level[:-1]))
        raise RulesError(Words("no level {level} for ismcts (levels: easy, normal, hard, a number of iterations "
                               "such as 2000, or seconds a move such as 2.5s)", level=repr(level)))
    raise RulesError(Words("no computer player {kind} (players: {players})", kind=repr(kind),
                           players="random, greedy, ismcts[:easy|normal|hard|N|Xs]"))
