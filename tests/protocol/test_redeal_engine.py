"""lanterne.engines.redeal: the hands are re-dealt, same sizes, fresh cards; views agree with the full state."""

from __future__ import annotations

import pytest

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import DEAL, SHUFFLE, TABLE, OpenTable, RulesError, play_out
from lanterne.engines.redeal import apply_redeal, decks, hidden_slots, holders, lay_fresh, pool, redeal, redeal_ops
from lanterne.engines.registry import get_game


def _midgame(game_id: str, players: int, steps: int, seed: int = 1):
    game = get_game(game_id)
    state = game.setup(players=players)
    table, bots = OpenTable(seed), [RandomBot(f"{seed}/{i}") for i in range(players)]
    for _ in range(steps):
        if game.is_over(state):
            break
        actor = game.next_actor(state)
        action = table.resolve(state, game.table_op(state)) if actor == TABLE else \
            bots[actor].choose(game, game.view(state, actor), actor)
        state, _ = game.apply(state, action)
    return game, state


def _redealt(game, full, seed=7):
    """The re-deal on the full state through an open table; returns (ops, outcomes, after)."""
    ops = redeal_ops(game, full)
    table = OpenTable(seed)
    state = lay_fresh(game, full)
    outcomes = []
    for op in ops:
        outcome = table.resolve(state, op)
        outcomes.append(outcome)
        state = apply_redeal(state, op, outcome)
    return ops, outcomes, state


@pytest.fixture(scope="module")
def pandoria():
    game, full = _midgame("pandoria", 3, 60)
    assert holders(full), "mid-game Pandoria has hidden hands"
    return game, full


def test_the_pool_is_every_identity_not_public(pandoria):
    game, full = pandoria
    hidden = hidden_slots(full)
    assert sorted(full.cards.ids[s] for s in hidden) == pool(game, full)
    for seat in range(3):                     # every seat computes the same pool from its view
        assert pool(game, game.view(full, seat)) == pool(game, full)


def test_decks_never_mix_kinds(pandoria):
    game, full = pandoria
    first = game.identities(full)
    for kind, (slots, idents) in decks(game, full).items():
        assert {game.card_kind(first[s]) for s in slots} <= {kind}
        assert {game.card_kind(i) for i in idents} <= {kind} and idents == sorted(idents)


def test_the_plan_shuffles_each_deck_then_deals_each_hand_back(pandoria):
    game, full = pandoria
    ops = redeal_ops(game, full)
    shuffles = [op for op in ops if op.kind == SHUFFLE]
    deals = [op for op in ops if op.kind == DEAL]
    assert ops == shuffles + deals
    assert sorted(s for op in shuffles for s in op.slots) == hidden_slots(full)
    assert {op.to: list(op.slots) for op in deals} == holders(full)
    for seat in range(3):
        assert redeal_ops(game, game.view(full, seat)) == ops


def test_hands_keep_their_sizes_and_holders_the_game_state_is_unchanged(pandoria):
    game, full = pandoria
    _, _, after = _redealt(game, full)
    assert holders(after) == holders(full)
    assert hidden_slots(after) == hidden_slots(full)
    before_data, after_data = full.to_data(), after.to_data()
    before_data.pop("cards"), after_data.pop("cards")
    assert before_data == after_data, "only the card registry changes"
    public = [s for s in range(len(full.cards.ids)) if s not in hidden_slots(full)]
    assert all(after.cards.ids[s] == full.cards.ids[s] for s in public)
    assert sorted(after.cards.ids[s] for s in hidden_slots(full)) == pool(game, full)
    assert full.cards.ids == _midgame("pandoria", 3, 60)[1].cards.ids, "the input is not mutated"


def test_fresh_cards_differ_from_the_old_deal(pandoria):
    game, full = pandoria
    _, _, after = _redealt(game, full)
    hidden = hidden_slots(full)
    assert [after.cards.ids[s] for s in hidden] != [full.cards.ids[s] for s in hidden]


def test_each_view_redealt_is_the_view_of_the_redealt_state_and_has_the_same_legal_actions(pandoria):
    game, full = pandoria
    ops, outcomes, after = _redealt(game, full)
    for seat in range(3):
        masked = []
        for op, outcome in zip(ops, outcomes):
            if op.kind == DEAL and op.to != seat:
                outcome = (DEAL, tuple(None for _ in outcome[1]))
            elif op.kind == SHUFFLE:
                outcome = (SHUFFLE, tuple(None for _ in outcome[1]))
            masked.append(outcome)
        view = redeal(game, game.view(full, seat), masked, ops)
        assert view.cards.ids == game.view(after, seat).cards.ids
        assert view.cards.seen == after.cards.seen
        assert game.legal_actions(view, seat) == game.legal_actions(after, seat)


def test_the_game_plays_on_to_the_end_after_the_redeal(pandoria):
    game, full = pandoria
    _, _, after = _redealt(game, full)
    final, _ = play_out(game, after, OpenTable(3), [RandomBot(i) for i in range(3)])
    assert game.is_over(final)


def test_pueblo_has_no_hidden_card_so_its_redeal_is_empty():
    game, full = _midgame("pueblo", 3, 20)
    assert hidden_slots(full) == [] and redeal_ops(game, full) == []
    assert redeal(game, full, []).to_data() == full.to_data()


def test_wrong_outcome_count_is_one_line_error(pandoria):
    game, full = pandoria
    with pytest.raises(RulesError, match=r"the re-deal has \d+ steps, got 0 outcomes"):
        redeal(game, full, [])
