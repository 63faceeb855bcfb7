"""Pueblo's rules: who acts, what they may do, and what an action changes.

One function per kind of action; :func:`apply` validates, copies the state,
and dispatches. Every penalty point is a ``("score", seat, -points, what)``
event, so that ``scores`` (negated penalties) is the sum of the score events.

By concern, lowest first: ``queries`` (setup, who acts, legal actions, the
shared helpers), ``ending`` (scoring a space, dismantling, the end),
``auction`` (the roll, the sacred sites, the turn-order cards), ``building``
(a stone, the chieftain, the final round); this module applies an action.
"""

from __future__ import annotations

from lanterne.engines.core import Event, IllegalAction, Words

from ..state import BID, MOVE, OVER, PICK, PLACE, REMOVE, ROLL_PHASE, SITE, PuebloState
from .auction import do_bid, do_card, do_pass, do_roll, do_site
from .building import do_drop, do_move, do_place, final_round
from .ending import do_remove
from .queries import actor, legal_actions, new_state, removable, removals

__all__ = ["actor", "apply", "final_round", "legal_actions", "new_state", "removable", "removals"]


def apply(state: PuebloState, action: tuple) -> tuple[PuebloState, list[Event]]:
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        raise IllegalAction(f"not an action: {action!r}")
    kind = action[0]
    if state.phase == OVER:
        raise IllegalAction("the game is over")
    handler = HANDLERS.get(kind)
    if handler is None:
        raise IllegalAction(f"unknown action {kind!r}")
    want = PHASE_OF[kind]
    if state.phase != want:
        raise IllegalAction(Words("cannot {action} now: {why}", action=kind, why=WAITING[state.phase]))
    s = state.copy()
    events: list[Event] = []
    handler(s, action, actor(state), events)
    return s, events


HANDLERS = {"roll": do_roll, "site": do_site, "bid": do_bid, "pass": do_pass, "card": do_card, "place": do_place,
             "drop": do_drop, "move": do_move, "remove": do_remove}


PHASE_OF = {"roll": ROLL_PHASE, "site": SITE, "bid": BID, "pass": BID, "card": PICK, "place": PLACE,
             "drop": PLACE, "move": MOVE, "remove": REMOVE}


WAITING = {ROLL_PHASE: Words("the table must roll for the first player"),
            SITE: Words("a sacred site must be placed"), BID: Words("the turn-order auction is on"),
            PICK: Words("the auction winner must pick a turn-order card"), PLACE: Words("a stone must be placed"),
            MOVE: Words("the chieftain must be moved"), REMOVE: Words("a stone must be removed"),
            OVER: Words("the game is over")}
