"""The app's "Invite over the internet" and "Join with a code": two lobby apps, a toy game by code (local
mailbox and relay, relay only), played by clicks to the end; a wrong code and a code nobody waits on."""

from __future__ import annotations

import pytest

from lanterne.client.screens.game import GameScreen
from lanterne.client.screens.invite import InviteScreen
from lanterne.client.screens.lobby import LobbyScreen
from lanterne.client.screens.online import InviteCodeScreen, JoinCodeScreen
from lanterne.protocol.log import read_log
from lanterne.protocol.net.online.control import CODE_FORM
from lanterne.protocol.net.online.words import complete
from tests.support.lobby import lobby_app, play_by_clicks, unique
from tests.support.waiting import until

WAIT = 60.0


def on_local_servers(pilot, servers) -> LobbyScreen:
    lobby = pilot.app.screen
    assert isinstance(lobby, LobbyScreen)
    lobby.online_servers, lobby.online_direct = servers, False
    return lobby


async def type_code(pilot, code: str) -> None:
    """Type ``code`` as a person would: the first letters of each word, Tab completes it."""
    await until(lambda: isinstance(pilot.app.screen, JoinCodeScreen), pilot, what="the code dialog")
    await pilot.pause()
    number, *words = code.split("-")
    typed = number + "-"
    await pilot.press(*typed)
    for word in words:        # the fewest letters that name the word, then Tab (or the whole word and a dash)
        letters = next((word[:n] for n in range(1, len(word)) if complete(typed + word[:n]) == typed + word), None)
        await pilot.press(*letters, "tab") if letters else await pilot.press(*word, "minus")
        typed += word + "-"
    field = pilot.app.screen.query_one("#join-code-input")
    assert field.value == code + "-"          # each word completed, a dash for the next
    await pilot.press("enter")


async def test_a_friend_joins_by_the_code_the_host_shows_and_they_play_to_the_end(tmp_path, servers):
    app_a = lobby_app(unique("Ann"), tmp_path / "a", discover=False)
    app_b = lobby_app(unique("Bob"), tmp_path / "b", discover=False)
    async with app_a.run_test(size=(120, 40)) as pa, app_b.run_test(size=(120, 40)) as pb:
        host_lobby, guest_lobby = on_local_servers(pa, servers), on_local_servers(pb, servers)
        assert await pa.click("#open-table")
        await until(lambda: host_lobby.pending is not None and host_lobby.pending.listening is not None, pa,
                    what="the table open")
        await pa.press("i")
        await until(lambda: isinstance(pa.app.screen, InviteCodeScreen) and pa.app.screen.code, pa, timeout=WAIT,
                    what="the code shown")
        code = pa.app.screen.code
        assert CODE_FORM.fullmatch(code) and code in str(pa.app.screen.query_one("#invite-code").render())
        assert code in host_lobby.status_text
        await pb.press("k")
        await type_code(pb, code)
        # no join dialog on the host's side: the code was the invitation, and it proved the key
        def boards() -> bool:
            assert not isinstance(pa.app.screen, InviteScreen), "the host was asked to decide"
            return isinstance(pa.app.screen, GameScreen) and isinstance(pb.app.screen, GameScreen)

        await until(boards, pa, pb, timeout=WAIT, what="both boards")
        screens = {pa: pa.app.screen, pb: pb.app.screen}
        await play_by_clicks(screens)
        ga, gb = screens[pa].controller, screens[pb].controller
        await until(lambda: ga.is_over() and gb.is_over(), pa, pb, what="the end on both")
        logs = [read_log(c.peer.files.log_path)[0] for c in (ga, gb)]
        assert logs[0] == logs[1] and len(logs[0]) > 5


@pytest.mark.parametrize("typed, said", [("nonsense", "is not a code"), ("5-nobody-here", "nobody is waiting on")])
async def test_a_code_that_is_no_code_or_that_nobody_waits_on_is_one_line(tmp_path, servers, typed, said):
    app = lobby_app(unique("Bob"), tmp_path / "b", discover=False)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = on_local_servers(pilot, servers)
        assert await pilot.click("#join-code")
        await until(lambda: isinstance(pilot.app.screen, JoinCodeScreen), pilot)
        await pilot.pause()
        pilot.app.screen.query_one("#join-code-input").value = typed
        await pilot.press("enter")
        if said == "is not a code":       # refused in the dialog, before anything is started
            error = str(pilot.app.screen.query_one("#join-code-error").render())
            assert said in error and len(error.splitlines()) == 1
            return
        await until(lambda: said in lobby.status_text, pilot, timeout=WAIT, what="the failure said")
        assert len(lobby.status_text.splitlines()) == 1 and lobby.pending is None


async def test_an_invitation_without_a_mailbox_says_so_and_the_table_stays_open(tmp_path, servers, refused_port):
    from lanterne.protocol.net.online.servers import Servers

    app = lobby_app(unique("Ann"), tmp_path / "a", discover=False)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = on_local_servers(pilot, Servers(mailbox=f"ws://127.0.0.1:{refused_port}/v1", relay=servers.relay))
        await pilot.press("i")                      # no table yet: the form's table opens, then gets its code
        await until(lambda: lobby.pending is not None and lobby.pending.listening is not None, pilot)
        await until(lambda: "no internet here" in lobby.status_text, pilot, timeout=WAIT, what="the failure said")
        assert lobby.status_text.endswith("your table stays open on the LAN.") and lobby.pending is not None
        dialog = pilot.app.screen
        assert isinstance(dialog, InviteCodeScreen)
        assert "no internet here" in str(dialog.query_one("#invite-code-status").render())
