"""Speed work on Pacal's Rocket must not change a game: record everything observable, old engine against new.

Usage (from the repository root)::

    .venv/bin/python tests/engines/pacal/same_behaviour.py COMMIT

plays the same games with the engine of ``COMMIT`` (taken with ``git archive``
into a temporary tree put first on ``sys.path``, in a process of its own) and
with the working tree's, and says whether they are identical or where they
first differ. Random games: 60 of 5 players with the seeds of ``lanterne bench
--only pacal.games5`` (its first 3 repetitions), 30 each of 2, 3 and 4
players, 40 of the expert variant (2 to 5 players); then 10 with the greedy
player. At every step: actor, action (and its notation), events (and their
sentences), scores, next actor, end, the legal actions of every seat on the
state and of the seat to move on every seat's view and the public's, the
positions (``to_data``) of the state and of those views, the digest, and the
reasons ``check`` gives for actions near the legal ones (most of them
illegal). At the end: the position, scores, winners, digest.

This is the wide check run before committing a speed change (a few minutes).
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
    from lanterne.engines.pacal import GAME

    print("recording with", Path(core.__file__).parent, flush=True)

    def reason(state, action):
        try:
            r = GAME.check(state, action)
        except Exception as e:  # not an IllegalAction: the same kind of failure either way
            return ("raised", type(e).__name__, str(e))
        return None if r is None else (str(r), getattr(r, "template", None), repr(getattr(r, "parts", None)))

    canned = [("pass",), ("bogus",), (), ("place", 0), ("place", 84), ("place", 200), ("place", True),
              ("move", "straight", 84), ("move", "turn", 84), ("move", "arrow", 84), ("move", "jump", 84),
              ("move", "straight"), ("energy", 1, 84), ("energy", 3, 0), ("energy", 9, 84), ("relocate", 84),
              ("relocate", -1), ("stones", True, None, ()), ("stones", False, 0, ()), ("stones", True, 1, (84,)),
              ("stones", 1, None, ()), ("build", 1, 84, ()), ("build", 2, 84, (85, 86)), ("build", 9, 84, ()),
              ("upgrade", 1, 84, ()), ("upgrade", 2, 84, (85,)), ("roll", 0)]

    def near(state, seat, rng, legal):
        """Canned actions of every kind, and a few legal ones with one field changed."""
        out = list(canned)
        for a in rng.sample(legal, min(6, len(legal))):
            a = list(a)
            if len(a) > 1:
                i = rng.randrange(1, len(a))
                if isinstance(a[i], bool):
                    a[i] = not a[i]
                elif isinstance(a[i], int):
                    a[i] += rng.choice((1, -1, 2, 13, -13, 14, 169))
                elif isinstance(a[i], str):
                    a[i] = rng.choice(("straight", "turn", "arrow", "x"))
                elif isinstance(a[i], tuple):
                    a[i] = a[i][1:] if a[i] and rng.random() < 0.5 else (*a[i], rng.randrange(169))
                elif a[i] is None:
                    a[i] = rng.randrange(5)
            else:
                a.append(rng.randrange(4))
            out.append(tuple(a))
        return out

    def play(state, table, bots, rng) -> list[str]:
        steps = []
        while not GAME.is_over(state):
            actor = GAME.next_actor(state)
            seat = max(state.current, 0)
            views = [GAME.view(state, s) for s in (*range(state.players), None)]
            legal_all = [GAME.legal_actions(state, s) for s in range(state.players)]   # the others' too (none)
            legal = legal_all[seat]
            legal_views = [GAME.legal_actions(v, seat) for v in views]
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
            steps.append(repr((actor, action, text, events, [str(GAME.describe_event(e)) for e in events],
                               GAME.scores(after), GAME.next_actor(after), GAME.is_over(after),
                               legal_all, legal_views, [v.to_data() for v in views], state.to_data(),
                               GAME.digest(state), reasons)))
            state = after
        steps.append(repr((state.to_data(), GAME.scores(state), GAME.winners(state), GAME.digest(state))))
        return steps

    def random_game(name, players, variant, seed_of, g):
        bots = [RandomBot(f"{seed_of}/{g}/{i}") for i in range(players)]
        games[name] = play(GAME.setup(players=players, variant=variant), OpenTable(f"{seed_of}/{g}"), bots,
                           random.Random(name))

    games: dict[str, list[str]] = {}
    for g in range(60):
        random_game(f"bench5/{g}", 5, "standard", "bench", g)   # the seeds of the bench row's repetitions
    for players in (2, 3, 4):
        for g in range(30):
            random_game(f"standard{players}/{g}", players, "standard", f"standard{players}", g)
    for g in range(40):
        random_game(f"expert/{g}", 2 + g % 4, "expert", "expert", g)
    for g in range(10):
        players = 2 + g % 4
        bots = [GreedyBot(f"greedy/{g}/{i}") if i == 0 or g % 2 == 0 else RandomBot(f"greedy/{g}/{i}")
                for i in range(players)]
        games[f"greedy/{g}"] = play(GAME.setup(players=players, variant="expert" if g % 3 == 2 else "standard"),
                                    OpenTable(f"greedy/{g}"), bots, random.Random(g))
    Path(out).write_bytes(pickle.dumps(games))


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    from tests.engines.old_and_new import main

    sys.exit(main(__file__, sys.argv, __doc__))
