"""What each phase reads and writes: who writes next, which kinds it accepts, the function that reads an accepted
entry and the one that writes what we write next.

A row per live phase (:mod:`.phases` holds the transitions between them).
Besides the kinds of its row, any member may write an ``abort`` (every
phase but the last three), and in every phase with an awaited seat another
seat may write a ``claim`` against it (during play on a table whose policy
is ``computer``, a ``replace``), see :mod:`.claims`.

========  ==========================================  =====================  ================
phase     writes next                                 accepts                we write
========  ==========================================  =====================  ================
hello     a newcomer (hello), then the host (table)   hello, table           our hello, table
genesis   seat k, k = genesis entries so far          genesis                our nonce
play      the engine's actor; for a table step, the   move, takeback;        our fair steps
          seat the fair table waits for               fair_* steps
takeback  the other seats in seat order               takeback_reply         our answer
claim     the other seats in order (at a table of     agree, refuse          our answer; the
          two the claimed one), then the claimer                             claimer's abort
final     seat k, k = reveals so far                  fair_final             our reveal
dispute   seat k, k = reveals so far                  fair_final             our reveal
end       seat k, k = results so far                  end                    our result
========  ==========================================  =====================  ================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

from lanterne.engines.core import TABLE
from lanterne.protocol.log import Entry

from .claims import Claims
from .ending import Ending
from .kinds import AGREE, END, FAIR_FINAL, GENESIS, HELLO, MOVE, REFUSE, TABLE_KIND, TAKEBACK, TAKEBACK_REPLY
from .phases import Phase
from .play import Play
from .seating import Seating
from .state import SessionState
from .takeback import Takebacks


class Groups(Protocol):
    """The phase groups a reader or a step belongs to (the session owns them)."""

    seating: Seating
    play: Play
    ending: Ending
    claims: Claims
    takebacks: Takebacks


@dataclass(frozen=True)
class Rule:
    """One row of the table (see the module docstring)."""

    writer: Callable[[SessionState], int | None]
    """The seat that writes the next entry (None: nobody known yet, or any newcomer)."""
    accepts: Callable[[SessionState], Callable[[str], bool]]
    """Whether a kind may come now from that writer."""
    refusal: Callable[[SessionState, int | None, str], str]
    """The reason a kind is refused (``seat``: the author's seat, ``kind``)."""
    reader: Callable[[Groups, Entry, int | None], None]
    """Reads an accepted entry (``blame``: the seat its author holds, if any)."""
    step: Callable[[Groups], bool] | None
    """Writes what we write next (True: it wrote, and the loop goes on)."""
    also: Callable[[SessionState, int | None, str], bool] | None = None
    """Whether a seat other than the writer may write a kind here (the claimer closing at a table of two)."""


def _seat_name(seat: int | None) -> str:
    return str(seat + 1) if seat is not None else "?"


def _play_writer(s: SessionState) -> int | None:
    actor = s.next_actor()
    if actor == TABLE:
        return s.fair.expected() if s.chance.op is not None else None
    return actor


def _play_accepts(s: SessionState) -> Callable[[str], bool]:
    if s.next_actor() == TABLE:
        return lambda kind: kind.startswith("fair_") and kind != FAIR_FINAL
    return lambda kind: kind in (MOVE, TAKEBACK)


def _play_read(g: Groups, entry: Entry, blame: int | None) -> None:
    if entry.kind == TAKEBACK:
        g.takebacks.on_request(entry, blame)
    else:
        g.play.on_play(entry, blame)


def _asking(s: SessionState) -> str:
    return f"seat {s.undo.asked.seat + 1}'s" if s.undo.asked is not None else "the"


def _play_refusal(s: SessionState, seat: int | None, kind: str) -> str:
    actor = s.next_actor()
    if actor == TABLE:
        return f"the table is resolving {s.chance.op.kind if s.chance.op is not None else 'a step'}; {kind} is not a table message"
    return f"seat {actor + 1} must move, not send {kind}"


def _only(*kinds: str) -> Callable[[SessionState], Callable[[str], bool]]:
    allowed = frozenset(kinds)
    return lambda s: allowed.__contains__


_REVEALS = Rule(
    writer=lambda s: len(s.finals),
    accepts=_only(FAIR_FINAL),
    refusal=lambda s, seat, kind: f"the game is over; seat {_seat_name(seat)} must reveal its secrets, not send {kind}",
    reader=lambda g, entry, blame: g.ending.on_final(entry, blame), step=lambda g: g.ending.step_final())

RULES: dict[Phase, Rule] = {
    Phase.HELLO: Rule(
        writer=lambda s: None,
        accepts=_only(HELLO, TABLE_KIND),
        refusal=lambda s, seat, kind: f"expected a hello or the table, got {kind}",
        reader=lambda g, entry, blame: g.seating.on_hello(entry, blame), step=None),
    Phase.GENESIS: Rule(
        writer=lambda s: len(s.chain) - s.chain.genesis_start,
        accepts=_only(GENESIS),
        refusal=lambda s, seat, kind: f"expected a genesis nonce, got {kind}",
        reader=lambda g, entry, blame: g.seating.on_genesis(entry, blame), step=lambda g: g.seating.step_genesis()),
    Phase.PLAY: Rule(
        writer=_play_writer, accepts=_play_accepts, refusal=_play_refusal,
        reader=_play_read, step=lambda g: g.play.step_play()),
    Phase.TAKEBACK: Rule(
        writer=lambda s: s.undo.asked.writer if s.undo.asked is not None else None,
        accepts=_only(TAKEBACK_REPLY),
        refusal=lambda s, seat, kind: (f"seat {_seat_name(seat)} must answer {_asking(s)} takeback (yes or no), "
                                       f"not send {kind}"),
        reader=lambda g, entry, blame: g.takebacks.on_answer(entry, blame), step=lambda g: g.takebacks.step_answer()),
    Phase.CLAIM: Rule(
        writer=lambda s: s.claiming.writer if s.claiming is not None else None,
        accepts=_only(AGREE, REFUSE),
        refusal=lambda s, seat, kind: (f"seat {_seat_name(seat)} must answer the claim against seat "
                                       f"{s.claiming.seat + 1 if s.claiming else '?'} (agree or refuse), not send {kind}"),
        reader=lambda g, entry, blame: g.claims.on_answer(entry, blame), step=lambda g: g.claims.step_answer(),
        also=lambda s, seat, kind: (kind == AGREE and s.claiming is not None and seat == s.claiming.by
                                    and s.claiming.replaces and s.claiming.table_of_two)),
    Phase.FINAL: _REVEALS,
    Phase.DISPUTE: _REVEALS,
    Phase.END: Rule(
        writer=lambda s: len(s.ends),
        accepts=_only(END),
        refusal=lambda s, seat, kind: f"seat {_seat_name(seat)} must sign the result, not send {kind}",
        reader=lambda g, entry, blame: g.ending.on_end(entry, blame), step=lambda g: g.ending.step_end()),
}
"""The table. Phases absent from it (over, aborted, replaced) accept nothing and write nothing."""

