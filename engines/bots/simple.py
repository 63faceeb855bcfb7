"""Random and greedy players: baselines that need nothing but the contract.

Both see only their seat's view, so they play the same on the open table and
on a peer that does not know its opponent's hand.
"""

from __future__ import annotations

import random

from lanterne.engines.core import Action, Game, RulesError, State


class RandomBot:
    """Picks uniformly among the legal actions (its own seeded RNG)."""

    name = "random"
    answers_at_once = True
    """Its choice costs one list of legal actions: a peer asks it on its own loop, not on a thread."""

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
        return self.turn_line(game, view, seat, actions)[0]

    def turn_line(self, game: Game, view: State, seat: int, actions: list[Action]) -> tuple[Action, ...]:
        """The best line of this turn from ``actions`` (the legal ones) within the budget: what
        :meth:`choose` plays the first action of (the search's greedy rollouts play it whole)."""
        base = game.points(view, seat)
        self._left = self.budget
        order = list(actions)
        self.rng.shuffle(order)
        best, best_value = (order[0],), None
        for action in order:
            value, line = self._line(game, view, seat, action, base, self.depth)
            if best_value is None or value > best_value:
                best, best_value = line, value
        return best

    def line_value(self, game: Game, view: State, seat: int, action: Action, budget: int) -> float:
        """The points the best line of this turn that starts with ``action`` gains, looked for within
        ``budget`` applications (what :meth:`choose` compares; the search's root pruning reads it too)."""
        return self.best_line(game, view, seat, action, budget)[0]

    def best_line(self, game: Game, view: State, seat: int, action: Action,
                  budget: int) -> tuple[float, tuple[Action, ...]]:
        """That best line and its points (the search's whole-turn plans start from these lines too)."""
        self._left = budget
        return self._line(game, view, seat, action, game.points(view, seat), self.depth)

    def _line(self, game: Game, state: State, seat: int, action: Action, base: int,
              depth: int) -> tuple[float, tuple[Action, ...]]:
        """The best (points gained, actions) of this turn's lines from ``action``, within the budget left;
        the first line found wins ties."""
        self._left -= 1
        after, _ = game.apply(state, action)
        gain = game.points(after, seat) - base
        if depth <= 1 or self._left <= 0 or game.is_over(after) or game.next_actor(after) != seat:
            return gain, (action,)
        follow = game.legal_actions(after, seat)
        best, line = gain, (action,)
        for nxt in follow[: max(1, self._left // max(1, depth))]:
            if self._left <= 0:
                break
            value, rest = self._line(game, after, seat, nxt, base, depth - 1)
            if value > best:
                best, line = value, (action,) + rest
        return best, line
