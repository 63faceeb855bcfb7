"""Pandoria as an engines.core.Game: the contract around rules, notation and position."""

from __future__ import annotations

from typing import Any

from engines.core import TABLE, Game, RulesError, State

from . import data as D
from . import notation, rules
from .board import DIRECTIONS, hex_name
from .state import PandoriaState, masked

VARIANTS = ("classic", "beginner", "team")
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

    def legal_actions(self, state: State, seat: int) -> list[tuple]:
        return rules.legal_actions(state, seat)

    def apply(self, state: State, action: tuple) -> tuple[PandoriaState, list]:
        return rules.apply(state, action)

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


def _seat(s: int) -> str:
    return f"seat {s + 1}"


def _tile(ident: int) -> str:
    return notation.face_text(D.DOUBLE_TILES[ident - D.TILE_BASE])


_EVENT_TEXT = {
    "first": lambda s: f"{_seat(s)} plays first",
    "people": lambda s, name: f"{_seat(s)} plays the {name}",
    "start": lambda v: f"start tiles placed (roll {v})",
    "tile": lambda s, i, h, d: f"{_seat(s)} places tile {_tile(i)} on {hex_name(h)} {DIRECTIONS[d]}",
    "castle": lambda s, h: f"{_seat(s)} places a castle on {hex_name(h)}",
    "pass": lambda s: f"{_seat(s)} can place nothing and passes",
    "figure": lambda s, h, leader: f"{_seat(s)} puts {'the leader' if leader else 'a figure'} on {hex_name(h)}",
    "take": lambda s, h, leader: f"{_seat(s)} takes {'the leader' if leader else 'a figure'} back from {hex_name(h)}",
    "closed": lambda t, hexes: f"a {t} region closes ({', '.join(hex_name(h) for h in hexes)})",
    "leave": lambda s, h, leader: f"{'the leader' if leader else 'a figure'} of {_seat(s)} leaves {hex_name(h)}",
    "spell": lambda s, i, cost, *t: f"{_seat(s)} casts {D.CARDS[i][0]} for {cost} crystals",
    "build": lambda s, i, index, cost: f"{_seat(s)} builds {D.CARDS[i][1]} in slot {index + 1} for {cost} wood",
    "pay": lambda s, what, n: f"{_seat(s)} pays {n} {what}",
    "acquire": lambda s, i: f"{_seat(s)} acquires {D.card_name(i)}",
    "buy": lambda s, i, price: f"{_seat(s)} buys {D.card_name(i)} for {price} gold",
    "move": lambda s, a, b: f"{_seat(s)} moves a figure from {hex_name(a)} to {hex_name(b)}",
    "single": lambda s, t, h: f"{_seat(s)} places a single {D.TERRAIN_NAMES[t]} tile on {hex_name(h)}",
    "discard": lambda s: "the single tile fits nowhere and is discarded",
    "gain": lambda s, what, n: f"{_seat(s)} gains {n} {what}",
    "score": lambda s, n, what: f"{_seat(s)} scores {n} ({what})",
    "ending": lambda s: f"{_seat(s)} cannot draw a double tile: this is the last round",
    "over": lambda: "the game is over",
}
