"""The search player works through the contract alone: whole games of every game, decks kept apart."""

import random

import pytest

from lanterne.engines.bots import IsmctsBot, RandomBot, determinize
from lanterne.engines.core import OpenTable, play_out
from lanterne.engines.registry import available_games

GAMES = {g.id: g for g in available_games()}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_ismcts_plays_a_whole_game_of_every_game(game_id):
    game = GAMES[game_id]
    final, record = play_out(game, game.setup(2), OpenTable(f"bots/{game_id}"),
                             [IsmctsBot(1, iterations=8), RandomBot(2)])
    assert game.is_over(final)
    assert any(actor == 0 for actor, _ in record)


def test_determinize_keeps_each_deck_apart_in_pandoria():
    game = GAMES["pandoria"]
    state = game.setup(2)
    table = OpenTable("decks")
    while game.next_actor(state) < 0:  # deal: the piles are shuffled and the hands dealt
        state, _ = game.apply(state, table.resolve(state, game.table_op(state)))
    view = game.view(state, 0)
    first = game.identities(view)
    hidden = [slot for slot, ident in enumerate(view.cards.ids) if ident is None]
    assert {game.card_kind(first[s]) for s in hidden} >= {0, 1, 2}  # at least cards, tiles and single tiles
    for seed in range(5):
        det = determinize(game, view, random.Random(seed))
        assert sorted(det.cards.ids) == sorted(first)
        for slot in hidden:
            assert game.card_kind(det.cards.ids[slot]) == game.card_kind(first[slot])
