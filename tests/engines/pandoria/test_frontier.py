"""board.frontier, kept up to date from the last terrain it saw, against a walk of the whole board."""

from __future__ import annotations

import random

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import OpenTable, play_out
from lanterne.engines.pandoria import GAME
from lanterne.engines.pandoria import board as B
from lanterne.engines.pandoria.board import EMPTY, KIND, LAND, NEIGHBOURS, NHEX, PRINTED, STEP


def _anchor(terrain, h):
    if terrain[h] == EMPTY:
        return False
    if KIND[h] == PRINTED:
        return any(terrain[n] != EMPTY and KIND[n] != PRINTED for n in NEIGHBOURS[h])
    return True


def walked(terrain):
    """The frontier as the rules listed it before it was kept: every hex, every neighbour."""
    touching = {n for h in B.LAND_HEXES if _anchor(terrain, h)
                for n in NEIGHBOURS[h] if KIND[n] == LAND and terrain[n] == EMPTY}
    positions = []
    for h in sorted(touching):
        for d, b in enumerate(STEP[h]):
            if b >= 0 and KIND[b] == LAND and terrain[b] == EMPTY:
                positions.append((h, d))
                if b not in touching:
                    positions.append((b, (d + 3) % 6))
    return touching, positions


def terrains(games=6):
    out = []
    for g in range(games):
        bots = [RandomBot(f"frontier/{g}/{i}") for i in range(2 + g % 3)]
        play_out(GAME, GAME.setup(players=2 + g % 3), OpenTable(f"frontier/{g}"), bots,
                 on_step=lambda st, a, e: out.append(st.terrain))
    return out


def check(terrain):
    got = B.frontier(terrain)
    touching, positions = walked(terrain)
    assert got.touching == touching and list(got.positions) == positions


def test_frontier_along_games_and_jumping_between_them():
    seen = terrains()
    for t in seen:
        check(t)
    rng = random.Random(7)
    for _ in range(300):  # a search goes back and forth: terrains near and far from the last one
        check(rng.choice(seen))


def test_frontier_after_changes_in_place_and_uncovering():
    rng = random.Random(3)
    terrain = list(terrains(1)[-1])
    for _ in range(400):
        h = rng.randrange(NHEX)
        if KIND[h] != 0:
            terrain[h] = rng.choice((EMPTY, EMPTY, 0, 1, 2, 3, 4))  # the same list, changed in place
        check(terrain)


def test_frontier_ignores_a_stale_hint():
    """``board.covered`` only spares the diff: a hint that lies about the list is checked and dropped."""
    seen = terrains(1)
    check(seen[len(seen) // 2])
    terrain = list(seen[-1])
    B.covered(terrain, (0,))  # says only hex 0 changed: false
    check(terrain)
    B.covered(terrain, ())
    for h in B.LAND_HEXES[:20]:
        terrain[h] = EMPTY  # changed in place after the hint
    check(terrain)
