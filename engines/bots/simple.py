"""Random and greedy players: baselines that need nothing but the contract.

Both see only their seat's view, so they play the same on the open table and
on a peer that does not know its opponent's hand.
"""

from __future__ import annotations

import random
import re

from engines.bots.ismcts import IsmctsBot
from engines.core import TABLE, Action, Game, RulesError, State


class RandomBot:
    """Picks uniformly among the legal actions (its own seeded RNG)."""

    name = "random"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(seed)

    def choose(self, game: Game, view: State, seat: int) -> Action:
        actions = game.legal_actions(view, seat)
        if not actions:
            raise RulesError(f"seat {seat + 1} has no legal action")
        return actions[self.rng.randrange(len(actions))]


class GreedyBot:
    """Maximises its own points this turn.

    It looks ahead over its own consecutive actions (until the turn passes or
    the table must act) and plays the first action of the best line found
    within ``budget`` applications; ties go to the line that keeps the turn
    going longest with the fewest opponent points, then to its RNG.
    """

    name = "greedy"

    def __init__(self, seed: int | str = 0, budget: int = 400, depth: int = 6):
        self.rng = random.Random(seed)
        self.budget = budget
        self.depth = depth

    def choose(self, game: Game, view: State, seat: int) -> Action:
        actions = game.legal_actions(view, seat)
        if not actions:
            raise RulesError(f"seat {seat + 1} has no legal action")
        if len(actions) == 1:
            return actions[0]
        base = game.points(view, seat)
        self._left = self.budget
        order = list(actions)
        self.rng.shuffle(order)
        best, best_value = order[0], None
        for action in order:
            value = self._value(game, view, seat, action, base, self.depth)
            if best_value is None or value > best_value:
                best, best_value = action, value
        return best

    def _value(self, game: Game, state: State, seat: int, action: Action, base: int, depth: int) -> float:
        self._left -= 1
        after, _ = game.apply(state, action)
        gain = game.points(after, seat) - base
        if depth <= 1 or self._left <= 0 or game.is_over(after) or game.next_actor(after) != seat:
            return gain
        follow = game.legal_actions(after, seat)
        best = gain
        for nxt in follow[: max(1, self._left // max(1, depth))]:
            if self._left <= 0:
                break
            best = max(best, self._value(game, after, seat, nxt, base, depth - 1))
        return best


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
        raise RulesError(f"no level {level!r} for ismcts (levels: easy, normal, hard, a number of iterations "
                         f"such as 2000, or seconds a move such as 2.5s)")
    raise RulesError(f"no computer player {kind!r} (players: random, greedy, ismcts[:easy|normal|hard|N|Xs])")
