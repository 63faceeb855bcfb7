"""Property tests over random legal play: no exception, every piece accounted for, scores = score events,
round trips, views, determinism, termination within a step bound."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from lanterne.engines.core import OpenTable, as_action, canonical_pack, play_out
from lanterne.engines.bots import RandomBot
from lanterne.engines.pacal import GAME, data
from lanterne.engines.pacal.board import board_for
from tests.engines.pacal.helpers import random_game

STEP_BOUND = 20_000
"""Random play ends well within this (about 1,500 steps at most seen with 5 players)."""

games = st.tuples(st.integers(2, 5), st.integers(0, 10**6), st.sampled_from(GAME.variants))


def accounted_for(state):
    board = board_for(state.players)
    for p in range(state.players):
        on_board = bin(state.stones[p]).count("1")
        assert on_board + state.stone_supply[p] == data.STONES_IN_PLAY
        for k in range(1, 6):
            built = sum(1 for cell, o in enumerate(state.pyramid_owner) if o == p and state.pyramid_size[cell] == k)
            assert built + state.pyramid_supply[p][k - 1] == data.PYRAMIDS[k]
    for cell in range(169):
        if state.pyramid_owner[cell] >= 0 or state.stone_mask(cell):
            assert board.playable[cell]
        if state.pyramid_owner[cell] >= 0:
            assert state.stone_mask(cell) == 0 and cell not in state.ships
            assert state.pyramids[state.pyramid_owner[cell]] >> cell & 1
    assert sum(bin(b).count("1") for b in state.pyramids) == sum(1 for o in state.pyramid_owner if o >= 0)
    placed = [x for x in state.ships if x is not None]
    assert len(set(placed)) == len(placed) and all(board.playable[x] for x in placed)


@settings(max_examples=8, deadline=None)
@given(games)
def test_random_play_keeps_every_piece_and_point_accounted_for(game):
    players, seed, variant = game
    totals = [0] * players
    steps = 0
    for before, actor, action, after, events in random_game(players, seed, variant, max_steps=STEP_BOUND):
        steps += 1
        accounted_for(after)
        for e in events:
            if e[0] == "score":
                assert e[2] > 0
                totals[e[1]] += e[2]
        assert list(after.score) == totals
    assert GAME.is_over(after) and steps < STEP_BOUND
    assert after.end_reason
    assert GAME.winners(after) == [i for i, v in enumerate(totals) if v == max(totals)]


@settings(max_examples=5, deadline=None)
@given(games)
def test_random_play_round_trips_notation_positions_and_views(game):
    players, seed, variant = game
    rng = random.Random(seed)
    for before, actor, action, after, events in random_game(players, seed, variant, max_steps=STEP_BOUND):
        snapshot = before.to_data()
        legal = GAME.legal_actions(before, actor) if actor >= 0 else [action]
        sample = [a for a in legal if a[0] != "energy"] + rng.sample([a for a in legal if a[0] == "energy"],
                                                                      min(5, sum(a[0] == "energy" for a in legal)))
        for a in sample:
            text = GAME.format_action(before, a)
            assert GAME.parse_action(before, text, actor if actor >= 0 else None) == a, text
            assert as_action(list(a)) == a
        if actor >= 0:
            assert GAME.legal_actions(GAME.view(before, actor), actor) == legal
            assert all(GAME.legal_actions(before, other) == [] for other in range(players) if other != actor)
        text = GAME.save_position(before)
        loaded = GAME.load_position(text)
        assert loaded.to_data() == snapshot
        assert GAME.apply(loaded, action)[0].to_data() == after.to_data()  # play goes on from a saved game
        canonical_pack(snapshot)
        assert before.to_data() == snapshot  # apply never changes its input
        if rng.random() < 0.02 and len(legal) > 1:  # every legal action applies
            for a in legal[:: max(1, len(legal) // 20)]:
                GAME.apply(before, a)


def record(seed, players):
    bots = [RandomBot(f"{seed}/{i}") for i in range(players)]
    final, rec = play_out(GAME, GAME.setup(players=players), OpenTable(seed), bots, max_steps=STEP_BOUND)
    return GAME.digest(final), rec, GAME.scores(final)


@settings(max_examples=3, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10**6))
def test_same_seed_same_game(players, seed):
    assert record(seed, players) == record(seed, players)


def test_greedy_bots_finish_a_game():
    from lanterne.engines.bots import GreedyBot

    final, _ = play_out(GAME, GAME.setup(players=3), OpenTable(7), [GreedyBot(i, budget=60) for i in range(3)],
                        max_steps=STEP_BOUND)
    assert GAME.is_over(final)


def candidates(state, seat, legal, rng):
    """Actions of the right kind for the phase, legal or not: near misses of the legal ones and random ones."""
    from lanterne.engines.pacal.rules.movement import MODES

    out = set(legal)
    if state.phase == "move":
        for _ in range(40):
            cell = rng.randrange(169)
            out |= {("move", rng.choice(MODES), cell), ("energy", rng.choice((2, 4, 6)), cell), ("relocate", cell)}
    elif state.phase == "stones":
        for own in (False, True):
            for other in [None] + list(range(state.players)):
                out.add(("stones", own, other, ()))
                for a in legal:
                    out.add(("stones", own, other, a[3]))
                    if a[3]:
                        out.add(("stones", own, other, a[3][:-1]))
    elif state.phase == "build":
        for a in legal:
            if a[0] in ("build", "upgrade"):
                kind, k, at, cells = a
                other = "upgrade" if kind == "build" else "build"
                out |= {(kind, k + 1, at, cells), (kind, k - 1, at, cells), (other, k, at, cells)}
                out |= {(kind, k, x, cells) for x in cells}
                if len(cells) > 1:
                    out.add((kind, k, cells[0], cells[1:]))
    elif state.phase == "place":
        out |= {("place", rng.randrange(169)) for _ in range(10)}
    return out


@settings(max_examples=4, deadline=None)
@given(games)
def test_an_action_applies_exactly_when_it_is_legal(game):
    from lanterne.engines.core import IllegalAction

    players, seed, variant = game
    rng = random.Random(seed)
    for before, actor, action, after, events in random_game(players, seed, variant, max_steps=STEP_BOUND):
        if actor < 0 or rng.random() > 0.25:
            continue
        legal = set(GAME.legal_actions(before, actor))
        for a in candidates(before, actor, legal, rng):
            try:
                GAME.apply(before, a)
                ok = True
            except IllegalAction as e:
                ok = False
                assert str(e) and "\n" not in str(e)
            assert ok == (a in legal), (a, before.phase)


def test_every_event_of_a_game_reads_as_a_sentence():
    kinds = set()
    for *_, events in random_game(3, 11):
        for e in events:
            text = GAME.describe_event(e)
            assert text and "(" not in text.split()[0] and "\n" not in text
            kinds.add(e[0])
    assert {"first", "place", "roll", "move", "stone", "build", "score", "end"} <= kinds
