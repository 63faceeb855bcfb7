"""Speed work on Pueblo must not change a game: record everything observable, old engine against new.

Usage (from the repository root)::

    .venv/bin/python tests/engines/pueblo/same_behaviour.py COMMIT

plays the same games with the engine of ``COMMIT`` (taken with ``git archive``
into a temporary tree put first on ``sys.path``, in a process of its own) and
with the working tree's, and says whether they are identical or where they
first differ. Random games: 200 of 4 players with the seeds of ``lanterne
bench --only pueblo.games4`` (its first 2 repetitions), 50 each of 2 and 3
players, 36 of each other variant (advanced, dismantling,
advanced+dismantling; 2 to 4 players, 1 to 4 sacred sites); then 12 with the
greedy player. At every step: actor, action (and its notation), events (and
their sentences), scores and penalties, next actor, end, the legal actions of
every seat on the state and of the seat to move on every seat's view and the public's, the
positions (``to_data``) of the state and of those views, the digest, and the
reasons ``check`` gives for actions near the legal ones (most of them
illegal). At the end: the position, scores, winners, digest.

This is the wide check run before committing a speed change (a minute or two).
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
    from lanterne.engines.pueblo import GAME

    print("recording with", Path(core.__file__).parent, flush=True)

    def reason(state, action):
        try:
            r = GAME.check(state, action)
        except Exception as e:  # not an IllegalAction: the same kind of failure either way
            return ("raised", type(e).__name__, str(e))
        return None if r is None else (str(r), getattr(r, "template", None), repr(getattr(r, "parts", None)))

    canned = [("pass",), ("bogus",), (), ("bid", 0), ("bid", 1), ("bid", 99), ("bid", True), ("card", 0),
              ("card", 1), ("card", 9), ("place", "C", 0, 0, 0), ("place", "N", 3, 7, 7), ("place", "X", 0, 1, 1),
              ("place", "C", True, 1, 1), ("place", "C", 0, 8, 0), ("drop", "C"), ("drop", "N"), ("drop", "Z"),
              ("move", 0), ("move", 1), ("move", 3), ("move", 9), ("remove", 0), ("remove", 27), ("remove", 64),
              ("site", 0, 1, 2), ("site", 0, 1, 9), ("place", "C", 0, 3), ("move",), ("roll", 0)]

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
                    a[i] += rng.choice((1, -1, 2, 8, -8, 9, 63))
                elif isinstance(a[i], str):
                    a[i] = rng.choice(("C", "N", "X", ""))
            else:
                a.append(rng.randrange(4))
            out.append(tuple(a))
        return out

    def play(state, table, bots, rng) -> list[str]:
        steps = []
        while not GAME.is_over(state):
            actor = GAME.next_actor(state)
            seat = 0 if actor == TABLE else actor
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
                               GAME.scores(after), GAME.penalties(after), GAME.next_actor(after), GAME.is_over(after),
                               legal_all, legal_views, [v.to_data() for v in views], state.to_data(),
                               GAME.digest(state), reasons)))
            state = after
        steps.append(repr((state.to_data(), GAME.scores(state), GAME.winners(state), GAME.digest(state))))
        return steps

    def random_game(name, players, variant, seed_of, g, **options):
        bots = [RandomBot(f"{seed_of}/{g}/{i}") for i in range(players)]
        games[name] = play(GAME.setup(players=players, variant=variant, **options), OpenTable(f"{seed_of}/{g}"),
                           bots, random.Random(name))

    games: dict[str, list[str]] = {}
    for g in range(200):
        random_game(f"bench4/{g}", 4, "standard", "bench", g)   # the seeds of the bench row's repetitions
    for players in (2, 3):
        for g in range(50):
            random_game(f"standard{players}/{g}", players, "standard", f"standard{players}", g)
    for variant in ("advanced", "dismantling", "advanced+dismantling"):
        for g in range(36):
            options = {"sacred_sites": 1 + g % 4} if variant.startswith("advanced") and g % 3 else {}
            random_game(f"{variant}/{g}", 2 + g % 3, variant, variant, g, **options)
    for g in range(12):
        players = 2 + g % 3
        variant = ("standard", "advanced", "dismantling", "advanced+dismantling")[g % 4]
        bots = [GreedyBot(f"greedy/{g}/{i}") if i == 0 or g % 2 == 0 else RandomBot(f"greedy/{g}/{i}")
                for i in range(players)]
        games[f"greedy/{g}"] = play(GAME.setup(players=players, variant=variant), OpenTable(f"greedy/{g}"), bots,
                                    random.Random(g))
    Path(out).write_bytes(pickle.dumps(games))


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    from tests.engines.old_and_new import main

    sys.exit(main(__file__, sys.argv, __doc__))
