"""Properties of random legal play (hypothesis draws the seeds and variants)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from lanterne.engines.core import DEAL, SHUFFLE, TABLE, OpenTable
from lanterne.engines.pagode import GAME
from lanterne.engines.pagode.data import DECK_SIZE, FLOOR_COLUMNS, HAND_LIMIT, RESERVE_SIZE, TILES, VARIANTS

SEEDS = st.integers(min_value=0, max_value=10**9)
VARIANT_NAMES = st.sampled_from(sorted(VARIANTS))
FEW = settings(max_examples=8, deadline=None)


def walk(seed: int, variant: str, check=None):
    """A random legal game on the open table; ``check(state, actor, action, after, events)`` at every step."""
    state = GAME.setup(variant=variant)
    table, rng = OpenTable(seed), random.Random(seed)
    steps = 0
    while not GAME.is_over(state):
        actor = GAME.next_actor(state)
        if actor == TABLE:
            action = table.resolve(state, GAME.table_op(state))
        else:
            actions = GAME.legal_actions(state, actor)
            assert actions, f"seat {actor} has no legal action in phase {state.phase}"
            action = actions[rng.randrange(len(actions))]
        after, events = GAME.apply(state, action)
        if check:
            check(state, actor, action, after, events)
        state = after
        steps += 1
        assert steps < 20_000, "the game does not end"
    return state


@FEW
@given(seed=SEEDS, variant=VARIANT_NAMES)
def test_cards_tiles_scores_and_limits_hold_in_random_play(seed, variant):
    totals = [0, 0]

    def check(before, actor, action, state, events):
        places = [*state.reserves, *state.hands, state.draw, state.discard, state.played]
        assert sorted(s for p in places for s in p) == list(range(DECK_SIZE)), "55 cards, each in one place"
        placed = [t for tiles in state.site_tiles for t in tiles]
        left = [t for t in range(len(TILES)) if state.tiles_left >> t & 1]
        assert sorted(placed + left) == list(range(len(TILES))), "25 tiles, each in one place"
        for e in events:
            if e[0] == "score":
                totals[e[1]] += e[2]
        assert GAME.scores(state) == totals, "a score is the sum of its score events"
        assert state.columns <= GAME.column_limit(state), "column limit"
        assert all(0 <= c <= FLOOR_COLUMNS for c in state.site_cols)
        assert all(len(h) <= HAND_LIMIT for h in state.hands)
        assert all(len(r) <= RESERVE_SIZE for r in state.reserves)
        assert all(u in (0, 1, 2) for uses in state.uses for u in uses)
        if not VARIANTS[variant].abilities:
            assert not any(e[0] in ("gain", "use") for e in events)

    final = walk(seed, variant, check)
    assert GAME.complete_pagodas(final) >= 3 and final.turn % 2 == 0


@FEW
@given(seed=SEEDS)
def test_the_same_seed_gives_the_same_game(seed):
    def digests():
        out = []
        walk(seed, "standard", lambda b, a, x, s, e: out.append(GAME.digest(s)))
        return out

    assert digests() == digests()


@settings(max_examples=5, deadline=None)
@given(seed=SEEDS, variant=VARIANT_NAMES)
def test_notation_round_trips_for_every_legal_action(seed, variant):
    def check(state, actor, action, after, events):
        if actor == TABLE:
            assert GAME.format_action(state, action)
            return
        own = GAME.view(state, actor)
        for a in GAME.legal_actions(state, actor):
            text = GAME.format_action(state, a)
            assert GAME.parse_action(state, text) == a, text
            assert GAME.parse_action(own, text, actor) == a, text
        # the opponent can read the move in its log, even without the hand's identities
        assert GAME.format_action(GAME.view(state, 1 - actor), action)

    walk(seed, variant, check)


@settings(max_examples=5, deadline=None)
@given(seed=SEEDS, variant=VARIANT_NAMES)
def test_positions_round_trip(seed, variant):
    def check(state, actor, action, after, events):
        text = GAME.save_position(after)
        loaded = GAME.load_position(text)
        assert GAME.save_position(loaded) == text
        assert GAME.digest(loaded) == GAME.digest(after)
        if not GAME.is_over(after) and GAME.next_actor(after) != TABLE:
            seat = GAME.next_actor(after)
            assert GAME.legal_actions(loaded, seat) == GAME.legal_actions(after, seat)

    walk(seed, variant, check)


@FEW
@given(seed=SEEDS, variant=VARIANT_NAMES)
def test_views_offer_the_same_actions_and_stay_in_step_with_the_full_state(seed, variant):
    """One code path: each seat's view, fed what it may know, gives the same public digest."""
    state = GAME.setup(variant=variant)
    views = [GAME.view(state, 0), GAME.view(state, 1)]
    table, rng = OpenTable(seed), random.Random(seed)
    while not GAME.is_over(state):
        actor = GAME.next_actor(state)
        if actor == TABLE:
            op = GAME.table_op(state)
            action = table.resolve(state, op)
        else:
            actions = GAME.legal_actions(views[actor], actor)
            assert actions == GAME.legal_actions(state, actor)
            assert GAME.legal_actions(views[1 - actor], 1 - actor) == []
            action = actions[rng.randrange(len(actions))]
        for seat in (0, 1):
            seen = action
            if actor == TABLE and op.kind == DEAL and op.to not in (None, seat):
                seen = (DEAL, (None,) * len(op.slots))
            if actor == TABLE and op.kind == SHUFFLE:
                seen = (SHUFFLE, (None,) * len(op.slots))
            views[seat], _ = GAME.apply(views[seat], seen)
        state, _ = GAME.apply(state, action)
        digest = GAME.digest(state)
        assert GAME.digest(views[0]) == digest == GAME.digest(views[1])
        for seat in (0, 1):
            other = 1 - seat
            assert all(views[seat].cards.ids[s] is None for s in state.hands[other]
                       if not state.cards.knows(seat, s)), "a view never knows the other hand"
    assert GAME.scores(views[0]) == GAME.scores(views[1]) == GAME.scores(state)
