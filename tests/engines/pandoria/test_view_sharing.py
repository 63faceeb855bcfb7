"""Views share the full state's lists (speed), so no move may change a state in place."""

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import TABLE, OpenTable
from lanterne.engines.registry import get_game


def test_a_view_taken_before_a_whole_game_is_unchanged_after_it():
    game = get_game("pandoria")
    state, table, bots = game.setup(4), OpenTable("views"), [RandomBot(f"views/{i}") for i in range(4)]
    taken = []
    while not game.is_over(state):
        actor = game.next_actor(state)
        view = game.view(state, None if actor == TABLE else actor)
        taken.append((view, view.to_data(), state, state.to_data()))
        if actor == TABLE:
            action = table.resolve(state, game.table_op(state))
        else:
            action = bots[actor].choose(game, view, actor)
        state, _ = game.apply(state, action)
    assert len(taken) > 100
    for view, before, full, full_before in taken:
        assert view.to_data() == before
        assert full.to_data() == full_before
