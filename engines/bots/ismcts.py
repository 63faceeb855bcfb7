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

from lanterne.engines.bots.simple import GreedyBot
from lanterne.engines.core import TABLE, Action, Game, OpenTable, RulesError, State
from lanterne.engines.registry import search_hints


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
    __slots__ = ("children", "visits", "avail", "reward", "gain")

    def __init__(self, players: int, gain: float = 0.0):
        self.children: dict[tuple[int, Action], _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = [0.0] * players
        self.gain = gain
        """Points the action into this node gained its actor (in the determinization that expanded it)."""


DEFAULTS = {"rollout_turns": 2, "rollout_sample": 1, "expand": 1, "exploration": 0.7, "estimate": 0, "bias": 0.0,
            "root_top": 0, "relative": 0, "plans": 0, "greedy_plans": 0, "rollout_table_turns": 0,
            "rollout_greedy": 0, "own_greedy": 0, "distinct_plans": 0, "level_scale": 1}
"""The search's settings where a game's own say nothing.

Each game's own settings are in its package (``GAME_TYPE.search``, e.g. engines/pagode/search.py), with the
measurements behind them. The tuning looked at the seeds that are now the ``tune`` set
(``arena.Match.seeds``); the ``measure`` seeds are the ones that count. Trials since (on the tune seeds only,
``python -m lanterne.engines.bots.trial``; docs/benchmarks.md, "Trials toward 90 %") bought nothing that a
20-30 game sample could see, so none is on: 1200 iterations, 1 or 3 rollout turns a seat, the games' leaf
estimates, root pruning to the greedy look-ahead's best 4; the options stay for the next trials (``bias`` was
not tried yet). ``hard`` is about 4 times ``normal``'s iterations in every game, which is what it takes to win
two games in three against ``normal``; a game's ``level_scale`` multiplies a level's iterations, so that a
level spends about the same share of the app's per-move budget in every game.
"""


def tuned_settings(game_id: str | None, level: str | None = None) -> dict[str, float]:
    """``DEFAULTS``, then the game's ``tuning``, then its ``level_tuning`` at ``level`` (a game outside the
    registry: ``DEFAULTS``)."""
    hints = search_hints(game_id) if game_id else None
    if hints is None:
        return dict(DEFAULTS)
    return {**DEFAULTS, **hints.tuning, **hints.level_tuning.get(level or "", {})}


class IsmctsBot:
    """Search-based player. ``level`` names a preset: 'easy', 'normal' (default), 'hard'."""

    name = "ismcts"
    LEVELS = {"easy": 150, "normal": 600, "hard": 2500}
    ROOT_LOOKAHEAD = 40
    """Applications of the greedy look-ahead per root action (``root_top``)."""

    def __init__(self, seed: int | str = 0, iterations: int | None = None, seconds: float | None = None,
                 rollout_turns: int | None = None, exploration: float | None = None, scale: float = 8.0,
                 clock: Callable[[], float] | None = None, rollout_sample: int | None = None,
                 expand: int | None = None, estimate: bool | None = None, bias: float | None = None,
                 root_top: int | None = None, relative: bool | None = None, plans: int | None = None,
                 greedy_plans: bool | None = None, rollout_table_turns: int | None = None,
                 rollout_greedy: int | None = None, distinct_plans: bool | None = None,
                 own_greedy: int | None = None):
        """Settings left None take the game's (its ``tuning``, with its ``level_tuning`` at ``tuned_level``), else DEFAULTS.

        ``rollout_turns``: rollouts stop after that many turns a seat; ``rollout_sample``: rollouts
        play the best by points of that many random actions; ``expand``: a new tree node is the best of that many untried
        actions; ``exploration``: the UCB constant; ``estimate``: a rollout that stops before the
        end scores the game's estimate (``SearchHints.estimate``) instead of its points; ``bias``:
        progressive bias, a child's UCB value gets ``bias * points its action gained / visits`` (the
        immediate gain guides the first visits, the rollouts take over); ``root_top``: the search
        chooses only among the root actions that the greedy player's look-ahead over this turn ranks
        in its best that many (ties with the last one kept); ``relative``: a rollout that stops before
        the end is scored by how much it changed each seat's lead over the best other seat since the
        root, not by the lead itself (far ahead or far behind, a lead saturates the reward and every
        line looks the same); ``plans``: instead of a tree, the search compares that many whole-turn
        lines of its seat (:meth:`_turn_lines`: the best by points of a beam search over the turn), each
        played in every determinization then rolled out, chosen by UCB (a turn of many actions is one
        choice: a tree of single actions cannot find a six-action combination in 600 iterations);
        ``greedy_plans``: the plans are also the greedy look-ahead's best line from each of its best
        ``plans`` first actions (the beam ranks lines by points so far, so it drops an action that
        scores nothing itself but opens others, as Pagode's Lantern); ``rollout_table_turns``: rollouts
        stop after that many turns of the table in all, in whole rounds, at least one turn a seat,
        instead of ``rollout_turns`` a seat (a table of 4 then thinks no longer than a table of 2);
        ``rollout_greedy``: rollouts play each turn as the greedy player would, its best line found
        within that many applications (0: the random or best-of-sample actions above);
        ``distinct_plans``: two lines that reach one position (``SearchHints.plan_key``: the same
        builds in another order, a card of the same colour from elsewhere) are one plan, in the plans
        and in the beam that finds them; ``own_greedy``: rollouts play the searching seat's own turns
        as the greedy player would, within that many applications (the others' as above), so that a
        plan that prepares the next turn is worth what that turn can make of it.
        """
        self.rng = random.Random(seed)
        self.iterations = iterations if iterations is not None else (None if seconds else self.LEVELS["normal"])
        self.seconds = seconds
        self._budget = self.iterations
        self.level: str | None = None
        self.tuned_level: str | None = None
        """The level whose ``level_tuning`` settings this bot plays with (:meth:`at_level` sets it, and the arena
        for its players at a preset); None: the game's ``tuning`` alone, as a trial's bot."""
        """The preset this bot was made at (:meth:`at_level`): its iterations then follow each game's
        ``level_scale`` (:meth:`level_iterations`); None: ``iterations`` as given."""
        self.rollout_turns = rollout_turns
        self.exploration = exploration
        self.scale = scale
        self.clock = clock
        self.rollout_sample = rollout_sample
        self.expand = expand
        self.estimate = estimate
        self.bias = bias
        self.root_top = root_top
        self.relative = relative
        self.plans = plans
        self.greedy_plans = greedy_plans
        self.rollout_table_turns = rollout_table_turns
        self.rollout_greedy = rollout_greedy
        self.distinct_plans = distinct_plans
        self.own_greedy = own_greedy
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
        bot = cls(seed, iterations=cls.LEVELS[level], seconds=max_seconds, clock=clock)
        bot.level = bot.tuned_level = level
        return bot

    @classmethod
    def level_iterations(cls, level: str, game_id: str | None = None) -> int:
        """A preset's iterations a move in ``game_id``: ``LEVELS`` times the game's ``level_scale``."""
        return round(cls.LEVELS[level] * tuned_settings(game_id)["level_scale"])

    # -- choosing
    last_tries: list[tuple[Action, int]] = []
    """After a search: each of the seat's actions it tried, with how many of its imagined games went that way,
    most first (empty when the choice needed no search)."""

    def choose(self, game: Game, view: State, seat: int) -> Action:
        self.last_tries = []
        actions = game.legal_actions(view, seat)
        if not actions:
            raise RulesError(f"seat {seat + 1} has no legal action")
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        players = len(game.scores(view))
        self._seat = seat
        self._settle(game)
        self._root_lead = self._leads(game, view, players) if self._relative else [0.0] * players
        self._root_actions = None
        if self._top and len(actions) > self._top:
            actions = self._greedy_top(game, view, seat, actions)
            self._root_actions = actions
            if len(actions) == 1:
                self.last_iterations = 0
                return actions[0]
        if self._plans:
            return self._choose_plan(game, view, seat, players)
        root = _Node(players)
        deadline = self._deadline()
        dealer = Dealer(game, view)
        done = 0
        while self._go_on(done, deadline):
            self._iterate(game, dealer.deal(self.rng), root, players)
            done += 1
        self.last_iterations = done
        legal = set(actions)
        best, best_visits = actions[0], -1
        for (actor, action), child in root.children.items():
            if actor == seat and action in legal and child.visits > best_visits:
                best, best_visits = action, child.visits
        self.last_tries = sorted(((action, child.visits) for (actor, action), child in root.children.items()
                                  if actor == seat and action in legal), key=lambda tried: -tried[1])
        return best

    def _deadline(self) -> float | None:
        """When this move's ``seconds`` run out, on the injected clock (perf_counter if none); None without."""
        if self.seconds is None:
            return None
        if self.clock is None:
            import time  # engines read no clock: only a level in seconds with no clock given reads the wall's

            self.clock = time.perf_counter
        return self.clock() + self.seconds

    def _go_on(self, done: int, deadline: float | None) -> bool:
        """Whether to run another iteration: the level's count not reached and, after the first, time left."""
        if self._budget is not None and done >= self._budget:
            return False
        return deadline is None or not done or self.clock() < deadline

    # -- whole-turn plans
    BEAM = 8
    """Lines kept at each depth of the beam search over a turn (``plans``)."""
    PLAN_DEPTH = 14
    """Actions of one turn the beam search looks at, at most."""

    def _turn_lines(self, game: Game, view: State, seat: int) -> list[tuple[Action, ...]]:
        """The ``plans`` best lines of this turn by the points they gain, distinct, best first.

        A beam search: at each depth every kept line is extended by each legal action; a line is
        complete when the turn passes (another seat or the table acts, or the game ends) or at
        ``PLAN_DEPTH``; the ``BEAM`` best unfinished lines go on, ranked by points gained (ties:
        the RNG's order, so no action kind is favoured).
        """
        base = self._points(game, view, seat)
        beam: list[tuple[tuple[Action, ...], State]] = [((), view)]
        done: list[tuple[float, int, tuple[Action, ...]]] = []
        for depth in range(self.PLAN_DEPTH):
            grown = []
            for line, state in beam:
                for action in game.legal_actions(state, seat):
                    after, _ = game.apply(state, action)
                    gain = self._points(game, after, seat) - base
                    new = line + (action,)
                    if game.is_over(after) or game.next_actor(after) != seat or depth == self.PLAN_DEPTH - 1:
                        done.append((gain, len(done), new, after))
                    else:
                        grown.append((gain, self.rng.random(), new, after))
            grown.sort(key=lambda g: (-g[0], g[1]))
            beam = [(line, after) for _, _, line, after in self._distinct(game, grown, seat, self.BEAM)]
            if not beam:
                break
        done.sort(key=lambda d: (-d[0], d[1]))
        lines = [line for _, _, line, _ in self._distinct(game, done, seat, self._plans)]
        if self._greedy_plans:
            greedy = GreedyBot()
            found = [greedy.best_line(game, view, seat, a, self.ROOT_LOOKAHEAD)
                     for a in game.legal_actions(view, seat)]
            found.sort(key=lambda f: -f[0])
            lines += [line for _, line in found[: self._plans] if line not in lines]
        return lines

    def _distinct(self, game: Game, ranked: list[tuple], seat: int, count: int) -> list[tuple]:
        """The first ``count`` of ``ranked`` (tuples ending with the state the line reached); with
        ``distinct_plans``, only the first line to reach each position (``SearchHints.plan_key``)."""
        hints = search_hints(game.id) if self._distinct_plans else None
        key = hints.plan_key if hints is not None else None
        if key is None:
            return ranked[:count]
        kept, seen = [], set()
        for entry in ranked:
            k = key(game, entry[-1], seat)
            if k not in seen:
                seen.add(k)
                kept.append(entry)
                if len(kept) == count:
                    break
        return kept

    def _choose_plan(self, game: Game, view: State, seat: int, players: int) -> Action:
        """UCB over whole-turn lines: each iteration plays one in a new determinization, then a rollout."""
        deadline = self._deadline()      # the lines count against the move's time too
        lines = self._turn_lines(game, view, seat)
        if len({line[0] for line in lines}) == 1:
            self.last_iterations = 0
            return lines[0][0]
        visits, totals = [0] * len(lines), [0.0] * len(lines)
        dealer = Dealer(game, view)
        done = 0
        while self._go_on(done, deadline):
            if done < len(lines):
                pick = done
            else:
                log_n = math.log(done)
                pick = max(range(len(lines)), key=lambda i: totals[i] / visits[i]
                           + self.c * math.sqrt(log_n / visits[i]))
            state = dealer.deal(self.rng)
            for action in lines[pick]:
                state, _ = game.apply(state, action)
            table = OpenTable(self.rng.random())
            totals[pick] += self._rollout(game, state, table, players)[seat]
            visits[pick] += 1
            done += 1
        self.last_iterations = done
        best = max(range(len(lines)), key=lambda i: (visits[i], -i))
        tried: dict = {}
        for line, count in zip(lines, visits):      # a turn's lines by their first action, the one chosen now
            tried[line[0]] = tried.get(line[0], 0) + count
        self.last_tries = sorted(tried.items(), key=lambda t: -t[1])
        return lines[best][0]

    def _settle(self, game: Game) -> None:
        """This game's settings: the bot's own, else its level's and its game's (:func:`tuned_settings`)."""
        hints = search_hints(game.id)
        tuned = tuned_settings(game.id, self.tuned_level)
        self._budget = self.level_iterations(self.level, game.id) if self.level is not None else self.iterations
        self._sample = int(self.rollout_sample or tuned["rollout_sample"])
        self._turns = int(self.rollout_turns or tuned["rollout_turns"])
        self._expand = int(self.expand or tuned["expand"])
        self.c = float(self.exploration if self.exploration is not None else tuned["exploration"])
        self._bias = float(self.bias if self.bias is not None else tuned["bias"])
        self._top = int(self.root_top if self.root_top is not None else tuned["root_top"])
        self._relative = bool(self.relative if self.relative is not None else tuned["relative"])
        self._plans = int(self.plans if self.plans is not None else tuned["plans"])
        self._greedy_plans = bool(self.greedy_plans if self.greedy_plans is not None else tuned["greedy_plans"])
        self._distinct_plans = bool(self.distinct_plans if self.distinct_plans is not None
                                    else tuned["distinct_plans"])
        table_turns = int(self.rollout_table_turns if self.rollout_table_turns is not None
                          else tuned["rollout_table_turns"])
        self._table_turns = table_turns if self.rollout_turns is None else 0   # turns a seat, if given, win
        budget = int(self.rollout_greedy if self.rollout_greedy is not None else tuned["rollout_greedy"])
        self._greedy = None
        if budget:
            self._greedy = GreedyBot(budget=budget)
            self._greedy.rng = self.rng      # one RNG: the same seed, the same game
        own = int(self.own_greedy if self.own_greedy is not None else tuned["own_greedy"])
        self._own = None
        if own:
            self._own = GreedyBot(budget=own)
            self._own.rng = self.rng
        use = self.estimate if self.estimate is not None else bool(tuned["estimate"])
        self._value = None
        if use:
            self._value = hints.estimate if hints is not None else None

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
            if node is root and self._root_actions is not None:
                legal = self._root_actions
            untried = [a for a in legal if (actor, a) not in node.children]
            if untried:
                before = self._points(game, state, actor) if self._bias else 0.0
                if self._expand > 1 and len(untried) > 1:
                    action, state = self._best_untried(game, state, actor, untried)
                else:
                    action = untried[self.rng.randrange(len(untried))]
                    state, _ = game.apply(state, action)
                child = _Node(players, self._points(game, state, actor) - before if self._bias else 0.0)
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

    def _greedy_top(self, game: Game, view: State, seat: int, actions: list[Action]) -> list[Action]:
        """The root actions whose best line over this turn (the greedy player's look-ahead, its budget) is
        among the best ``_top``, in their order; ties with the last kept are kept."""
        greedy = GreedyBot()
        values = [greedy.line_value(game, view, seat, a, self.ROOT_LOOKAHEAD) for a in actions]
        cut = sorted(values, reverse=True)[self._top - 1]
        return [a for a, v in zip(actions, values) if v >= cut]

    def _select(self, node: _Node, actor: int, legal: list[Action]) -> _Node:
        best, best_value, best_action = None, -1.0, None
        for action in legal:
            child = node.children[(actor, action)]
            child.avail += 1
            value = child.reward[actor] / child.visits + self.c * math.sqrt(math.log(child.avail) / child.visits)
            if self._bias:
                value += self._bias * child.gain / child.visits
            if value > best_value:
                best, best_value, best_action = child, value, action
        self._last_action = best_action
        return best

    def _rollout(self, game: Game, state: State, table: OpenTable, players: int) -> list[float]:
        """Random play for a few turns, then a reward from the score differences."""
        turns_left = (max(1, self._table_turns // players) if self._table_turns else self._turns) * players
        actor_before = None
        line: list[Action] = []
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
                line = []
            greedy = self._greedy if self._own is None or actor != self._seat else self._own
            if greedy is not None:
                if not line:
                    line = list(greedy.turn_line(game, state, actor, game.legal_actions(state, actor)))
                state, _ = game.apply(state, line.pop(0))
                steps += 1
                continue
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

    def _points(self, game: Game, state: State, seat: int) -> float:
        """What the search counts as the seat's points: the game's estimate where it uses one."""
        if self._value is not None and not game.is_over(state):
            return self._value(game, state, seat)
        return game.points(state, seat)

    def _reward(self, game: Game, state: State, players: int) -> list[float]:
        if game.is_over(state):
            winners = game.winners(state)
            return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
        leads, root = self._leads(game, state, players), self._root_lead
        return [0.5 + 0.5 * math.tanh((leads[s] - root[s]) / self.scale) for s in range(players)]

    def _leads(self, game: Game, state: State, players: int) -> list[float]:
        """Each seat's points minus the best other seat's."""
        pts = [self._points(game, state, s) for s in range(players)]
        return [pts[s] - max(p for i, p in enumerate(pts) if i != s) for s in range(players)]
