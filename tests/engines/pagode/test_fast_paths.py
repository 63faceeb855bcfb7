"""The fast paths of the Pagode engine agree with their plain references.

``test_same_games`` guards whole games; these compare each fast helper with
the simple code it replaced, on every position of a few random games.
"""

from __future__ import annotations

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import OpenTable, play_out
from lanterne.engines.pagode import GAME
from lanterne.engines.pagode import rules
from lanterne.engines.pagode.rules.payments import by_colour, free_options, free_singles


def _positions(games: int = 4) -> list:
    seen: list = []
    for g in range(games):
        bots = [RandomBot(f"fast/{g}/{i}") for i in range(2)]
        play_out(GAME, GAME.setup(), OpenTable(f"fast/{g}"), bots,
                 on_step=lambda state, action, events: seen.append(state))
    return seen


POSITIONS = _positions()


def test_complete_pagodas_counts_the_complete_mask() -> None:
    counts = [GAME.complete_pagodas(s) for s in POSITIONS]
    assert counts == [bin(GAME.complete_mask(s)).count("1") for s in POSITIONS]
    assert max(counts) >= 3  # the games do end with three pagodas


def test_discard_choices_are_the_lowest_slot_per_place_and_colour() -> None:
    for s in POSITIONS:
        for seat in (0, 1):
            pool = by_colour(s, seat)
            expected = [("discard", slots[0], s.cards.ids[slots[0]])
                        for src in (0, 1) for slots in pool[src] if slots]
            assert rules.discard_actions(s, seat) == expected


def test_free_singles_are_the_singles_of_free_options() -> None:
    for s in POSITIONS:
        for seat in (0, 1):
            args = (s.cards.ids, s.reserves[seat], s.hands[seat])
            assert free_singles(*args) == free_options(*args)[0]


def test_a_played_card_leaves_its_place_and_nothing_else() -> None:
    checked = 0
    for s in POSITIONS:
        if s.pending is not None or GAME.is_over(s) or s.phase != "play":
            continue
        seat = s.current
        for action in GAME.legal_actions(s, seat):
            if action[0] != "column" or len(action[3]) != 1:
                continue
            (slot, _), = action[3]
            after, _ = GAME.apply(s, action)
            held_after = after.reserves[seat] + after.hands[seat] + (slot,)
            assert sorted(held_after) == sorted(s.reserves[seat] + s.hands[seat])
            assert after.played == s.played + (slot,)
            assert after.reserves[1 - seat] == s.reserves[1 - seat] and after.hands[1 - seat] == s.hands[1 - seat]
            checked += 1
            break
    assert checked > 50
