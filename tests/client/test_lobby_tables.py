"""Tables of 3 to 5 seats from the app's lobby: every peer linked with every other, computer seats marked.

Real apps (Pilot), real sockets on 127.0.0.1 only, real zeroconf on the
loopback interface. Three apps seat themselves at one Pueblo table by clicks
(join from the lobby list, accept in the dialog) and play moves typed on the
board; a host alone with two computer seats plays a whole game; a 4-seat
table with two computers and one guest app plays a whole game, logs equal.
"""

from __future__ import annotations

import random

import pytest
from textual.widgets import Select

from lanterne.client.app import LanterneApp
from lanterne.client.net_controller import NetworkGame, is_computer
from lanterne.client.screens.dialogs import GameOverScreen
from lanterne.client.screens.game import GameScreen
from lanterne.client.screens.invite import InviteScreen
from lanterne.client.screens.lobby import LobbyScreen
from lanterne.client.settings import Settings
from lanterne.client.widgets.link_banner import LinkBanner
from lanterne.protocol.identity import safety_lines
from lanterne.protocol.identity import Identity
from lanterne.protocol.log import read_log
from lanterne.protocol.verify import verify_file
from tests.support.lobby import (LOOPBACK, MESH, MESH_SIZE, PUEBLO, ask_and_accept, boards, choose, mesh_app,
                                 open_table, play_one, play_to_the_end, table_text, type_move, unique)
from tests.support.waiting import until

@pytest.mark.slow
async def test_three_apps_sit_at_one_pueblo_table_by_clicks_and_play_typed_moves(tmp_path):
    ann, bob, cyd = unique("Ann"), unique("Bob"), unique("Cyd")
    app_a, app_b, app_c = (mesh_app(n, tmp_path / n[0]) for n in (ann, bob, cyd))
    async with app_a.run_test(size=MESH_SIZE) as pa, app_b.run_test(size=MESH_SIZE) as pb, app_c.run_test(size=MESH_SIZE) as pc:
        host = await open_table(pa, 3)
        assert "open at 127.0.0.1:" in pa.app.screen.status_text
        assert table_text(pa).splitlines() == ["Your table:", f"1. {ann} (host, you)", "2. (free)", "3. (free)"]
        code = await ask_and_accept(pa, pb, ann, bob, free=2)
        await until(lambda: f"2. {bob}" in table_text(pa), pa, pb, what="Bob in the host's table")
        await until(lambda: f"Seated at {ann}'s table of 3: waiting" in table_text(pb), pa, pb,
                    what="Bob told he is seated")
        shown = "\n".join(f"    {line}" for line in safety_lines(code))
        assert f"Safety code with {ann}:\n{shown}" in table_text(pb).replace("  (you)", "")
        assert pb.app.screen.status_text.startswith(f"Seated at {ann}'s table of 3")   # the status follows
        await ask_and_accept(pa, pc, ann, cyd, free=1)
        screens = await boards(pa, pb, pc)
        controllers = [s.controller for s in screens]
        assert controllers[0] is host and all(isinstance(c, NetworkGame) for c in controllers)
        assert [c.my_seat for c in controllers] == [0, 1, 2]
        labels = [s.label for s in host.seats]
        assert labels == [f"P1 {ann}", f"P2 {bob}", f"P3 {cyd}"]
        assert all([s.label for s in c.seats] == labels for c in controllers)
        assert len({c.safety_code for c in controllers}) == 1
        await until(lambda: all(c.linked for c in controllers), pa, pb, pc, what="a full mesh")
        for s in screens:
            banner = s.query_one(LinkBanner).text
            others = [lab for i, lab in enumerate(labels) if i != s.controller.my_seat]
            assert all(f"{lab} linked" in banner for lab in others), banner
            assert s.sub_title.endswith("network game")
        # each person types one move on their own board; the two others see it as that seat's last move
        pilots = {c.my_seat: p for c, p in zip(controllers, (pa, pb, pc))}
        movers: set[int] = set()
        while len(movers) < 3:
            await until(lambda: any(c.waiting.kind == "human" for c in controllers), pa, pb, pc, what="a turn")
            mover = next(c for c in controllers if c.waiting.kind == "human")
            screen = screens[controllers.index(mover)]
            waiting = [c for c in controllers if c is not mover]
            assert screen.status_text().startswith("Your turn")
            assert all(c.status() == f"Waiting for {mover.seats[mover.my_seat].label}'s move" for c in waiting)
            assert all(c.move_clock_left() is not None for c in controllers)     # (counted down on the board)
            before = [len(c.log) for c in waiting]
            text = await type_move(pilots[mover.my_seat], screen)
            await until(lambda: all(len(c.log) > n for c, n in zip(waiting, before)), pa, pb, pc,
                        what="the move everywhere")
            for c in waiting:
                assert c.last_moves[mover.my_seat].text == text
                banner = screens[controllers.index(c)].query_one(LinkBanner).text
                turn = ", ".join(e.text for e in c.last_turns[mover.my_seat])   # the whole turn, this move last
                assert turn.endswith(text) and f"{mover.seats[mover.my_seat].label} played:  {turn} " in banner, banner
            movers.add(mover.my_seat)
        logs = [read_log(c.peer.files.log_path)[0] for c in controllers]
        assert logs[0] == logs[1] == logs[2]
        # Cyd's link with Ann drops: both banners name that link lost (red), then it is back by itself
        ann_c, cyd_c = controllers[0], controllers[2]
        pair = [screens[0].query_one(LinkBanner), screens[2].query_one(LinkBanner)]
        seen = [len(b.history) for b in pair]
        await cyd_c.peer.links[ann_c.peer.me.public].close("cable pulled")

        def shown(i: int, text: str) -> bool:  # the link may come back before a look: read the history
            return any(text in t and "Link down" in t for t in pair[i].history[seen[i]:])

        await until(lambda: shown(0, f"P3 {cyd} link lost") and shown(1, f"P1 {ann} link lost"), pa, pb, pc,
                    what="both banners down")
        assert all(f"P2 {bob} linked" in t for t in pair[0].history[seen[0]:])
        assert not screens[1].query_one(LinkBanner).has_class("-down")  # Bob's links never dropped
        await until(lambda: not any(b.has_class("-down") for b in pair), pa, pb, pc, what="the link back")
        assert f"P3 {cyd} linked" in pair[0].text


