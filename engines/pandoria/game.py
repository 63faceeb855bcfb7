"""Pandoria as an engines.core.Game: the contract around rules, notation and position."""

from __future__ import annotations

from typing import Any

from lanterne.engines.core import TABLE, Game, RulesError, State, Words

from . import data as D
from . import notation, rules
from .data import VARIANTS
from .board import DIRECTIONS, hex_name
from .state import PandoriaState, masked

ALIASES = {"standard": "classic"}


def partner(seat: int) -> int:
    """Team game: partners sit opposite (seats 1 and 3, 2 and 4)."""
    return (seat + 2) % 4


class Pandoria(Game):
    id = "pandoria"
    name = "Pandoria"
    min_players = 2
    max_players = 4
    variants = VARIANTS

    def check_options(self, players: int, variant: str) -> None:
        variant = ALIASES.get(variant, variant)
        super().check_options(players, variant)
        if variant == "team" and players != 4:
            raise RulesError("the Pandoria team game is for 4 players")

    def setup(self, players: int = 2, variant: str = "classic", **options: Any) -> PandoriaState:
        self.check_options(players, variant)
        return rules.new_state(players, ALIASES.get(variant, variant))

    def next_actor(self, state: State) -> int:
        return TABLE if state.pending is not None else state.current

    # The rules' functions themselves, not methods that call them: a random game asks
    # for both some 200 times, and the extra call was a measurable share.
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)

    def view(self, state: State, seat: int | None) -> State:
        """The state as ``seat`` may know it (None: the public view).

        Only the cards differ from the full state, so the view shares every
        other list with it: states are never changed in place (``apply``
        works on a copy), and a bot gets a view for every choice it makes.
        """
        v = state.shallow_copy()
        v.cards = masked(state.cards, seat)
        return v

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def scores(self, state: State) -> list[int]:
        """Points per seat; in the team game each seat shows its team's total."""
        if state.variant == "team":
            return [state.points[s] + state.points[partner(s)] for s in range(state.players)]
        return list(state.points)

    def resources_left(self, state: State) -> list[int]:
        """The tie-break: resources left (after the final exchange once the game is over)."""
        if state.phase == "over":
            left = list(state.leftover)
        else:
            left = [sum(r) for r in state.resources]
        if state.variant == "team":
            return [left[s] + left[partner(s)] for s in range(state.players)]
        return left

    def winners(self, state: State) -> list[int]:
        """Best score; a tie goes to the most resources left (rulebook §10)."""
        key = list(zip(self.scores(state), self.resources_left(state)))
        best = max(key)
        return [s for s, k in enumerate(key) if k == best]

    def identities(self, state: State) -> list[int]:
        return list(D.IDENTITIES)

    def card_kind(self, ident: int) -> int:
        return ident // 100  # CARD_BASE, TILE_BASE, SINGLE_BASE, PEOPLE_BASE are 0, 100, 200, 300

    def format_action(self, state: State, action: tuple) -> str:
        return notation.format_action(state, action)

    def parse_action(self, state: State, text: str, seat: int | None = None) -> tuple:
        return notation.parse_action(state, text, seat)

    def load(self, data: dict) -> PandoriaState:
        return PandoriaState.from_data(data)

    def describe_event(self, event: tuple) -> str:
        """One short sentence per event kind, for the client's move log."""
        kind, rest = event[0], event[1:]
        text = _EVENT_TEXT.get(kind)
        if text is None:
            return super().describe_event(event)
        try:
            return text(*rest)
        except (TypeError, IndexError, KeyError, ValueError):
            return super().describe_event(event)


def _seat(s: int) -> Words:
    return Words("seat {n}", n=s + 1)


def _tile(ident: int) -> str:
    return notation.face_text(D.DOUBLE_TILES[ident - D.TILE_BASE])


def _figure(leader: bool) -> Words:
    return Words("the leader") if leader else Words("a figure")


# Every sentence is ``Words`` (English, and how to say it in another language); the names of the
# rules it holds (peoples, terrains, resources, region kinds) are ``Words`` too; card names stay names.
_EVENT_TEXT = {
    "first": lambda s: Words("{seat} plays first", seat=_seat(s)),
    "people": lambda s, name: Words("{seat} plays the {people}", seat=_seat(s), people=Words(name)),
    "start": lambda v: Words("start tiles placed (roll {n})", n=v),
    "tile": lambda s, i, h, d: Words("{seat} places tile {tile} on {hex} {direction}", seat=_seat(s), tile=_tile(i),
                                     hex=hex_name(h), direction=DIRECTIONS[d]),
    "castle": lambda s, h: Words("{seat} places a castle on {hex}", seat=_seat(s), hex=hex_name(h)),
    "pass": lambda s: Words("{seat} can place nothing and passes", seat=_seat(s)),
    "figure": lambda s, h, leader: Words("{seat} puts {figure} on {hex}", seat=_seat(s), figure=_figure(leader),
                                         hex=hex_name(h)),
    "take": lambda s, h, leader: Words("{seat} takes {figure} back from {hex}", seat=_seat(s),
                                       figure=_figure(leader), hex=hex_name(h)),
    "closed": lambda t, hexes: Words("a {terrain} region closes ({hexes})", terrain=Words(t),
                                     hexes=", ".join(hex_name(h) for h in hexes)),
    "leave": lambda s, h, leader: Words("{figure} of {seat} leaves {hex}", figure=_figure(leader), seat=_seat(s),
                                        hex=hex_name(h)),
    "spell": lambda s, i, cost, *t: Words.plural("{seat} casts {spell} for {n} crystal",
                                                 "{seat} casts {spell} for {n} crystals", cost, seat=_seat(s),
                                                 spell=D.CARDS[i][0]),
    "build": lambda s, i, index, cost: Words("{seat} builds {monument} in slot {slot} for {n} wood", seat=_seat(s),
                                             monument=D.CARDS[i][1], slot=index + 1, n=cost),
    "pay": lambda s, what, n: Words("{seat} pays {n} {what}", seat=_seat(s), n=n, what=Words(what)),
    "acquire": lambda s, i: Words("{seat} acquires {card}", seat=_seat(s), card=D.card_name(i)),
    "buy": lambda s, i, price: Words("{seat} buys {card} for {n} gold", seat=_seat(s), card=D.card_name(i), n=price),
    "move": lambda s, a, b: Words("{seat} moves a figure from {start} to {end}", seat=_seat(s), start=hex_name(a),
                                  end=hex_name(b)),
    "single": lambda s, t, h: Words("{seat} places a single {terrain} tile on {hex}", seat=_seat(s),
                                    terrain=Words(D.TERRAIN_NAMES[t]), hex=hex_name(h)),
    "discard": lambda s: Words("the single tile fits nowhere and is discarded"),
    "gain": lambda s, what, n: Words("{seat} gains {n} {what}", seat=_seat(s), n=n, what=Words(what)),
    "score": lambda s, n, what: Words("{seat} scores {n} ({what})", seat=_seat(s), n=n, what=Words(what)),
    "ending": lambda s: Words("{seat} cannot draw a double tile: this is the last round", seat=_seat(s)),
    "over": lambda: Words("the game is over"),
}
