"""Properties over random legal play: it always ends, the pueblo stays sound, texts round-trip."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from lanterne.engines.bots import GreedyBot, RandomBot
from lanterne.engines.core import IllegalAction, NotationError, OpenTable, canonical_pack, play_out
from lanterne.engines.pueblo import GAME
from lanterne.engines.pueblo.data import NEUTRAL, STONES_PER_PLAYER
from lanterne.engines.pueblo.board import POSE_COLUMNS, TEMPLATE_INDEX, TEMPLATE_NO, TEMPLATES, base_level, fits
from lanterne.engines.pueblo.rules import removable, removals

STEP_BOUND = 1000
"""An upper bound on the actions of any game, so random play always ends:
at most 36 stones placed or dropped, 2 actions each (72); 4 sacred sites; 3 auctions of at most
4 cards, each card at most 20 raises (bids go up by 1 or more, MAX_BID = 20), 4 passes and a pick
(300); dismantling removes a stone in every round of turns (checked below), so at most 36 rounds
of 4 turns of 2 actions (288). Total under 700."""

games = st.tuples(st.integers(2, 4), st.sampled_from(GAME.variants), st.integers(0, 10**6))


def check_sound(state) -> None:
    """No floating cube, no cube inside another, every stone accounted for."""
    cubes = {}
    for c in range(64):
        assert len(state.stacks[c]) == state.heights[c]  # a gap-free stack: nothing floats
        for z, sid in enumerate(state.stacks[c]):
            cubes.setdefault(sid, []).append((c, z))
    for sid, stone in enumerate(state.stones):
        if stone is None:
            assert sid not in cubes
            continue
        owner, orient, x, y, base = stone
        t = TEMPLATE_INDEX[orient, x, y]
        want = sorted((c, base + col.low + k) for c, col in zip(t.cells, POSE_COLUMNS[orient])
                      for k in range(col.count))
        assert sorted(cubes.pop(sid)) == want  # each cube in one place, owned by one stone
        assert not t.mask & state.site_mask
    assert not cubes
    # the memoised per-box search gives exactly the placements of the support rule, template by template
    brute = [(t, base_level(state.heights, t)) for t in TEMPLATES
             if not t.mask & state.site_mask and base_level(state.heights, t) is not None]
    assert sorted(fits(state.heights, state.site_mask)) == sorted(brute)
    # only stones on top of a column are looked at for removal: the same as trying every stone
    for seat in range(state.players):
        mine = any(st is not None and st[0] == seat for st in state.stones)
        every = [sid for sid, st in enumerate(state.stones) if st is not None and removable(state, sid)
                 and (st[0] == seat or (st[0] == NEUTRAL and mine))]
        assert removals(state, seat) == every
    # and the per-box cache kept up to date move by move equals a search from scratch
    assert [i for box in state.fit for i in box] == [TEMPLATE_NO[t] for t, _ in fits(state.heights, state.site_mask)]
    col, neu = STONES_PER_PLAYER[state.players]
    for p in range(state.players):
        assert state.owners.count(p) + state.coloured[p] + state.held[p] + state.dropped[p][0] == col
    assert (state.owners.count(NEUTRAL) + sum(state.neutral) + sum(state.held)
            + sum(d[1] for d in state.dropped)) == neu * state.players


def play_checked(players, variant, seed, bots=RandomBot, check=True):
    rng = random.Random(seed)
    state = GAME.setup(players=players, variant=variant)
    score_sum = [0] * players
    idle_turns = [0]  # dismantling turns since the last removal

    def on_step(after, action, events):
        if action[0] == "remove":
            idle_turns[0] = -1  # this turn's move comes next
        elif after.stage == 3 and action[0] == "move" and not any(e[0] == "final round" for e in events):
            idle_turns[0] += 1
            assert idle_turns[0] < players  # some seat can always remove a stone within a round
        for e in events:
            if e[0] == "score":
                score_sum[e[1]] += e[2]
        assert GAME.scores(after) == score_sum
        if not check:
            return
        check_sound(after)
        data = after.to_data()
        json.dumps(data)  # plain data
        again = GAME.load_position(GAME.save_position(after))
        assert again.to_data() == data and canonical_pack(again.to_data()) == canonical_pack(data)
        if not GAME.is_over(after):
            seat = GAME.next_actor(after)
            acts = GAME.legal_actions(after, seat)
            sample = acts if len(acts) < 30 else rng.sample(acts, 30)
            for a in sample:
                assert GAME.parse_action(after, GAME.format_action(after, a)) == a
            if seat >= 0:
                assert GAME.legal_actions(GAME.view(after, seat), seat) == acts

    final, record = play_out(GAME, state, OpenTable(seed), [bots(f"{seed}/{i}") for i in range(players)],
                             max_steps=STEP_BOUND, on_step=on_step)
    assert GAME.is_over(final) and len(record) < STEP_BOUND
    return final, record


@settings(max_examples=12, deadline=None)
@given(games)
def test_random_play_ends_and_keeps_every_invariant(game):
    players, variant, seed = game
    final, record = play_checked(players, variant, seed)
    assert set(GAME.winners(final)) == {p for p in range(players) if final.penalties[p] == min(final.penalties)}
    if "dismantling" in variant:
        assert not any(s is not None and s[0] != NEUTRAL for s in final.stones)
    else:
        assert all(s is not None for s in final.stones)  # nothing leaves the board without dismantling
        assert len(final.stones) + sum(map(sum, final.dropped)) == sum(STONES_PER_PLAYER[players]) * players


@settings(max_examples=8, deadline=None)
@given(games)
def test_same_seed_same_game(game):
    players, variant, seed = game
    a_final, a_record = play_checked(players, variant, seed, check=False)
    b_final, b_record = play_checked(players, variant, seed, check=False)
    assert a_record == b_record
    assert GAME.save_position(a_final) == GAME.save_position(b_final)
    assert GAME.digest(a_final) == GAME.digest(b_final)


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10**6))
def test_greedy_players_finish_too(seed):
    play_checked(4, "advanced+dismantling", seed, bots=GreedyBot, check=False)


def test_replaying_the_record_from_the_start_gives_the_same_bytes():
    final, record = play_checked(3, "advanced+dismantling", 7, check=False)
    state = GAME.setup(players=3, variant="advanced+dismantling")
    for _, action in record:
        state, _ = GAME.apply(state, action)
    assert canonical_pack(state.to_data()) == canonical_pack(final.to_data())


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=20) | st.from_regex(r"[CNcnxm] ?[a-j][0-9]\^? [a-j][0-9] ?[a-j]?[0-9]?", fullmatch=True))
def test_any_text_parses_or_gives_a_notation_error(text):
    state = GAME.apply(GAME.setup(players=2), ("roll", 0))[0]
    try:
        action = GAME.parse_action(state, text)
    except NotationError as e:
        assert "\n" not in str(e)
        return
    assert GAME.parse_action(state, GAME.format_action(state, action)) == action


atoms = st.one_of(st.integers(-3, 70), st.sampled_from(["C", "N", "X", "", None, True]))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["place", "move", "remove", "drop", "site", "bid", "pass", "card", "roll", "nope"]),
       st.lists(atoms, max_size=5), st.sampled_from(["place", "move", "bid", "remove"]))
def test_any_action_applies_or_gives_an_illegal_action(kind, args, phase):
    state = build_phase(phase)
    try:
        GAME.apply(state, (kind, *args))
    except IllegalAction as e:
        assert "\n" not in str(e)


def build_phase(phase):
    from tests.engines.pueblo.pueblo_build import build

    if phase == "bid":
        state = GAME.setup(players=3, variant="advanced", sacred_sites=1)
        state = GAME.apply(state, ("roll", 0))[0]
        return GAME.apply(state, ("site", 0, 1, 8))[0]
    if phase == "remove":
        return build(3, [(0, "b1^ a1 a2")], phase="remove", variant="dismantling", stage=3)
    return build(3, [(0, "b1^ a1 a2")], phase=phase)


def test_every_legal_action_of_a_whole_game_round_trips_through_its_text():
    state = GAME.setup(players=4, variant="advanced+dismantling", sacred_sites=4)
    table, bots, checked = OpenTable(3), [RandomBot(f"rt/{i}") for i in range(4)], set()
    for _ in range(STEP_BOUND):
        if GAME.is_over(state):
            break
        seat = GAME.next_actor(state)
        if seat < 0:
            action = table.resolve(state, GAME.table_op(state))
            assert GAME.parse_action(state, GAME.format_action(state, action)) == action
        else:
            for a in GAME.legal_actions(state, seat):
                assert GAME.parse_action(state, GAME.format_action(state, a)) == a
                checked.add(a[0])
            action = bots[seat].choose(GAME, state, seat)
        state, _ = GAME.apply(state, action)
    assert GAME.is_over(state)
    assert checked == {"site", "bid", "pass", "card", "place", "move", "remove"}
