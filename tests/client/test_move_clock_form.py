"""A table sets its move clock in the lobby's form: signed in the table, shown in the lobby and on the board.

Without one, a linked player who never moves holds the table forever: nobody may claim against a seat
whose link is up. Ten minutes a move is the default, generous for friends.
"""

from __future__ import annotations

from textual.widgets import Select

from lanterne.client.screens.lobby import DEFAULT_MOVE_CLOCK, LobbyScreen
from tests.support.lobby import seated, two_players
from tests.support.waiting import until


async def test_the_default_move_clock_is_signed_in_the_table_and_shown(tmp_path) -> None:
    async with two_players(tmp_path, (80, 24), (80, 24)) as (pa, pb, ann, bob):
        lobby = pa.app.screen
        assert isinstance(lobby, LobbyScreen)
        assert lobby.query_one("#lan-move-clock", Select).value == DEFAULT_MOVE_CLOCK == 600.0
        screens = await seated(pa, pb, ann, bob)
        for screen in screens.values():
            session = screen.controller.peer.session
            await until(lambda: session.move_clock is not None, pa, pb, what="the signed table")
            assert session.move_clock == 600.0
            assert "a move takes at most 10 min" in screen.controller.policy_text()
        assert lobby.settings.move_clock == 600.0, "kept for the next table"


async def test_no_limit_in_the_form_signs_no_move_clock(tmp_path) -> None:
    async with two_players(tmp_path, (80, 24), (80, 24)) as (pa, pb, ann, bob):
        lobby = pa.app.screen
        lobby.query_one("#lan-move-clock", Select).value = 0.0
        screens = await seated(pa, pb, ann, bob)
        for screen in screens.values():
            await until(lambda: screen.controller.peer.session.seats, pa, pb, what="the table")
            assert screen.controller.peer.session.move_clock is None
        assert lobby.settings.move_clock == 0.0, "kept for the next table"
