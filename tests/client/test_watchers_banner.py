"""The players see who watches their table: a table of a game with hidden hands asks its player first (a
question on the game screen, yes or no), then the spectator appears in the network banner and goes."""

from __future__ import annotations

import asyncio

import pytest

from lanterne.client.screens.dialogs import ConfirmScreen
from lanterne.client.widgets.link_banner import LinkBanner
from lanterne.protocol.identity import Identity
from lanterne.protocol.net.invite import Declined
from lanterne.protocol.net.watchers import Spectator
from lanterne.engines.registry import get_game
from tests.support.lobby import lobby_app, seated, unique
from tests.support.toy_game import GAME as TOY
from tests.support.waiting import until

EVE = Identity.from_seed(b"banner-spectator")
MALLORY = Identity.from_seed(b"banner-spectator-refused")


def asked(pilot, name: str) -> bool:
    screen = pilot.app.screen
    return isinstance(screen, ConfirmScreen) and f"{name} (" in screen.question and "asks to watch" in screen.question


async def test_the_players_see_who_watches_their_table(tmp_path):
    ann, bob = unique("Ann"), unique("Bob")
    app_a = lobby_app(ann, tmp_path / "a")
    app_b = lobby_app(bob, tmp_path / "b")
    async with app_a.run_test(size=(120, 40)) as pa, app_b.run_test(size=(120, 40)) as pb:
        screens = await seated(pa, pb, ann, bob)
        host = screens[pa].controller
        assert host.peer.session.watch_mode == "ask", "the toy game hides hands: the lobby's default asks"
        games = lambda game_id: TOY if game_id == TOY.id else get_game(game_id)  # noqa: E731
        refused = asyncio.ensure_future(Spectator(MALLORY, "Mallory", say=lambda line: None, games=games)
                                        .watch("127.0.0.1", host.peer.port))
        await until(lambda: asked(pa, "Mallory"), pa, pb, what="the host asked about Mallory")
        await pa.press("n")
        with pytest.raises(Declined, match="declined: the player said no"):
            await asyncio.wait_for(refused, 30)
        spectator = Spectator(EVE, "Eve", say=lambda line: None, games=games)
        watching = asyncio.ensure_future(spectator.watch("127.0.0.1", host.peer.port))
        try:
            await until(lambda: asked(pa, "Eve"), pa, pb, what="the host asked about Eve")
            await pa.press("y")
            await until(lambda: "watching: Eve" in screens[pa].query_one(LinkBanner).text, pa, pb,
                        what="Eve in the host's banner")
            assert host.watchers == {EVE.fingerprint: "Eve"}
        finally:
            watching.cancel()
            await asyncio.gather(watching, return_exceptions=True)
        await until(lambda: "watching:" not in screens[pa].query_one(LinkBanner).text, pa, pb,
                    what="Eve gone from the banner")
