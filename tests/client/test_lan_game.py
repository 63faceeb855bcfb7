"""Two Lanterne apps in one process play a LAN game over 127.0.0.1, by clicks.

The host opens a table in its lobby; the guest hears it by zeroconf
(interfaces=["127.0.0.1"], unique names) and clicks it; the host sees the
joiner's name and the safety code in the invitation dialog and clicks
Accept; then each app clicks its moves on the game screen while the other
waits. Both logs end identical. Failures (a declined invitation, nobody at
an address, a cheat) are readable lines in the app, never a traceback.
"""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from textual.widgets import Button, OptionList

from client.app import LanterneApp
from client.net_controller import NetworkGame
from client.screens.dialogs import GameOverScreen
from client.screens.game import GameScreen
from client.screens.invite import InviteScreen, JoinAddressScreen
from client.screens.lobby import LobbyScreen
from client.settings import Settings
from client.widgets.link_banner import LinkBanner
from client.widgets.peers import PeerList
from protocol.identity import Identity
from protocol.net.peer import PeerOptions
from protocol.net.transport import LinkOptions
from tests.client.toy_game import GAME as TOY

LOOPBACK = ["127.0.0.1"]
FAST = PeerOptions(link=LinkOptions(read_timeout=5.0, keepalive=1.0, connect_timeout=2.0),
                   reconnect_every=0.1, linger=0.5)


def lobby_app(name: str, folder, discover: bool = True) -> tuple[LanterneApp, list]:
    """An app opened on the lobby, with its own identity, unique name and log folder."""
    made: list[LobbyScreen] = []

    def start() -> LobbyScreen:
        screen = LobbyScreen(Settings(display_name=name), identity=Identity.generate(), interfaces=LOOPBACK,
                             log_dir=folder, discover=discover, games=[TOY], options=FAST)
        made.append(screen)
        return screen

    return LanterneApp(settings=Settings(display_name=name, computer_delay=0.0), start=start), made


async def until(condition, *pilots, timeout: float = 15.0, what: str = "") -> None:
    """Let both apps run until ``condition()`` holds (an awaited state, never a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}: " + " | ".join(
                f"{type(p.app.screen).__name__}: {getattr(p.app.screen, 'status_text', '')}" for p in pilots))
        for p in pilots:
            await p.pause(0.02)


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


async def click_move(pilot, label: str) -> None:
    """Click the move named ``label`` in the screen's list of legal moves."""
    screen = pilot.app.screen
    moves = screen.query_one("#moves", OptionList)
    labels = [str(moves.get_option_at_index(i).prompt) for i in range(moves.option_count)]
    index = labels.index(label)
    assert await pilot.click(moves, offset=(2, index + 1))
    await pilot.pause()


async def open_and_join(pa, pb, host_name: str, *, by_address: bool = False):
    """Host opens its table; the guest asks for it (by clicking it, or by HOST:PORT). Returns the host's controller."""
    host_lobby = pa.app.screen
    guest_lobby = pb.app.screen
    assert isinstance(host_lobby, LobbyScreen) and isinstance(guest_lobby, LobbyScreen)
    assert await pa.click("#open-table")
    await until(lambda: host_lobby.pending is not None and host_lobby.pending.listening is not None, pa, pb,
                what="the host listening")
    host = host_lobby.pending
    if by_address:
        ip, port = host.listening
        assert await pb.click("#join-address")
        await until(lambda: isinstance(pb.app.screen, JoinAddressScreen), pb)
        pb.app.screen.query_one("#address-input").value = f"{ip}:{port}"
        assert await pb.click("#address-join")
    else:
        peers = guest_lobby.query_one(PeerList)
        await until(lambda: any(a.name == host_name and a.table for a in peers.adverts.values()), pa, pb,
                    what="the host's table heard on the LAN")
        index = [a.name for a in peers.ordered()].index(host_name)
        assert await pb.click(peers, offset=(2, index + 1))  # + 1: the list's top border
    await until(lambda: isinstance(pa.app.screen, InviteScreen), pa, pb, what="the invitation dialog")
    return host


