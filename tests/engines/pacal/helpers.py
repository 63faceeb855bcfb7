"""Positions for the tests: a board set up by hand, with every piece accounted for."""

from __future__ import annotations

from lanterne.engines.core import OpenTable, TABLE
from lanterne.engines.pacal import GAME, data
from lanterne.engines.pacal.board import parse_cell
from lanterne.engines.pacal.state import BUILD, MOVE, STONES, PacalState


def c(name: str) -> int:
    cell = parse_cell(name)
    assert cell is not None, name
    return cell


def cells(*names: str) -> tuple[int, ...]:
    return tuple(sorted(c(n) for n in names))


def started(players: int = 3, variant: str = "standard", first: int = 0,
            ships: tuple[str, ...] | None = None) -> PacalState:
    """A game after the first-player roll and the ship placement (round 1, die to roll)."""
    s, _ = GAME.apply(GAME.setup(players=players, variant=variant), ("roll", first))
    names = ships or ("f6", "g6", "h6", "f7", "g7")[:players]
    for k in range(players):
        seat = (first + k) % players
        s, _ = GAME.apply(s, ("place", c(names[seat])))
    return s


def position(players: int = 3, *, variant: str = "standard", phase: str = MOVE, current: int = 0,
             roller: int | None = None, round: int = 2, face: int | None = 3, allowance: int = 0,
             ships: dict[int, str] | None = None, stones: dict[int, list[str]] | None = None,
             pyramids: dict[str, tuple[int, int]] | None = None, energy: dict[int, list[int]] | None = None,
             score: dict[int, int] | None = None, triggered: bool = False) -> PacalState:
    """A position in the middle of a game, checked by the position loader.

    ``ships``: seat -> cell (by default the ships wait in the top-left corner: a1 b1 a2 b2 a3);
    ``stones``: seat -> cells; ``pyramids``: cell -> (seat, storeys).
    """
    s = started(players, variant)
    default_ships = ["a1", "b1", "a2", "b2", "a3"]
    for seat in range(players):
        s.ships[seat] = c((ships or {}).get(seat, default_ships[seat]))
    for seat, names in (stones or {}).items():
        for n in names:
            s.stones[seat] |= 1 << c(n)
            s.stone_supply[seat] -= 1
    for n, (seat, k) in (pyramids or {}).items():
        s.pyramid_owner[c(n)], s.pyramid_size[c(n)] = seat, k
        s.pyramid_supply[seat][k - 1] -= 1
    for seat, pieces in (energy or {}).items():
        s.energy[seat] = sorted(pieces)
    for seat, pts in (score or {}).items():
        s.score[seat] = pts
    s.phase, s.current, s.round, s.face, s.allowance = phase, current, round, face, allowance
    s.roller = current if roller is None else roller
    s.pending = None
    s.triggered = triggered
    return GAME.load(s.to_data())


def play(state: PacalState, *texts: str) -> tuple[PacalState, list[tuple]]:
    """Play moves by their notation; returns the state and all the events."""
    events: list[tuple] = []
    for t in texts:
        action = GAME.parse_action(state, t)
        state, ev = GAME.apply(state, action)
        events += ev
    return state, events


def scored(events: list[tuple], seat: int | None = None) -> list[tuple[int, int, str]]:
    return [(e[1], e[2], e[3]) for e in events if e[0] == "score" and (seat is None or e[1] == seat)]


def random_game(players: int, seed: int, variant: str = "standard", max_steps: int = 20_000):
    """A random game, step by step: yields (state before, actor, action, state after, events)."""
    import random

    rng = random.Random(seed)
    table = OpenTable(seed)
    state = GAME.setup(players=players, variant=variant)
    for _ in range(max_steps):
        if GAME.is_over(state):
            return
        actor = GAME.next_actor(state)
        if actor == TABLE:
            action = table.resolve(state, GAME.table_op(state))
        else:
            actions = GAME.legal_actions(state, actor)
            action = actions[rng.randrange(len(actions))]
        after, events = GAME.apply(state, action)
        yield state, actor, action, after, events
        state = after
    raise AssertionError(f"no end after {max_steps} steps")


__all__ = ["GAME", "data", "c", "cells", "started", "position", "play", "scored", "random_game",
           "MOVE", "STONES", "BUILD"]
