"""The engine contract, exercised on a tiny real game (engines/example, the template game)."""

import msgpack
import pytest

from lanterne.engines.bots import GreedyBot, RandomBot, make_bot
from lanterne.engines.core import (DEAL, NOBODY, ROLL, SHUFFLE, TABLE, Cards, IllegalAction, OpenTable,
                          PositionError, RulesError, TableOp, apply_outcome_to_cards, as_action,
                          canonical_pack, play_out)
from lanterne.engines.registry import get_game
from lanterne.engines.example import GAME


def run(seed, players=2, bots=None):
    bots = bots or [RandomBot(f"{seed}/{i}") for i in range(players)]
    return play_out(GAME, GAME.setup(players=players), OpenTable(seed), bots)


def test_a_new_deck_is_public_and_a_shuffle_hides_it():
    cards = Cards.new(range(4), 2)
    assert all(cards.is_public(s) for s in range(4))
    apply_outcome_to_cards(cards, TableOp(SHUFFLE, slots=(0, 1, 2, 3)), (SHUFFLE, (3, 2, 1, 0)))
    assert cards.ids == [3, 2, 1, 0]
    assert not any(cards.knows(seat, 0) for seat in (0, 1, None))


def test_a_face_down_deal_is_known_to_its_receiver_only():
    cards = Cards.new(range(4), 2)
    apply_outcome_to_cards(cards, TableOp(SHUFFLE, slots=(0, 1, 2, 3)), (SHUFFLE, (1, 0, 3, 2)))
    apply_outcome_to_cards(cards, TableOp(DEAL, slots=(0,), to=1), (DEAL, (1,)))
    assert cards.knows(1, 0) and not cards.knows(0, 0) and not cards.knows(None, 0)
    assert cards.masked(0).ids[0] is None and cards.masked(1).ids[0] == 1


def test_a_shuffle_that_changes_the_cards_is_refused():
    cards = Cards.new(range(3), 2)
    with pytest.raises(IllegalAction, match="same cards"):
        apply_outcome_to_cards(cards, TableOp(SHUFFLE, slots=(0, 1, 2)), (SHUFFLE, (0, 0, 2)))


def test_a_roll_outside_the_die_is_refused():
    cards = Cards.new([], 2)
    with pytest.raises(IllegalAction, match="0..5"):
        apply_outcome_to_cards(cards, TableOp(ROLL, faces=6), (ROLL, 6))


def test_a_claim_that_contradicts_a_known_identity_is_refused():
    cards = Cards.new(range(3), 2)
    with pytest.raises(IllegalAction, match="which is card 1"):
        cards.claim(1, 2, seat=0)


def test_a_claim_of_a_card_known_elsewhere_is_refused():
    cards = Cards.new(range(3), 2).masked(0)
    cards.ids[1] = None
    with pytest.raises(IllegalAction, match="already known"):
        cards.claim(1, 2, seat=0)


def test_the_same_seed_gives_the_same_game():
    a, rec_a = run(7)
    b, rec_b = run(7)
    assert rec_a == rec_b and GAME.digest(a) == GAME.digest(b)
    assert any(run(seed)[1] != rec_a for seed in range(8, 20))


def test_a_view_hides_the_other_hand_and_offers_the_same_actions():
    state = GAME.setup()
    table = OpenTable(3)
    while GAME.next_actor(state) == TABLE:
        state, _ = GAME.apply(state, table.resolve(state, GAME.table_op(state)))
    mine, theirs = state.hands
    view = GAME.view(state, 0)
    assert view.cards.ids[mine] is not None and view.cards.ids[theirs] is None
    assert GAME.legal_actions(view, 0) == GAME.legal_actions(state, 0)
    assert GAME.digest(view) == GAME.digest(state)


def test_views_fed_what_they_may_know_stay_in_step_with_the_full_state():
    """One code path: each seat's view, fed outcomes masked for it, gives the same public digest."""
    state = GAME.setup(players=3)
    views = [GAME.view(state, s) for s in range(3)]
    table, bots = OpenTable(11), [RandomBot(i) for i in range(3)]
    while not GAME.is_over(state):
        actor = GAME.next_actor(state)
        if actor == TABLE:
            op = GAME.table_op(state)
            action = table.resolve(state, op)
        else:
            action = bots[actor].choose(GAME, views[actor], actor)
        for seat, view in enumerate(views):
            seen = action
            if actor == TABLE and op.kind == DEAL and op.to not in (None, seat):
                seen = (DEAL, (None,) * len(op.slots))
            if actor == TABLE and op.kind == SHUFFLE:
                seen = (SHUFFLE, (None,) * len(op.slots))
            views[seat], _ = GAME.apply(view, seen)
        state, _ = GAME.apply(state, action)
        assert {GAME.digest(v) for v in views} == {GAME.digest(state)}
    assert [GAME.scores(v) for v in views] == [GAME.scores(state)] * 3


def test_apply_never_changes_its_input():
    state = GAME.setup()
    before = canonical_pack(state.to_data())
    GAME.apply(state, OpenTable(1).resolve(state, GAME.table_op(state)))
    assert canonical_pack(state.to_data()) == before


def test_position_round_trip_and_corrupt_positions():
    final, _ = run(5)
    text = GAME.save_position(final)
    assert GAME.save_position(GAME.load_position(text)) == text
    for bad, why in [("{", "not a position file"), ('{"game":"chess"}', "not a High card position"),
                     ('{"game":"highcard","format":9,"state":{}}', "unknown position format"),
                     ('{"game":"highcard","format":1,"state":{"players":2}}', "corrupt High card position")]:
        with pytest.raises(PositionError, match=why) as e:
            GAME.load_position(bad)
        assert "\n" not in str(e.value)


