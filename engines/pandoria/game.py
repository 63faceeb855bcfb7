"""Pandoria as an engines.core.Game: the contract around rules, notation and position."""

from __future__ import annotations

from typing import Any

from engines.core import TABLE, Game, RulesError, State

from . import data as D
from . import notation, rules
from .board import hex_name
from .position import PandoriaState

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
        """Best score; a tie goes to the most resources left (seed 10)."""
        key = list(zip(self.scores(state), self.resources_left(state)))
        best = max(key)
        return [s for s, k in enumerate(key) if k == best]

    def identities(self, state: State) -> list[int]:
        return list(D.IDENTITIES)

    def format_action(self, state: State, action: tuple) -> str:
        return notation.format_action(state, action)

    def parse_action(self, state: State, text: str, seat: int | None = None) -> tuple:
        return notation.parse_action(state, text, seat)

    def load(self, data: dict) -> PandoriaState:
        return PandoriaState.from_data(data)

    def describe_event(self, event: tuple) -> str:
        kind = event[0]
        if kind == "score":
            return f"seat {event[1] + 1} scores {event[2]} ({event[3]})"
        if kind == "gain":
            return f"seat {event[1] + 1} gains {event[3]} {event[2]}"
        if kind == "closed":
            return f"a {event[1]} region closes ({', '.join(hex_name(h) for h in event[2])})"
        if kind == "leave":
            return f"a figure of seat {event[1] + 1} leaves {hex_name(event[2])}"
        if kind == "people":
            return f"seat {event[1] + 1} plays the {event[2]}"
        return super().describe_event(event)
