"""Paying for a build: checking the cards a seat names, claiming and removing them; the abilities' uses.

Each check raises ``IllegalAction`` with one line, in the order the rules
have always checked (a log's refusals are part of its replay).
"""

from __future__ import annotations

from typing import Any, Callable

from lanterne.engines.core import Cards, IllegalAction, Words

from ..data import ABILITY_OF_COLOUR, COLOUR_OF_IDENT, DECK_SIZE, SITES, USES_PER_TILE, VARIANTS
from ..state import PagodeState
from .masks import remask
from .queries import EVERYONE, colour_words, pair, put


def check_phase(s: PagodeState, *phases: str) -> None:
    if s.phase not in phases:
        raise IllegalAction(f"not now: seat {s.current + 1} is in the {s.phase} phase")


def check_site(s: PagodeState, site: Any) -> int:
    if not isinstance(site, int) or isinstance(site, bool) or not 0 <= site < SITES:
        raise IllegalAction(f"there is no site {site!r} (sites 0..{SITES - 1})")
    return site


def check_colour(colour: Any, what: str = "colour") -> int:
    if not isinstance(colour, int) or isinstance(colour, bool) or not 0 <= colour < 5:
        raise IllegalAction(f"{what} {colour!r} is not a colour (0..4)")
    return colour


def take(s: PagodeState, cards: Any, events: list, kind: str = "play") -> list[int]:
    """Check that ``cards`` are distinct cards the current seat holds; claim and remove them.

    Returns their colours. ``kind`` 'play' puts them with the played cards,
    'discard' on the discard pile.
    """
    seat = s.current
    if type(cards) is not tuple:
        raise IllegalAction("cards must be a tuple of (slot, card) pairs")
    reserve, hand = s.reserves[seat], s.hands[seat]
    slots: list[int] = []
    colours = []
    from_reserve = from_hand = False
    registry = s.cards
    ids, seen, everyone = registry.ids, registry.seen, registry.everyone
    public = True
    for card in cards:
        if type(card) is not tuple or len(card) != 2:
            raise IllegalAction(f"a card must be (slot, card), not {card!r}")
        slot, ident = card
        if type(slot) is not int or type(ident) is not int:
            raise IllegalAction(f"a card must be (slot, card), not {card!r}")
        if not 0 <= ident < DECK_SIZE:
            raise IllegalAction(f"there is no card {ident}")
        if slot in slots:
            raise IllegalAction(f"slot {slot} is used twice")
        if slot in reserve:
            from_reserve = True
        elif slot in hand:
            from_hand = True
        else:
            raise IllegalAction(f"slot {slot} is not in seat {seat + 1}'s reserve or hand")
        if ids[slot] != ident or seen[slot] != everyone:
            public = False
        slots.append(slot)
        colours.append(COLOUR_OF_IDENT[ident])
    if slots:
        if not public:
            # Something becomes public (or is checked against the claim): copy, then claim.
            old = registry
            s.cards = registry = registry.copy()
            ids, seen = registry.ids, registry.seen
            for slot, ident in cards:
                if ids[slot] == ident:
                    seen[slot] = everyone  # what claim does when the identity is known
                else:
                    registry.claim(slot, ident, seat)
            s.masks = remask(s.masks, old, registry, tuple(slots))
        if from_reserve:
            s.reserves = pair(s.reserves, seat, tuple([x for x in reserve if x not in slots]))
        if from_hand:
            s.hands = pair(s.hands, seat, tuple([x for x in hand if x not in slots]))
        if kind == "play":
            s.played = s.played + tuple(slots)
        else:
            s.discard = s.discard + tuple(slots)
            for slot, ident in cards:
                events.append(("discard", seat, slot, ident))
    return colours