def test_canonical_pack_sorts_keys_and_refuses_floats():
    assert canonical_pack({"b": 1, "a": [2, {"d": 0, "c": 1}]}) == canonical_pack({"a": [2, {"c": 1, "d": 0}], "b": 1})
    with pytest.raises(TypeError):
        canonical_pack({"x": 1.5})


def test_actions_survive_msgpack():
    action = ("col", 3, ((17, 23),), None, True)
    assert as_action(msgpack.unpackb(msgpack.packb(action))) == action


def test_the_open_table_refuses_a_view():
    state = GAME.setup()
    state, _ = GAME.apply(state, OpenTable(1).resolve(state, GAME.table_op(state)))
    with pytest.raises(RulesError, match="full state"):
        OpenTable(1).resolve(GAME.view(state, 0), GAME.table_op(state))


def test_bots_play_legal_moves_to_the_end():
    for bots in ([GreedyBot(1), RandomBot(2)], [make_bot("greedy", 3), make_bot("random", 4)]):
        final, record = run(9, bots=bots)
        assert GAME.is_over(final) and record


def test_unknown_bot_and_unknown_game_are_one_line_errors():
    with pytest.raises(RulesError, match="no computer player 'chess'"):
        make_bot("chess")
    with pytest.raises(RulesError, match="no game 'chess'"):
        get_game("chess")


def test_player_count_and_variant_are_checked():
    with pytest.raises(RulesError, match="seats 2 to 3 players, not 5"):
        GAME.setup(players=5)
    with pytest.raises(RulesError, match="no variant 'turbo'"):
        GAME.setup(variant="turbo")


def test_public_view_knows_only_public_cards():
    state = GAME.setup()
    assert GAME.view(state, NOBODY).cards.ids == list(range(12))


def test_determinize_deals_only_unseen_cards_into_hidden_slots():
    import random as _random

    from lanterne.engines.bots import determinize

    state = GAME.setup()
    table = OpenTable(3)
    while GAME.next_actor(state) == TABLE:
        state, _ = GAME.apply(state, table.resolve(state, GAME.table_op(state)))
    view = GAME.view(state, 0)
    det = determinize(GAME, view, _random.Random(1))
    assert sorted(det.cards.ids) == list(range(12))
    assert all(det.cards.ids[s] == i for s, i in enumerate(view.cards.ids) if i is not None)


def test_ismcts_never_reads_hidden_cards():
    """Two real games that differ only in cards seat 1 cannot see: same view, same choice."""
    from lanterne.engines.bots import IsmctsBot

    state = GAME.setup()
    table = OpenTable(3)
    while GAME.next_actor(state) == TABLE:
        state, _ = GAME.apply(state, table.resolve(state, GAME.table_op(state)))
    hidden = [slot for slot in range(12) if not state.cards.knows(0, slot)]
    other = state.copy()
    other.cards = state.cards.copy()
    rotated = [state.cards.ids[s] for s in hidden[1:] + hidden[:1]]
    for slot, ident in zip(hidden, rotated):
        other.cards.ids[slot] = ident
    assert other.cards.ids != state.cards.ids
    assert canonical_pack(GAME.view(state, 0).to_data()) == canonical_pack(GAME.view(other, 0).to_data())
    for seed in range(3):
        a = IsmctsBot(seed, iterations=80).choose(GAME, GAME.view(state, 0), 0)
        b = IsmctsBot(seed, iterations=80).choose(GAME, GAME.view(other, 0), 0)
        assert a == b


def test_ismcts_plays_whole_games_and_prefers_a_sure_win():
    from lanterne.engines.bots import IsmctsBot

    final, _ = run(4, bots=[IsmctsBot(1, iterations=40), RandomBot(2)])
    assert GAME.is_over(final)
    # holding the top card, keeping it is never worse than swapping it away
    for seed in range(30):
        state = GAME.setup()
        table = OpenTable(seed)
        while GAME.next_actor(state) == TABLE:
            state, _ = GAME.apply(state, table.resolve(state, GAME.table_op(state)))
        if state.cards.ids[state.hands[0]] == 11:
            assert IsmctsBot(seed, iterations=200).choose(GAME, GAME.view(state, 0), 0) == ("keep",)
            return
    pytest.fail("no deal gave seat 1 the top card")


def _at_play(players=2):
    state = GAME.setup(players=players)
    table = OpenTable(3)
    while GAME.next_actor(state) == TABLE:
        state, _ = GAME.apply(state, table.resolve(state, GAME.table_op(state)))
    return state


def test_actions_are_typed_records_that_are_still_tuples_on_the_wire():
    state = _at_play()
    keep, swap = GAME.legal_actions(state, 0)
    assert (type(keep).__name__, type(swap).__name__) == ("Keep", "Swap")
    assert swap.slot == state.hands[0] and swap == ("swap", swap.slot, swap.ident)
    back = as_action(msgpack.unpackb(canonical_pack(swap)))
    assert type(back) is tuple and back == swap
    assert GAME.apply(state, back)[0].to_data() == GAME.apply(state, swap)[0].to_data()


@pytest.mark.parametrize("action, why", [
    (("swap", 3), "swap takes 2 arguments"),
    (("swap", True, 4), "swap: argument 1 must be a number"),
    (("swap", 1, "4"), "swap: argument 2 must be a number"),
    (("keep", 0), "keep takes 0 arguments"),
    (("fold",), "is not legal now"),
])
def test_a_malformed_action_from_a_peer_is_a_one_line_illegal_action(action, why):
    state = _at_play()
    with pytest.raises(IllegalAction, match=why) as e:
        GAME.apply(state, action)
    assert "\n" not in str(e.value)
