"""Positions for the Pueblo tests, built through the real position loader.

``build(players, stones=[(owner, "h4^ g5 h5"), ...])`` lists stones in the
order they were placed (owner: a seat, or "N" for neutral) and fixes the
reserves so that every stone is accounted for; loading re-places them, so a
floating stone in a test position fails loudly.
"""

from __future__ import annotations

from lanterne.engines.pueblo import GAME
from lanterne.engines.pueblo.data import NEUTRAL
from lanterne.engines.pueblo.notation import parse_action
from lanterne.engines.pueblo.state import state_to_data
from lanterne.engines.pueblo.state import PuebloState


def build(players: int = 3, stones=(), *, chief: int = 0, phase: str = "move", seat: int = 0,
          variant: str = "standard", sites=(), penalties=None, **fields) -> PuebloState:
    state = GAME.setup(players=players, variant=variant, **({"sacred_sites": len(sites)} if sites else {}))
    state, _ = GAME.apply(state, ("roll", 0))
    data = state_to_data(state)
    data["sites"] = [list(parse_action(state, "site " + s)[1:]) for s in sites]
    listed = []
    neutral_from = 0
    for owner, cells in stones:
        o = NEUTRAL if owner == "N" else owner
        place = parse_action(state, ("N " if o == NEUTRAL else "C ") + cells)
        listed.append([o, place[2], place[3], place[4]])
        if o == NEUTRAL:
            for _ in range(players):
                p = neutral_from % players
                neutral_from += 1
                if data["neutral"][p]:
                    data["neutral"][p] -= 1
                    break
        else:
            data["coloured"][o] -= 1
            data["lone"][o] = False
    data["stones"] = listed
    data["chief"] = chief
    data["phase"] = phase
    data["at"] = data["order"].index(seat)
    if penalties is not None:
        data["penalties"] = list(penalties)
    data.update(fields)
    return GAME.load(data)
