"""A game declares itself: its engine and what generic code needs of it, beyond the contract.

Each game package sets ``GAME_TYPE`` (a :class:`GameType`) in its
``__init__``, as OpenSpiel's games set ``_GAME_TYPE``; ``engines/registry.py``
lists the packages and reads their declarations, and the search player
(``engines/bots``) reads ``GameType.search``. Nothing here is keyed by a
game's id: a new game brings its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable, Mapping

from lanterne.engines.core import Game, State

Estimate = Callable[[Game, State, int], float]
"""What a position is worth to a seat, in points: a search leaf's value where the score alone misses it."""
PlanKey = Callable[[Game, State, int], Hashable]
"""The key under which the search takes two lines of one turn for one plan (the same position, as far as
the rest of the game can tell)."""


@dataclass(frozen=True)
class SearchHints:
    """What the search player (``engines/bots``) needs of one game beyond the contract, each measured on it.

    Every field is required, so a game cannot lack one by omission: ``None`` or
    an empty mapping says "none" on purpose (the search then uses its own
    defaults for that part, by the game's choice).
    """

    tuning: Mapping[str, float]
    """``IsmctsBot`` settings where its defaults lose to greedy; empty: the defaults win."""
    level_tuning: Mapping[str, Mapping[str, float]]
    """Per level name, settings that level adds to ``tuning`` (what makes it more than more iterations)."""
    estimate: Estimate | None
    """The leaf value the search uses where its settings say ``estimate``; None: points only."""
    plan_key: PlanKey | None
    """For ``distinct_plans``; None: lines are compared as they are."""
    openspiel_overhead: float
    """The OpenSpiel wrapper's own share of its search time in this game, given back to OpenSpiel's budget."""
    move_seconds: float
    """CPU seconds a search move at ``normal`` (the ``search.move`` row): OpenSpiel's budget before the
    search player has timed a move of its own in a match."""
    bench_tables: tuple[int, ...]
    """The table sizes whose throughput ``python -m bench.search --throughput`` (the checkout's ``bench/``) reports."""


@dataclass(frozen=True)
class GameType:
    """A game as the registry knows it, declared once in its own package as ``GAME_TYPE``.

    The engine holds the id, the name, the player counts and the variants
    (class attributes of its ``Game``); this adds what generic code needs
    beyond the contract. ``engines/registry.py`` reads it; the app's side of a
    game is its folder ``client/games/<id>/``.
    """

    engine: Game
    search: SearchHints
    aliases: tuple[str, ...] = ()
    """Other names people type for the game (``pacals-rocket``)."""

    @property
    def id(self) -> str:
        return self.engine.id

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def seats(self) -> range:
        return range(self.engine.min_players, self.engine.max_players + 1)

    @property
    def variants(self) -> tuple[str, ...]:
        return tuple(self.engine.variants)


class PerSeatMemo:
    """The last state's per-seat values, kept for the next ask about the same state (a search leaf asks
    once a seat). One pair swapped whole, so a search on another thread never reads one state's values
    for another."""

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: tuple[State | None, list | None] = (None, None)

    def get(self, state: State, work: Callable[[], list]) -> list:
        seen, values = self._last
        if seen is not state:
            values = work()
            self._last = (state, values)
        return values
