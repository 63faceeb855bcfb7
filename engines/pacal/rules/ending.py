"""Points, the end of a turn and the end of the game (with its final scoring)."""

from __future__ import annotations

from lanterne.engines.core import Words

from .. import data
from ..board import board_for
from ..state import MOVE, OVER, ROLL, PacalState
from .choices import die_op
from .scoring import final_scoring

Event = tuple


def player_words(seat: int) -> Words:
    """A seat in a refusal, as the engine always named it ("player 2"); a client names it its way."""
    return Words("player {n}", n=seat + 1)


def score(s: PacalState, events: list[Event], seat: int, pts: int, what: str) -> None:
    s.score[seat] += pts
    events.append(("score", seat, pts, what))
    if not s.triggered and s.score[seat] >= data.END_THRESHOLD[s.players]:
        s.triggered = True
        events.append(("end triggered", seat, s.score[seat]))
        if s.players == 2 and data.TWO_PLAYER_ENDS_AT_ONCE:
            s.phase = OVER  # build finishes the game after its own bonuses


def end_turn(s: PacalState, events: list[Event]) -> None:
    """The next seat's turn; a new round (and roll) after the round's last seat.

    With 3-5 players the round's roll holds for every seat and the die passes to
    the next seat each round (the starter of a round plays last in the next).
    With 2 players each seat rolls for its own turn (rulebook)."""
    s.turn += 1
    seat, n = s.current, s.players
    s.current = (seat + 1) % n
    if n == 2:
        last_of_round = seat != s.roller
    else:
        last_of_round = seat == (s.roller - 1) % n
        if last_of_round:
            s.roller = s.current = (s.roller + 1) % n
    if last_of_round and s.triggered:
        game_over(s, events, f"the round ended after a player reached {data.END_THRESHOLD[n]} points")
        return
    s.allowance = 0
    if last_of_round:
        s.round += 1
    if n == 2 or last_of_round:
        s.face = None
        s.phase, s.pending = ROLL, die_op()
    else:
        s.phase = MOVE


def game_over(s: PacalState, events: list[Event], reason: str) -> None:
    if s.end_reason:
        return
    s.phase = OVER
    s.pending = None
    s.end_reason = reason
    s.score = s.score[:]  # copy-on-write: final_scoring adds to it
    events.append(("end", reason))
    events.extend(final_scoring(s, board_for(s.players)))
