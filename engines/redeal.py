"""The re-deal after a seat changes hands: the hands are re-dealt, same sizes, fresh cards.

Why: in a network game every card still face down is locked with every
seat's key. When a gone seat is taken over by a computer player, its key is
lost, so nothing hidden could ever be dealt or revealed again. The agreed
rule is therefore to deal every hidden card anew, through the fair table:

1. the *pool* is every card identity not in a public slot (a public
   multiset: all identities minus the public ones);
2. every hidden slot is laid face up with the pool, deck by deck
   (:meth:`Game.card_kind`: a hidden slot only ever holds a card of the
   kind its first card had), each deck's identities in increasing order
   into its hidden slots in slot order (:func:`lay_fresh`);
3. one SHUFFLE per deck hides them again (every current seat locks and
   shuffles, the computer included);
4. every hidden slot that exactly one seat knew before (its hand) is dealt
   face down to that seat again, one DEAL per seat in seat order (the
   computer gets the gone seat's); the other hidden slots stay hidden.

Only the card registry changes: the game's own state (hands and piles are
lists of slots) is untouched, so the hands keep their sizes. The functions
work the same on a full state and on any seat's view (they read only the
``seen`` masks and the public identities), which is how every peer computes
the same plan.
"""

from __future__ import annotations

from lanterne.engines.core import DEAL, SHUFFLE, Game, RulesError, State, TableOp, apply_outcome_to_cards

REDEAL_PILE = "redeal"
"""The ``pile`` name of the re-deal's table operations (they belong to no pile of the game)."""


def hidden_slots(state: State) -> list[int]:
    """Slots some seat does not know (not public), in slot order."""
    everyone = state.cards.everyone
    return [slot for slot, seen in enumerate(state.cards.seen) if seen != everyone]


def holders(state: State) -> dict[int, list[int]]:
    """Seat -> the hidden slots that seat alone knew (its hand), in slot order."""
    everyone = state.cards.everyone
    out: dict[int, list[int]] = {}
    for slot, seen in enumerate(state.cards.seen):
        if seen != everyone and seen and seen & (seen - 1) == 0:
            out.setdefault(seen.bit_length() - 1, []).append(slot)
    return dict(sorted(out.items()))


def pool(game: Game, state: State) -> list[int]:
    """The identities of the hidden slots, as a sorted public multiset (all minus the public ones)."""
    everyone = state.cards.everyone
    public = sorted(i for i, seen in zip(state.cards.ids, state.cards.seen) if seen == everyone)
    remaining = sorted(game.identities(state))
    for ident in public:
        try:
            remaining.remove(ident)
        except ValueError:
            raise RulesError(f"card {ident} is public twice or is not a card of {game.name}") from None
    return remaining


def decks(game: Game, state: State) -> dict[int, tuple[list[int], list[int]]]:
    """Kind -> (its hidden slots in slot order, its pool identities sorted); RulesError if they do not match."""
    first = game.identities(state)
    slots: dict[int, list[int]] = {}
    for slot in hidden_slots(state):
        slots.setdefault(game.card_kind(first[slot]), []).append(slot)
    idents: dict[int, list[int]] = {}
    for ident in pool(game, state):
        idents.setdefault(game.card_kind(ident), []).append(ident)
    out = {}
    for kind in sorted(set(slots) | set(idents)):
        s, i = slots.get(kind, []), idents.get(kind, [])
        if len(s) != len(i):
            raise RulesError(f"{game.name}: {len(s)} hidden slots but {len(i)} unseen cards of kind {kind}")
        out[kind] = (s, i)
    return out


def lay_fresh(game: Game, state: State) -> State:
    """A copy of ``state`` whose hidden slots hold the pool face up (the fresh decks before their shuffle)."""
    plan = decks(game, state)
    fresh = state.copy()
    fresh.cards = state.cards.copy()
    everyone = fresh.cards.everyone
    for slots, idents in plan.values():
        for slot, ident in zip(slots, idents):
            fresh.cards.ids[slot] = ident
            fresh.cards.seen[slot] = everyone
    return fresh


def redeal_ops(game: Game, state: State) -> list[TableOp]:
    """The table operations of the re-deal, from the state before it: one shuffle per deck, one deal per hand."""
    ops = [TableOp(SHUFFLE, pile=REDEAL_PILE, slots=tuple(slots), why=f"re-deal of deck {kind}")
           for kind, (slots, _) in decks(game, state).items() if slots]
    ops += [TableOp(DEAL, pile=REDEAL_PILE, slots=tuple(slots), to=seat, why="re-deal of a hand")
            for seat, slots in holders(state).items()]
    return ops


def apply_redeal(state: State, op: TableOp, outcome: tuple) -> State:
    """One re-deal outcome applied to the card registry of a copy of ``state`` (the game's state unchanged)."""
    out = state.copy()
    out.cards = state.cards.copy()
    apply_outcome_to_cards(out.cards, op, outcome)
    return out


def redeal(game: Game, state: State, outcomes: list[tuple], ops: list[TableOp] | None = None) -> State:
    """The whole re-deal on ``state`` (full or a view), given each op's outcome in order."""
    ops = redeal_ops(game, state) if ops is None else ops
    if len(outcomes) != len(ops):
        raise RulesError(f"the re-deal has {len(ops)} steps, got {len(outcomes)} outcomes")
    out = lay_fresh(game, state)
    for op, outcome in zip(ops, outcomes):
        out = apply_redeal(out, op, outcome)
    return out


__all__ = ["REDEAL_PILE", "hidden_slots", "holders", "pool", "decks", "lay_fresh", "redeal_ops", "apply_redeal",
           "redeal"]
