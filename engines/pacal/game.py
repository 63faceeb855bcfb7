"""PacalGame: the engine contract wired to Pacal's Rocket's state, rules and notation."""

from __future__ import annotations

from typing import Any

from lanterne.engines.core import Game, NotationError, RulesError, Words

from . import notation, rules
from .board import cell_name
from .data import ARROWS, STANDARD, VARIANTS
from .state import OVER, PacalState, load_state, new_state


class PacalGame(Game):
    id = "pacal"
    name = "Pacal's Rocket"
    hidden = False
    min_players = 2
    max_players = 5
    variants = VARIANTS

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
        """A short sentence for the move log (``Words``: English, and how to say it in another language)."""
        kind, rest = event[0], event[1:]
        p = (lambda seat: Words("P{n}", n=seat + 1))
        if kind == "score":
            return Words("{seat} scores {points} ({what})", seat=p(rest[0]), points=rest[1], what=Words(rest[2]))
        if kind == "move":
            if rest[1] == "energy":
                return Words("{seat} teleports {start} -> {end}", seat=p(rest[0]), start=cell_name(rest[2]),
                             end=cell_name(rest[3]))
            if rest[1] == "relocate":
                return Words("{seat} relocates {start} -> {end}", seat=p(rest[0]), start=cell_name(rest[2]),
                             end=cell_name(rest[3]))
            return Words("{seat} moves {steps} {start} -> {end}", seat=p(rest[0]), steps=rest[1],
                         start=cell_name(rest[2]), end=cell_name(rest[3]))
        if kind == "build":
            return Words("{seat} builds {n} storeys on {cell}", seat=p(rest[0]), n=rest[1], cell=cell_name(rest[2]))
        if kind == "upgrade":
            return Words("{seat} upgrades {cell} from {before} to {after} storeys", seat=p(rest[0]),
                         cell=cell_name(rest[3]), before=rest[1], after=rest[2])
        if kind == "roll":
            face = Words("arrows") if rest[1] == ARROWS else notation.face_name(rest[1])
            return Words("{seat} rolls {face}", seat=p(rest[0]), face=face)
        if kind == "first":
            return Words("{seat} starts", seat=p(rest[0]))
        if kind == "place":
            return Words("{seat} puts the ship on {cell}", seat=p(rest[0]), cell=cell_name(rest[1]))
        if kind == "energy":
            return Words("{seat} spends the energy piece worth {n}", seat=p(rest[0]), n=rest[1])
        if kind == "stone":
            if rest[0] == rest[2]:
                return Words("{seat} puts a stone into their own ship on {cell}", seat=p(rest[0]),
                             cell=cell_name(rest[1]))
            return Words("{seat} puts a stone into {owner}'s ship on {cell}", seat=p(rest[0]), owner=p(rest[2]),
                         cell=cell_name(rest[1]))
        if kind == "stones back":
            return Words.plural("{seat} gets {n} stone back from {cell}",
                                "{seat} gets {n} stones back from {cell}",
                                rest[2], seat=p(rest[0]), cell=cell_name(rest[1]))
        if kind == "take back":
            return Words("{seat} takes back the stone on {cell}", seat=p(rest[0]), cell=cell_name(rest[1]))
        if kind == "end triggered":
            return Words("{seat} reached {n} points: the end is near", seat=p(rest[0]), n=rest[1])
        if kind == "end":
            return Words("game over: {how}", how=Words(rest[0]))
        return super().describe_event(event)
