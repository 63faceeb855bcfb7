"""Lanterne's games as OpenSpiel Python games, and OpenSpiel's ISMCTS as a Lanterne player (benchmarks only).

Needs the optional extra ``bench`` (``pip install -e '.[bench]'``: ``open-spiel``).
Nothing in the app imports this module; ``lanterne strength --against
openspiel`` does, on demand.

The game (:class:`SpielGame`, ``SpielGame("pagode", {"players": 2})``; it is
not registered with ``pyspiel.register_game``: a Python factory left in
pyspiel's registry crashes the interpreter at exit) wraps the engine through
its contract:

* a seat's action is an integer id, interned per wrapper game (the first time
  an action tuple is met it gets the next id; the same tuple keeps its id);
* the table's operations: a **roll** is a chance node (``faces`` outcomes,
  uniform); a **shuffle** needs no chance node: it is applied with the
  identities left unknown (``None``), and a later **deal** (or reveal) of
  unknown slots is a chance node per card whose outcomes are the identities
  no slot holds yet, of that card's deck (``Game.card_kind``), uniform. In
  the four games every unknown slot of a deck comes from one shuffled pile at
  any time (Pagode reshuffles its discard only once the draw pile is empty;
  Pandoria shuffles once per deck), so this deals exactly the distribution of
  a shuffle, one card at a time, without 55 chance nodes per shuffle. A deal or
  reveal of slots whose identities are known is applied at once (one outcome);
* ``information_state_string(p)``: the public history (every seat's action;
  per table operation what all seats see: face-up identities, roll values,
  and only *that* a shuffle or a face-down deal happened), as a chained
  64-bit hash (:func:`extend`: keys are compared within one process only),
  followed by the seat and the identities only ``p`` knows now (its view's
  private slots);
* ``resample_from_infostate(p)``: ``p``'s view with the cards it cannot see
  dealt at random from the cards it has not seen (``ismcts.Dealer``, the same
  determinization as Lanterne's own search), the public history kept;
* ``returns()``: a sole winner +1, the others -1; a shared win ``2/k - 1``
  (0 for a 2-player tie).

:class:`OpenSpielPlayer` plays OpenSpiel's ``ISMCTSBot`` (random-rollout
evaluator) through it, in a CPU-time budget per move (``TimedISMCTSBot``:
the library's own search loop with a deadline in place of its fixed
simulation count). :func:`play_openspiel_match` is the match harness of
``lanterne strength --against openspiel``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from importlib.metadata import version
from typing import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as os_ismcts
from open_spiel.python.algorithms import mcts as os_mcts

from lanterne.engines.bots.arena import Match, match_record, search_player
from lanterne.engines.bots.ismcts import Dealer
from lanterne.engines.core import DEAL, ROLL, SHUFFLE, TABLE, Action, Game, OpenTable, State
from lanterne.engines.registry import game_type, get_game

MAX_ACTIONS = 1 << 24
"""The bound declared as ``num_distinct_actions``: ids are interned as actions are met (:meth:`SpielGame.forget`)."""

_TYPES: dict[str, pyspiel.GameType] = {}


def versions() -> dict[str, str]:
    """What the OpenSpiel rows name: the package and numpy versions (ISMCTSBot's RNG and arithmetic)."""
    return {"open_spiel": version("open_spiel"), "numpy": np.__version__}


# --------------------------------------------------------------------------
# The game


class SpielGame(pyspiel.Game):
    """One Lanterne game as a pyspiel game; ``params``: ``players`` (default the game's minimum)."""

    def __init__(self, game_id: str, params: dict | None = None):
        self.engine: Game = get_game(game_id)
        params = dict(params or {})
        players = int(params.get("players", self.engine.min_players))
        self.engine.check_options(players, "standard")
        self.players = players
        first = self.engine.setup(players=players)
        chance = max(len(first.cards.ids), 8, players)
        info = pyspiel.GameInfo(num_distinct_actions=MAX_ACTIONS, max_chance_outcomes=chance, num_players=players,
                                min_utility=-1.0, max_utility=1.0, utility_sum=None, max_game_length=1_000_000)
        super().__init__(_game_type(self.engine), info, {"players": players})
        self.ids: dict[Action, int] = {}
        self.actions: list[Action] = []
        self.first_ids = self.engine.identities(first)
        self.slot_kinds = [self.engine.card_kind(i) for i in self.first_ids]
        self.by_kind: dict[int, list[int]] = {}
        for ident in self.first_ids:
            self.by_kind.setdefault(self.engine.card_kind(ident), []).append(ident)

    def new_initial_state(self) -> "SpielState":
        return SpielState(self, _Core(self.engine.setup(players=self.players), 0))

    def state_of(self, lanterne: State, history: int) -> "SpielState":
        """A wrapper state from a Lanterne state and its public history (:func:`observe`, step by step)."""
        return SpielState(self, _Core(lanterne, history))

    def forget(self, above: int = MAX_ACTIONS // 2) -> None:
        """Drop the interned ids once there are more than ``above`` (Pagode's actions name cards, so they are many).

        Ids only have to hold within one search (a search's tree dies with it,
        and histories name actions, not ids): call it between searches only.
        """
        if len(self.actions) > above:
            self.ids.clear()
            self.actions.clear()

    def action_id(self, action: Action) -> int:
        got = self.ids.get(action)
        if got is None:
            got = self.ids[action] = len(self.actions)
            self.actions.append(action)
        return got

    def __deepcopy__(self, memo) -> "SpielGame":     # a state's clone copies its attributes: one game for all
        return self

    def make_py_observer(self, iig_obs_type=None, params=None):  # noqa: V107 (pyspiel's signature)
        raise pyspiel.SpielError("the Lanterne games give information_state_string only")


def _game_type(engine: Game) -> pyspiel.GameType:
    gt = _TYPES.get(engine.id)
    if gt is None:
        gt = _TYPES[engine.id] = pyspiel.GameType(
            short_name=f"lanterne_{engine.id}", long_name=f"Lanterne {engine.name}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.GENERAL_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=engine.max_players, min_num_players=engine.min_players,
            provides_information_state_string=True, provides_information_state_tensor=False,
            provides_observation_string=False, provides_observation_tensor=False,
            parameter_specification={"players": engine.min_players})
    return gt


def observe(engine: Game, state: State, actor: int, action: Action) -> tuple:
    """What every seat sees of one step (``action`` taken by ``actor`` in ``state``): a piece of the public history."""
    if actor != TABLE:
        return (actor, action)
    op = engine.table_op(state)
    if op.kind == ROLL:
        return ("r", action[1])
    if op.kind == SHUFFLE:
        return ("s", op.pile)
    if op.kind == DEAL and op.to is not None:
        return ("d", op.to, len(op.slots))
    return ("u", action[1])


def extend(history: int, piece: tuple) -> int:
    """The public history after ``piece``: a chained hash (64 bits; within one process, as a search's keys are)."""
    return hash((history, piece))


class _Core:
    """A wrapper state's data, copied shallowly: pyspiel's clone deep-copies a Python state's attributes,
    and a Lanterne state is never changed once made (``Game.apply`` copies)."""

    __slots__ = ("state", "history", "dealt", "pool", "player", "keys")

    def __init__(self, state: State, history: int, dealt: tuple = (), pool: list[int] | None = None):
        self.state = state
        self.history = history
        self.dealt = dealt        # identities chosen so far for the unknown slots of the pending deal
        self.pool = pool          # the identities still unplaced of the deck being dealt, once listed
        self.player = TERMINAL    # set by SpielState._settle
        self.keys: dict[int, str] = {}

    def __deepcopy__(self, memo) -> "_Core":
        twin = _Core(self.state, self.history, self.dealt, self.pool)
        twin.player = self.player
        twin.keys = self.keys     # keys depend on the state only, and a key once made never changes
        return twin


TERMINAL = int(pyspiel.PlayerId.TERMINAL)
CHANCE = int(pyspiel.PlayerId.CHANCE)


class SpielState(pyspiel.State):
    """A Lanterne state inside pyspiel. Deterministic table operations are applied as soon as they are pending."""

    def __init__(self, game: SpielGame, core: _Core):
        super().__init__(game)
        self.g = game
        self.core = core
        self._settle()

    # -- the table
    def _settle(self) -> None:
        """Apply pending table operations that need no chance (shuffles, identities left unknown; known deals),
        then note who acts."""
        g, core = self.g, self.core
        engine = g.engine
        while True:
            state = core.state
            if engine.is_over(state):
                core.player = TERMINAL
                return
            actor = engine.next_actor(state)
            if actor != TABLE:
                core.player = actor
                return
            op = engine.table_op(state)
            if op.kind == ROLL:
                core.player = CHANCE
                return
            if op.kind == SHUFFLE:
                outcome = (SHUFFLE, (None,) * len(op.slots))
            else:
                ids = [state.cards.ids[s] for s in op.slots]
                if None in ids:
                    if len(core.dealt) < ids.count(None):
                        core.player = CHANCE
                        return
                    chosen = iter(core.dealt)
                    ids = [next(chosen) if i is None else i for i in ids]
                outcome = (op.kind, tuple(ids))
            piece = observe(engine, state, TABLE, outcome)
            after, _ = engine.apply(state, outcome)
            self.core = core = _Core(after, extend(core.history, piece))

    def _pool(self) -> list[int]:
        """The identities the next unknown slot of the pending deal may get (its deck's unplaced ones)."""
        core = self.core
        if core.pool is None:
            op = self.g.engine.table_op(core.state)
            ids = core.state.cards.ids
            slot = [s for s in op.slots if ids[s] is None][len(core.dealt)]
            taken = set(ids)
            taken.update(core.dealt)
            core.pool = [i for i in self.g.by_kind[self.g.slot_kinds[slot]] if i not in taken]
        return core.pool

    def chance_outcomes(self) -> list[tuple[int, float]]:
        op = self.g.engine.table_op(self.core.state)
        if op.kind == ROLL:
            return [(v, 1.0 / op.faces) for v in range(op.faces)]
        pool = self._pool()
        p = 1.0 / len(pool)
        return [(i, p) for i in pool]

    # -- pyspiel's State
    def current_player(self) -> int:
        return self.core.player

    def is_terminal(self) -> bool:
        return self.core.player == TERMINAL

    def is_chance_node(self) -> bool:
        return self.core.player == CHANCE

    def _legal_actions(self, player: int) -> list[int]:
        ids, intern = self.g.ids, self.g.action_id
        out = []
        for a in self.g.engine.legal_actions(self.core.state, player):
            got = ids.get(a)
            out.append(intern(a) if got is None else got)
        out.sort()
        return out

    def _apply_action(self, action: int) -> None:
        g, core = self.g, self.core
        engine = g.engine
        action = int(action)
        if core.player == CHANCE:
            op = engine.table_op(core.state)
            if op.kind == ROLL:
                outcome = (ROLL, action)
                piece = observe(engine, core.state, TABLE, outcome)
                state, _ = engine.apply(core.state, outcome)
                self.core = _Core(state, extend(core.history, piece))
            else:
                pool = self._pool()
                rest = pool[:]
                rest.remove(action)
                self.core = _Core(core.state, core.history, core.dealt + (action,), rest)
        else:
            move = g.actions[action]
            state, _ = engine.apply(core.state, move)
            self.core = _Core(state, hash((core.history, (core.player, move))))
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {action}"
        return self.g.engine.format_action(self.core.state, self.g.actions[action])

    def returns(self) -> list[float]:
        engine, state = self.g.engine, self.core.state
        if not engine.is_over(state):
            return [0.0] * self.g.players
        winners = engine.winners(state)
        share = 2.0 / len(winners) - 1.0
        return [share if s in winners else -1.0 for s in range(self.g.players)]

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        core = self.core
        key = core.keys.get(player)
        if key is None:
            cards = core.state.cards
            bit, everyone = 1 << player, cards.everyone
            mine = [f"{slot}={ident}" for slot, (ident, seen) in enumerate(zip(cards.ids, cards.seen))
                    if seen & bit and seen != everyone]
            key = core.keys[player] = f"{core.history & 0xFFFFFFFFFFFFFFFF:016x}|{player}|{','.join(mine)}|{len(core.dealt)}"
        return key

    def resample_from_infostate(self, player: int, probability_sampler) -> "SpielState":
        """A state ``player`` cannot tell from this one: its view, the unseen cards dealt at random."""
        if self.core.dealt:
            raise pyspiel.SpielError("resample in the middle of a deal")
        engine = self.g.engine
        view = engine.view(self.core.state, player)
        rng = random.Random(probability_sampler())
        return SpielState(self.g, _Core(Dealer(engine, view).deal(rng), self.core.history))

    def __str__(self) -> str:
        return f"{self.g.engine.name}, turn {self.g.engine.turn(self.core.state)}"


# --------------------------------------------------------------------------
# OpenSpiel's ISMCTS as a Lanterne player


class TimedISMCTSBot(os_ismcts.ISMCTSBot):
    """``ISMCTSBot`` whose search stops at a CPU-time deadline instead of after ``max_simulations``.

    ``run_search`` is the library's own loop (open_spiel 2.0.2) with that one
    change; selection, expansion, evaluation and the final policy are the library's.
    """

    def __init__(self, *args, seconds: float, clock: Callable[[], float] = time.thread_time, **kwargs):
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.clock = clock
        self.last_simulations = 0

    def run_search(self, state):
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            self.last_simulations = 0
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_infostate_key = self.get_state_key(state)
        deadline = self.clock() + self.seconds
        done = 0
        while done < self._max_simulations and (done < 2 or self.clock() < deadline):   # the first only expands the root
            sampled_root_state = self.sample_root_state(state)
            assert root_infostate_key == self.get_state_key(sampled_root_state)
            self.run_simulation(sampled_root_state)
            done += 1
        self.last_simulations = done
        return self.get_final_policy(state, self._root_node)


UCT_C = 2.0
"""OpenSpiel's default exploration for its MCTS bots (``open_spiel/python/examples/mcts.py``: ``uct_c`` 2, with
returns in [-1, 1] as here)."""


class OpenSpielPlayer:
    """A Lanterne player (``choose(game, view, seat)``) that asks OpenSpiel's ``ISMCTSBot``.

    It sees the seat's view only: the wrapper state it hands the bot is the
    view with the unseen cards dealt at random (the bot then resamples them
    itself every simulation). ``history`` is the public history so far, kept
    by the harness with :func:`observe`. ``seconds``: CPU time per move.
    """

    name = "openspiel"

    def __init__(self, spiel: SpielGame, seed: int, seconds: float, uct_c: float = UCT_C):
        self.spiel = spiel
        self.rng = random.Random(seed)
        self.bot = TimedISMCTSBot(
            spiel, os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed)),
            uct_c, max_simulations=10**9, random_state=np.random.RandomState(seed + 1),
            final_policy_type=os_ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, seconds=seconds)
        self.history = 0

    def choose(self, game: Game, view: State, seat: int) -> Action:
        self.spiel.forget()
        state = self.spiel.state_of(Dealer(game, view).deal(self.rng), self.history)
        action = self.bot.step(state)
        return self.spiel.actions[int(action)]


