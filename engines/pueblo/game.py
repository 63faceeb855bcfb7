"""PuebloGame: the engine contract wired to Pueblo's state, rules and notation."""

from __future__ import annotations

from typing import Any

from engines.core import Game, RulesError, State

from . import notation, rules
from .geometry import SPACE_NAMES, cell_name
from .data import COLOURS
from .state import OVER, VARIANTS, PuebloState, load_state


class PuebloGame(Game):
    """Pueblo (Kiesling / Kramer): build with your colour hidden from the chieftain.

    ``scores`` are the *negated* penalty points (higher is better, as the
    contract and the bots expect); ``penalties`` gives them as printed.
    """

    id = "pueblo"
    name = "Pueblo"
    min_players = 2
    max_players = 4
    variants = VARIANTS

    def setup(self, players: int = 2, variant: str = "standard", **options: Any) -> PuebloState:
        self.check_options(players, variant)
        unknown = set(options) - {"sacred_sites"}
        if unknown:
            raise RulesError(f"Pueblo has no option {sorted(unknown)[0]!r} (options: sacred_sites)")
        return rules.new_state(players, variant, options.get("sacred_sites"))

    def next_actor(self, state: State) -> int:
        return rules.actor(state)

    def legal_actions(self, state: State, seat: int) -> list[tuple]:
        return rules.legal_actions(state, seat)

    def apply(self, state: State, action: tuple) -> tuple[PuebloState, list[tuple]]:
        return rules.apply(state, action)

    def view(self, state: State, seat: int | None) -> PuebloState:
        return state.share()  # nothing is hidden in Pueblo

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    score_name = "penalties"

    def penalties(self, state: PuebloState) -> list[int]:
        return state.penalties[:]

    def display_scores(self, state: State) -> list[int]:
        return self.penalties(state)

    def scores(self, state: State) -> list[int]:
        return [-p for p in state.penalties]

    def winners(self, state: State) -> list[int]:
        """Fewest penalty points; a tie is a shared win."""
        best = min(state.penalties)
        return [p for p, v in enumerate(state.penalties) if v == best]

    def format_action(self, state: State, action: tuple) -> str:
        return notation.format_action(state, action)

    def parse_action(self, state: State, text: str, seat: int | None = None) -> tuple:
        return notation.parse_action(state, text, seat)

    def load(self, data: dict) -> PuebloState:
        return load_state(data)

    def describe_event(self, event: tuple) -> str:
        kind = event[0]
        who = (lambda p: COLOURS[p])
        if kind == "score":
            return f"{who(event[1])} +{-event[2]} penalty ({event[3]})"
        if kind == "place":
            return f"{who(event[1])} places a {'coloured' if event[2] == 'C' else 'neutral'} stone at level {event[6] + 1}"
        if kind == "chief":
            return f"{who(event[1])} moves the chieftain to {SPACE_NAMES[event[3]]}"
        if kind == "remove":
            return f"{who(event[1])} removes the stone at {cell_name(event[3])}"
        if kind == "first":
            return f"{who(event[1])} plays first"
        if kind == "final round":
            return f"final round from {SPACE_NAMES[event[1]]}"
        if kind == "drop":
            return f"{who(event[1])} sets a {'coloured' if event[2] == 'C' else 'neutral'} stone aside: it fits nowhere"
        if kind == "site":
            return f"{who(event[1])} places a sacred site on {' '.join(cell_name(c) for c in event[2])}"
        if kind == "auction":
            return f"turn-order auction {event[1]}"
        if kind == "bid":
            return f"{who(event[1])} bids {event[2]}"
        if kind == "pass":
            return f"{who(event[1])} passes"
        if kind == "card":
            return f"{who(event[1])} takes turn-order card {event[2]}" + (f" for {event[3]}" if event[3] else " free")
        if kind == "order":
            return "turn order: " + ", ".join(who(p) for p in event[1])
        if kind == "over":
            return "game over, won by " + " and ".join(who(p) for p in event[1])
        return super().describe_event(event)
