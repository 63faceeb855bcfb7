"""A hostile seat's takeback, over real TCP: it cannot take back what the rules keep, nor ask where nobody may.

* on a table whose host did not allow a takeback, a ``takeback`` the hostile seat signs at its turn ends the
  game naming it (*seat 2's takeback: this table takes nothing back*);
* on a table that allows one, a takeback that covers what is not its own last move (here the entry before its
  turn: another seat's move or the table's step) ends the game naming it too.

Each ends with the rule of every adversary test: no honest seat is named, live or by ``verify``.
"""

from __future__ import annotations

import dataclasses

import pytest

from lanterne.protocol.session import TAKEBACK, Aborted

from .harness import FAST, Table, assert_no_honest_seat_named

AFTER = 20
"""The hostile act comes once the chain holds this many entries (the game is under way)."""


def take_back_the_entry_before(peer) -> bool:
    """At its turn, the hostile seat signs a takeback of the last entry of the chain (not a move of its own),
    once (its session, which did not read its own lie, would see its turn again and lie again)."""
    session = peer.session
    if len(session.chain) < AFTER or session.chain[-1].author == peer.me.public and not any(
            e.kind == TAKEBACK for e in session.chain):
        return False        # (a takeback of its own last move would be sound: it waits for the start of a turn)
    if not any(e.kind == TAKEBACK for e in session.chain):
        session.writer.write(session.state, TAKEBACK, {"to": session.chain[-2].hash})
    peer._report(session.state.flush())
    return True


@pytest.mark.parametrize("undo, words", [("off", "this table takes nothing back"),
                                         ("ask", "takeback: ")], ids=["table-without-undo", "not-its-own-move"])
async def test_a_takeback_the_rules_refuse_ends_the_game_naming_its_author(tmp_path, undo, words):
    table = Table(tmp_path, 3, hostile=1, honest_options=dataclasses.replace(FAST, undo=undo))
    table.cheat.at_turn = take_back_the_entry_before
    sessions = await table.play(timeout=40.0)
    for i in table.honest:
        result = sessions[i].result
        assert isinstance(result, Aborted) and result.culprit == 1, (result.reason, table.seen[i].lines[-8:])
        assert "seat 2's takeback" in result.reason and words in result.reason, result.reason
    reports = assert_no_honest_seat_named(table)
    assert all(r.ok and r.culprit == 2 for r in reports.values()), reports
