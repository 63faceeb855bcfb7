"""Apps in a LAN lobby over 127.0.0.1 and the clicks that seat them at a table.

Every app has its own identity, a unique name (zeroconf on the loopback interface is shared by every
test running at once) and its own log folder; the options are short so that a link or a claim does
not keep a test waiting.
"""

from __future__ import annotations

import dataclasses
import random
import uuid
from contextlib import asynccontextmanager
from typing import AsyncIterator

from textual.widgets import Input, OptionList, Select

from lanterne.client.app import LanterneApp
from lanterne.client.net_controller import NetworkGame
from lanterne.client.screens.game import GameScreen
from lanterne.client.screens.invite import InviteScreen, JoinAddressScreen
from lanterne.client.screens.lobby import LobbyScreen
from lanterne.client.settings import Settings
from lanterne.client.widgets.link_banner import LinkBanner
from lanterne.client.widgets.peers import PeerList
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity, safety_lines
from lanterne.protocol.net.peer import PeerOptions
from lanterne.protocol.net.transport import LinkOptions
from tests.support.toy_game import GAME as TOY
from tests.support.waiting import until

LOOPBACK = ["127.0.0.1"]
FAST = PeerOptions(link=LinkOptions(read_timeout=5.0, keepalive=1.0, connect_timeout=2.0),
                   reconnect_every=0.1, linger=0.5)
MESH = dataclasses.replace(FAST, linger=1.0)
"""A table of 3 to 5 seats: a peer lingers a second after the end, for every other peer's last entries."""
PUEBLO = get_game("pueblo")
MESH_SIZE = (160, 50)
"""The terminal of a mesh test's apps: the lobby's table and the board side by side."""


def lobby_app(name: str, folder, *, games=(TOY,), discover: bool = True, options: PeerOptions = FAST) -> LanterneApp:
    """An app opened on the lobby (the toy game only, by default), with its own identity, name and log folder."""
    return LanterneApp(settings=Settings(display_name=name, computer_delay=0.0),
                       start=lambda: LobbyScreen(Settings(display_name=name), identity=Identity.generate(),
                                                 interfaces=LOOPBACK, log_dir=folder, discover=discover,
                                                 games=list(games), options=options))


@asynccontextmanager
async def two_players(tmp_path, size_a: tuple[int, int] = (120, 40),
                      size_b: tuple[int, int] = (120, 40)) -> AsyncIterator[tuple]:
    """Ann and Bob, each in an app on the lobby (fresh keys, unique names): ``(pa, pb, ann, bob)``."""
    ann, bob = unique("Ann"), unique("Bob")
    app_a, app_b = lobby_app(ann, tmp_path / "a"), lobby_app(bob, tmp_path / "b")
    async with app_a.run_test(size=size_a) as pa, app_b.run_test(size=size_b) as pb:
        yield pa, pb, ann, bob


def mesh_app(name: str, folder, *, discover: bool = True, options: PeerOptions = MESH) -> LanterneApp:
    """An app on the lobby of tables of 3 to 5 (Pueblo only)."""
    return lobby_app(name, folder, games=(PUEBLO,), discover=discover, options=options)


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


async def click_move(pilot, label: str) -> None:
    """Click the move named ``label`` in the screen's list of legal moves (once the screen shows it)."""
    moves = pilot.app.screen.query_one("#moves", OptionList)

    def labels() -> list[str]:
        return [str(moves.get_option_at_index(i).prompt) for i in range(moves.option_count)]

    await until(lambda: label in labels(), pilot, what=f"{label} listed")
    assert await pilot.click(moves, offset=(2, labels().index(label) + 1))  # + 1: the list's top border
    await pilot.pause()


async def open_and_join(pa, pb, host_name: str, *, by_address: bool = False):
    """Host opens its table; the guest asks for it (from its lobby list, or by HOST:PORT). Returns the host's controller."""
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
        await pb.pause()  # laid out before it is clicked
        pb.app.screen.query_one("#address-input").value = f"{ip}:{port}"
        assert await pb.click("#address-join")
    else:
        peers = guest_lobby.query_one(PeerList)
        await until(lambda: any(a.name == host_name and a.table for a in peers.adverts.values()), pa, pb,
                    what="the host's table heard on the LAN")
        # by keyboard: the highlight follows the host's line however other tables (another worker's tests
        # on the same loopback) shift it; a click at a computed row could land on a line that moved meanwhile
        peers.focus()
        peers.highlighted = [a.name for a in peers.ordered()].index(host_name)
        await pb.press("enter")
    await until(lambda: isinstance(pa.app.screen, InviteScreen), pa, pb, what="the invitation dialog")
    await pa.pause()  # laid out before it is clicked
    return host


async def seated(pa, pb, ann: str, bob: str, *, by_address: bool = False) -> dict:
    """Open, ask, accept: both apps on their game screen. Returns pilot -> game screen."""
    await open_and_join(pa, pb, ann, by_address=by_address)
    invite = pa.app.screen
    assert invite.joiner == bob and len(invite.safety_code) > 4
    shown = str(invite.query_one("#invite-code").render())
    assert [w for w in shown.split() if w != "(you)"] == ["Safety", "code", *invite.safety_code.split()]
    assert len(shown.splitlines()) == 2 and shown.count("(you)") == 1   # the host's own line, either one
    assert await pa.click("#invite-accept")
    await until(lambda: isinstance(pa.app.screen, GameScreen) and isinstance(pb.app.screen, GameScreen),
                pa, pb, what="both boards")
    await pa.pause()
    await pb.pause()
    screens = {pa: pa.app.screen, pb: pb.app.screen}
    ga, gb = screens[pa].controller, screens[pb].controller
    assert isinstance(ga, NetworkGame) and isinstance(gb, NetworkGame)
    assert ga.safety_code == gb.safety_code == invite.safety_code
    assert {ga.my_seat, gb.my_seat} == {0, 1}
    return screens


