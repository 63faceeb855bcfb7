"""Pagode's rules: setup, legal actions, apply.

Actions (tuples; a card is ``(slot, ident)``, reserve or hand alike):

* ``("column", site, colour, cards)``: one card of ``colour``; two cards of one
  colour (Rice bowl); no card in a modified turn (its 4 discards paid).
* ``("tile", site, spots, cards)``: a tile on a full floor; its background is
  the floor's colour, ``spots`` picks which tile. One card of the background
  colour, or two of one colour (Buddha).
* ``("roof", site, spots, tile_cards, summit_cards)``: the last tile and its
  summit in one action. Summit: two cards of the summit colour, or one of it
  plus two of one colour (Rice bowl).
* ``("lantern",)``, ``("dragon",)`` then ``("discard", slot, ident)``... and
  ``("draw",)``; ``("modified",)`` then 4 discards and a cardless column;
  ``("end", fan)``: the draw phase, with the Fan or not.
* House rule: a seat that can build nothing at all (no column, tile, roof or
  modified turn) may discard cards and end its turn without a column.

``legal_actions`` lists one action per set of equivalent ones: for cards of
one colour from one place (reserve or hand), the lowest slots. ``apply``
accepts any card that fits the rules.

Speed: the paths a game runs most (play-phase legal actions, a one-card
column, a deal's outcome, views) are written out by hand with the same checks
in the same order as the general code. tests/engines/pagode/test_same_games.py
pins 100 random games byte for byte, so such rewrites cannot change a game.
"""

from __future__ import annotations

from typing import Any, Callable

from lanterne.engines.core import (DEAL, ROLL, SHUFFLE, TABLE, Cards, Game, IllegalAction, RulesError, TableOp,
                                  Words, apply_outcome_to_cards)

from .data import (ABILITY_OF_COLOUR, BUDDHA, CARDS_PER_COLOUR, COLOUR_OF_IDENT, COLOURS, COLUMN_LIMIT,
                   DECK_SIZE, DRAGON, FAN, FAN_HAND_SIZE, FLOOR_COLUMNS, HAND_LIMIT, HAND_SIZE, LANTERN,
                   LANTERN_COLUMN_LIMIT, MODIFIED_DISCARDS, PAGODAS_TO_END, RESERVE_SIZE, RICE_BOWL, SITES,
                   TILE_POINTS, TILES, USES_PER_TILE, VARIANTS)
from .actions import Dragon, Draw, Lantern, Modified, Roof, read
from .payments import by_colour, free_options, free_singles, summits
from .state import PagodeState
from .views import remask, view_cards

NO_USES = (0, 0, 0, 0, 0)
ALL_TILES = (1 << len(TILES)) - 1
EVERYONE = 0b11
"""The ``seen`` mask of a public slot: Pagode's registry always has two seats."""
FLOORS = {name: variant.floors for name, variant in VARIANTS.items()}
"""``VARIANTS[name].floors`` by the variant's name, one look-up (the hot paths ask it every step)."""
LANTERN_BIT, BUDDHA_BIT, RICE_BOWL_BIT = 1 << LANTERN, 1 << BUDDHA, 1 << RICE_BOWL
"""Bits of ``state.used`` (abilities used this turn)."""
SPOTS = tuple(tuple(f for f in range(5) if bits >> f & 1) for bits in range(32))
"""The spot colours of the tiles left of one background, by its 5 bits of ``tiles_left``."""



def _colour(colour: int) -> Words:
    """A colour in a refusal: a term a client says in its language (French agrees it with its noun)."""
    return Words.term("pagode colour", COLOURS[colour])

