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


PAGODE_WEIGHTS = (1.5, 2.5, 1.4, 1.1, 0.1, 2.2, 0.44)
"""Points each of :func:`pagode_features` is worth, fitted to 600 greedy games (``python -m
lanterne.engines.bots.fit``, rounded): a use left of the Lantern, Buddha, Rice bowl, Fan, Dragon; a colour
of the seat's cards that can put a tile on a full floor now; a point of the best column a card can build now."""


def pagode(game: Game, state: State, seat: int) -> float:
    """Points, plus what the seat holds that the next turns turn into points (``PAGODE_WEIGHTS``)."""
    if state.phase == "over":
        return float(game.points(state, seat))
    return game.points(state, seat) + sum(w * f for w, f in zip(PAGODE_WEIGHTS, pagode_features(state, seat)))


def pagode_features(state: State, seat: int) -> list[float]:
    """The abilities' uses left (by colour), the colours of the seat's cards that can put a tile on a full
    floor now, and the sum over its cards of the floor number of the best column each can build now (1 on an
    empty site): what its hand and reserve are worth on the board as it stands."""
    from lanterne.engines.pagode.data import COLOUR_OF_IDENT, FLOOR_COLUMNS, VARIANTS

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


def _once_a_position(last: list, state: State, work: Callable[[], list]) -> list:
    """``work()``'s per-seat values for ``state``, kept in ``last`` for the next ask about the same state (a leaf
    asks once a seat). ``last[0]`` is one pair swapped whole, so a search on another thread never reads one
    state's values for another."""
    seen, values = last[0]
    if seen is not state:
        values = work()
        last[0] = (state, values)
    return values


PUEBLO_FINAL = 1.0
"""Share of the final round's penalties, on the pueblo as it stands, counted now (stones still to come
cover some squares and show others)."""
_pueblo_last: list = [(None, None)]
"""The last state whose final round was worked out and its penalties per seat (``_once_a_position``)."""


def pueblo(game: Game, state: State, seat: int) -> float:
    """Points (minus the penalties so far), minus what the final round would cost the seat on the pueblo as it
    stands: the chieftain's walk of all 36 spaces is most of a game's penalties, and a rollout of a few turns
    never reaches it."""
    from lanterne.engines.pueblo.geometry import penalties_at
    from lanterne.engines.pueblo.data import TRACK
    from lanterne.engines.pueblo.state import BUILD_1, BUILD_2

    if state.phase == "over" or state.stage not in (BUILD_1, BUILD_2):
        return float(game.points(state, seat))
    def final_walk() -> list[int]:
        walk = [0] * state.players
        heights, stacks, owners, players = state.heights, state.stacks, state.owners, state.players
        for space in range(TRACK):
            for p, n in enumerate(penalties_at(heights, stacks, owners, space, players)):
                walk[p] += n
        return walk

    return game.points(state, seat) - PUEBLO_FINAL * _once_a_position(_pueblo_last, state, final_walk)[seat]


PACAL_FINAL = 1.0
"""Share of the final scoring, on the board as it stands, counted now."""
_pacal_last: list = [(None, None)]
"""The last state whose final scoring was worked out and its points per seat (``_once_a_position``)."""


def pacal(game: Game, state: State, seat: int) -> float:
    """Points, plus what the final scoring would pay on the board as it stands: river and lake places,
    district majorities and seconds, unused energy pieces (``scoring.final_awards``). They are a good
    part of a game's points, and a rollout of two turns a seat reaches the end only near it."""
    from lanterne.engines.pacal.board import board_for
    from lanterne.engines.pacal.scoring import final_awards

    if game.is_over(state):
        return float(game.points(state, seat))
    def final_points() -> list[int]:
        final = [0] * state.players
        for who, pts, _ in final_awards(state, board_for(state.players)):
            final[who] += pts
        return final

    return game.points(state, seat) + PACAL_FINAL * _once_a_position(_pacal_last, state, final_points)[seat]


ESTIMATES: dict[str, Callable[[Game, State, int], float]] = {"pandoria": pandoria, "pagode": pagode,
                                                             "pueblo": pueblo, "pacal": pacal}
"""Per game id: the estimate the search may use instead of ``game.points``."""
