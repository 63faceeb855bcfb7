"""The rest of a turn: the lantern, the dragon and its discards and draw, a modified turn, the end of a turn."""

from __future__ import annotations

from lanterne.engines.core import IllegalAction, Words

from ..actions import Dragon, Draw, Lantern, Modified, read
from ..data import (DRAGON, FAN, FAN_HAND_SIZE, HAND_LIMIT, HAND_SIZE, LANTERN, MODIFIED_DISCARDS, PAGODAS_TO_END,
                    RESERVE_SIZE, SITES)
from ..state import PagodeState
from .choices import is_stuck
from .paying import check_phase, take_one, use
from .queries import column_colours, complete_pagodas, winners
from .table import next_deal


def do_lantern(s: PagodeState, action: tuple, events: list) -> None:
    read(Lantern, action, "the lantern is (lantern,)")
    check_phase(s, "play")
    use(s, LANTERN, events)


def do_dragon(s: PagodeState, action: tuple, events: list) -> None:
    read(Dragon, action, "the dragon is (dragon,)")
    check_phase(s, "play")
    if s.acted:
        raise IllegalAction(Words("the dragon only before the turn's first action"))
    use(s, DRAGON, events)
    seat = s.current
    s.mark = (len(s.reserves[seat]), len(s.hands[seat]))
    s.phase = "dragon"


def do_discard(s: PagodeState, action: tuple, events: list) -> None:
    try:
        _, slot, ident = action  # a Discard, as in _do_column
    except ValueError:
        raise IllegalAction("a discard is (discard, slot, card)") from None
    if s.phase == "play":
        if not is_stuck(s, s.current):
            raise IllegalAction(Words("discards only under the dragon, in a modified turn, or when nothing can be "
                                      "built"))
        s.acted = True
    else:
        check_phase(s, "dragon", "modified")
    take_one(s, (slot, ident), events, kind="discard")
    if s.phase == "modified":
        s.mod_left -= 1
        if s.mod_left == 0:
            s.phase = "modified column"


def do_draw(s: PagodeState, action: tuple, events: list) -> None:
    read(Draw, action, "the dragon's draw is (draw,)")
    check_phase(s, "dragon")
    seat = s.current
    rsize, hsize = s.mark
    s.refill = ((seat, "reserve", rsize - len(s.reserves[seat])), (seat, "hand", hsize - len(s.hands[seat])))
    s.after = "play"
    s.phase = "draw"
    next_deal(s, events)


def do_modified(s: PagodeState, action: tuple, events: list) -> None:
    read(Modified, action, "a modified turn is (modified,)")
    check_phase(s, "play")
    seat = s.current
    if s.acted:
        raise IllegalAction(Words("a modified turn cannot follow a normal turn's action"))
    if s.used >> LANTERN & 1:
        raise IllegalAction(Words("a modified turn allows only the fan and the dragon, and the lantern was used"))
    if len(s.reserves[seat]) + len(s.hands[seat]) < MODIFIED_DISCARDS:
        raise IllegalAction(Words("a modified turn needs {n} cards to discard", n=MODIFIED_DISCARDS))
    if not any(column_colours(s, site) for site in range(SITES)):
        raise IllegalAction(Words("a modified turn needs a site that takes a column"))
    s.acted = True
    s.phase = "modified"
    s.mod_left = MODIFIED_DISCARDS
    events.append(("modified", seat))


def do_end(s: PagodeState, action: tuple, events: list) -> None:
    if len(action) != 2 or not isinstance(action[1], bool):  # an End, as in _do_column
        raise IllegalAction("the end of a turn is (end, fan) with fan true or false")
    fan = action[1]
    seat = s.current
    phase = s.phase
    if phase != "play" and phase != "modified end":
        raise IllegalAction(f"not now: seat {seat + 1} is in the {phase} phase")
    if phase == "play" and not s.columns and not is_stuck(s, seat):
        raise IllegalAction(Words("a turn must build at least 1 column"))
    if fan:
        use(s, FAN, events)
    s.discard = s.discard + s.played
    s.played = ()
    s.turn += 1
    events.append(("end", seat))
    if seat != s.first and complete_pagodas(s) >= PAGODAS_TO_END:
        s.phase = "over"
        events.append(("over", tuple(s.scores), tuple(winners(s))))
        return
    target = FAN_HAND_SIZE if fan else HAND_SIZE
    hand_need = max(0, min(target, HAND_LIMIT) - len(s.hands[seat]))
    s.refill = ((seat, "reserve", RESERVE_SIZE - len(s.reserves[seat])), (seat, "hand", hand_need))
    s.after = "next"
    s.phase = "draw"
    next_deal(s, events)