class PagodeRules(Game):
    """The rules as the contract's methods; :class:`engines.pagode.game.Pagode` adds its name and notation."""

    # ------------------------------------------------------------------ setup

    def setup(self, players: int = 2, variant: str = "standard", **options: Any) -> PagodeState:
        self.check_options(players, variant)
        if options:
            raise RulesError(f"Pagode has no option {', '.join(sorted(options))}")
        s = PagodeState.__new__(PagodeState)
        s.variant = variant
        s.cards = Cards.new(range(DECK_SIZE), 2)
        # Each reserve takes one card of each colour; the other 45 form the draw pile.
        reserves = [tuple(c * CARDS_PER_COLOUR + seat for c in range(5)) for seat in range(2)]
        s.reserves = tuple(reserves)
        in_reserves = set(reserves[0]) | set(reserves[1])
        s.draw = tuple(i for i in range(DECK_SIZE) if i not in in_reserves)
        s.hands = ((), ())
        s.discard = ()
        s.played = ()
        s.pending = TableOp(ROLL, faces=2, why="first player")
        s.phase = "setup"
        s.first = None
        s.current = 0
        s.turn = 0
        s.scores = (0, 0)
        s.uses = (NO_USES, NO_USES)
        s.site_tiles = ((),) * SITES
        s.site_cols = (0,) * SITES
        s.site_colour = (None,) * SITES
        s.tiles_left = ALL_TILES
        s.columns = 0
        s.acted = False
        s.used = 0
        s.mod_left = 0
        s.mark = (0, 0)
        s.refill = ()
        s.after = "start"
        s.masks = None
        return s

    def load(self, data: dict) -> PagodeState:
        return PagodeState.from_data(data)

    # ------------------------------------------------------------------ who acts

    def next_actor(self, state: PagodeState) -> int:
        return TABLE if state.pending is not None else state.current

    def is_over(self, state: PagodeState) -> bool:
        return state.phase == "over"

    def scores(self, state: PagodeState) -> list[int]:
        return list(state.scores)

    def view(self, state: PagodeState, seat: int | None) -> PagodeState:
        v = state.clone()
        v.cards, memo = view_cards(state.masks, state.cards, seat)
        if memo is not state.masks:
            state.masks = v.masks = memo  # a memo only: the position is unchanged
        return v

    # ------------------------------------------------------------------ queries

    def floors(self, state: PagodeState) -> int:
        return VARIANTS[state.variant].floors

    def column_limit(self, state: PagodeState) -> int:
        return LANTERN_COLUMN_LIMIT if state.used >> LANTERN & 1 else COLUMN_LIMIT

    def can_use(self, state: PagodeState, seat: int, ability: int) -> bool:
        """The seat has a use of ``ability`` left and has not used it this turn."""
        return state.uses[seat][ability] > 0 and not state.used >> ability & 1

    def is_complete(self, state: PagodeState, site: int) -> bool:
        """Roofed, or its full floor needs a tile colour that is exhausted (counts as complete)."""
        tiles = state.site_tiles[site]
        if len(tiles) == VARIANTS[state.variant].floors:
            return True
        if state.site_cols[site] < FLOOR_COLUMNS:
            return False
        return not (state.tiles_left >> (state.site_colour[site] * 5)) & 0b11111

    def complete_pagodas(self, state: PagodeState) -> int:
        """How many sites count as complete (the bits of ``complete_mask``, counted directly)."""
        floors = VARIANTS[state.variant].floors
        left = state.tiles_left
        n = 0
        for tiles, cols, colour in zip(state.site_tiles, state.site_cols, state.site_colour):
            if len(tiles) == floors or (cols == FLOOR_COLUMNS and not (left >> (colour * 5)) & 0b11111):
                n += 1
        return n

    def column_colours(self, state: PagodeState, site: int) -> tuple[int, ...]:
        """Colours a column on ``site`` may have now (empty if the site takes no column)."""
        if state.site_cols[site] >= FLOOR_COLUMNS or len(state.site_tiles[site]) == self.floors(state):
            return ()
        colour = state.site_colour[site]
        return (0, 1, 2, 3, 4) if colour is None else (colour,)

    def floor_of(self, state: PagodeState, site: int) -> int:
        """The floor (1..) where the next column on ``site`` goes: also its points."""
        return len(state.site_tiles[site]) + 1

    def tile_spots_left(self, state: PagodeState, background: int) -> list[int]:
        bits = state.tiles_left >> (background * 5)
        return [f for f in range(5) if bits >> f & 1]

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, state: PagodeState, seat: int) -> list[tuple]:
        if state.pending is not None or seat != state.current:
            return []
        phase = state.phase
        if phase == "play":
            return self._play_actions(state, seat)
        if phase == "dragon":
            return self._discard_actions(state, seat) + [("draw",)]
        if phase == "modified":
            return self._discard_actions(state, seat)
        if phase == "modified column":
            return [("column", site, colour, ()) for site in range(SITES)
                    for colour in self.column_colours(state, site)]
        if phase == "modified end":
            return self._end_actions(state, seat)
        return []

    def _end_actions(self, state: PagodeState, seat: int) -> list[tuple]:
        out = [("end", False)]
        if VARIANTS[state.variant].abilities and self.can_use(state, seat, FAN):
            out.append(("end", True))
        return out

    def _discard_actions(self, state: PagodeState, seat: int) -> list[tuple]:
        """Per place (reserve, then hand) and colour, the lowest known card (places are sorted)."""
        ids = state.cards.ids
        out: list[tuple] = []
        for place in (state.reserves[seat], state.hands[seat]):
            firsts: list = [None] * 5
            for slot in place:
                ident = ids[slot]
                if ident is not None and firsts[COLOUR_OF_IDENT[ident]] is None:
                    firsts[COLOUR_OF_IDENT[ident]] = ("discard", slot, ident)
            out += filter(None, firsts)  # the colours this place holds
        return out

    def _play_actions(self, state: PagodeState, seat: int) -> list[tuple]:
        ids = state.cards.ids
        variant = VARIANTS[state.variant]
        abilities = variant.abilities
        floors = variant.floors
        uses = state.uses[seat]
        used = state.used
        reserve, hand = state.reserves[seat], state.hands[seat]
        rice = abilities and uses[RICE_BOWL] > 0 and not used & RICE_BOWL_BIT
        buddha = abilities and uses[BUDDHA] > 0 and not used & BUDDHA_BIT
        if rice or buddha:
            singles, pairs = free_options(ids, reserve, hand)
        else:
            singles, pairs = free_singles(ids, reserve, hand), []
        room = state.columns < (LANTERN_COLUMN_LIMIT if used & LANTERN_BIT else COLUMN_LIMIT)
        pool = None
        out: list[tuple] = []
        append = out.append
        any_spot = False
        tiles_left = state.tiles_left
        flat = None  # (colour, cards) of every column an empty site takes, in colour order
        site_cols, site_colour = state.site_cols, state.site_colour
        site = -1
        for tiles in state.site_tiles:
            site += 1
            height = len(tiles)
            if height == floors:
                continue
            colour = site_colour[site]
            if site_cols[site] < FLOOR_COLUMNS:
                any_spot = True
                if not room:
                    continue
                if colour is None:
                    if flat is None:
                        if rice:
                            flat = [(c, cards) for c in range(5) for cards in singles[c] + pairs]
                        else:
                            flat = [(c, cards) for c in range(5) for cards in singles[c]]
                    out += [("column", site, c, cards) for c, cards in flat]
                else:
                    for cards in singles[colour]:
                        append(("column", site, colour, cards))
                    if rice:
                        for cards in pairs:
                            append(("column", site, colour, cards))
                continue
            bits = tiles_left >> (colour * 5) & 0b11111
            if not bits:
                continue
            spots = SPOTS[bits]
            payments = singles[colour] + pairs if buddha else singles[colour]
            if height < floors - 1:
                for f in spots:
                    for cards in payments:
                        append(("tile", site, f, cards))
            elif room:
                rice_after = abilities and not used >> RICE_BOWL & 1 and (colour == RICE_BOWL or uses[RICE_BOWL] > 0)
                if pool is None:
                    pool = by_colour(state, seat)
                for cards in payments:
                    taken = tuple(slot for slot, _ in cards)
                    for f in spots:
                        summit = TILES[colour * 5 + f][2]
                        for scards in summits(pool, ids, summit, taken, rice_after):
                            append(("roof", site, f, cards, scards))
        can_build = bool(out)
        if abilities:
            if uses[LANTERN] > 0 and not used >> LANTERN & 1:
                append(("lantern",))
            if not state.acted and uses[DRAGON] > 0 and not used >> DRAGON & 1:
                append(("dragon",))
        can_modify = (not state.acted and any_spot and not used & LANTERN_BIT
                      and len(reserve) + len(hand) >= MODIFIED_DISCARDS)
        if can_modify:
            append(("modified",))
        if state.columns:
            append(("end", False))  # _end_actions, inlined
            if abilities and uses[FAN] > 0 and not used >> FAN & 1:
                append(("end", True))
        elif not can_modify and not can_build:
            # House rule: nothing can be built at all, so the seat may discard and pass.
            out += self._discard_actions(state, seat)
            out += self._end_actions(state, seat)
        return out

    def is_stuck(self, state: PagodeState, seat: int) -> bool:
        """House rule: no column, tile, roof or modified turn can be built now (and none yet this turn)."""
        if state.phase != "play" or state.columns:
            return False
        return not any(a[0] in ("column", "tile", "roof", "modified") for a in self._play_actions(state, seat))

    # ------------------------------------------------------------------ apply

    def apply(self, state: PagodeState, action: tuple) -> tuple[PagodeState, list[tuple]]:
        op = state.pending
        if op is not None:
            if op.kind == DEAL and type(action) is tuple and action and action[0] == DEAL:
                return self._apply_deal(state, op, action)  # what _apply_outcome would do, one call less
            return self._apply_outcome(state, action)
        if state.phase == "over":
            raise IllegalAction("the game is over")
        if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
            raise IllegalAction(f"not an action: {action!r}")
        handler = _HANDLERS.get(action[0])
        if handler is None:
            raise IllegalAction(f"unknown action {action[0]!r}")
        s = state.clone()
        events: list[tuple] = []
        handler(self, s, action, events)
        return s, events

    def complete_mask(self, state: PagodeState) -> int:
        """Bit i set: site i counts as complete (roofed, or stopped by an exhausted tile colour)."""
        return self._complete_mask(state)

    def _complete_mask(self, state: PagodeState) -> int:
        floors = VARIANTS[state.variant].floors
        left = state.tiles_left
        mask = 0
        for i, (tiles, cols, colour) in enumerate(zip(state.site_tiles, state.site_cols, state.site_colour)):
            if len(tiles) == floors or (cols == FLOOR_COLUMNS and not (left >> (colour * 5)) & 0b11111):
                mask |= 1 << i
        return mask

    # -- helpers for handlers

    def _phase(self, s: PagodeState, *phases: str) -> None:
        if s.phase not in phases:
            raise IllegalAction(f"not now: seat {s.current + 1} is in the {s.phase} phase")

    def _take(self, s: PagodeState, cards: Any, events: list, kind: str = "play") -> list[int]:
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
                s.reserves = _pair(s.reserves, seat, tuple([x for x in reserve if x not in slots]))
            if from_hand:
                s.hands = _pair(s.hands, seat, tuple([x for x in hand if x not in slots]))
            if kind == "play":
                s.played = s.played + tuple(slots)
            else:
                s.discard = s.discard + tuple(slots)
                for slot, ident in cards:
                    events.append(("discard", seat, slot, ident))
        return colours

    def _take_one(self, s: PagodeState, card: Any, events: list, kind: str = "play") -> int:
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

    def _use(self, s: PagodeState, ability: int, events: list) -> None:
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
        s.uses = _pair(s.uses, seat, _put(s.uses[seat], ability, left))
        s.used |= 1 << ability
        events.append(("use", seat, name, left))

    def _gain(self, s: PagodeState, colour: int, events: list) -> None:
        if not VARIANTS[s.variant].abilities:
            return
        seat = s.current
        s.uses = _pair(s.uses, seat, _put(s.uses[seat], colour, USES_PER_TILE))
        events.append(("gain", seat, ABILITY_OF_COLOUR[colour], USES_PER_TILE))

    def _score(self, s: PagodeState, points: int, what: str, events: list) -> None:
        s.scores = _pair(s.scores, s.current, s.scores[s.current] + points)
        events.append(("score", s.current, points, what))

    def _site(self, s: PagodeState, site: Any) -> int:
        if not isinstance(site, int) or isinstance(site, bool) or not 0 <= site < SITES:
            raise IllegalAction(f"there is no site {site!r} (sites 0..{SITES - 1})")
        return site

    def _colour(self, colour: Any, what: str = "colour") -> int:
        if not isinstance(colour, int) or isinstance(colour, bool) or not 0 <= colour < 5:
            raise IllegalAction(f"{what} {colour!r} is not a colour (0..4)")
        return colour

    def _pay(self, s: PagodeState, cards: Any, colour: int, ability: int, what: Callable[[], str],
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
            paid = self._take_one(s, cards[0], events)
            if paid != colour:
                raise IllegalAction(Words("{what} needs a {colour} card, not {paid}", what=what(),
                                          colour=_colour(colour), paid=_colour(paid)))
        else:
            colours = self._take(s, cards, events)
            if colours[0] != colours[1]:
                raise IllegalAction(Words("the {ability} takes two cards of one colour",
                                          ability=Words(ABILITY_OF_COLOUR[ability])))
            self._use(s, ability, events)

    # -- handlers

    def _do_column(self, s: PagodeState, action: tuple, events: list) -> None:
        try:
            _, site, colour, cards = action  # a Column: read() without building the record (the commonest action)
        except ValueError:
            raise IllegalAction("a column is (column, site, colour, cards)") from None
        if type(site) is not int or not 0 <= site < SITES:
            site = self._site(s, site)  # raises (or takes an int of a subclass)
        if type(colour) is not int or not 0 <= colour < 5:
            colour = self._colour(colour)  # raises (or takes an int of a subclass)
        phase = s.phase
        if phase != "play" and phase != "modified column":
            raise IllegalAction(f"not now: seat {s.current + 1} is in the {phase} phase")
        # colour must be one of column_colours(s, site)
        floor_colour = s.site_colour[site]
        cols = s.site_cols[site]
        floor = len(s.site_tiles[site]) + 1  # floor_of: also the column's points
        if cols >= FLOOR_COLUMNS or floor > FLOORS[s.variant] or (floor_colour is not None
                                                                   and floor_colour != colour):
            raise IllegalAction(self._why_no_column(s, site, colour))
        if phase == "modified column":
            if cards != ():
                raise IllegalAction(Words("the column of a modified turn takes no card (the 4 discards paid it)"))
            s.phase = "modified end"
        else:
            limit = LANTERN_COLUMN_LIMIT if s.used >> LANTERN & 1 else COLUMN_LIMIT
            if s.columns >= limit:
                raise IllegalAction(Words("the limit of {n} columns this turn is reached", n=limit))
            if type(cards) is tuple and len(cards) == 1:
                # _pay with one card, inlined (the common case)
                paid = self._take_one(s, cards[0], events)
                if paid != colour:
                    raise IllegalAction(Words("{what} needs a {colour} card, not {paid}",
                                              what=Words("a {colour} column", colour=_colour(colour)),
                                              colour=_colour(colour), paid=_colour(paid)))
            else:
                self._pay(s, cards, colour, RICE_BOWL, lambda: Words("a {colour} column", colour=_colour(colour)),
                          events)
        self._build_column(s, site, colour, floor, cols + 1, floor_colour, events)

    def _why_no_column(self, s: PagodeState, site: int, colour: int) -> str:
        if len(s.site_tiles[site]) == self.floors(s):
            return Words("site {site} has its roof", site=site + 1)
        if s.site_cols[site] >= FLOOR_COLUMNS:
            return Words("site {site}'s floor is full: it needs a tile", site=site + 1)
        return Words("site {site} takes {colour} columns, not {other}", site=site + 1,
                     colour=_colour(s.site_colour[site]), other=_colour(colour))

    def _build_column(self, s: PagodeState, site: int, colour: int, floor: int, cols: int, floor_colour: int | None,
                      events: list) -> None:
        """The column on ``floor`` (its points), the ``cols``-th of the floor, whose colour was ``floor_colour``."""
        s.site_cols = _put(s.site_cols, site, cols)
        if floor_colour != colour:  # the first column of a floor sets its colour
            s.site_colour = _put(s.site_colour, site, colour)
        s.columns += 1
        s.acted = True
        seat = s.current
        events.append(("column", seat, site, colour, floor))
        scores = s.scores
        s.scores = (scores[0] + floor, scores[1]) if seat == 0 else (scores[0], scores[1] + floor)  # _score, inlined
        events.append(("score", seat, floor, "column"))
        if cols == FLOOR_COLUMNS and not (s.tiles_left >> (colour * 5)) & 0b11111:
            events.append(("complete", site, "exhausted"))

    def _tile_checks(self, s: PagodeState, site: int, spots: Any) -> int:
        if len(s.site_tiles[site]) == self.floors(s):
            raise IllegalAction(Words("site {site} has its roof", site=site + 1))
        if s.site_cols[site] < FLOOR_COLUMNS:
            raise IllegalAction(Words("site {site}'s floor has {n} columns: a tile needs 4", site=site + 1,
                                      n=s.site_cols[site]))
        background = s.site_colour[site]
        spots = self._colour(spots, "spot colour")
        tile = background * 5 + spots
        if not s.tiles_left >> tile & 1:
            raise IllegalAction(Words("no {colour} tile with {spots} spots is left", colour=_colour(background),
                                      spots=_colour(spots)))
        return tile

    def _place_tile(self, s: PagodeState, site: int, tile: int, events: list, roof: bool) -> None:
        background, spots, _ = TILES[tile]
        s.tiles_left &= ~(1 << tile)
        s.site_tiles = _put(s.site_tiles, site, s.site_tiles[site] + (tile,))
        s.acted = True
        if not roof:
            s.site_cols = _put(s.site_cols, site, 0)
            s.site_colour = _put(s.site_colour, site, spots)
        events.append(("roof" if roof else "tile", s.current, site, tile))
        self._score(s, TILE_POINTS, "tile", events)
        self._gain(s, background, events)
        if not (s.tiles_left >> (background * 5)) & 0b11111:
            # The last tile of its colour: pagodas waiting for one stop here.
            for other in range(SITES):
                if (other != site and s.site_cols[other] == FLOOR_COLUMNS and s.site_colour[other] == background
                        and len(s.site_tiles[other]) < self.floors(s)):
                    events.append(("complete", other, "exhausted"))

    def _do_tile(self, s: PagodeState, action: tuple, events: list) -> None:
        try:
            _, site, spots, cards = action  # a Tile, as in _do_column
        except ValueError:
            raise IllegalAction("a tile is (tile, site, spots, cards)") from None
        site = self._site(s, site)
        self._phase(s, "play")
        tile = self._tile_checks(s, site, spots)
        if len(s.site_tiles[site]) == self.floors(s) - 1:
            raise IllegalAction(Words("site {site}'s last tile is its roof: build it with its summit", site=site + 1))
        background = TILES[tile][0]
        self._pay(s, cards, background, BUDDHA, lambda: Words("a {colour} tile", colour=_colour(background)), events)
        self._place_tile(s, site, tile, events, roof=False)

    def _do_roof(self, s: PagodeState, action: tuple, events: list) -> None:
        _, site, spots, tile_cards, summit_cards = read(
            Roof, action, "a roof is (roof, site, spots, tile cards, summit cards)")
        site = self._site(s, site)
        self._phase(s, "play")
        tile = self._tile_checks(s, site, spots)
        if len(s.site_tiles[site]) != self.floors(s) - 1:
            raise IllegalAction(Words("site {site} is not ready for its roof (floor {floor})", site=site + 1,
                                      floor=self.floor_of(s, site)))
        if s.columns >= self.column_limit(s):
            raise IllegalAction(Words("the limit of {n} columns this turn is reached (a summit counts as one)",
                                      n=self.column_limit(s)))
        background, _, summit = TILES[tile]
        self._pay(s, tile_cards, background, BUDDHA,
                  lambda: Words("a {colour} roof tile", colour=_colour(background)), events)
        self._place_tile(s, site, tile, events, roof=True)
        if not isinstance(summit_cards, tuple) or len(summit_cards) not in (2, 3):
            raise IllegalAction(Words("a summit takes two cards, or one plus two of one colour with the rice bowl"))
        colours = self._take(s, summit_cards, events)
        if len(colours) == 2:
            if colours != [summit, summit]:
                raise IllegalAction(Words("the summit is {colour}: it needs {colour} cards", colour=_colour(summit)))
        else:
            # One column of the summit colour; the other paid by two cards of one colour (Rice bowl).
            if not any(colours[i] == summit and colours[i - 1] == colours[i - 2] for i in range(3)):
                raise IllegalAction(Words("the summit is {colour}: one {colour} card, and two cards of one colour with "
                                          "the rice bowl", colour=_colour(summit)))
            self._use(s, RICE_BOWL, events)
        s.columns += 1
        events.append(("summit", s.current, site, summit))
        self._score(s, VARIANTS[s.variant].summit_points, "summit", events)
        events.append(("complete", site, "roof"))

    def _do_lantern(self, s: PagodeState, action: tuple, events: list) -> None:
        read(Lantern, action, "the lantern is (lantern,)")
        self._phase(s, "play")
        self._use(s, LANTERN, events)

    def _do_dragon(self, s: PagodeState, action: tuple, events: list) -> None:
        read(Dragon, action, "the dragon is (dragon,)")
        self._phase(s, "play")
        if s.acted:
            raise IllegalAction(Words("the dragon only before the turn's first action"))
        self._use(s, DRAGON, events)
        seat = s.current
        s.mark = (len(s.reserves[seat]), len(s.hands[seat]))
        s.phase = "dragon"

    def _do_discard(self, s: PagodeState, action: tuple, events: list) -> None:
        try:
            _, slot, ident = action  # a Discard, as in _do_column
        except ValueError:
            raise IllegalAction("a discard is (discard, slot, card)") from None
        if s.phase == "play":
            if not self.is_stuck(s, s.current):
                raise IllegalAction(Words("discards only under the dragon, in a modified turn, or when nothing can be "
                                          "built"))
            s.acted = True
        else:
            self._phase(s, "dragon", "modified")
        self._take_one(s, (slot, ident), events, kind="discard")
        if s.phase == "modified":
            s.mod_left -= 1
            if s.mod_left == 0:
                s.phase = "modified column"

    def _do_draw(self, s: PagodeState, action: tuple, events: list) -> None:
        read(Draw, action, "the dragon's draw is (draw,)")
        self._phase(s, "dragon")
        seat = s.current
        rsize, hsize = s.mark
        s.refill = ((seat, "reserve", rsize - len(s.reserves[seat])), (seat, "hand", hsize - len(s.hands[seat])))
        s.after = "play"
        s.phase = "draw"
        self._next_deal(s, events)

    def _do_modified(self, s: PagodeState, action: tuple, events: list) -> None:
        read(Modified, action, "a modified turn is (modified,)")
        self._phase(s, "play")
        seat = s.current
        if s.acted:
            raise IllegalAction(Words("a modified turn cannot follow a normal turn's action"))
        if s.used >> LANTERN & 1:
            raise IllegalAction(Words("a modified turn allows only the fan and the dragon, and the lantern was used"))
        if len(s.reserves[seat]) + len(s.hands[seat]) < MODIFIED_DISCARDS:
            raise IllegalAction(Words("a modified turn needs {n} cards to discard", n=MODIFIED_DISCARDS))
        if not any(self.column_colours(s, site) for site in range(SITES)):
            raise IllegalAction(Words("a modified turn needs a site that takes a column"))
        s.acted = True
        s.phase = "modified"
        s.mod_left = MODIFIED_DISCARDS
        events.append(("modified", seat))

    def _do_end(self, s: PagodeState, action: tuple, events: list) -> None:
        if len(action) != 2 or not isinstance(action[1], bool):  # an End, as in _do_column
            raise IllegalAction("the end of a turn is (end, fan) with fan true or false")
        fan = action[1]
        seat = s.current
        phase = s.phase
        if phase != "play" and phase != "modified end":
            raise IllegalAction(f"not now: seat {seat + 1} is in the {phase} phase")
        if phase == "play" and not s.columns and not self.is_stuck(s, seat):
            raise IllegalAction(Words("a turn must build at least 1 column"))
        if fan:
            self._use(s, FAN, events)
        s.discard = s.discard + s.played
        s.played = ()
        s.turn += 1
        events.append(("end", seat))
        if seat != s.first and self.complete_pagodas(s) >= PAGODAS_TO_END:
            s.phase = "over"
            events.append(("over", tuple(s.scores), tuple(self.winners(s))))
            return
        target = FAN_HAND_SIZE if fan else HAND_SIZE
        hand_need = max(0, min(target, HAND_LIMIT) - len(s.hands[seat]))
        s.refill = ((seat, "reserve", RESERVE_SIZE - len(s.reserves[seat])), (seat, "hand", hand_need))
        s.after = "next"
        s.phase = "draw"
        self._next_deal(s, events)

    # -- the table

    def _next_deal(self, s: PagodeState, events: list) -> None:
        """Set the next table operation of the refill, or go on with play."""
        refill = s.refill
        while refill:
            seat, place, count = refill[0]
            if count <= 0:
                s.refill = refill = refill[1:]
                continue
            draw = s.draw
            if not draw:
                if s.discard:
                    s.pending = TableOp(SHUFFLE, "discard", s.discard, None, 0, "reshuffle")
                    return
                events.append(("no cards", seat, place, count))
                s.refill = ()
                break
            # Positional arguments: a dataclass is slower to build with keywords (a quarter of the steps are deals).
            if place == "reserve":
                s.pending = TableOp(DEAL, "draw", draw[:count], None, 0, _RESERVE_WHY[seat])
            else:
                s.pending = TableOp(DEAL, "draw", draw[:count], seat, 0, _HAND_WHY[seat])
            return
        s.pending = None
        after = s.after
        if after == "play":
            s.phase = "play"
            return
        if after == "next":
            s.current = 1 - s.current
        # the start of a turn
        s.phase = "play"
        s.columns = 0
        s.acted = False
        s.used = 0
        s.mod_left = 0
        s.mark = (0, 0)
        events.append(("turn", s.current))

    def _apply_outcome(self, state: PagodeState, outcome: Any) -> tuple[PagodeState, list[tuple]]:
        op = state.pending
        if not isinstance(outcome, tuple) or not outcome or outcome[0] != op.kind:
            got = outcome[0] if isinstance(outcome, tuple) and outcome else outcome
            raise IllegalAction(f"the table must {op.kind}, got {got!r}")
        if op.kind == DEAL:
            return self._apply_deal(state, op, outcome)
        s = state.clone()
        if op.kind != ROLL:
            if len(outcome) != 2 or not isinstance(outcome[1], tuple):
                raise IllegalAction(f"a {op.kind} outcome is ({op.kind}, identities)")
            for ident in outcome[1]:
                if ident is not None and (type(ident) is not int or not 0 <= ident < DECK_SIZE):
                    raise IllegalAction(f"there is no card {ident!r}")
            s.cards = state.cards.copy()
        apply_outcome_to_cards(s.cards, op, outcome)
        if op.kind != ROLL:
            s.masks = remask(state.masks, state.cards, s.cards, op.slots)
        s.pending = None
        events: list[tuple] = []
        if op.kind == ROLL:
            if isinstance(outcome[1], bool):
                raise IllegalAction("a roll is a number")
            s.first = s.current = outcome[1]
            events.append(("first", s.first))
            s.pending = TableOp(SHUFFLE, "draw", s.draw, None, 0, "draw pile")
            return s, events
        if op.kind == SHUFFLE:
            if op.pile == "discard":
                s.draw = op.slots
                s.discard = ()
                events.append(("reshuffle", len(op.slots)))
            else:
                s.draw = op.slots
                first = s.first
                s.refill = ((first, "hand", HAND_SIZE), (1 - first, "hand", HAND_SIZE))
                s.after = "start"
            self._next_deal(s, events)
            return s, events
        raise IllegalAction(f"unknown table operation {op.kind}")

    def _apply_deal(self, state: PagodeState, op: TableOp, outcome: tuple) -> tuple[PagodeState, list[tuple]]:
        """A deal's outcome: the commonest table step, so written out in one piece.

        The checks and their messages are those of ``_apply_outcome`` and
        ``apply_outcome_to_cards`` (Cards.show), in the same order.
        """
        s = state.clone()
        if len(outcome) != 2 or not isinstance(outcome[1], tuple):
            raise IllegalAction(f"a {op.kind} outcome is ({op.kind}, identities)")
        dealt = outcome[1]
        for ident in dealt:
            if ident is not None and (type(ident) is not int or not 0 <= ident < DECK_SIZE):
                raise IllegalAction(f"there is no card {ident!r}")
        slots = op.slots
        k = len(slots)
        if len(dealt) != k:
            raise IllegalAction(f"{op.kind} of {k} cards got {len(dealt)} identities")
        old = state.cards
        ids = old.ids  # copied only if an identity is learnt: the full state already knows every dealt card
        seen = old.seen[:]
        mask = EVERYONE if op.to is None else 1 << op.to
        for slot, ident in zip(slots, dealt):
            if ident is not None:
                known = ids[slot]
                if known != ident:
                    if known is not None:
                        raise IllegalAction(f"slot {slot} is card {known}, not card {ident}")
                    if ids is old.ids:
                        ids = ids[:]
                    ids[slot] = ident
            seen[slot] |= mask
        s.cards = registry = Cards(ids, seen, old.players)
        s.masks = remask(state.masks, old, registry, slots)
        s.pending = None
        refill = s.refill
        seat, place, count = refill[0]
        s.draw = s.draw[k:]
        if place == "reserve":
            s.reserves = _pair(s.reserves, seat, tuple(sorted(s.reserves[seat] + slots)))
        else:
            s.hands = _pair(s.hands, seat, tuple(sorted(s.hands[seat] + slots)))
        # a refill entry dealt in full is dropped here rather than by _next_deal
        s.refill = refill[1:] if count == k else ((seat, place, count - k),) + refill[1:]
        events = [("drew", seat, place, k)]
        self._next_deal(s, events)
        return s, events


_RESERVE_WHY = ("reserve 0", "reserve 1")
_HAND_WHY = ("hand 0", "hand 1")
"""The ``why`` of a deal to a seat's reserve (face up) or hand (face down)."""
_HANDLERS = {
    "column": PagodeRules._do_column, "tile": PagodeRules._do_tile, "roof": PagodeRules._do_roof,
    "lantern": PagodeRules._do_lantern, "dragon": PagodeRules._do_dragon, "discard": PagodeRules._do_discard,
    "draw": PagodeRules._do_draw, "modified": PagodeRules._do_modified, "end": PagodeRules._do_end,
}


# ---------------------------------------------------------------------- helpers


def _pair(values: tuple, seat: int, value) -> tuple:
    """``_put`` for the per-seat pairs (reserves, hands, uses, scores): Pagode has two seats."""
    return (value, values[1]) if seat == 0 else (values[0], value)


def _put(values: tuple, index: int, value) -> tuple:
    """``values`` with one item replaced (states hold tuples: copies share them safely).

    Through a list: for Pagode's short tuples (sites, uses) faster than joining two slices.
    """
    items = list(values)
    items[index] = value
    return tuple(items)