def turn_of(screens: dict):
    """(mover pilot, waiter pilot) when a person must move, else None."""
    (pa, sa), (pb, sb) = screens.items()
    if sa.controller.waiting.kind == "human":
        return pa, pb
    if sb.controller.waiting.kind == "human":
        return pb, pa
    return None


async def play_by_clicks(screens: dict, moves: int | None = None, label: str = "+2") -> int:
    """Each app clicks ``label`` on its turn (``moves`` times, or to the end); checks the status and banner."""
    pa, pb = screens
    ga, gb = screens[pa].controller, screens[pb].controller
    played = 0
    while moves is None or played < moves:
        await until(lambda: ga.is_over() or gb.is_over() or turn_of(screens) is not None, pa, pb,
                    what="someone's turn")
        if ga.is_over() or gb.is_over():
            break
        mover, waiter = turn_of(screens)
        mc, wc = screens[mover].controller, screens[waiter].controller
        assert screens[mover].status_text().startswith("Your turn")
        who = mc.seats[mc.my_seat].label
        assert wc.status().startswith(f"Waiting for {who}"), wc.status()
        before = len(wc.log)
        await click_move(mover, label)
        played += 1
        await until(lambda: len(wc.log) > before or wc.is_over(), pa, pb, what="the move to arrive")
        banner = screens[waiter].query_one(LinkBanner)
        assert f"{who} played:  {label} " in banner.text, banner.text
    return played


async def choose(pilot, select_id: str, value) -> None:
    pilot.app.screen.query_one(select_id, Select).value = value
    await pilot.pause()


async def open_table(pilot, seats: int, computers: int = 0, bot: str = "random") -> NetworkGame:
    lobby = pilot.app.screen
    await choose(pilot, "#lan-seats", seats)
    await choose(pilot, "#lan-computers", computers)
    await choose(pilot, "#lan-bot", bot)
    assert await pilot.click("#open-table")
    full = computers == seats - 1  # no guest to wait for: the board may already be there
    await until(lambda: isinstance(pilot.app.screen, GameScreen) if full
                else lobby.pending is not None and lobby.pending.listening is not None, pilot,
                what="the table listening")
    controller = pilot.app.screen.controller if full else lobby.pending
    assert isinstance(controller, NetworkGame) and controller.players == seats
    return controller


async def ask_and_accept(host, guest, host_name: str, guest_name: str, free: int) -> str:
    """The guest picks the host's table in its lobby list; the host clicks Accept in the dialog."""
    peers = guest.app.screen.query_one(PeerList)
    await until(lambda: any(a.name == host_name and a.table and a.table.free == free
                            for a in peers.adverts.values()), host, guest, what=f"{free} free seats heard")
    index = [a.name for a in peers.ordered()].index(host_name)
    line = str(peers.get_option_at_index(index).prompt)
    assert f"Pueblo (standard), table of {peers.ordered()[index].table.seats}: {free} free seat" in line, line
    peers.focus()           # by keyboard: the highlight follows the line wherever other tables move it
    peers.highlighted = index
    await guest.press("enter")
    await until(lambda: isinstance(host.app.screen, InviteScreen), host, guest, what="the invitation dialog")
    await host.pause()
    invite = host.app.screen
    assert invite.joiner == guest_name and "seats" in invite.table
    # before Accept, the joiner's lobby shows the same safety code as the host's dialog
    code_lines = "\n".join(f"    {line}" for line in safety_lines(invite.safety_code))
    await until(lambda: f"Safety code with {host_name} (compare it aloud with {host_name}'s join dialog before "
                        f"{host_name} accepts):\n{code_lines}" in table_text(guest).replace("  (you)", ""),
                host, guest, what="the code on the joiner's side while pending")
    assert table_text(guest).count("  (you)") == 1   # the joiner's own line of the code
    assert guest.app.screen.status_text.startswith(f"Asking {host_name} for a seat")
    assert await host.click("#invite-accept")
    return invite.safety_code


def table_text(pilot) -> str:
    return str(pilot.app.screen.query_one("#lobby-table").render())


async def boards(*pilots) -> list[GameScreen]:
    await until(lambda: all(isinstance(p.app.screen, GameScreen) for p in pilots), *pilots, what="every board")
    for p in pilots:
        await p.pause()
    return [p.app.screen for p in pilots]


async def type_move(pilot, screen: GameScreen) -> str:
    """The person types their first legal move on the board's command line and presses enter."""
    c = screen.controller
    text = c.format(c.my_seat, c.legal_actions(c.my_seat)[0])
    assert await pilot.click("#command")
    screen.query_one("#command", Input).value = text
    await pilot.press("enter")
    return text


def play_one(controller: NetworkGame, rng: random.Random) -> bool:
    """A test's hand on the controller: a random legal move for our seat, if it is our turn."""
    if controller.waiting.kind != "human":
        return False
    controller.submit(controller.my_seat, rng.choice(controller.legal_actions(controller.my_seat)))
    return True


async def play_to_the_end(pilots, controllers, seed: int = 7) -> None:
    rng = random.Random(seed)
    while not all(c.is_over() for c in controllers):
        if not any(play_one(c, rng) for c in controllers):
            await until(lambda: all(c.is_over() for c in controllers)
                        or any(c.waiting.kind == "human" for c in controllers), *pilots, what="a turn")