async def test_a_host_alone_with_two_computer_seats_plays_a_whole_pueblo_game(tmp_path):
    ann = unique("Ann")
    app = mesh_app(ann, tmp_path / "a", discover=False)
    async with app.run_test(size=MESH_SIZE) as pilot:
        host = await open_table(pilot, 3, computers=2)
        (screen,) = await boards(pilot)
        assert screen.controller is host and host.my_seat == 0
        names = [s.name for s in host.seats]
        assert names == [ann, f"[computer] {ann} 1", f"[computer] {ann} 2"]
        assert [is_computer(n) for n in names] == [False, True, True]
        await play_to_the_end([pilot], [host])
        await until(lambda: host.peer.session.over, pilot, what="the session over")
        assert host.status().startswith("Game over") and "[computer]" in host.status()
        await until(lambda: isinstance(app.screen, GameOverScreen) and app.screen.query("#game-over-scores"), pilot,
                    what="the game-over dialog")
        scores = str(app.screen.query_one("#game-over-scores").render())
        assert f"[computer] {ann} 1" in scores  # names are shown as they are, never read as markup
        log = host.peer.files.log_path
        assert any(n.startswith("log: ") for n in host.notes)
        await until(lambda: host._task.done(), pilot, what="the peer to close")
    computer_logs = sorted((tmp_path / "a" / "computers").glob("*/*.log"))
    assert len(computer_logs) == 2
    assert all(p.read_bytes() == log.read_bytes() for p in computer_logs)
    report = verify_file(str(log))
    assert report.ok and report.game == "pueblo" and len(report.seats) == 3, report


@pytest.mark.slow
async def test_a_four_seat_table_with_two_computers_and_one_guest_plays_to_the_end(tmp_path):
    ann, bob = unique("Ann"), unique("Bob")
    app_a, app_b = mesh_app(ann, tmp_path / "a"), mesh_app(bob, tmp_path / "b")
    async with app_a.run_test(size=MESH_SIZE) as pa, app_b.run_test(size=MESH_SIZE) as pb:
        await open_table(pa, 4, computers=2)
        await until(lambda: table_text(pa).count("[computer]") == 2, pa, what="the computers seated")
        assert table_text(pa).splitlines()[1:] == [f"1. {ann} (host, you)", f"2. [computer] {ann} 1",
                                                   f"3. [computer] {ann} 2", "4. (free)"]
        await ask_and_accept(pa, pb, ann, bob, free=1)
        screens = await boards(pa, pb)
        controllers = [s.controller for s in screens]
        wanted = [f"P1 {ann}", f"P2 [computer] {ann} 1", f"P3 [computer] {ann} 2", f"P4 {bob}"]
        assert all([s.label for s in c.seats] == wanted for c in controllers)
        assert [c.my_seat for c in controllers] == [0, 3]
        await play_to_the_end([pa, pb], controllers)
        await until(lambda: all(c.peer.session.over for c in controllers), pa, pb, what="both sessions over")
        assert controllers[0].status() == controllers[1].status() and controllers[0].status().startswith("Game over")
        await until(lambda: all(c._task.done() for c in controllers), pa, pb, what="the peers to close")
    logs = [c.peer.files.log_path.read_bytes() for c in controllers]
    assert logs[0] == logs[1]
    report = verify_file(str(controllers[1].peer.files.log_path))
    assert report.ok and len(report.seats) == 4, report


