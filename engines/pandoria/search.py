"""What the search player needs of Pandoria: its settings and its leaf estimate (``GAME_TYPE.search``).

The search's defaults won 17 of 25 games against greedy; expansion of the
best of 4 and exploration 0.4 won 5 of the 8 lost seeds (its rollouts stay
random: best-of-3 rollouts would pass 1 s a move; docs/benchmarks.md).
Rollouts cover 4 turns of the table in whole rounds: at 2 players the 2 turns
a seat of before; at 4, one a seat, so a move at ``normal`` fits the app's
0.9 s (it took 1.2 s of CPU with two turns a seat).

``level_scale`` is 2: a level's iterations here are its preset's times two
(``IsmctsBot.level_iterations``), so that a level spends about the same share
of the app's per-move budget as in the other games since this engine got
faster (its random games +26 to +29 %): ``normal`` is 1,200 iterations,
about 0.5 s of CPU a 2-player move. More search is what its lost games
lacked: at 20 times normal the search won each of the first 5 measure games
normal had lost, and 1,200 iterations won 19 of tune matches 0-19 (a trial)
against 17 for 600; on the 200 measure games, 96.0 % against 84.2 %.
``hard`` (5,000 iterations) won 11 of 13 measure games against ``normal``
where 2,000 won 6, and 26 of the first 32 (a tie besides): the app gives
``hard`` 3 s a move (``client/local_play.move_seconds``).

The estimate is off (``estimate`` is not in the settings): trials turn it on.
"""

from __future__ import annotations

from lanterne.engines.core import Game, State
from lanterne.engines.game_type import SearchHints

from . import data as D
from .board import NEIGHBOURS, region_of
from .rules import visible_buildings

TUNING = {"expand": 4, "exploration": 0.4, "rollout_table_turns": 4, "level_scale": 2}

OPEN = 0.5
"""Share of an open region's yield counted now (it pays only when it closes, and the others may join it)."""


def estimate(game: Game, state: State, seat: int) -> float:
    """Points, plus what the end would pay for what the seat holds now: 1 a card in hand, 1 per 3 of a resource
    (per 2 with its Vault, Lumberyard or Repository), as ``rules.finish`` counts them, without rounding down."""
    if state.phase == "over":
        return float(game.points(state, seat))
    better = {D.FINAL_EXCHANGE[b] for b in visible_buildings(state, seat) if b in D.FINAL_EXCHANGE}
    res = state.resources[seat]
    held = sum(res[r] / (D.BETTER_RATE if r in better else D.FINAL_RATE) for r in (D.WOOD, D.GOLD, D.CRYSTAL))
    return game.points(state, seat) + len(state.piles[f"hand{seat}"]) + held + OPEN * open_yield(state, seat)


def open_yield(state: State, seat: int) -> float:
    """What the open regions next to the seat's figures would pay it if they closed now, in points
    (``rules.region_yield`` without buildings: figures x symbols; a resource is a third of a point)."""
    terrain, closed, occupant, symbols = state.terrain, state.closed, state.occupant, state.symbols
    region_at: dict[int, tuple[int, float]] = {}
    """hex -> (the first hex of its region, the region's worth), filled as regions are met."""
    total = 0.0
    for h, occ in enumerate(occupant):
        if occ < 0 or occ >> 1 != seat:
            continue
        met = set()
        for n in NEIGHBOURS[h]:
            t = terrain[n]
            if t not in D.TERRAINS or closed[n]:
                continue
            if n not in region_at:
                region = region_of(terrain, n)
                worth = sum(symbols[r] for r in region) * (1.0 if t == D.CITY else 1.0 / D.FINAL_RATE)
                for r in region:
                    region_at[r] = (region[0], worth)
            first, worth = region_at[n]
            if first in met or region_at.get(h, (None,))[0] == first:   # once a region; not the figure's own
                continue
            met.add(first)
            total += (2 if occ & 1 else 1) * worth
    return total


SEARCH = SearchHints(tuning=TUNING, level_tuning={}, estimate=estimate, plan_key=None,
                     openspiel_overhead=0.145, move_seconds=0.326, bench_tables=(2, 4))
"""``openspiel_overhead`` measured by ``python -m lanterne.engines.bots.openspiel`` (2026-11-27,
docs/benchmarks.md); ``move_seconds`` is the ``search.move.pandoria`` row."""
