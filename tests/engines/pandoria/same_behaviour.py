"""Speed work on Pandoria must not change a game: record everything observable, old engine against new.

Usage (from the repository root)::

    .venv/bin/python tests/engines/pandoria/same_behaviour.py COMMIT

plays the same games with the engine of ``COMMIT`` (taken with ``git archive``
into a temporary tree put first on ``sys.path``, in a process of its own) and
with the working tree's, and says whether they are identical or where they
first differ. Random games: 120 of 2 players with the seeds of ``lanterne
bench --only pandoria.games2`` (and the first 10 of ``pandoria.games4``), 60 of
3 and 60 of 4 players, 24 of the beginner variant (2 to 4 players) and 24 of the
team game; then 8 with the greedy player. At every step: actor, action (and
its notation), events (and their sentences), scores, next actor, end, the
legal actions of the seat to move on the state and on its view, the positions
(``to_data``) of the state and of the view of every seat and of the public, the
digest, and the reasons ``check`` gives for actions near the legal ones (most
of them illegal). At the end: scores, resources left, winners.

This is the wide check run before committing a speed change (about a minute
or two per engine).
"""

from __future__ import annotations

import pickle
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def record(out: str) -> None:
    """Play every game with the ``lanterne`` first on ``sys.path`` and pickle what was seen to ``out``."""
    from lanterne.engines import core
    from lanterne.engines.bots import GreedyBot, RandomBot
    from lanterne.engines.core import TABLE, OpenTable
    from lanterne.engines.pandoria import GAME

    print("recording with", Path(core.__file__).parent, flush=True)

    def reason(state, action):
        try:
            r = GAME.check(state, action)
        except Exception as e:  # not an IllegalAction: the same kind of failure either way
            return ("raised", type(e).__name__, str(e))
        return None if r is None else (str(r), getattr(r, "template", None), repr(getattr(r, "parts", None)))

    canned = [("pass",), ("skip",), ("bogus",), (), ("tile", 0, 100, 0, 0), ("castle", 0), ("castle", 80),
              ("figure", 80, False), ("figure", 80, True), ("take", 80), ("monument", 0), ("monument", 4),
              ("build", 0, 0, 0), ("spell", 0, 0), ("single", 80), ("buy", 0), ("move", 80, 81),
              ("tile", 0, 100, 200, 0), ("figure", -1, False), ("build", 0, 0, 9)]

    def near(state, seat, rng, legal):
        """Canned actions of every kind, and a few legal ones with one field changed."""
        out = list(canned)
        for a in rng.sample(legal, min(5, len(legal))):
            a = list(a)
            if len(a) > 1:
                i = rng.randrange(1, len(a))
                if isinstance(a[i], bool):
                    a[i] = not a[i]
                elif isinstance(a[i], int):
                    a[i] += rng.choice((1, -1, 2, 5, 14, -14))
            out.append(tuple(a))
        return out

    def play(state, table, bots, rng) -> list[str]:
        steps = []
        while not GAME.is_over(state):
            actor, seat = GAME.next_actor(state), state.current
            views = [GAME.view(state, s) for s in (*range(state.players), None)]
            legal = GAME.legal_actions(state, seat)
            legal_view = GAME.legal_actions(views[seat], seat) if seat >= 0 else None
            reasons = [] if actor == TABLE else [(a, reason(state, a)) for a in near(state, seat, rng, legal)]
            if actor == TABLE:
                action = table.resolve(state, GAME.table_op(state))
                text = None
            else:
                action = bots[actor].choose(GAME, GAME.view(state, actor), actor)
                text = GAME.format_action(state, action)
            before = repr(state.to_data())
            after, events = GAME.apply(state, action)
            assert repr(state.to_data()) == before, "apply changed its input"
            steps.append(repr((actor, action, text, events, [GAME.describe_event(e) for e in events],
                               GAME.scores(after), GAME.next_actor(after), GAME.is_over(after), legal, legal_view,
                               [v.to_data() for v in views], state.to_data(), GAME.digest(state), reasons)))
            state = after
        steps.append(repr((state.to_data(), GAME.scores(state), GAME.resources_left(state), GAME.winners(state),
                           GAME.digest(state))))
        return steps

    def random_game(name, players, variant, seed_of, g):
        bots = [RandomBot(f"{seed_of}/{g}/{i}") for i in range(players)]
        games[name] = play(GAME.setup(players=players, variant=variant), OpenTable(f"{seed_of}/{g}"), bots,
                           random.Random(name))

    games: dict[str, list[str]] = {}
    for g in range(120):
        random_game(f"bench2/{g}", 2, "standard", "bench", g)   # the seeds of games_per_second
    for g in range(10):
        random_game(f"bench4/{g}", 4, "standard", "bench", g)
    for players, n in ((3, 60), (4, 60)):
        for g in range(n):
            random_game(f"classic{players}/{g}", players, "classic", f"classic{players}", g)
    for g in range(24):
        random_game(f"beginner/{g}", 2 + g % 3, "beginner", "beginner", g)
        random_game(f"team/{g}", 4, "team", "team", g)
    for g in range(8):
        players = 2 + g % 3
        bots = [GreedyBot(f"greedy/{g}/{i}") if i == 0 or g % 2 == 0 else RandomBot(f"greedy/{g}/{i}")
                for i in range(players)]
        games[f"greedy/{g}"] = play(GAME.setup(players=players, variant="beginner" if g == 7 else "classic"),
                                    OpenTable(f"greedy/{g}"), bots, random.Random(g))
    Path(out).write_bytes(pickle.dumps(games))


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    from tests.engines.old_and_new import main

    sys.exit(main(__file__, sys.argv, __doc__))
