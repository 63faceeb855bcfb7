"""What the search player needs of Pagode: its settings, its leaf estimate, its plan key (``GAME_TYPE.search``).

A turn is many actions. With random rollouts, random expansion and
exploration 0.7 the search won 13 of 20 games against greedy. Rollouts that
take the best by points of 3 random actions, expansion of the best of 4
untried actions and exploration 0.4 won 5 of 6 of the seeds it had lost
(trial, then the full measurement; docs/benchmarks.md).

The search plays whole-turn plans: traced games showed the tree playing
three plain columns a turn while greedy chained tiles, roofs and the Lantern
(a combination of six actions is out of reach of a tree of single actions in
600 iterations). UCB over the 6 best lines of a beam search over the turn won
29 of tune matches 0-31 against 26.5 for the tree, the mean margin +11.3 +-
5.9 points (docs/benchmarks.md, "Trials toward 90 %"). Nothing tried since
beat it there: 10 plans, 1,200 iterations, rollouts that play each turn as
the greedy player would (``rollout_greedy``), a reward scale of 24 points
instead of 8; and the same search at 20 times the iterations (``ceiling``)
won no more of the 200 measure deals (173.5 against 176.5), nor ``hard``
(2,500 iterations) 65 % against ``normal`` (54.8 % of 84): more iterations
only compare the same 6 plans more surely. For ``hard`` neither did distinct
plans (``distinct_plans``), rollouts of the best of 6, greedy own turns in
rollouts (``own_greedy``) nor a seat that sees every card (``trial
--sees-all``); the fitted estimate did (``LEVEL_TUNING``).
"""

from __future__ import annotations

from typing import Hashable

from lanterne.engines.core import Game, State
from lanterne.engines.game_type import SearchHints

from .data import COLOUR_OF_IDENT, FLOOR_COLUMNS, VARIANTS

TUNING = {"rollout_sample": 3, "expand": 4, "exploration": 0.4, "plans": 6}

LEVEL_TUNING = {"hard": {"estimate": 1}}
"""``hard`` at 4 x ``normal``'s iterations alone was no stronger than ``normal`` (mean margin +0.3 +- 2.4
points over 84 measure games): the search saturates there. With the fitted estimate (:func:`estimate`:
the uses left of each ability, the tiles and columns the seat's cards can build on the board as it stands)
it won 27 of tune matches 0-31 against ``normal`` where it won 17 without (docs/benchmarks.md, the
fifteenth session's paragraph)."""

WEIGHTS = (1.5, 2.5, 1.4, 1.1, 0.1, 2.2, 0.44)
"""Points each of :func:`features` is worth, fitted to 600 greedy games (``python -m
lanterne.engines.bots.fit``, rounded): a use left of the Lantern, Buddha, Rice bowl, Fan, Dragon; a colour
of the seat's cards that can put a tile on a full floor now; a point of the best column a card can build now."""


def estimate(game: Game, state: State, seat: int) -> float:
    """Points, plus what the seat holds that the next turns turn into points (``WEIGHTS``)."""
    if state.phase == "over":
        return float(game.points(state, seat))
    return game.points(state, seat) + sum(w * f for w, f in zip(WEIGHTS, features(state, seat)))


def features(state: State, seat: int) -> list[float]:
    """The abilities' uses left (by colour), the colours of the seat's cards that can put a tile on a full
    floor now, and the sum over its cards of the floor number of the best column each can build now (1 on an
    empty site): what its hand and reserve are worth on the board as it stands."""
    floors = VARIANTS[state.variant].floors
    ids = state.cards.ids
    best, tile, empty = [0] * 5, [False] * 5, False
    for site, tiles in enumerate(state.site_tiles):
        colour = state.site_colour[site]
        if colour is None:
            empty = True
        elif len(tiles) < floors:
            if state.site_cols[site] < FLOOR_COLUMNS:
                best[colour] = max(best[colour], len(tiles) + 1)
            else:
                tile[colour] = True
    colours = [COLOUR_OF_IDENT[ids[slot]] for slot in state.reserves[seat] + state.hands[seat]
               if ids[slot] is not None]
    columns = sum(max(best[c], 1 if empty else 0) for c in colours)
    return [*state.uses[seat], sum(1 for c in set(colours) if tile[c]), columns]


def plan_key(game: Game, state: State, seat: int) -> Hashable:
    """Every field but the order of the played and discarded cards, and the seat's cards by colour only,
    reserve and hand together (cards of one colour do the same; which of them the other seat sees is
    left to the draw; the other seat's cards are what they were before the line).

    The search's whole-turn plans come from a beam search ranked by points. Many lines of a turn are the
    same builds in another order, or with a red card from the hand instead of the red one in the reserve:
    in one traced position all 6 plans were one set of builds in other orders, in another 5 plans reached
    2 positions. Lines with equal keys are one plan, so the plans (and the beam) hold different positions.
    """
    ids = state.cards.ids

    def colours(slots: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(-1 if ids[s] is None else COLOUR_OF_IDENT[ids[s]] for s in slots))

    return (state.phase, state.current, state.scores, state.uses, state.site_tiles, state.site_cols,
            state.site_colour, state.tiles_left, state.columns, state.acted, state.used, state.mod_left,
            state.mark, state.refill, state.after, colours(state.reserves[seat] + state.hands[seat]),
            colours(state.played), colours(state.discard), len(state.draw))


SEARCH = SearchHints(tuning=TUNING, level_tuning=LEVEL_TUNING, estimate=estimate, plan_key=plan_key,
                     openspiel_overhead=0.209, move_seconds=0.21, bench_tables=(2,))
"""``openspiel_overhead`` measured by ``python -m lanterne.engines.bots.openspiel`` (2026-11-27,
docs/benchmarks.md); ``move_seconds`` is the ``search.move.pagode`` row."""
