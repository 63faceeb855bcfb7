"""PacalGame: the engine contract wired to Pacal's Rocket's state, rules and notation."""

from __future__ import annotations

from typing import Any

from engines.core import Game, NotationError, RulesError
from engines.pacal import notation, rules
from engines.pacal.board import cell_name
from engines.pacal.state import EXPERT, OVER, STANDARD, PacalState, load_state, new_state


class PacalGame(Game):
    id = "pacal"
    name = "Pacal's Rocket"
    min_players = 2
    max_players = 5
    variants = (STANDARD, EXPERT)

    def setup(self, players: int = 2, variant: str = STANDARD, **options: Any) -> PacalState:
        self.check_options(players, variant)
        if options:
            raise RulesError(f"{self.name} has no option {sorted(options)[0]!r}")
        return new_state(players, variant, rules.first_player_op(players))

    def next_actor(self, state: PacalState) -> int:
        return rules.next_actor(state)

    def legal_actions(self, state: PacalState, seat: int) -> list[tuple]:
        return rules.legal_actions(state, seat)

    def apply(self, state: PacalState, action: tuple) -> tuple[PacalState, list[tuple]]:
        return rules.apply(state, action)

    def is_over(self, state: PacalState) -> bool:
        return state.phase == OVER

    def scores(self, state: PacalState) -> list[int]:
        return list(state.score)

    def view(self, state: PacalState, seat: int | None) -> PacalState:
        return state.share()  # nothing is hidden in Pacal's Rocket

    def format_action(self, state: PacalState, action: tuple) -> str:
        return notation.format_action(state, action)

    def parse_action(self, state: PacalState, text: str, seat: int | None = None) -> tuple:
        if not isinstance(text, str):
            raise NotationError("a move is a text")
        who = state.current if seat is None else seat
        return notation.parse_action(state, text, lambda: rules.legal_actions(state, who) if who >= 0 else [])

    def load(self, data: dict) -> PacalState:
        return load_state(data)

    def describe_event(self, event: tuple) -> str:
        """A short sentence for the move log."""
        kind, rest = event[0], event[1:]
        p = (lambda seat: f"P{seat + 1}")
        if kind == "score":
            return f"{p(rest[0])} scores {rest[1]} ({rest[2]})"
        if kind == "move":
            how = {"energy": "teleports", "relocate": "relocates"}.get(rest[1], f"moves {rest[1]}")
            return f"{p(rest[0])} {how} {cell_name(rest[2])} -> {cell_name(rest[3])}"
        if kind == "build":
            return f"{p(rest[0])} builds {rest[1]} storeys on {cell_name(rest[2])}"
        if kind == "upgrade":
            return f"{p(rest[0])} upgrades {cell_name(rest[3])} from {rest[1]} to {rest[2]} storeys"
        if kind == "roll":
            return f"{p(rest[0])} rolls {notation.face_name(rest[1])}"
        if kind == "first":
            return f"{p(rest[0])} starts"
        if kind == "place":
            return f"{p(rest[0])} puts the ship on {cell_name(rest[1])}"
        if kind == "energy":
            return f"{p(rest[0])} spends the energy piece worth {rest[1]}"
        if kind == "stone":
            into = "their own ship" if rest[0] == rest[2] else f"{p(rest[2])}'s ship"
            return f"{p(rest[0])} puts a stone into the {into} on {cell_name(rest[1])}"
        if kind == "stones back":
            return f"{p(rest[0])} gets {rest[2]} stone(s) back from {cell_name(rest[1])}"
        if kind == "take back":
            return f"{p(rest[0])} takes back the stone on {cell_name(rest[1])}"
        if kind == "end triggered":
            return f"{p(rest[0])} reached {rest[1]} points: the end is near"
        if kind == "end":
            return f"game over: {rest[0]}"
        return super().describe_event(event)