async def test_the_table_form_follows_the_game_and_the_seats_at_every_size(tmp_path):
    from tests.support.toy_game import GAME as TOY

    app = LanterneApp(settings=Settings(display_name="Ann", computer_delay=0.0),
                      start=lambda: LobbyScreen(identity=Identity.generate(), interfaces=LOOPBACK, log_dir=tmp_path,
                                                discover=False, games=[TOY, PUEBLO], options=MESH))
    async with app.run_test(size=MESH_SIZE) as pilot:
        lobby = app.screen

        def options(select_id: str) -> list:
            select = lobby.query_one(select_id, Select)
            return [value for _, value in select._options if value is not Select.BLANK]

        assert options("#lan-seats") == [2] and options("#lan-computers") == [0, 1]  # Toy seats two
        assert lobby.query_one("#lan-bot", Select).value == "ismcts:normal"
        await choose(pilot, "#lan-game", "pueblo")
        assert options("#lan-seats") == [2, 3, 4] and lobby.query_one("#lan-seats", Select).value == 2
        await choose(pilot, "#lan-seats", 4)
        assert options("#lan-computers") == [0, 1, 2, 3]
        await choose(pilot, "#lan-computers", 3)
        await choose(pilot, "#lan-seats", 3)
        assert options("#lan-computers") == [0, 1, 2] and lobby.query_one("#lan-computers", Select).value == 0
        await choose(pilot, "#lan-seats", 2)
        assert options("#lan-computers") == [0, 1]
        assert not lobby.query_one("#lan-on-gone", Select).disabled   # the policy is every table's
        lobby.open_table("pueblo", "standard", 2, 2, "random")
        assert lobby.status_text == "Cannot open the table: a table of 2 takes 0 to 1 computer players, not 2"
        lobby.open_table("pueblo", "standard", 5, 0, "random")
        assert lobby.status_text == "Cannot open the table: Pueblo seats 2 to 4 players, not 5"
        lobby.open_table("pueblo", "standard", 3, 1, "nobody")
        assert lobby.status_text.startswith("Cannot open the table: ") and "nobody" in lobby.status_text
        assert lobby.pending is None and lobby.query_one("#lobby-status").has_class("-error")


async def test_a_table_with_computers_left_mid_game_resumes_from_the_lobby_with_its_computers(tmp_path):
    ann = unique("Ann")
    app = mesh_app(ann, tmp_path / "a", discover=False)
    async with app.run_test(size=MESH_SIZE) as pilot:
        lobby = app.screen
        host = await open_table(pilot, 3, computers=2)
        (screen,) = await boards(pilot)
        rng = random.Random(3)
        for _ in range(2):  # two of our moves, the computers answer
            await until(lambda: host.waiting.kind == "human", pilot, what="our turn")
            play_one(host, rng)
        await until(lambda: host.waiting.kind == "human", pilot, what="our turn again")
        played = len(host.log)
        await pilot.press("escape")
        await until(lambda: not isinstance(app.screen, GameScreen), pilot)
        await pilot.press("y")  # leave: the log is kept
        await until(lambda: app.screen is lobby and host._task.done(), pilot, what="back in the lobby")
        unfinished = str(lobby.query_one("#lobby-unfinished").render())
        assert f"Unfinished: Pueblo with [computer] {ann} 1, [computer] {ann} 2 (you host" in unfinished, unfinished
        await pilot.press("r")
        resumed = await boards(pilot)
        again = resumed[0].controller
        assert isinstance(again, NetworkGame) and again is not host and again.safety_code == host.safety_code
        assert [e.text for e in again.log[:played]] == [e.text for e in host.log[:played]]
        await until(lambda: again.linked, pilot, what="the computers back")
        await play_to_the_end([pilot], [again])
        await until(lambda: again.peer.session.over and again._task.done(), pilot, what="the end")
    report = verify_file(str(again.peer.files.log_path))
    assert report.ok and len(report.seats) == 3, report


