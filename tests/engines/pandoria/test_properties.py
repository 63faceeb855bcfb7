"""Property tests over random legal play: Pandoria always ends, keeps its pieces,
replays the same from the same seed, round-trips notation and positions, and a
seat's view offers the same moves and keeps the same public digest."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from lanterne.engines.core import DEAL, SHUFFLE, TABLE, OpenTable, as_action, canonical_pack, play_out
from lanterne.engines.bots import RandomBot
from lanterne.engines.pandoria import GAME
from lanterne.engines.pandoria import data as D
from lanterne.engines.pandoria.board import LAKES, NHEX
from lanterne.engines.pandoria.rules import CASTLE

from .positions import STEP_BOUND, random_game

games = st.tuples(st.sampled_from([(2, "classic"), (3, "classic"), (4, "classic"), (2, "beginner"),
                                   (3, "beginner"), (4, "beginner"), (4, "team")]),
                  st.integers(0, 10**6))


def masked(outcome, op, seat):
    """The outcome as the fair table gives it to ``seat``: hidden identities are None."""
    if op.kind == SHUFFLE or (op.kind == DEAL and op.to is not None and op.to != seat):
        return (op.kind, tuple(None for _ in outcome[1]))
    return outcome


def check_pieces(st_):
    """Every slot in one place (load checks it), every figure and castle accounted for."""
    GAME.load(st_.to_data())
    for seat in range(st_.players):
        on_board = [h for h in range(NHEX) if st_.occupant[h] >= 0 and st_.occupant[h] >> 1 == seat]
        leaders = sum(st_.occupant[h] & 1 for h in on_board)
        assert len(on_board) - leaders + st_.reserve[seat] == D.FIGURES[st_.players]
        assert leaders + st_.leader_home[seat] == 1
        castles = sum(1 for h in range(NHEX) if st_.terrain[h] == CASTLE and st_.owner[h] == seat)
        assert castles + st_.castles_left[seat] == D.CASTLES
        assert all(0 <= r <= 10 for r in st_.resources[seat])
    for h in range(NHEX):
        if st_.occupant[h] >= 0:
            assert st_.terrain[h] >= 0 or h in LAKES


@settings(max_examples=12, deadline=None)
@given(games)
def test_random_play_ends_with_pieces_accounted_and_scores_from_events(game):
    (players, variant), seed = game
    earned = [0] * players

    def each(before, actor, op, action, after, events):
        check_pieces(after)
        for e in events:
            if e[0] == "score":
                earned[e[1]] += e[2]
    final = random_game(players, variant, seed, each, check_pure=True)
    assert GAME.is_over(final)
    assert final.points == earned
    if variant == "team":
        assert GAME.scores(final) == [earned[s] + earned[(s + 2) % 4] for s in range(4)]
    else:
        assert GAME.scores(final) == earned
    assert GAME.winners(final)


@settings(max_examples=6, deadline=None)
@given(games)
def test_same_seed_same_game(game):
    (players, variant), seed = game
    a = random_game(players, variant, seed)
    b = random_game(players, variant, seed)
    assert canonical_pack(a.to_data()) == canonical_pack(b.to_data())
    assert GAME.save_position(a) == GAME.save_position(b)


@settings(max_examples=6, deadline=None)
@given(games)
def test_notation_and_position_round_trip(game):
    (players, variant), seed = game

    def each(before, actor, op, action, after, events):
        if actor != TABLE:
            for a in GAME.legal_actions(before, actor):
                text = GAME.format_action(before, a)
                assert GAME.parse_action(before, text, actor) == a, text
        else:
            assert as_action(GAME.parse_action(before, GAME.format_action(before, action))) == action
        loaded = GAME.load_position(GAME.save_position(after))
        assert loaded.to_data() == after.to_data()
    random_game(players, variant, seed, each)


@settings(max_examples=6, deadline=None)
@given(games)
@example(game=((4, "beginner"), 117951))   # a seat passes: its view-holders judge it without its tiles' faces
def test_views_offer_the_same_moves_and_keep_the_public_digest(game):
    (players, variant), seed = game
    views = {}

    def each(before, actor, op, action, after, events):
        if not views:
            views.update({s: GAME.view(before, s) for s in range(players)})
        for seat in range(players):
            outcome = masked(action, op, seat) if actor == TABLE else action
            views[seat], _ = GAME.apply(views[seat], outcome)
            assert GAME.digest(views[seat]) == GAME.digest(after)
        public = GAME.view(after, None)
        for seat in range(players):
            for pile in (f"hand{seat}", f"tiles{seat}"):
                for slot in after.piles[pile]:
                    if not after.cards.is_public(slot):
                        assert public.cards.ids[slot] is None
                        assert views[(seat + 1) % players].cards.ids[slot] is None
        shuffled = after.piles["aside"] + after.piles["tiles"] + after.piles["deck"] + after.piles["singles"]
        for slot in shuffled if after.phase != "setup" else ():
            assert all(v.cards.ids[slot] is None for v in views.values())
        if GAME.is_over(after):
            return
        nxt = GAME.next_actor(after)
        if nxt != TABLE:
            own = GAME.view(after, nxt)
            assert GAME.legal_actions(own, nxt) == GAME.legal_actions(after, nxt)
            assert GAME.legal_actions(views[nxt], nxt) == GAME.legal_actions(after, nxt)
    random_game(players, variant, seed, each)


def test_play_out_with_bots_terminates_within_the_step_bound():
    for players, variant in ((2, "classic"), (4, "team")):
        state = GAME.setup(players=players, variant=variant)
        final, record = play_out(GAME, state, OpenTable(7), [RandomBot(i) for i in range(players)],
                                 max_steps=STEP_BOUND)
        assert GAME.is_over(final) and len(record) < STEP_BOUND


KINDS = ["tile", "castle", "figure", "take", "spell", "build", "monument", "buy", "single", "move",
         "skip", "pass", "deal", "roll", "shuffle", "reveal", "nonsense"]
argument = st.one_of(st.integers(-3, 320), st.booleans(), st.none(), st.text(max_size=3),
                     st.tuples(st.integers(-1, 320)), st.lists(st.integers(-1, 320), max_size=4).map(tuple))
junk = st.builds(lambda kind, args: (kind,) + tuple(args), st.sampled_from(KINDS),
                 st.lists(argument, max_size=5))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 300), st.lists(junk, min_size=1, max_size=5))
def test_untrusted_actions_only_ever_raise_illegal_action(step, actions):
    """A peer may send anything: apply accepts it or says why not, in one line."""
    from lanterne.engines.core import IllegalAction
    state = _states()[step % len(_states())]
    for action in actions:
        try:
            GAME.apply(state, action)
        except IllegalAction as e:
            assert "\n" not in str(e)


_STATES: list = []


def _states():
    if not _STATES:
        random_game(3, "classic", 5, lambda b, a, o, act, after, ev: _STATES.append(b))
    return _STATES


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_placement_search_equals_the_rule_checked_hex_by_hex(step):
    """The fast frontier search lists exactly the placements the rule allows, once each."""
    from lanterne.engines.pandoria.rules import double_positions, fits_double, fits_single, single_positions
    state = _states()[step % len(_states())]
    fast = double_positions(state)
    assert len(fast) == len(set(fast))
    assert set(fast) == {(h, d) for h in range(NHEX) for d in range(6) if fits_double(state, h, d)}
    assert single_positions(state) == [h for h in range(NHEX) if fits_single(state, h)]
