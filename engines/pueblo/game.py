"""PuebloGame: the engine contract wired to Pueblo's state, rules and notation."""

from __future__ import annotations

from typing import Any

from lanterne.engines.core import Game, RulesError, State, Words

from . import notation, rules
from .board import SPACE_NAMES, cell_name
from .data import COLOURS
from .data import VARIANTS
from .state import OVER, PuebloState, load_state


class PuebloGame(Game):
    """Pueblo (Kiesling / Kramer): build with your colour hidden from the chieftain.

    ``scores`` are the *negated* penalty points (higher is better, as the
    contract and the bots expect); ``penalties`` gives them as printed.
    """

    id = "pueblo"
    name = "Pueblo"
    hidden = False
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
        """A short sentence for the move log (``Words``: English, and how to say it in another language)."""
        kind = event[0]
        who = (lambda p: Words(COLOURS[p]))
        stone = (lambda c: Words("coloured") if c == "C" else Words("neutral"))
        if kind == "score":
            return Words.plural("{seat} +{n} penalty ({what})", "{seat} +{n} penalty ({what})", -event[2],
                                seat=who(event[1]), what=Words(event[3]))
        if kind == "place":
            return Words("{seat} places a {stone} stone at level {level}", seat=who(event[1]), stone=stone(event[2]),
                         level=event[6] + 1)
        if kind == "chief":
            return Words("{seat} moves the chieftain to {space}", seat=who(event[1]), space=SPACE_NAMES[event[3]])
        if kind == "remove":
            return Words("{seat} removes the stone at {cell}", seat=who(event[1]), cell=cell_name(event[3]))
        if kind == "first":
            return Words("{seat} plays first", seat=who(event[1]))
        if kind == "final round":
            return Words("final round from {space}", space=SPACE_NAMES[event[1]])
        if kind == "drop":
            return Words("{seat} sets a {stone} stone aside: it fits nowhere", seat=who(event[1]),
                         stone=stone(event[2]))
        if kind == "site":
            return Words("{seat} places a sacred site on {cells}", seat=who(event[1]),
                         cells=" ".join(cell_name(c) for c in event[2]))
        if kind == "auction":
            return Words("turn-order auction {n}", n=event[1])
        if kind == "bid":
            return Words("{seat} bids {n}", seat=who(event[1]), n=event[2])
        if kind == "pass":
            return Words("{seat} passes", seat=who(event[1]))
        if kind == "card":
            if event[3]:
                return Words("{seat} takes turn-order card {card} for {price}", seat=who(event[1]), card=event[2],
                             price=event[3])
            return Words("{seat} takes turn-order card {card} free", seat=who(event[1]), card=event[2])
        if kind == "order":
            return Words("turn order: {seats}", seats=Words.listing(who(p) for p in event[1]))
        if kind == "over":
            return Words("game over, won by {seats}", seats=Words.listing((who(p) for p in event[1]), " and "))
        return super().describe_event(event)
