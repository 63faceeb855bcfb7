"""Pilot tests of the LAN lobby, its peer list, and the invitation dialogs (no game played here)."""

from __future__ import annotations

import asyncio
import uuid

from textual.widgets import Select

from client.app import LanterneApp
from client.net_controller import failure_text
from client.screens.home import HomeScreen
from client.screens.invite import InviteScreen, JoinAddressScreen
from client.screens.lobby import LobbyScreen
from client.settings import Settings
from client.widgets.peers import EMPTY, PeerList
from engines.registry import get_game
from protocol.identity import Identity, safety_code
from protocol.net.discovery import Advert, Discovery, TableHint
from tests.client.test_lan_game import until
from tests.client.toy_game import GAME as TOY

CODE = safety_code(Identity.from_seed(b"ann").public, Identity.from_seed(b"bob").public)

ME = Identity.generate()


def app_on(screen_factory, name: str = "Ann") -> LanterneApp:
    return LanterneApp(settings=Settings(display_name=name, computer_delay=0.0), start=screen_factory)


def advert(name: str, fp: str, table: TableHint | None, port: int = 4000) -> Advert:
    return Advert(name, fp, port, ("10.0.0.9",), table=table, instance=f"{name}.{fp}")


async def test_the_lobby_lists_peers_and_tables_says_why_one_cannot_be_joined_and_opens_and_closes_a_table(tmp_path):
    pagode = get_game("pagode")
    app = app_on(lambda: LobbyScreen(identity=ME, interfaces=["127.0.0.1"], log_dir=tmp_path, discover=False,
                                     games=[TOY, pagode]))
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        me = str(lobby.query_one("#lobby-me").render())
        assert me == f"You: Ann (key {ME.fingerprint}) on 127.0.0.1"
        peers = lobby.query_one(PeerList)
        assert peers.option_count == 1 and str(peers.get_option_at_index(0).prompt) == EMPTY

        # the variant list follows the chosen game
        lobby.query_one("#lan-game", Select).value = "pagode"
        await pilot.pause()
        variant = lobby.query_one("#lan-variant", Select)
        assert variant.value == "standard" and len(variant._options) - variant._allow_blank == len(pagode.variants)

        full = advert("Cid", "AAAA-1111", TableHint("pagode", "standard", 0))
        bare = advert("Dee", "BBBB-2222", None)
        open_ = advert("Eve", "CCCC-3333", TableHint("toy", "standard", 1))
        for a in (full, bare, open_, advert("Me", ME.fingerprint, TableHint("toy", "standard", 1))):
            peers.put(a)
        await pilot.pause()
        lines = [str(peers.get_option_at_index(i).prompt) for i in range(peers.option_count)]
        assert [line.split()[0] for line in lines] == ["Eve", "Cid", "Dee"]  # open tables first; never ourselves
        assert "toy standard: 1 free seat" in lines[0] and "10.0.0.9:4000" in lines[0]
        assert "table full" in lines[1] and "no open table" in lines[2]

        assert await pilot.click(peers, offset=(2, 2))  # Cid: full
        assert lobby.status_text == "Cid's table is full." and lobby.pending is None
        assert await pilot.click(peers, offset=(2, 3))  # Dee: no table
        assert lobby.status_text == "Dee has no open table."

        peers.put(advert("Cid", "AAAA-1111", TableHint("pagode", "standard", 1)))  # an update
        peers.forget(bare)
        await pilot.pause()
        lines = [str(peers.get_option_at_index(i).prompt) for i in range(peers.option_count)]
        assert len(lines) == 2 and all("1 free seat" in line for line in lines)


        # open a table: its address shows; escape closes it (and stops listening), a second escape goes home
        await pilot.press("o")
        await until(lambda: lobby.pending is not None and lobby.pending.listening is not None, pilot)
        controller = lobby.pending
        ip, port = controller.listening
        assert ip == "127.0.0.1" and f"open at 127.0.0.1:{port}" in lobby.status_text
        await pilot.press("o")
        assert "already have a table open" in lobby.status_text
        await pilot.press("escape")
        assert lobby.pending is None and lobby.status_text == "Table closed." and app.screen is lobby
        await until(lambda: controller._task.done(), pilot)
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            pass  # nobody listens any more
        else:
            writer.close()
            raise AssertionError("the closed table still listens")
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