def take_one(s: PagodeState, card: Any, events: list, kind: str = "play") -> int:
    """``_take(s, (card,), events, kind)[0]``: the same checks and changes for one card, faster."""
    if type(card) is not tuple or len(card) != 2:
        raise IllegalAction(f"a card must be (slot, card), not {card!r}")
    slot, ident = card
    if type(slot) is not int or type(ident) is not int:
        raise IllegalAction(f"a card must be (slot, card), not {card!r}")
    if not 0 <= ident < DECK_SIZE:
        raise IllegalAction(f"there is no card {ident}")
    seat = s.current
    reserve = s.reserves[seat]
    if slot in reserve:  # a slot is in one place, once
        i = reserve.index(slot)
        reserve = reserve[:i] + reserve[i + 1:]
        s.reserves = (reserve, s.reserves[1]) if seat == 0 else (s.reserves[0], reserve)  # _pair, inlined
    else:
        hand = s.hands[seat]
        if slot not in hand:
            raise IllegalAction(f"slot {slot} is not in seat {seat + 1}'s reserve or hand")
        i = hand.index(slot)
        hand = hand[:i] + hand[i + 1:]
        s.hands = (hand, s.hands[1]) if seat == 0 else (s.hands[0], hand)  # _pair, inlined
    old = s.cards
    if old.ids[slot] != ident or old.seen[slot] != EVERYONE:
        if old.ids[slot] == ident:  # what claim does when the identity is known: the ids are shared
            seen = old.seen[:]
            seen[slot] = EVERYONE
            s.cards = registry = Cards(old.ids, seen, old.players)
        else:
            s.cards = registry = old.copy()
            registry.claim(slot, ident, seat)
        s.masks = remask(s.masks, old, registry, (slot,))
    if kind == "play":
        s.played = s.played + (slot,)
    else:
        s.discard = s.discard + (slot,)
        events.append(("discard", seat, slot, ident))
    return COLOUR_OF_IDENT[ident]


def use(s: PagodeState, ability: int, events: list) -> None:
    seat = s.current
    name = ABILITY_OF_COLOUR[ability]
    if not VARIANTS[s.variant].abilities:
        raise IllegalAction(f"no abilities in the {s.variant} game")
    if s.used >> ability & 1:
        raise IllegalAction(Words("the {ability} was already used this turn", ability=Words(name)))
    if s.uses[seat][ability] <= 0:
        raise IllegalAction(Words("{seat} has no use of the {ability} left", seat=Words("seat {n}", n=seat + 1),
                                  ability=Words(name)))
    left = s.uses[seat][ability] - 1
    s.uses = pair(s.uses, seat, put(s.uses[seat], ability, left))
    s.used |= 1 << ability
    events.append(("use", seat, name, left))


def gain(s: PagodeState, colour: int, events: list) -> None:
    if not VARIANTS[s.variant].abilities:
        return
    seat = s.current
    s.uses = pair(s.uses, seat, put(s.uses[seat], colour, USES_PER_TILE))
    events.append(("gain", seat, ABILITY_OF_COLOUR[colour], USES_PER_TILE))


def score(s: PagodeState, points: int, what: str, events: list) -> None:
    s.scores = pair(s.scores, s.current, s.scores[s.current] + points)
    events.append(("score", s.current, points, what))


def pay(s: PagodeState, cards: Any, colour: int, ability: int, what: Callable[[], str],
         events: list) -> None:
    """One card of ``colour``, or two of one colour with ``ability`` (Rice bowl, Buddha).

    ``what`` names the thing paid for in a refusal: a function, as its words cost more
    to make than the payment and are needed only to refuse it.
    """
    if type(cards) is not tuple:
        raise IllegalAction("cards must be a tuple of (slot, card) pairs")
    if len(cards) not in (1, 2):
        raise IllegalAction(Words("{what} takes one card, or two of one colour with the {ability}", what=what(),
                                  ability=Words(ABILITY_OF_COLOUR[ability])))
    if len(cards) == 1:
        paid = take_one(s, cards[0], events)
        if paid != colour:
            raise IllegalAction(Words("{what} needs a {colour} card, not {paid}", what=what(),
                                      colour=colour_words(colour), paid=colour_words(paid)))
    else:
        colours = take(s, cards, events)
        if colours[0] != colours[1]:
            raise IllegalAction(Words("the {ability} takes two cards of one colour",
                                      ability=Words(ABILITY_OF_COLOUR[ability])))
        use(s, ability, events)
