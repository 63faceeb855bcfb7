"""A rematch on the LAN: from the game-over dialog every seat is asked; when all agree, a new table of the same
players and options starts (a fresh table id, a new deal); a refusal or a player gone is said in one line."""

from __future__ import annotations

from lanterne.client.net_controller import NetworkGame
from lanterne.client.screens.dialogs import GameOverScreen
from lanterne.client.screens.game import GameScreen
from tests.support.lobby import play_to_the_end, seated, two_players
from tests.support.waiting import until


async def finished(pa, pb, ann, bob) -> dict:
    screens = await seated(pa, pb, ann, bob)
    controllers = [s.controller for s in screens.values()]
    await play_to_the_end([pa, pb], controllers)
    await until(lambda: all(isinstance(p.app.screen, GameOverScreen) for p in (pa, pb)), pa, pb,
                what="both game-over dialogs")
    for p in (pa, pb):
        await p.pause()
        assert p.app.screen.query("#game-over-rematch"), "the dialog offers a rematch"
    return screens


async def test_when_both_agree_a_new_table_of_the_same_players_starts(tmp_path):
    async with two_players(tmp_path, (80, 24), (120, 40)) as (pa, pb, ann, bob):
        screens = await finished(pa, pb, ann, bob)
        old = {p: s.controller for p, s in screens.items()}
        await pa.press("m")
        await until(lambda: "waiting for" in str(screens[pa].query_one("#status").render()), pa, pb,
                    what="Ann waits for Bob's answer")
        assert bob in str(screens[pa].query_one("#status").render())
        await pb.press("m")
        await until(lambda: all(isinstance(p.app.screen, GameScreen) and p.app.screen.controller is not old[p]
                                for p in (pa, pb)), pa, pb, what="both on the new table")
        new = {p: p.app.screen.controller for p in (pa, pb)}
        assert all(isinstance(c, NetworkGame) for c in new.values())
        await until(lambda: all(c.board_ready and c.seats for c in new.values()), pa, pb, what="the new deal")
        assert new[pa].peer.table_id == new[pb].peer.table_id != old[pa].peer.table_id, "a fresh table"
        assert {s.name for s in new[pa].seats} == {ann, bob} == {s.name for s in old[pa].seats}
        assert new[pa].game.id == old[pa].game.id and new[pa].variant == old[pa].variant
        assert new[pa].peer.is_host and not new[pb].peer.is_host
        assert new[pa].peer.session.move_clock == old[pa].peer.session.move_clock, "the same options"
        await play_to_the_end([pa, pb], list(new.values()))     # and it plays to its end


async def test_a_refusal_is_said_in_one_line(tmp_path):
    async with two_players(tmp_path, (120, 40), (120, 40)) as (pa, pb, ann, bob):
        screens = await finished(pa, pb, ann, bob)
        await pb.press("m")
        await pa.press("h")                       # Ann goes home: no rematch
        await until(lambda: f"No rematch: {ann} declined." in str(screens[pb].query_one("#status").render()), pa, pb,
                    what="Bob reads Ann's no")
        assert pb.app.screen is screens[pb], "Bob's board stays"


async def test_a_player_who_left_the_table_says_no(tmp_path):
    """Ann resigns (her board closes): Bob's Rematch hears no at once, never waits for her."""
    async with two_players(tmp_path, (120, 40), (120, 40)) as (pa, pb, ann, bob):
        screens = await seated(pa, pb, ann, bob)
        await pa.press("escape")
        await pa.pause()
        await pa.press("r")
        await pa.pause()
        await pa.press("y")
        await until(lambda: isinstance(pb.app.screen, GameOverScreen), pa, pb, what="Bob's game-over dialog")
        assert not isinstance(pa.app.screen, GameOverScreen), "Ann left: no dialog over her lobby"
        await pb.pause()
        await pb.press("m")
        await until(lambda: f"No rematch: {ann} declined." in str(screens[pb].query_one("#status").render()), pa, pb,
                    what="Bob reads Ann's no")
