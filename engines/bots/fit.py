"""Weights of Pagode's estimate (``pagode.search.estimate``), fitted to games between greedy players.

    python -m lanterne.engines.bots.fit [--games 600]

At the start of every turn of every game, each feature's difference between
the two seats (seat 1's minus seat 2's) and what the rest of the game added
to seat 1's lead (its final margin minus its lead then). Least squares, no
intercept (the seats are symmetric). Besides the estimate's features the fit
takes two controls that it leaves out: the cards in hand (hidden to the other
seat) and the seat to move, worth a turn's tempo; the estimate compares lines
of one turn, which end with another seat to move while a line cut at the
beam's depth does not, so a tempo term would favour cut lines. The games are
``fit/INDEX`` on an open table, the same on every run.
"""

from __future__ import annotations

import argparse

from lanterne.engines.pagode.search import features as pagode_features
from lanterne.engines.bots.simple import GreedyBot
from lanterne.engines.core import TABLE, OpenTable
from lanterne.engines.registry import get_game

NAMES = ("Lantern use", "Buddha use", "Rice bowl use", "Fan use", "Dragon use", "tile colour", "column point",
         "card in hand (control)", "to move (control)")


def samples(games: int) -> tuple[list[list[float]], list[float]]:
    """(feature differences, lead gained by the end) at each turn's start of ``games`` greedy games."""
    game = get_game("pagode")
    rows: list[list[float]] = []
    gains: list[float] = []
    for index in range(games):
        state, table = game.setup(players=2), OpenTable(f"fit/{index}")
        bots = [GreedyBot(f"fit/{index}/{seat}") for seat in range(2)]
        starts, before = [], None
        while not game.is_over(state):
            actor = game.next_actor(state)
            if actor == TABLE:
                state, _ = game.apply(state, table.resolve(state, game.table_op(state)))
                continue
            if actor != before:
                starts.append(([a - b for a, b in zip(_row(state, 0), _row(state, 1))],
                               state.scores[0] - state.scores[1]))
                before = actor
            state, _ = game.apply(state, bots[actor].choose(game, game.view(state, actor), actor))
        final = state.scores[0] - state.scores[1]
        for row, lead in starts:
            rows.append(row)
            gains.append(final - lead)
    return rows, gains


def _row(state, seat: int) -> list[float]:
    return [*pagode_features(state, seat), len(state.hands[seat]), 1.0 if state.current == seat else 0.0]


def least_squares(rows: list[list[float]], ys: list[float]) -> list[float]:
    """The w that minimises the squared error of ``rows . w`` against ``ys`` (normal equations, pivoting)."""
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] + [sum(r[i] * y for r, y in zip(rows, ys))]
         for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda i: abs(a[i][col]))
        if abs(a[pivot][col]) < 1e-12:
            name = NAMES[col] if n == len(NAMES) else col
            raise ValueError(f"feature {name} never varies (or only with others): no fit")
        a[col], a[pivot] = a[pivot], a[col]
        for i in range(n):
            if i != col:
                factor = a[i][col] / a[col][col]
                a[i] = [x - factor * p for x, p in zip(a[i], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=600, help="greedy games to fit on (default 600)")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be at least 1")
    rows, gains = samples(args.games)
    weights = least_squares(rows, gains)
    mean = sum(gains) / len(gains)
    total = sum((y - mean) ** 2 for y in gains)
    left = sum((y - sum(w * x for w, x in zip(weights, r))) ** 2 for r, y in zip(rows, gains))
    print(f"{len(rows)} turn starts of {args.games} greedy games; R^2 {1 - left / total:.3f}")
    for name, w in zip(NAMES, weights):
        print(f"  {name:24s} {w:+.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
