"""What a position is worth to a seat, in points, where the score alone misses it: the search's leaf values.

A search rollout stops after a few turns and scores the point difference
(``IsmctsBot._reward``). In some games a good part of what a seat has is not
points yet: those games get an estimate here, read by the search when its
settings say ``estimate`` (``TUNING`` in ``ismcts.py``). Each function reads
the state it is given (a determinization: hidden cards dealt at random) and
nothing else.
"""

from __future__ import annotations

from typing import Callable

from lanterne.engines.core import Game, State


def pandoria(game: Game, state: State, seat: int) -> float:
    """Points, plus what the end would pay for what the seat holds now: 1 a card in hand, 1 per 3 of a resource
    (per 2 with its Vault, Lumberyard or Repository), as ``rules.finish`` counts them, without rounding down."""
    from lanterne.engines.pandoria import data as D
    from lanterne.engines.pandoria.rules import visible_buildings

    if state.phase == "over":
        return float(game.points(state, seat))
    better = {D.FINAL_EXCHANGE[b] for b in visible_buildings(state, seat) if b in D.FINAL_EXCHANGE}
    res = state.resources[seat]
    held = sum(res[r] / (D.BETTER_RATE if r in better else D.FINAL_RATE) for r in (D.WOOD, D.GOLD, D.CRYSTAL))
    return game.points(state, seat) + len(state.piles[f"hand{seat}"]) + held + PANDORIA_OPEN * open_yield(state, seat)


PANDORIA_OPEN = 0.5
"""Share of an open region's yield counted now (it pays only when it closes, and the others may join it)."""


def open_yield(state: State, seat: int) -> float:
    """What the open regions next to the seat's figures would pay it if they closed now, in points
    (``rules.region_yield`` without buildings: figures x symbols; a resource is a third of a point)."""
    from lanterne.engines.pandoria import data as D
    from lanterne.engines.pandoria.board import NEIGHBOURS, region_of

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


PAGODE_USE = 1.5
"""Points a use of an ability is worth (the Lantern is a fourth column, 2-4 points; the Fan two more cards)."""
PAGODE_CARD = 0.5
"""Points a card in hand is worth (the hand is refilled to 2 only: more cards are more columns to build)."""


def pagode(game: Game, state: State, seat: int) -> float:
    """Points, plus the abilities' uses left (a tile's worth beyond its 1 point) and the cards in hand."""
    if state.phase == "over":
        return float(game.points(state, seat))
    return game.points(state, seat) + PAGODE_USE * sum(state.uses[seat]) + PAGODE_CARD * len(state.hands[seat])


ESTIMATES: dict[str, Callable[[Game, State, int], float]] = {"pandoria": pandoria, "pagode": pagode}
"""Per game id: the estimate the search may use instead of ``game.points``."""
