"""The memoised views (engines/pagode/rules/masks.py) mask exactly as Cards.masked does."""

from __future__ import annotations

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import Cards, OpenTable, play_out
from lanterne.engines.pagode import GAME
from lanterne.engines.pagode.rules.masks import masked, view_cards


def _same(a: Cards, b: Cards) -> bool:
    return a.ids == b.ids and a.seen == b.seen and a.players == b.players


def test_every_view_of_random_games_masks_like_cards_masked() -> None:
    checked = 0
    for g in range(6):
        seats = (0, 1, None) if g % 2 else (None, 1)  # some entries never asked, some stale a long time

        def check(state, action, events) -> None:
            nonlocal checked
            for seat in seats:
                view = GAME.view(state, seat)
                assert _same(view.cards, state.cards.masked(seat)), (g, seat)
                checked += 1

        bots = [RandomBot(f"views/{g}/{i}") for i in range(2)]
        play_out(GAME, GAME.setup(), OpenTable(f"views/{g}"), bots, on_step=check)
    assert checked > 1000


def test_a_view_does_not_change_the_position() -> None:
    state = GAME.setup()
    table = OpenTable(3)
    while state.pending is not None:
        state, _ = GAME.apply(state, table.resolve(state, state.pending))
    before = GAME.save_position(state)
    for seat in (0, 1, None, 0):
        GAME.view(state, seat)
    assert GAME.save_position(state) == before


def test_masked_hides_what_the_seat_has_not_seen() -> None:
    cards = Cards([10, 11, 12, 13], [0b11, 0b01, 0b10, 0], 2)
    assert masked(cards, 0).ids == [10, 11, None, None]
    assert masked(cards, 1).ids == [10, None, 12, None]
    assert masked(cards, None).ids == [10, None, None, None]
    assert masked(cards, 0).seen == cards.seen and masked(cards, 0).seen is not cards.seen


def test_a_stale_entry_is_re_masked_on_its_changed_slots() -> None:
    old = Cards([10, 11, 12, 13], [0b11, 0b01, 0b10, 0], 2)
    mine, memo = view_cards(None, old, 1)
    new = old.copy()
    new.show((3,), (13,), 1)
    new.claim(1, 11, 0)
    memo = [new] + [None if e is None else (e[0], e[1] + (3, 1)) for e in memo[1:]]
    fresh, _ = view_cards(memo, new, 1)
    assert _same(fresh, new.masked(1))
    assert fresh.ids == [10, 11, 12, 13]
