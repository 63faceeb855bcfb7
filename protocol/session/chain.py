"""Where an entry that arrives belongs in the chain, before anything in it is read.

One chain, one total order: an entry is the next one (same game id,
sequence number = the chain's length, previous hash = the last entry's), a
copy of one we hold (harmless), or out of place. Out of place is a breach
that names its author only where the author's own signatures prove it: two
different entries by one author for one place (a fork).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from protocol.log import FIRST_PREV, Entry, open_entry
from protocol.wire import ProtocolError, check

from .kinds import ABORT, REPLACE

if TYPE_CHECKING:
    from .session import Session

NEXT, HELD = "next", "held"


def place(s: "Session", entry: Entry, blame: int | None) -> str:
    """``NEXT`` if ``entry`` extends the chain, ``HELD`` if it needs nothing more (it told us of our
    own replacement); else ProtocolError with the seat to blame."""
    index = len(s.chain)
    if entry.game != s.game_id:
        if not s.game_id:
            raise ProtocolError(f"entry {entry.seq} ({entry.kind}) by {s._seat_label(entry.author)} "
                                f"carries a game id before the game has one", blame)
        raise ProtocolError(f"entry {entry.seq} ({entry.kind}) by {s._seat_label(entry.author)} belongs to "
                            f"another game", blame)
    if entry.seq != index:
        if entry.seq < index and entry.kind == REPLACE and s._replaced_while_gone(entry):
            return HELD
        if entry.seq < index and entry.kind == ABORT and entry.author in (s.seats or s._keys()):
            conflicting_abort(s, entry)
        if entry.seq < index:
            old = s.chain[entry.seq]
            if old.author == entry.author:
                raise ProtocolError(f"seat {s._seat_name(entry.author)} signed two different entries for "
                                    f"sequence number {entry.seq}", blame)
            raise ProtocolError(f"sequence number {entry.seq} by {s._seat_label(entry.author)} is already "
                                f"taken (next is {index})", blame)
        raise ProtocolError(f"sequence number {entry.seq} by {s._seat_label(entry.author)} skips "
                            f"{index} (missing or reordered entries)", blame)
    expected_prev = s.chain[-1].hash if s.chain else FIRST_PREV
    if entry.prev != expected_prev:
        raise ProtocolError(f"entry {entry.seq} by {s._seat_label(entry.author)} does not link to the "
                            f"previous entry (broken previous-hash)", blame)
    return NEXT


def conflicting_abort(s: "Session", entry: Entry) -> None:
    """Another player ended the game at a place our log already fills.

    If its evidence holds an entry signed by the same author as ours at
    the same number but different, that author forked the chain: blame it.
    Otherwise nobody can be blamed from here.
    """
    try:
        check(s._schemas[ABORT], entry.body, ABORT)      # its shape first: nothing is read before
    except ProtocolError as e:
        raise ProtocolError(f"{s._seat_label(entry.author)} sent an abort at entry {entry.seq}, which our log "
                            f"fills otherwise, and it is malformed ({e})", None) from None
    for raw in entry.body["evidence"]:
        try:
            shown = open_entry(raw)
        except ProtocolError:
            continue
        if shown.seq < len(s.chain):
            ours = s.chain[shown.seq]
            if ours.author == shown.author and ours.raw != shown.raw and shown.game == ours.game:
                raise ProtocolError(f"seat {s._seat_name(shown.author)} signed two different entries for "
                                    f"sequence number {shown.seq} (one shown by {s._seat_label(entry.author)}"
                                    f"'s abort)", s._seat_of(shown.author))
    reason = entry.body["reason"]
    raise ProtocolError(f"{s._seat_label(entry.author)} ended the game at entry {entry.seq}, which our log "
                        f"fills otherwise ({str(reason)[:200]})", None)