# --------------------------------------------------------------------------
# The wrapper's own cost


WRAPPER_FILES = (__file__,)


def overhead(game_id: str, simulations: int = 300, players: int = 2, seed: int = 1,
             positions: int = 3) -> dict:
    """The wrapper's own share of OpenSpiel's search time, measured with cProfile.

    Plays ``positions`` decisions of a seeded random game and, at each,
    ``simulations`` ISMCTS simulations under the profiler; the wrapper's own
    time is the ``tottime`` of this module's functions (the engine's calls,
    pyspiel's and numpy's excluded), as a share of the whole search's. The
    same searches are run again without the profiler for the CPU time per
    simulation; the wrapper's time per simulation is that share of it (the
    profiler slows small functions most, so the share is rather too high:
    what is given back to OpenSpiel errs on its side).
    """
    spiel = SpielGame(game_id, {"players": players})
    engine = spiel.engine
    bot = os_ismcts.ISMCTSBot(spiel, os_mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)), UCT_C,
                              simulations, random_state=np.random.RandomState(seed))
    state = engine.setup(players=players)
    table = OpenTable(f"overhead/{game_id}/{seed}")
    walker = random.Random(seed)
    history = 0
    own = total = plain = 0.0
    sims = 0
    steps = 0
    while positions > 0 and not engine.is_over(state):
        actor = engine.next_actor(state)
        if actor == TABLE:
            action = table.resolve(state, engine.table_op(state))
        else:
            legal = engine.legal_actions(state, actor)
            if len(legal) > 1 and steps % 7 == 0:
                positions -= 1
                s = spiel.state_of(state, history)
                prof = cProfile.Profile()
                prof.enable()
                bot.run_search(s)
                prof.disable()
                stats = pstats.Stats(prof).stats
                total += max(v[3] for v in stats.values())
                own += sum(v[2] for k, v in stats.items() if k[0] in WRAPPER_FILES)
                sims += simulations
                cpu = time.thread_time()
                bot.run_search(spiel.state_of(state, history))
                plain += time.thread_time() - cpu
            action = legal[walker.randrange(len(legal))]
            steps += 1
        history = extend(history, observe(engine, state, actor, action))
        state, _ = engine.apply(state, action)
    fraction = own / total if total else 0.0
    per = 1000 * plain / max(1, sims)
    return {"game": game_id, "simulations": sims, "fraction": fraction, "ms_per_simulation": per,
            "wrapper_ms_per_simulation": fraction * per,
            "profiled_own_ms_per_simulation": 1000 * own / max(1, sims),
            "profiled_ms_per_simulation": 1000 * total / max(1, sims)}


