"""A view's masked registry is remembered and re-masked where it changed (state.masked and state.changed):
it must always equal ``Cards.masked`` of the state's registry, for every seat and the public view."""

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import TABLE, OpenTable
from lanterne.engines.pandoria import GAME


def _states(players: int, seed: str):
    state, table = GAME.setup(players=players), OpenTable(seed)
    bots = [RandomBot(f"{seed}/{i}") for i in range(players)]
    while not GAME.is_over(state):
        yield state
        actor = GAME.next_actor(state)
        if actor == TABLE:
            action = table.resolve(state, GAME.table_op(state))
        else:
            action = bots[actor].choose(GAME, GAME.view(state, actor), actor)
        state, _ = GAME.apply(state, action)


def test_views_equal_the_masked_registry_at_every_step():
    for players in (2, 4):
        for state in _states(players, f"memo/{players}"):
            for seat in (*range(players), None):
                view = GAME.view(state, seat).cards
                truth = state.cards.masked(seat)
                assert view.ids == truth.ids and view.seen == truth.seen


def test_a_view_does_not_change_when_the_state_moves_on():
    states = list(_states(2, "memo/keep"))
    views = [(GAME.view(s, 0).cards.ids[:], GAME.view(s, 0)) for s in states[::7]]
    for ids, view in views:
        assert view.cards.ids == ids
