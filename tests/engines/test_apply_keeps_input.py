"""``apply`` never changes its input, for every kind of move.

Some states share lists with the state they were copied from (copy-on-write
for speed: Pacal's pyramid lists, Pandoria's piles and per-hex lists), so a
rule that wrote to a shared list would change the position before the move.
Every action of a sample of legal actions is applied to each position of a
few random games, and the position must read the same afterwards.
"""

import pytest

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import TABLE, OpenTable
from lanterne.engines.registry import get_game

TABLES = [("pagode", 2, "standard"), ("pueblo", 4, "standard"), ("pueblo", 3, "dismantling"), ("pacal", 2, "standard"),
          ("pacal", 5, "standard"), ("pandoria", 2, "classic"), ("pandoria", 4, "classic")]
PER_POSITION = 25
"""Actions tried per position, spread over its legal actions."""


@pytest.mark.parametrize("game_id,players,variant", TABLES)
def test_no_action_changes_the_position_it_is_applied_to(game_id, players, variant):
    game = get_game(game_id)
    state, table = game.setup(players=players, variant=variant), OpenTable(f"keeps/{game_id}")
    bots = [RandomBot(f"keeps/{game_id}/{i}") for i in range(players)]
    tried, kinds = 0, set()
    while not game.is_over(state):
        actor = game.next_actor(state)
        if actor == TABLE:
            action = table.resolve(state, game.table_op(state))
        else:
            before = state.to_data()
            legal = game.legal_actions(state, actor)
            for other in legal[:: max(1, len(legal) // PER_POSITION)]:
                game.apply(state, other)
                tried += 1
                kinds.add(other[0])
            assert state.to_data() == before, f"{game_id}: a move changed the position it was applied to"
            action = bots[actor].choose(game, game.view(state, actor), actor)
        state, _ = game.apply(state, action)
    assert tried > 100
    if variant == "dismantling":
        assert "remove" in kinds  # the dismantling phase's removals were tried too
