"""Pacal's rules: legal actions and their effects, turn by turn.

A turn is three decisions of the seat to act: move the ship (obligatory),
put 0-2 divine stones into ships, build or upgrade one pyramid (or pass).
A phase with nothing to decide is skipped. Actions:

* ``("place", cell)``: put one's ship into the sacred district at the start;
* ``("move", mode, cell)`` with mode ``straight``, ``turn`` or ``arrow``;
* ``("energy", value, cell)``: spend an energy piece, teleport;
* ``("relocate", cell)``: surrounded and without energy: relocate, no stone;
* ``("stones", own, other, take)``: a stone into one's own ship (bool), one
  into the ship of seat ``other`` (or None), after taking back the visible
  stones at cells ``take`` when the supply is short;
* ``("build", storeys, cell, cells)`` / ``("upgrade", storeys, cell, cells)``:
  a pyramid on ``cell`` from the constellation ``cells`` (sorted);
* ``("pass",)``: build nothing.

Table outcomes: ``("roll", value)`` for the first player and for the die.

By concern, lowest first: ``movement`` (where a ship can fly),
``constellations`` (the shapes that build pyramids), ``scoring`` (districts
and the final scoring), ``choices`` (who acts, legal actions), ``ending``
(points, the end of a turn and of the game), ``building`` (the build phase),
``moving`` (rolls, ships and stones); this module applies an action and
answers the screen's questions (:func:`build_choices`, :func:`reachable`).
"""

from __future__ import annotations

from lanterne.engines.core import IllegalAction, Words

from ..state import BUILD, MOVE, OVER, PLACE, STONES, PacalState
from .building import build, check_build, pass_turn
from .choices import (build_actions, can_build, die_op, first_player_op, legal_actions, move_actions, next_actor,
                      visible_stones)
from .ending import Event, game_over, player_words
from .moving import apply_roll, move, place, stones

__all__ = ["apply", "build_actions", "build_choices", "build_points", "can_build", "check_build", "die_op",
           "first_player_op", "game_over", "legal_actions", "move_actions", "next_actor", "reachable",
           "visible_stones"]


def apply(state: PacalState, action: tuple) -> tuple[PacalState, list[Event]]:
    if not isinstance(action, tuple) or not action:
        raise IllegalAction(f"not an action: {action!r}")
    s = state.copy()
    events: list[Event] = []
    if state.pending is not None:
        apply_roll(s, action, events)
        return s, events
    if state.phase == OVER:
        raise IllegalAction("the game is over")
    kind = action[0]
    if not isinstance(kind, str):
        raise IllegalAction(f"not an action: {action!r}")
    handler = HANDLERS.get((state.phase, kind))
    if handler is None:
        raise IllegalAction(Words("{action} is not a move now: {why}", action=repr(kind), why=expecting(state)))
    handler(s, action, events)
    return s, events


def expecting(state: PacalState) -> str:
    who = player_words(state.current)
    if state.phase == PLACE:
        return Words("{seat} places a ship in the sacred district", seat=who)
    if state.phase == MOVE:
        return Words("{seat} moves the ship", seat=who)
    if state.phase == STONES:
        return Words("{seat} puts divine stones into ships (or none)", seat=who)
    if state.phase == BUILD:
        return Words("{seat} builds, upgrades or passes", seat=who)
    return Words("the table acts")


HANDLERS = {
    (PLACE, "place"): place,
    (MOVE, "move"): move, (MOVE, "energy"): move, (MOVE, "relocate"): move,
    (STONES, "stones"): stones,
    (BUILD, "build"): build, (BUILD, "upgrade"): build, (BUILD, "pass"): pass_turn,
}


def build_points(state: PacalState, action: tuple) -> int:
    """The points a build or upgrade would score at once (district and bonuses)."""
    after, events = apply(state, action)
    pts = 0
    for e in events:
        if e[0] == "end":
            break
        if e[0] == "score" and e[1] == state.current:
            pts += e[2]
    return pts


def build_choices(state: PacalState, seat: int) -> list[tuple[tuple, int]]:
    """Every build or upgrade open to ``seat`` now, with the points it scores at once."""
    if state.phase != BUILD or seat != state.current or state.pending is not None:
        return []
    return [(a, build_points(state, a)) for a in build_actions(state, seat)]


def reachable(state: PacalState, seat: int) -> dict[int, list[str]]:
    """For the screen: every destination of ``seat``'s ship with the ways to get there
    ('straight', 'turn', 'arrow', 'energy', 'relocate'); empty unless it is that seat's move."""
    out: dict[int, list[str]] = {}
    if state.phase != MOVE or state.pending is not None or seat != state.current:
        return out  # not this seat's move now
    for a in move_actions(state, seat):
        way = a[1] if a[0] == "move" else a[0]
        cell = a[-1]
        if way not in out.setdefault(cell, []):
            out[cell].append(way)
    return out
