"""The masked card registries of ``Game.view``, memoised and kept up to date cheaply.

Masking the 55 slots for a seat is the costliest part of a view. A state
keeps a memo ``[cards, seat 0, seat 1, public]`` of the masked registries of
its ``cards``; when ``apply`` changes a few slots it derives the new memo from
the old one: only those slots are re-masked, and only when a view asks for them.
The result is exactly ``Cards.masked``: the memo is never part of the position.
"""

from __future__ import annotations

from lanterne.engines.core import Cards

Memo = list
"""``[cards, seat 0, seat 1, public]``: each entry None (not asked yet) or ``(masked, stale)``,
the masked registry of an older ``cards`` and the slots changed since (re-masked when asked).

States that share a memo share its ``cards`` too (or ignore the memo), so an
entry brought up to date in place is right for every holder."""


def masked(cards: Cards, seat: int | None) -> Cards:
    """``cards.masked(seat)``, the same registry, built a little faster."""
    ids = cards.ids[:]
    seen = cards.seen
    everyone = cards.everyone
    if seat is None:
        for slot, mask in enumerate(seen):
            if mask != everyone:
                ids[slot] = None
    else:
        bit = 1 << seat
        for slot, mask in enumerate(seen):
            if not mask & bit:
                ids[slot] = None
    return Cards(ids, seen[:], cards.players)


def view_cards(memo: Memo | None, cards: Cards, seat: int | None) -> tuple[Cards, Memo]:
    """The registry ``seat`` sees, and the memo that now holds it."""
    index = 3 if seat is None else seat + 1
    if memo is None or memo[0] is not cards:
        memo = [cards, None, None, None]
    entry = memo[index]
    if entry is None:
        mine = masked(cards, seat)
    else:
        mine, stale = entry
        if not stale:
            return mine, memo
        mine = cards.remasked(mine, seat, stale)
    memo[index] = (mine, ())
    return mine, memo


def remask(memo: Memo | None, old: Cards, new: Cards, slots: tuple[int, ...]) -> Memo | None:
    """The memo of ``new``, a copy of ``old`` where only ``slots`` changed (None: nothing to reuse)."""
    if memo is None or memo[0] is not old:
        return None
    _, a, b, c = memo
    return [new, a if a is None else (a[0], a[1] + slots), b if b is None else (b[0], b[1] + slots),
            c if c is None else (c[0], c[1] + slots)]
