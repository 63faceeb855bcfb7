"""Information-set Monte Carlo tree search: a strong player for any Game.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): each iteration
samples a *determinization* of the bot's view (the cards it cannot see dealt
at random from the cards it has not seen anywhere), walks one shared tree of
actions with UCB weighted by availability, expands one node, plays a short
rollout, and backs up a reward per seat. Chance (the table) is sampled anew in
every iteration and is not part of the tree ("open loop").

It only ever reads its own view, so it cannot peek: the choice is a function of
the view and its RNG alone (tested by swapping the hidden cards).

Strength is set by ``iterations`` (deterministic: same seed, same move) or by
``seconds`` (the app's default level: a wall-clock budget, read through the
injected ``clock`` so that the rules engine itself never reads a clock).
"""

from __future__ import annotations

import math
import random
from typing import Callable

from engines.core import TABLE, Action, Game, OpenTable, RulesError, State


def determinize(game: Game, view: State, rng: random.Random) -> State:
    """A full state consistent with ``view``: unknown slots get the unseen identities, shuffled.

    Each deck is dealt apart (``Game.card_kind``): slot i started as card
    ``identities[i]`` and shuffles never mix decks, so a hidden slot only
    ever holds a card of its first card's kind.
    """
    return Dealer(game, view).deal(rng)


class Dealer:
    """Determinizations of one view: which slots are hidden and which cards are unseen, worked out once.

    The search deals a new determinization every iteration from the same
    view; only the shuffles differ, so the slots and pools per deck are
    computed here once and each :meth:`deal` shuffles a fresh copy of a pool
    (in the same order as a fresh computation would list it, so the RNG
    gives the same deal).
    """

    def __init__(self, game: Game, view: State):
        self.view = view
        ids = view.cards.ids
        hidden = [slot for slot, ident in enumerate(ids) if ident is None]
        self.decks: list[tuple[list[int], list[int]]] = []
        """(hidden slots, unseen identities) per deck, in the order the decks are first met in the hidden slots."""
        if not hidden:
            return
        first = game.identities(view)
        known = {ident for ident in ids if ident is not None}
        unseen: dict[int, list[int]] = {}
        for ident in first:
            if ident not in known:
                unseen.setdefault(game.card_kind(ident), []).append(ident)
        slots: dict[int, list[int]] = {}
        for slot in hidden:
            slots.setdefault(game.card_kind(first[slot]), []).append(slot)
        for kind, kind_slots in slots.items():
            pool = unseen.get(kind, [])
            if len(pool) != len(kind_slots):
                raise RulesError(f"{game.name}: {len(kind_slots)} hidden slots but {len(pool)} unseen cards "
                                 f"of kind {kind}")
            self.decks.append((kind_slots, pool))

    def deal(self, rng: random.Random) -> State:
        view = self.view
        if not self.decks:
            return view
        det = view.copy()
        det.cards = view.cards.copy()
        ids = det.cards.ids
        for kind_slots, first_pool in self.decks:
            pool = first_pool[:]
            rng.shuffle(pool)
            for slot, ident in zip(kind_slots, pool):
                ids[slot] = ident
        return det


