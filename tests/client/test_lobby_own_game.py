"""The lobby never offers to watch a game this app is seated at: its line says r resumes it, and Enter
on it says so instead of opening a watch screen; an unfinished game is named by its game's name."""

from __future__ import annotations

import json

from lanterne.client.app import LanterneApp
from lanterne.client.screens.lobby import KnownPeerList, LobbyScreen
from lanterne.client.settings import Settings
from lanterne.protocol.identity import Identity
from lanterne.protocol.net.discovery import Advert, RunningHint
from tests.support.lobby import FAST, LOOPBACK
from tests.support.toy_game import GAME as TOY

TABLE = "ab" * 32


def lobby(me: Identity, folder) -> LanterneApp:
    def start() -> LobbyScreen:
        return LobbyScreen(Settings(display_name="Ann"), identity=me, interfaces=LOOPBACK, log_dir=folder,
                           discover=False, games=[TOY], options=FAST, known_peers=folder / "known.json")

    return LanterneApp(settings=Settings(display_name="Ann", computer_delay=0.0), start=start)


async def test_a_table_one_is_seated_at_is_resumed_not_watched(tmp_path):
    me, bob = Identity.from_seed(b"ann"), Identity.from_seed(b"bob")
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / f"{TABLE}.json").write_text(json.dumps({
        "game": "toy", "role": "host", "seats": [{"key": me.public.hex(), "name": "Ann"},
                                                 {"key": bob.public.hex(), "name": "Bob"}]}))
    app = lobby(me, folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert "Unfinished: Toy with Bob" in str(screen.query_one("#lobby-unfinished").render())
        peers = screen.query_one(KnownPeerList)
        running = RunningHint("toy", names=("Ann", "Bob"), moves=3, table=TABLE[:16])
        peers.put(Advert("Bob", bob.fingerprint, 4000, ("10.0.0.2",), running=running, instance="bob"))
        other = RunningHint("toy", names=("Cy", "Dee"), moves=5, table="cd" * 8)
        peers.put(Advert("Cy", Identity.from_seed(b"cy").fingerprint, 4001, ("10.0.0.3",), running=other,
                         instance="cy"))
        await pilot.pause()
        lines = [str(peers.get_option_at_index(i).prompt) for i in range(peers.option_count)]
        mine = next(line for line in lines if line.startswith("Bob"))
        theirs = next(line for line in lines if line.startswith("Cy"))
        assert "r resumes it" in mine and "watch" not in mine
        assert "Enter or w: watch" in theirs
        peers.focus()
        peers.highlighted = lines.index(mine)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen            # no watch screen for one's own game
        await pilot.press("w")
        await pilot.pause()
        assert app.screen is screen