async def test_a_peer_advertising_on_127_0_0_1_appears_in_the_lobby_and_leaves_it(tmp_path):
    app = app_on(lambda: LobbyScreen(identity=ME, interfaces=["127.0.0.1"], log_dir=tmp_path, games=[TOY]))
    name = f"Zed-{uuid.uuid4().hex[:6]}"
    other = Identity.generate()
    async with app.run_test(size=(120, 40)) as pilot:
        peers = app.screen.query_one(PeerList)
        async with Discovery(["127.0.0.1"]) as zc:
            await zc.advertise(Advert(name, other.fingerprint, 4321, table=TableHint("toy", "standard", 1)))
            await until(lambda: any(a.name == name for a in peers.adverts.values()), pilot, what="the advert")
            heard = next(a for a in peers.adverts.values() if a.name == name)
            assert heard.fingerprint == other.fingerprint and heard.port == 4321 and heard.table.free == 1
            await zc.withdraw()
            await until(lambda: all(a.name != name for a in peers.adverts.values()), pilot, what="the goodbye")


async def test_by_default_the_lobby_uses_the_saved_name_identity_and_log_folder_and_says_when_no_lan_is_found(
        tmp_path, monkeypatch):
    monkeypatch.setenv("LANTERNE_HOME", str(tmp_path))
    app = app_on(lambda: LobbyScreen(interfaces=[], games=[TOY]), name="Flo")
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = app.screen
        me = Identity.load_or_create(tmp_path)
        assert str(lobby.query_one("#lobby-me").render()) == f"You: Flo (key {me.fingerprint}) on no LAN interface found"
        assert lobby.log_dir == tmp_path / "games"
        assert lobby.status_text.startswith("No LAN interface found")
        await pilot.press("o")
        assert lobby.status_text == "Cannot open a table: no LAN interface found." and lobby.pending is None
        assert lobby.query_one("#lobby-status").has_class("-error")
        await pilot.press("r")
        assert lobby.status_text == "No unfinished network game in the log folder."


async def test_the_invitation_dialog_shows_who_and_the_code_and_answers_by_key_or_click(tmp_path):
    answers: list = []
    app = app_on(None)
    async with app.run_test(size=(100, 30)) as pilot:
        for keys in (["a"], ["click-decline"]):
            dialog = InviteScreen("Bob", "ABCD-EF01", "127.0.0.1:5000", CODE, "Toy, standard")
            await app.push_screen(dialog, answers.append)
            await pilot.pause()
            texts = " ".join(str(w.render()) for w in dialog.query("Static"))
            assert "Bob asks to sit at your table (Toy, standard)" in texts
            assert "ABCD-EF01" in texts and "127.0.0.1:5000" in texts and "Safety code  " + CODE[:35] + "\n" + " " * 13 + CODE[36:] in texts
            if keys == ["click-decline"]:
                assert await pilot.click("#invite-decline")
            else:
                await pilot.press(*keys)
            await pilot.pause()
        assert answers == [True, False]

        results: list = []
        for text, keys in (("10.0.0.2:4100", ["enter"]),):
            dialog = JoinAddressScreen()
            await app.push_screen(dialog, results.append)
            await pilot.pause()
            if text:
                for bad in ("10.0.0.2", "host:99999"):
                    dialog.query_one("#address-input").value = bad
                    await pilot.press("enter")
                    assert "Not HOST:PORT" in str(dialog.query_one("#address-error").render())
                dialog.query_one("#address-input").value = text
            await pilot.press(*keys)
            await pilot.pause()
        assert results == [("10.0.0.2", 4100)]


def test_every_network_failure_is_one_readable_line():
    from protocol.net.handshake import HandshakeError
    from protocol.net.invite import Declined
    from protocol.net.transport import LinkClosed
    from protocol.wire import ProtocolError

    cases = {
        Declined("Ann declined: the host declined"): "Not seated: Ann declined: the host declined",
        LinkClosed("cannot connect to 10.0.0.1:9: refused"): "Cannot reach the host (cannot connect to 10.0.0.1:9: refused)",
        LinkClosed("timeout"): "The link closed: timeout",
        HandshakeError("handshake: wrong key"): "The other side did not prove who it is: handshake: wrong key",
        ConnectionRefusedError(111, "refused"): "Nobody is listening at that address (connection refused)",
        OSError(113, "No route to host"): "Network error: No route to host",
        ProtocolError("entry 3: bad\nsecond line", 1): "entry 3: bad",
        KeyError("x"): "The network game stopped: KeyError: 'x'",
    }
    for error, text in cases.items():
        assert failure_text(error) == text
        assert "\n" not in failure_text(error)


async def test_a_bad_interface_is_one_line_in_the_lobby(tmp_path):
    app = app_on(lambda: LobbyScreen(identity=ME, interfaces=["not-an-ip"], log_dir=tmp_path, games=[TOY]))
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = app.screen
        await until(lambda: lobby.status_text != "", pilot, what="the error")
        assert lobby.status_text == "Cannot look for players on the LAN: not an IPv4 interface address: 'not-an-ip'"