class _Node:
    __slots__ = ("children", "visits", "avail", "reward")

    def __init__(self, players: int):
        self.children: dict[tuple[int, Action], _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = [0.0] * players


TUNING: dict[str, dict[str, float]] = {
    "pagode": {"rollout_sample": 3, "expand": 4, "exploration": 0.4},
    "pandoria": {"expand": 4, "exploration": 0.4},
}
"""Search settings per game where the defaults lose to greedy (measured, docs/benchmarks.md).

In Pagode a turn is many actions. With random rollouts, random expansion and
exploration 0.7 the search won 13 of 20 games against greedy. Rollouts that
take the best by points of 3 random actions, expansion of the best of 4
untried actions and exploration 0.4 won 5 of 6 of the seeds it had lost
(trial, then the full measurement). In Pandoria the defaults won 17 of
25; expansion of the best of 4 and exploration 0.4 won 5 of the 8 lost seeds
(its rollouts stay random: best-of-3 rollouts would pass 1 s a move). Pueblo
and Pacal beat greedy with the defaults, which cost less time.
"""
DEFAULTS = {"rollout_sample": 1, "expand": 1, "exploration": 0.7}


class IsmctsBot:
    """Search-based player. ``level`` names a preset: 'easy', 'normal' (default), 'hard'."""

    name = "ismcts"
    LEVELS = {"easy": 150, "normal": 600, "hard": 2500}

    def __init__(self, seed: int | str = 0, iterations: int | None = None, seconds: float | None = None,
                 rollout_turns: int = 2, exploration: float | None = None, scale: float = 8.0,
                 clock: Callable[[], float] | None = None, rollout_sample: int | None = None,
                 expand: int | None = None):
        """Settings left None take the game's TUNING, else DEFAULTS.

        ``rollout_sample``: rollouts play the best by points of that many random
        actions; ``expand``: a new tree node is the best of that many untried
        actions; ``exploration``: the UCB constant.
        """
        self.rng = random.Random(seed)
        self.iterations = iterations if iterations is not None else (None if seconds else self.LEVELS["normal"])
        self.seconds = seconds
        self.rollout_turns = rollout_turns
        self.exploration = exploration
        self.scale = scale
        self.clock = clock
        self.rollout_sample = rollout_sample
        self.expand = expand
        self.last_iterations = 0

    @classmethod
    def at_level(cls, level: str, seed: int | str = 0, max_seconds: float | None = None,
                 clock: Callable[[], float] | None = None) -> "IsmctsBot":
        """The preset's iterations; ``max_seconds`` caps a move's wall clock too (the app's 1 s promise).

        Without a cap the bot is deterministic (measurements, self-play); with
        one, a slow machine gets fewer iterations instead of a slow answer.
        """
        if level not in cls.LEVELS:
            raise RulesError(f"no level {level!r} (levels: {', '.join(cls.LEVELS)})")
        return cls(seed, iterations=cls.LEVELS[level], seconds=max_seconds, clock=clock)

    # -- choosing
    def choose(self, game: Game, view: State, seat: int) -> Action:
        actions = game.legal_actions(view, seat)
        if not actions:
            raise RulesError(f"seat {seat + 1} has no legal action")
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        players = len(game.scores(view))
        self._settle(game)
        root = _Node(players)
        deadline = None
        if self.seconds is not None:
            if self.clock is None:
                import time

                self.clock = time.perf_counter
            deadline = self.clock() + self.seconds
        dealer = Dealer(game, view)
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done and self.clock() >= deadline:
                break
            self._iterate(game, dealer.deal(self.rng), root, players)
            done += 1
        self.last_iterations = done
        legal = set(actions)
        best, best_visits = actions[0], -1
        for (actor, action), child in root.children.items():
            if actor == seat and action in legal and child.visits > best_visits:
                best, best_visits = action, child.visits
        return best

    def _settle(self, game: Game) -> None:
        """This game's settings: the bot's own, else the game's TUNING, else DEFAULTS."""
        tuned = {**DEFAULTS, **TUNING.get(game.id, {})}
        self._sample = int(self.rollout_sample or tuned["rollout_sample"])
        self._expand = int(self.expand or tuned["expand"])
        self.c = float(self.exploration if self.exploration is not None else tuned["exploration"])

    # -- one iteration
    def _iterate(self, game: Game, state: State, root: _Node, players: int) -> None:
        table = OpenTable(self.rng.random())
        node, path = root, [root]
        while not game.is_over(state):
            actor = game.next_actor(state)
            if actor == TABLE:
                state, _ = game.apply(state, table.resolve(state, game.table_op(state)))
                continue
            legal = game.legal_actions(state, actor)
            untried = [a for a in legal if (actor, a) not in node.children]
            if untried:
                if self._expand > 1 and len(untried) > 1:
                    action, state = self._best_untried(game, state, actor, untried)
                else:
                    action = untried[self.rng.randrange(len(untried))]
                    state, _ = game.apply(state, action)
                child = _Node(players)
                node.children[(actor, action)] = child
                path.append(child)
                break
            node = self._select(node, actor, legal)
            path.append(node)
            state, _ = game.apply(state, self._last_action)
        reward = self._rollout(game, state, table, players)
        for n in path:
            n.visits += 1
            for s in range(players):
                n.reward[s] += reward[s]

    def _select(self, node: _Node, actor: int, legal: list[Action]) -> _Node:
        best, best_value, best_action = None, -1.0, None
        for action in legal:
            child = node.children[(actor, action)]
            child.avail += 1
            value = child.reward[actor] / child.visits + self.c * math.sqrt(math.log(child.avail) / child.visits)
            if value > best_value:
                best, best_value, best_action = child, value, action
        self._last_action = best_action
        return best

    def _rollout(self, game: Game, state: State, table: OpenTable, players: int) -> list[float]:
        """Random play for a few turns, then a reward from the score differences."""
        turns_left = self.rollout_turns * players
        actor_before = None
        steps = 0
        while not game.is_over(state) and steps < 2000:
            actor = game.next_actor(state)
            if actor == TABLE:
                state, _ = game.apply(state, table.resolve(state, game.table_op(state)))
                continue
            if actor != actor_before:
                if actor_before is not None:
                    turns_left -= 1
                    if turns_left <= 0:
                        break
                actor_before = actor
            legal = game.legal_actions(state, actor)
            if self._sample > 1 and len(legal) > 1:
                state = self._best_of_sample(game, state, actor, legal)
            else:
                state, _ = game.apply(state, legal[self.rng.randrange(len(legal))])
            steps += 1
        return self._reward(game, state, players)

    def _best_untried(self, game: Game, state: State, actor: int, untried: list[Action]) -> tuple[Action, State]:
        """Expand the best by points of a few untried actions: good lines enter the tree first."""
        best = None
        for action in self.rng.sample(untried, min(self._expand, len(untried))):
            after, _ = game.apply(state, action)
            pts = game.points(after, actor)
            if best is None or pts > best[0]:
                best = (pts, action, after)
        return best[1], best[2]

    def _best_of_sample(self, game: Game, state: State, actor: int, legal: list[Action]) -> State:
        """The best of a few random actions by the actor's points after it (first found wins ties)."""
        best, best_points = None, None
        for _ in range(self._sample):
            after, _ = game.apply(state, legal[self.rng.randrange(len(legal))])
            pts = game.points(after, actor)
            if best_points is None or pts > best_points:
                best, best_points = after, pts
        return best

    def _reward(self, game: Game, state: State, players: int) -> list[float]:
        if game.is_over(state):
            winners = game.winners(state)
            return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
        pts = [game.points(state, s) for s in range(players)]
        out = []
        for s in range(players):
            best_other = max(p for i, p in enumerate(pts) if i != s)
            out.append(0.5 + 0.5 * math.tanh((pts[s] - best_other) / self.scale))
        return out
