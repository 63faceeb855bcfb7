"""Watching a running table from the lobby: listed with its game, seats and moves; Enter or a click
opens the watch screen (public board, moves in words, who watches, the table chat)."""

from __future__ import annotations

import dataclasses

import pytest
from textual.widgets import Static

from lanterne.client.screens.lobby import LobbyScreen
from lanterne.client.screens.watch import WatchScreen
from lanterne.client.widgets.chat import ChatInput, ChatPane
from lanterne.client.widgets.link_banner import LinkBanner
from lanterne.client.widgets.peers import PeerList
from lanterne.client.widgets.replay_board import ReplayBoard
from tests.support.lobby import FAST, click_move, lobby_app, seated, turn_of, unique
from tests.support.waiting import until


def running_line(pilot) -> int | None:
    """The index of the lobby's line of a table under way, if listed."""
    peers = pilot.app.screen.query_one(PeerList)
    for i in range(peers.option_count):
        if "under way" in str(peers.get_option_at_index(i).prompt):
            return i
    return None


@pytest.mark.slow
async def test_a_running_table_is_listed_and_watched_from_the_lobby_by_keyboard_and_mouse(tmp_path):
    ann, bob, eve = unique("Ann"), unique("Bob"), unique("Eve")
    anyone = dataclasses.replace(FAST, spectators="everyone")    # (asking first: tests/client/test_watchers_banner)
    app_a = lobby_app(ann, tmp_path / "a", options=anyone)
    app_b = lobby_app(bob, tmp_path / "b", options=anyone)
    app_e = lobby_app(eve, tmp_path / "e")
    async with app_a.run_test(size=(120, 40)) as pa, app_b.run_test(size=(120, 40)) as pb, \
            app_e.run_test(size=(120, 40)) as pe:
        screens = await seated(pa, pb, ann, bob)
        mover, _ = await _turn(screens, pa, pb)
        await click_move(mover, "+1")

        # Eve's lobby lists the table: its game, its seats, its moves (one line, whichever player says it)
        await until(lambda: running_line(pe) is not None and "1 move" in _line(pe), pa, pb, pe,
                    what="the running table in Eve's lobby")
        line = _line(pe)
        assert "Toy under way:" in line and ann in line and bob in line and "Enter or w: watch" in line
        # one line for the table, whichever player's record came first (both advertise it; under load the
        # second can be heard a moment before its table id, so the list settles to one line)
        await until(lambda: sum("under way" in str(pe.app.screen.query_one(PeerList).get_option_at_index(i).prompt)
                                for i in range(pe.app.screen.query_one(PeerList).option_count)) == 1,
                    pa, pb, pe, what="one line for the table")

        # by keyboard: the line highlighted, Enter
        peers = pe.app.screen.query_one(PeerList)
        peers.focus()
        peers.highlighted = running_line(pe)
        await pe.press("enter")
        await until(lambda: isinstance(pe.app.screen, WatchScreen), pe, what="the watch screen")
        watch: WatchScreen = pe.app.screen
        await until(lambda: watch.moves and watch.spectator.session.game is not None, pa, pb, pe,
                    what="the moves so far")
        assert any(f"P1 {ann}" in m or f"P2 {bob}" in m for m in watch.moves) and any("+1" in m for m in watch.moves)
        board = str(watch.query_one(ReplayBoard).query_one("#replay-picture", Static).render())
        assert "Toy" in board and ann[:24] in board, "the public board"
        who = str(watch.query_one("#watch-who", Static).render())
        assert "Playing:" in who and f"P1 {ann}" in who and f"P2 {bob}" in who and f"Watching: you ({eve})" in who
        assert "▶" in who, "whose turn it is"
        scores = screens[pa].controller.scores()
        assert f"P1 {ann}  {scores[0]}" in who and f"P2 {bob}  {scores[1]}" in who, "each seat's score"
        await until(lambda: "to play" in str(watch.query_one("#watch-status", Static).render()), pa, pb, pe,
                    what="whose turn in the status line")
        host = screens[pa].controller
        players = [screens[pa].controller, screens[pb].controller]     # (Eve watches through either one)
        await until(lambda: all(eve in c.watching for c in players), pa, pb, pe,
                    what="both players see Eve (the other one from the signed notice of the one she watches)")
        assert all(f"watching: {eve}" in screens[p].query_one(LinkBanner).text for p in (pa, pb))
        # and Ann's lobby (under her board) lists Eve as watching this table (through Ann or Bob), not "in the lobby"
        ann_lobby = next(s for s in pa.app.screen_stack if isinstance(s, LobbyScreen))
        await until(lambda: any(a.name == eve and a.watching in (ann, bob)
                                for a in ann_lobby.query_one(PeerList).adverts.values()), pa, pb, pe,
                    what="Eve's advert saying whose table she watches")
        through = next(a.watching for a in ann_lobby.query_one(PeerList).ordered() if a.name == eve)
        eve_line = next(str(ann_lobby.query_one(PeerList).get_option_at_index(i).prompt)
                        for i, a in enumerate(ann_lobby.query_one(PeerList).ordered()) if a.name == eve)
        assert f"watching {through}'s table" in eve_line and "in the lobby" not in eve_line, eve_line

        # a move made now is shown in words
        mover, _ = await _turn(screens, pa, pb)
        await click_move(mover, "+2")
        await until(lambda: any("+2" in m for m in watch.moves), pa, pb, pe, what="the new move")
        watch._say("Cannot reach the table: trying again")       # a link message, then the link is back
        mover, _ = await _turn(screens, pa, pb)
        await click_move(mover, "+1")
        await until(lambda: "to play" in str(watch.query_one("#watch-status", Static).render()), pa, pb, pe,
                    what="the next move replaces a stale link message")

        # the table chat, both ways
        await pe.press("f3")
        assert isinstance(pe.app.focused, ChatInput)
        await pe.press(*"go Ann!", "enter")
        await until(lambda: any(x.text == "go Ann!" and x.seat is None for x in host.chat), pa, pb, pe,
                    what="Ann hears Eve")
        assert str(host.chat[-1]) == f"chat: {eve} (watching): go Ann!"
        host.send_chat("thanks")
        await until(lambda: [x.text for x in watch.query_one(ChatPane).lines] == ["go Ann!", "thanks"],
                    pa, pb, pe, what="Eve hears Ann")

        # Escape back to the lobby, then by mouse: a click on the line
        await pe.press("escape")      # (the chat input first lets go of the cursor)
        assert not isinstance(pe.app.focused, ChatInput)
        await pe.press("escape")
        await until(lambda: isinstance(pe.app.screen, LobbyScreen), pe, what="back in the lobby")
        await until(lambda: not any(eve in c.watching for c in players), pa, pb, pe,
                    what="Eve left the banner")
        await until(lambda: running_line(pe) is not None, pa, pb, pe, what="the line again")
        peers = pe.app.screen.query_one(PeerList)
        peers.scroll_home(animate=False)
        await pe.pause()
        top = peers.content_region.y - peers.region.y          # the list's border
        line = peers._index_to_line[running_line(pe)] - round(peers.scroll_y)   # (a long line wraps)
        assert await pe.click(peers, offset=(4, top + line))
        await until(lambda: isinstance(pe.app.screen, WatchScreen), pe, what="the watch screen by mouse")
        await until(lambda: any("+2" in m for m in pe.app.screen.moves), pa, pb, pe, what="caught up again")
        if isinstance(pe.app.focused, ChatInput):
            await pe.press("escape")      # the chat input lets go of the cursor first
        await pe.press("escape")
        await until(lambda: isinstance(pe.app.screen, LobbyScreen), pe)


def _line(pilot) -> str:
    i = running_line(pilot)
    return "" if i is None else str(pilot.app.screen.query_one(PeerList).get_option_at_index(i).prompt)


async def _turn(screens, pa, pb):
    await until(lambda: turn_of(screens) is not None, pa, pb, what="someone's turn")
    return turn_of(screens)
