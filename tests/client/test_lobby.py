"""Pilot tests of the LAN lobby, its peer list, and the invitation dialogs (no game played here)."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from textual.widgets import Select

from lanterne.client import i18n
from lanterne.client.app import LanterneApp
from lanterne.client.net_controller import failure_text
from lanterne.client.screens.home import HomeScreen
from lanterne.client.screens.invite import InviteScreen, JoinAddressScreen
from lanterne.client.screens.lobby import LobbyScreen
from lanterne.client.settings import Settings
from lanterne.client.widgets.peers import EMPTY, PeerList
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity, safety_code
from lanterne.protocol.net.discovery import Advert, Discovery, TableHint
from tests.support.toy_game import GAME as TOY
from tests.support.waiting import until

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
        variant = lobby.query_one("#lan-variant", Select)
        await until(lambda: len(variant._options) - variant._allow_blank == len(pagode.variants), pilot,
                    what="Pagode's variants in the list")
        assert variant.value == "standard"

        full = advert("Cid", "AAAA-1111", TableHint("pagode", "standard", 0))
        bare = advert("Dee", "BBBB-2222", None)
        open_ = advert("Eve", "CCCC-3333", TableHint("toy", "standard", 1))
        # an app idle in its lobby advertises itself (port 0); an app hosting a table advertises both:
        # one line per key, the table's
        idle = Advert("Fay", "DDDD-4444", 0, ("10.0.0.8",), instance="Fay lobby", lobby=True)
        eve_lobby = Advert("Eve", "CCCC-3333", 0, ("10.0.0.9",), instance="Eve lobby", lobby=True)
        for a in (full, bare, eve_lobby, open_, idle, advert("Me", ME.fingerprint, TableHint("toy", "standard", 1)),
                  Advert("Me", ME.fingerprint, 0, instance="Me lobby", lobby=True)):
            peers.put(a)
        await pilot.pause()
        lines = [str(peers.get_option_at_index(i).prompt) for i in range(peers.option_count)]
        # open tables first; never ourselves
        assert [line.split()[0] for line in lines] == ["Eve", "Cid", "Dee", "Fay"], lines
        assert "toy (standard): 1 free seat" in lines[0] and "10.0.0.9:4000" in lines[0]
        assert "table full" in lines[1] and "seated at a table" in lines[2]
        assert lines[3] == "Fay  DDDD-4444  10.0.0.8  in the lobby"

        assert await pilot.click(peers, offset=(2, 2))  # Cid: full
        assert lobby.status_text == "Cid's table is full." and lobby.pending is None
        assert await pilot.click(peers, offset=(2, 3))  # Dee: no table
        assert lobby.status_text == "Dee has no open table."
        assert await pilot.click(peers, offset=(2, 4))  # Fay: in her lobby
        assert lobby.status_text == "Fay is in the lobby, with no open table."
        # Eve closes her table: her lobby's line stays; Fay quits: her line goes
        peers.forget(open_)
        peers.forget(idle)
        await pilot.pause()
        lines = [str(peers.get_option_at_index(i).prompt) for i in range(peers.option_count)]
        assert [line.split()[0] for line in lines] == ["Cid", "Dee", "Eve"] and lines[2].endswith("in the lobby")
        peers.forget(eve_lobby)
        peers.put(open_)

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
            await zc.close()
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
    from lanterne.protocol.net.handshake import HandshakeError
    from lanterne.protocol.net.invite import Declined
    from lanterne.protocol.net.transport import LinkClosed
    from lanterne.protocol.wire import ProtocolError

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


async def test_an_idle_lobby_is_seen_by_others_and_sees_them_and_its_quit_is_a_goodbye(tmp_path):
    """Everyone with the app open is listed, with or without a table; quitting withdraws it (a plain
    browser drops a record only on its goodbye: zeroconf keeps a PTR for its TTL, at least 1125 s)."""
    name = f"Ida-{uuid.uuid4().hex[:6]}"
    me, other = Identity.generate(), Identity.generate()
    app = app_on(lambda: LobbyScreen(identity=me, interfaces=["127.0.0.1"], log_dir=tmp_path, games=[TOY]), name=name)
    gone: list[Advert] = []

    def removed(a: Advert) -> None:
        if a.fingerprint == me.fingerprint:
            gone.append(a)

    async with Discovery(["127.0.0.1"], on_remove=removed) as browser, Discovery(["127.0.0.1"]) as oli:
        await browser.browse()
        await oli.advertise(Advert(f"Oli-{name}", other.fingerprint, 0, lobby=True))   # another idle lobby
        async with app.run_test(size=(120, 40)) as pilot:
            peers = app.screen.query_one(PeerList)

            def oli_line() -> str:
                lines = [str(peers.get_option_at_index(i).prompt) for i in range(peers.option_count)]
                return next((line for line in lines if line.startswith(f"Oli-{name}")), "")

            await until(lambda: oli_line() != "", pilot, what="the other lobby")
            assert oli_line() == f"Oli-{name}  {other.fingerprint}  127.0.0.1  in the lobby"
            seen = await browser.wait_for(lambda a: a.fingerprint == me.fingerprint, timeout=20)
            assert (seen.name, seen.lobby, seen.table, seen.port) == (name, True, None, 0)
        await until(lambda: gone, what="the quitting lobby's goodbye")


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_the_lobby_at_80x24_one_join_line_labels_on_one_row_buttons_in_view(tmp_path, language, request):
    """Open a table at 80x24, in English and in French (longer words): the form's labels do not wrap, the
    buttons show their whole words, the join line shows once."""
    i18n.set_language(language)
    request.addfinalizer(lambda: i18n.set_language("en"))
    app = app_on(lambda: LobbyScreen(identity=ME, interfaces=["127.0.0.1"], log_dir=tmp_path, discover=False,
                                     games=[get_game("pueblo"), TOY]))
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        await pilot.press("o")
        await until(lambda: lobby.pending is not None and lobby.pending.listening is not None, pilot)
        await pilot.pause()
        screen = lobby.region
        for label in lobby.query(".lobby-label"):
            assert label.region.height == 1 and label.region.width >= len(str(label.render()))
        for select in lobby.query("#lobby-open Select"):
            assert select.region.height == 1 and select.region.right <= screen.right
        for button in ("#open-table", "#close-table", "#join-address"):
            widget = lobby.query_one(button)
            region = widget.region
            assert region.height == 1 and screen.contains_region(region), button
            assert region.width >= len(widget.label.plain) + 2, f"{widget.label.plain!r} is cut"   # line-pad 1
        assert len(lobby.query("#join-address")) == 1
        assert lobby.query_one("#lobby-status").region.bottom <= screen.bottom - 1   # above the footer
        lobby.action_close_table()
        await pilot.pause()


def test_the_lobby_at_80x24(snap_compare, tmp_path):
    """The lobby at 80x24 (the smallest supported terminal): someone in the lobby, an open table, a seated player."""
    me = Identity.from_seed(bytes(range(32)))

    async def run_before(pilot):
        lobby = pilot.app.screen
        peers = lobby.query_one(PeerList)
        peers.put(Advert("Bea", "1e19-4fa7-00df-7dc1", 0, ("192.0.2.7",), instance="Bea lobby", lobby=True))
        peers.put(Advert("Cid", "77b0-92aa-3c1d-0e55", 41234, ("192.0.2.9",), instance="Cid",
                         table=TableHint("pueblo", "standard", 2, 4)))
        peers.put(Advert("Dee", "0c3e-5d17-a9f2-8b40", 40771, ("192.0.2.4",), instance="Dee"))
        lobby.say("Bea is in the lobby, with no open table.", error=True)
        await pilot.pause()

    app = app_on(lambda: LobbyScreen(identity=me, interfaces=["192.0.2.2"], log_dir=tmp_path, discover=False,
                                     games=[get_game("pueblo"), get_game("pagode")]))
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