async def test_two_apps_play_a_lan_game_by_clicks_and_end_with_identical_logs(tmp_path):
    ann, bob = unique("Ann"), unique("Bob")
    app_a, _ = lobby_app(ann, tmp_path / "a")
    app_b, _ = lobby_app(bob, tmp_path / "b")
    async with app_a.run_test(size=(120, 40)) as pa, app_b.run_test(size=(120, 40)) as pb:
        host = await open_and_join(pa, pb, ann)
        invite = pa.app.screen
        assert invite.joiner == bob and len(invite.safety_code) > 4
        assert invite.safety_code in str(invite.query_one("#invite-code").render())
        assert await pa.click("#invite-accept")
        await until(lambda: isinstance(pa.app.screen, GameScreen) and isinstance(pb.app.screen, GameScreen),
                    pa, pb, what="both boards")
        screens = {pa: pa.app.screen, pb: pb.app.screen}
        ga, gb = screens[pa].controller, screens[pb].controller
        assert isinstance(gb, NetworkGame) and ga is host
        assert ga.safety_code == gb.safety_code == invite.safety_code
        assert {ga.my_seat, gb.my_seat} == {0, 1}
        for pilot in (pa, pb):
            banner = pilot.app.screen.query_one(LinkBanner)
            assert f"safety code {ga.safety_code}" in banner.text
        moves = 0
        while not (ga.is_over() and gb.is_over()):
            await until(lambda: ga.is_over() or ga.waiting.kind == "human" or gb.waiting.kind == "human",
                        pa, pb, what="someone's turn")
            if ga.is_over() and gb.is_over():
                break
            if ga.waiting.kind != "human" and gb.waiting.kind != "human":
                await until(lambda: gb.is_over(), pa, pb, what="the guest's end")
                break
            mover, waiter = (pa, pb) if ga.waiting.kind == "human" else (pb, pa)
            mc, wc = mover.app.screen.controller, waiter.app.screen.controller
            assert mover.app.screen.status_text().startswith("Your turn")
            who = mc.seats[mc.my_seat].label.split(" ", 1)[0]
            assert f"Waiting for {who}" in wc.status(), wc.status()
            before = len(wc.log)
            await click_move(mover, "+2")
            moves += 1
            await until(lambda: len(wc.log) > before or wc.is_over(), pa, pb, what="the move to arrive")
            banner = screens[waiter].query_one(LinkBanner)
            assert "played:  +2 " in banner.text, banner.text
        await until(lambda: ga.peer.session.over and gb.peer.session.over, pa, pb, what="both sessions over")
        assert moves >= 7  # 7 points at +2 a move: 4 moves for the winner, 3 for the other
        assert ga.status() == gb.status() and ga.status().startswith("Game over")
        await until(lambda: isinstance(pa.app.screen, GameOverScreen) and isinstance(pb.app.screen, GameOverScreen),
                    pa, pb, what="the game-over dialogs")
        log_a = ga.peer.files.log_path
        log_b = gb.peer.files.log_path
        await until(lambda: ga._task.done() and gb._task.done(), pa, pb, what="the peers to close")
    assert log_a.read_bytes() == log_b.read_bytes()
    from protocol.verify import verify_file  # noqa: F401  (the log is a real Lanterne log)


async def test_a_declined_invitation_is_one_line_in_the_guest_lobby(tmp_path):
    ann, bob = unique("Ann"), unique("Bob")
    app_a, _ = lobby_app(ann, tmp_path / "a", discover=False)
    app_b, _ = lobby_app(bob, tmp_path / "b", discover=False)
    async with app_a.run_test(size=(120, 40)) as pa, app_b.run_test(size=(120, 40)) as pb:
        await open_and_join(pa, pb, ann, by_address=True)
        assert await pa.click("#invite-decline")
        guest = pb.app.screen
        await until(lambda: guest.pending is None and "declined" in guest.status_text, pa, pb,
                    what="the guest told")
        assert "Not seated" in guest.status_text and "Traceback" not in guest.status_text
        host_lobby = pa.app.screen
        assert isinstance(host_lobby, LobbyScreen) and host_lobby.pending is not None  # the table stays open
        assert "declined" in host_lobby.status_text
        assert await pa.click("#close-table")
        await until(lambda: host_lobby.pending is None, pa)


async def test_nobody_at_the_address_is_a_readable_line(tmp_path):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app_b, _ = lobby_app(unique("Bob"), tmp_path / "b", discover=False)
    async with app_b.run_test(size=(120, 40)) as pb:
        lobby = pb.app.screen
        assert await pb.click("#join-address")
        dialog = pb.app.screen
        dialog.query_one("#address-input").value = "not an address"
        assert await pb.click("#address-join")
        assert "Not HOST:PORT" in str(dialog.query_one("#address-error").render())
        dialog.query_one("#address-input").value = f"127.0.0.1:{port}"
        assert await pb.click("#address-input")
        await pb.press("enter")  # (a second click on the same button at once is taken as a double click)
        await until(lambda: lobby.pending is None and lobby.status_text, pb, what="the error")
        assert lobby.status_text.startswith("Cannot reach the host") and "Traceback" not in lobby.status_text
        assert lobby.query_one("#lobby-status").has_class("-error")
