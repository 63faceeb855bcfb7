"""Speed work on Pagode must not change a game: record everything observable, old engine against new.

Usage (from the repository root)::

    .venv/bin/python tests/engines/pagode/same_behaviour.py COMMIT

plays the same games with the engine of ``COMMIT`` (taken with ``git archive``
into a temporary tree put first on ``sys.path``, in a process of its own) and
with the working tree's, and says whether they are identical or where they
first differ. 300 random games with the seeds of ``lanterne bench --only
pagode.games``, 40 each of the quick and beginner variants and 8 with the
greedy player; at every step: actor, action, events, scores, next actor, end,
the legal actions of the seat to move on the state and on its view, the
positions of the state and of the views of both seats and of the public, the
digest, the complete sites, the house rule's "stuck", and the reasons ``check``
gives for actions near the legal ones (most of them illegal).

``test_same_games`` pins 100 games by hash in the test suite; this is the
wider check run before committing a speed change (a minute per engine).
"""

from __future__ import annotations

import pickle
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def record(out: str, scale: int = 1) -> None:
    """Play every game with the ``lanterne`` first on ``sys.path`` and pickle what was seen to ``out``.

    ``scale`` N plays one game in N of each kind (a quick sample)."""
    from lanterne.engines import core
    from lanterne.engines.bots import GreedyBot, RandomBot
    from lanterne.engines.core import TABLE, OpenTable
    from lanterne.engines.pagode import GAME

    print("recording with", Path(core.__file__).parent, flush=True)

    def reason(state, action):
        r = GAME.check(state, action)
        return None if r is None else (str(r), getattr(r, "template", None), repr(getattr(r, "parts", None)))

    def near(state, seat, rng, legal):
        out = [("end", False), ("end", True), ("lantern",), ("dragon",), ("modified",), ("draw",),
               ("column", 0, 0, ()), ("discard", 0, 0), ("column", 9, 0, ()), ("tile", 0, 0, ()), ("bogus",), (),
               ("column", 1, True, ((0, 0),)), ("roof", 0, 0, (), ())]
        held = state.reserves[seat] + state.hands[seat]
        for a in rng.sample(legal, min(4, len(legal))):
            a = list(a)
            i = rng.randrange(1, len(a)) if len(a) > 1 else 0
            if isinstance(a[i], int) and not isinstance(a[i], bool):
                a[i] = (a[i] + rng.choice((1, 2, 4))) % 7
            elif isinstance(a[i], tuple):
                slot = rng.choice(held) if held and rng.random() < 0.7 else rng.randrange(55)
                ident = state.cards.ids[slot] if rng.random() < 0.8 else rng.randrange(55)
                a[i] = ((slot, ident),) * rng.choice((1, 1, 2, 3))
            out.append(tuple(a))
        return out

    def play(state, table, bots, rng) -> list[str]:
        steps = []
        while not GAME.is_over(state):
            actor, seat = GAME.next_actor(state), state.current
            views = [GAME.view(state, s) for s in (0, 1, None)]
            legal = GAME.legal_actions(state, seat)
            legal_view = GAME.legal_actions(views[seat], seat)
            reasons = [] if actor == TABLE else [(a, reason(state, a)) for a in near(state, seat, rng, legal)]
            if actor == TABLE:
                action = table.resolve(state, GAME.table_op(state))
            else:
                action = bots[actor].choose(GAME, GAME.view(state, actor), actor)
            before = repr(state.to_data())
            after, events = GAME.apply(state, action)
            assert repr(state.to_data()) == before, "apply changed its input"
            steps.append(repr((actor, action, events, GAME.scores(after), GAME.next_actor(after), GAME.is_over(after),
                               legal, legal_view, [v.to_data() for v in views], state.to_data(), GAME.digest(state),
                               reasons, GAME.complete_mask(state), GAME.is_stuck(state, seat))))
            state = after
        steps.append(repr((state.to_data(), GAME.scores(state), GAME.winners(state), GAME.digest(state))))
        return steps

    games = {}
    for g in range(0, 300, scale):
        bots = [RandomBot(f"bench/{g}/{i}") for i in range(2)]
        games[f"random/{g}"] = play(GAME.setup(players=2), OpenTable(f"bench/{g}"), bots, random.Random(g))
    for variant in ("quick", "beginner"):
        for g in range(0, 40, scale):
            bots = [RandomBot(f"{variant}/{g}/{i}") for i in range(2)]
            games[f"{variant}/{g}"] = play(GAME.setup(players=2, variant=variant), OpenTable(f"{variant}/{g}"),
                                           bots, random.Random(g))
    for g in range(0, 8, max(1, scale // 4)):
        bots = [GreedyBot(f"greedy/{g}/0"), RandomBot(f"greedy/{g}/1") if g % 2 else GreedyBot(f"greedy/{g}/1")]
        games[f"greedy/{g}"] = play(GAME.setup(players=2), OpenTable(f"greedy/{g}"), bots, random.Random(g))
    Path(out).write_bytes(pickle.dumps(games))


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    from tests.engines.old_and_new import main

    sys.exit(main(__file__, sys.argv, __doc__))
