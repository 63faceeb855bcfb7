"""A typed move whose numbers are not 0-9 ("²": ``str.isdigit`` says yes, ``int`` refuses it) is a NotationError
in every game, never another error: the app's move line says a NotationError and goes on, another error
stopped the app. (Where a game reads a number with ``int`` alone, "٣" is 3, as ``int`` reads it.)"""

from __future__ import annotations

import pytest

from lanterne.engines.core import TABLE, NotationError, OpenTable, only_digits
from lanterne.engines.registry import get_game


def test_only_digits_takes_0_to_9_only():
    assert only_digits("0") and only_digits("0123456789")
    assert not any(only_digits(t) for t in ("", "\u00b2", "\u0663", "1\u00b2", "-1", "+1", " 1", "1.0", "\uff11"))


@pytest.mark.parametrize("game_id", ["pagode", "pueblo", "pacal", "pandoria"])
def test_a_move_with_other_digits_is_a_notation_error(game_id):
    game = get_game(game_id)
    state, table = game.setup(players=2), OpenTable(f"digits/{game_id}")
    tried = 0
    for _ in range(60):  # moves of the first turns, each digit of each written move swapped for others
        while game.next_actor(state) == TABLE:
            state, _ = game.apply(state, table.resolve(state, game.table_op(state)))
        if game.is_over(state):
            break
        seat = game.next_actor(state)
        actions = game.legal_actions(state, seat)
        for action in actions[:30]:
            text = game.format_action(state, action)
            for i, ch in enumerate(text):
                if "0" <= ch <= "9":
                    for other in ("\u00b2", "\u0663", "\uff11"):
                        try:
                            game.parse_action(state, text[:i] + other + text[i + 1:], seat)
                        except NotationError:
                            pass
                        tried += 1
        state, _ = game.apply(state, actions[0])
    assert tried > 100
