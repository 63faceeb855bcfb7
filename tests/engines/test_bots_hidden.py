"""The search player cannot peek in any real game: swapping the cards it cannot see changes nothing."""

import pytest

from lanterne.engines.bots import IsmctsBot
from lanterne.engines.core import TABLE, OpenTable
from lanterne.engines.registry import available_games

GAMES = {g.id: g for g in available_games()}
WITH_HIDDEN_CARDS = ["pagode", "pandoria"]  # hands dealt face down; Pueblo and Pacal hide nothing at the start


@pytest.mark.parametrize("game_id", WITH_HIDDEN_CARDS)
def test_swapping_the_hidden_cards_does_not_change_the_search_players_move(game_id):
    game = GAMES[game_id]
    state, table = game.setup(2), OpenTable(f"peek/{game_id}")
    while game.next_actor(state) == TABLE:
        state, _ = game.apply(state, table.resolve(state, game.table_op(state)))
    seat = game.next_actor(state)
    hidden = [s for s in range(len(state.cards.ids)) if not state.cards.knows(seat, s)]
    by_kind: dict[int, list[int]] = {}
    for slot in hidden:
        by_kind.setdefault(game.card_kind(state.cards.ids[slot]), []).append(slot)
    other = state.copy()
    other.cards = state.cards.copy()
    swapped = 0
    for slots in by_kind.values():  # rotate the hidden cards of each kind among their slots
        ids = [state.cards.ids[s] for s in slots]
        for slot, ident in zip(slots, ids[1:] + ids[:1]):
            other.cards.ids[slot] = ident
            swapped += ident != state.cards.ids[slot]
    assert swapped > 0
    a = IsmctsBot("peek", iterations=30).choose(game, game.view(state, seat), seat)
    b = IsmctsBot("peek", iterations=30).choose(game, game.view(other, seat), seat)
    assert a == b