# --------------------------------------------------------------------------
# The match harness


def play_openspiel_match(match: Match, overhead_fraction: float | None = None, iterations: int | None = None,
                         move_seconds: float | None = None, clock: Callable[[], float] = time.thread_time,
                         settings: dict | None = None) -> dict:
    """Lanterne's search player (``match.level``, by iterations) against OpenSpiel's ISMCTS, 2 players.

    OpenSpiel's bot gets, per move, the median CPU time of the search
    player's moves so far in this match (the `search.move` figure of the game
    before its first), divided by ``1 - overhead_fraction`` (the wrapper's own
    share, given back: the game's ``SearchHints``); ``move_seconds`` fixes it instead (tests). A JSON-safe record as ``arena.play_match``'s, plus
    both sides' CPU times (``move_cpu_ms``; ``move_ms`` is the search player's wall clock, as in the other
    rows), OpenSpiel's budgets and simulations per move, and the versions. ``settings``: the search player's
    own (``IsmctsBot`` keywords, a trial's), else the game's ``tuning``.
    """
    declared = game_type(match.game)
    game = declared.engine
    if overhead_fraction is None:
        overhead_fraction = declared.search.openspiel_overhead
    spiel = SpielGame(match.game, {"players": 2})
    seed_int = random.Random(match.seed).randrange(2**31)
    search = search_player(match, iterations, settings)
    other = OpenSpielPlayer(spiel, seed_int, declared.search.move_seconds)
    seat = match.search_seat
    table = OpenTable(match.seed)
    state = game.setup(players=2)
    history = 0
    search_cpu_ms: list[float] = []
    search_ms: list[float] = []
    spiel_ms: list[float] = []
    budgets_ms: list[float] = []
    sims: list[int] = []
    started = time.perf_counter()
    steps = 0
    while not game.is_over(state):
        actor = game.next_actor(state)
        if actor == TABLE:
            action = table.resolve(state, game.table_op(state))
        else:
            view = game.view(state, actor)
            if actor == seat:
                t, wall = clock(), time.perf_counter()
                action = search.choose(game, view, actor)
                if search.last_iterations:
                    search_cpu_ms.append((clock() - t) * 1000.0)
                    search_ms.append((time.perf_counter() - wall) * 1000.0)
            else:
                base = (statistics.median(search_cpu_ms) / 1000.0 if search_cpu_ms
                        else declared.search.move_seconds)
                if move_seconds is not None:
                    base = move_seconds
                other.bot.seconds = base / (1.0 - overhead_fraction)
                other.history = history
                t = clock()
                action = other.choose(game, view, actor)
                if other.bot.last_simulations:
                    spiel_ms.append((clock() - t) * 1000.0)
                    budgets_ms.append(other.bot.seconds * 1000.0)
                    sims.append(other.bot.last_simulations)
        piece = observe(game, state, actor, action)
        history = extend(history, piece)
        steps += 1
        state, _ = game.apply(state, action)
    return {
        **match_record(match, game, state, steps, time.perf_counter() - started, search_ms, "wall"),
        "move_cpu_ms": [round(ms, 1) for ms in search_cpu_ms],
        "openspiel": {**versions(), "bot": "ISMCTSBot", "evaluator": "RandomRolloutEvaluator(n_rollouts=1)",
                      "uct_c": UCT_C, "final_policy": "MAX_VISIT_COUNT", "overhead_fraction": round(overhead_fraction, 4),
                      "cpu_ms": [round(ms, 1) for ms in spiel_ms], "budget_ms": [round(ms, 1) for ms in budgets_ms],
                      "simulations": sims},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The OpenSpiel wrapper's own overhead per simulation.")
    parser.add_argument("games", nargs="*", default=["pagode", "pueblo", "pacal", "pandoria"])
    parser.add_argument("--simulations", type=int, default=200, help="ISMCTS simulations per position (default 200)")
    parser.add_argument("--positions", type=int, default=3, help="positions per game (default 3)")
    args = parser.parse_args(argv)
    print(f"open_spiel {versions()['open_spiel']}, numpy {versions()['numpy']}")
    for game_id in args.games:
        r = overhead(game_id, args.simulations, positions=args.positions)
        print(f"{game_id}: wrapper {100 * r['fraction']:.1f} % of the search time, "
              f"{r['wrapper_ms_per_simulation']:.2f} of {r['ms_per_simulation']:.2f} ms CPU a simulation "
              f"(over {r['simulations']} simulations at {args.positions} positions)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
