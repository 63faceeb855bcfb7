"""When two lines of one turn reach the same position, as far as the rest of the game can tell.

The search's whole-turn plans (``IsmctsBot._turn_lines``) come from a beam
search ranked by points. In Pagode many lines of a turn are the same builds
in another order, or with a red card from the hand instead of the red one in
the reserve: in one traced position all 6 plans were one set of builds in
other orders, in another 5 plans reached 2 positions. Lines with equal keys here
are one plan, so the plans (and the beam) hold different positions. A game
without a key here compares lines as they are.
"""

from __future__ import annotations

from typing import Callable, Hashable

from lanterne.engines.core import Game, State


def pagode(game: Game, state: State, seat: int) -> Hashable:
    """Every field but the order of the played and discarded cards, and the seat's cards by colour only,
    reserve and hand together (cards of one colour do the same; which of them the other seat sees is
    left to the draw; the other seat's cards are what they were before the line)."""
    from lanterne.engines.pagode.data import COLOUR_OF_IDENT

    ids = state.cards.ids

    def colours(slots: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(-1 if ids[s] is None else COLOUR_OF_IDENT[ids[s]] for s in slots))

    return (state.phase, state.current, state.scores, state.uses, state.site_tiles, state.site_cols,
            state.site_colour, state.tiles_left, state.columns, state.acted, state.used, state.mod_left,
            state.mark, state.refill, state.after, colours(state.reserves[seat] + state.hands[seat]),
            colours(state.played), colours(state.discard), len(state.draw))


PLAN_KEYS: dict[str, Callable[[Game, State, int], Hashable]] = {"pagode": pagode}
"""Per game id: the key under which the search takes two lines of a turn for one plan (``distinct_plans``)."""
