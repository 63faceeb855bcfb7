"""Pueblo speed figures: legal placements generated per second, random 4-player games per second.

Run: ``.venv/bin/python -m bench.pueblo`` (prints both figures, median of 3 runs).
Each function returns one figure, so ``bench/rows.py`` can register it.
"""

from __future__ import annotations

import statistics
import time

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import OpenTable, play_out

from lanterne.engines.pueblo import GAME
from lanterne.engines.pueblo.state import PLACE


def _positions(count: int = 40) -> list:
    """Placement positions from a few seeded random games (empty to nearly full pueblos)."""
    out = []
    seed = 0
    while len(out) < count:
        state = GAME.setup(players=4)

        def keep(after, action, events):
            if after.phase == PLACE and len(out) < count:
                out.append(after)

        play_out(GAME, state, OpenTable(f"positions/{seed}"), [RandomBot(f"p/{seed}/{i}") for i in range(4)],
                 on_step=keep)
        seed += 1
    return out


def placements_per_second(rounds: int = 30) -> float:
    """Legal placement actions generated per second (``legal_actions`` in the place phase)."""
    positions = _positions()
    start = time.process_time()
    made = 0
    for _ in range(rounds):
        for state in positions:
            made += len(GAME.legal_actions(state, GAME.next_actor(state)))
    return made / (time.process_time() - start)


def games_per_second(games: int = 40, players: int = 4, variant: str = "standard") -> float:
    """Complete random games on the open table per second of CPU."""
    start = time.process_time()
    for g in range(games):
        bots = [RandomBot(f"bench/{g}/{i}") for i in range(players)]
        play_out(GAME, GAME.setup(players=players, variant=variant), OpenTable(f"bench/{g}"), bots)
    return games / (time.process_time() - start)


def main() -> None:
    for name, fn in (("legal placements/s", placements_per_second),
                     ("random 4-player games/s", games_per_second),
                     ("random 4-player advanced+dismantling games/s",
                      lambda: games_per_second(variant="advanced+dismantling"))):
        runs = [fn() for _ in range(3)]
        print(f"{name}: {statistics.median(runs):,.0f} (median of 3: {', '.join(f'{r:,.0f}' for r in runs)})")


if __name__ == "__main__":
    main()