async def test_a_table_of_three_joined_by_address_when_the_dialog_says_its_size(tmp_path):
    from lanterne.client.screens.invite import JoinAddressScreen

    ann, bob = unique("Ann"), unique("Bob")
    app_a, app_b = mesh_app(ann, tmp_path / "a", discover=False), mesh_app(bob, tmp_path / "b", discover=False)
    async with app_a.run_test(size=MESH_SIZE) as pa, app_b.run_test(size=MESH_SIZE) as pb:
        host = await open_table(pa, 3, computers=1)
        ip, port = host.listening
        assert await pb.click("#join-address")
        await until(lambda: isinstance(pb.app.screen, JoinAddressScreen), pb)
        await pb.pause()
        dialog = pb.app.screen
        dialog.query_one("#address-input").value = f"{ip}:{port}"
        await choose(pb, "#address-seats", 3)
        assert await pb.click("#address-join")
        await until(lambda: isinstance(pa.app.screen, InviteScreen), pa, pb, what="the invitation dialog")
        await pa.pause()
        assert await pa.click("#invite-accept")
        screens = await boards(pa, pb)
        guest = screens[1].controller
        assert isinstance(guest, NetworkGame) and guest.my_seat == 2
        assert [s.name for s in guest.seats] == [ann, f"[computer] {ann} 1", bob]


async def test_join_requests_wait_their_turn_oldest_first_and_one_that_gives_up_vanishes(tmp_path):
    """Four people ask within 100 ms for the three free seats of a Pueblo table: one dialog at a time, the
    oldest first; the first gives up while its dialog is open and the dialog closes at once; the three
    Accepts seat the others in the order they were accepted, and the boards open."""
    import asyncio

    from lanterne.engines.bots import make_bot
    from lanterne.protocol.net.peer import Peer

    ann = unique("Ann")
    app = mesh_app(ann, tmp_path / "a", discover=False)
    async with app.run_test(size=MESH_SIZE) as pilot:
        lobby = app.screen
        host = await open_table(pilot, 4)
        port = host.listening[1]
        names = ["Bob", "Cy", "Dee", "Eve"]
        guests = [Peer.guest(Identity.generate(), n, tmp_path / n, player=make_bot("random", i), options=MESH,
                             say=lambda line: None) for i, n in enumerate(names)]
        tasks = []
        try:
            for n, g in enumerate(guests, 1):  # one after the other: the host hears them in this order
                tasks.append(asyncio.create_task(g.run_guest(("127.0.0.1", port), LOOPBACK, game="pueblo",
                                                             players=4)))
                await until(lambda: len(lobby.asking) == n, pilot, what=f"{n} requests")
            assert [r.peer.name for r in lobby.asking] == names
            invite = app.screen
            assert isinstance(invite, InviteScreen) and invite.joiner == "Bob"
            assert "3 more requests wait after this one." in str(invite.query_one("#invite-queue").render())
            tasks[0].cancel()   # Bob gives up while Ann reads his dialog
            await until(lambda: isinstance(app.screen, InviteScreen) and app.screen.joiner == "Cy", pilot,
                        what="Bob's dialog gone, Cy's shown")
            assert "Bob gave up asking" in lobby.status_text
            for name in ("Cy", "Dee", "Eve"):
                await until(lambda: isinstance(app.screen, InviteScreen) and app.screen.joiner == name
                            and app.screen.is_current, pilot, what=f"{name}'s dialog")
                await pilot.pause()
                assert await pilot.click("#invite-accept")
            (screen,) = await boards(pilot)
            assert [s.name for s in screen.controller.seats] == [ann, "Cy", "Dee", "Eve"]
            assert guests[0].session.chain == []
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def test_the_lan_computers_think_in_their_own_process_and_leave_none_behind(tmp_path):
    """A table of two with a search computer: it thinks in a worker process (the screen never waits for
    it), and leaving the game stops that process."""
    import os

    from lanterne.client.thinking import Thinker

    ann = unique("Ann")
    app = mesh_app(ann, tmp_path / "a", discover=False)
    async with app.run_test(size=MESH_SIZE) as pilot:
        host = await open_table(pilot, 2, computers=1, bot="ismcts:easy")
        (screen,) = await boards(pilot)
        thinker = host.peer.think
        assert isinstance(thinker, Thinker) and host.peer.computers.peers[0].think is thinker
        rng = random.Random(5)
        for _ in range(2):   # our moves; the computer answers from its process
            await until(lambda: host.waiting.kind == "human", pilot, what="our turn")
            play_one(host, rng)
        await until(lambda: host.waiting.kind == "human", pilot, what="our turn again")
        pid = thinker.pid
        assert pid is not None and pid != os.getpid() and thinker.alive()
        await pilot.press("escape")
        await until(lambda: not isinstance(app.screen, GameScreen), pilot)
        await pilot.press("y")
        await until(lambda: host._task.done(), pilot, what="the peer to stop")
        assert not thinker.alive()
