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

import pytest

from lanterne.client.app import LanterneApp
from lanterne.client.games.pagode.screen import PagodeScreen
from lanterne.client.net_controller import NetworkGame
from lanterne.client.screens.dialogs import GameOverScreen
from lanterne.client.screens.game import GameScreen
from lanterne.client.screens.invite import InviteScreen
from lanterne.client.screens.lobby import LobbyScreen
from lanterne.client.screens.network import NetworkSide
from lanterne.client.settings import Settings
from lanterne.client.widgets.link_banner import LinkBanner
from lanterne.client.widgets.score_chart import ScoreChart
from lanterne.protocol.identity import Identity
from lanterne.protocol.net.peer import PeerOptions
from tests.support.lobby import FAST, LOOPBACK, lobby_app, open_and_join, play_by_clicks, seated, turn_of, unique
from tests.support.toy_game import GAME as TOY
from tests.support.waiting import until

@pytest.mark.slow
async def test_two_apps_play_a_lan_game_by_clicks_and_end_with_identical_logs(tmp_path):
    from lanterne.protocol.verify import verify_file

    ann, bob = unique("Ann"), unique("Bob")
    app_a = lobby_app(ann, tmp_path / "a")
    app_b = lobby_app(bob, tmp_path / "b")
    async with app_a.run_test(size=(120, 40)) as pa, app_b.run_test(size=(120, 40)) as pb:
        screens = await seated(pa, pb, ann, bob)
        ga, gb = screens[pa].controller, screens[pb].controller
        for screen in screens.values():
            assert f"safety code {ga.safety_code}" in screen.query_one(LinkBanner).text
            assert screen.sub_title.endswith("network game")
        moves = await play_by_clicks(screens)
        await until(lambda: ga.peer.session.over and gb.peer.session.over, pa, pb, what="both sessions over")
        assert moves == 7  # +2 a move to 7 points: 4 moves for the first player, 3 for the other
        assert ga.status() == gb.status() and ga.status().startswith("Game over")
        await until(lambda: isinstance(pa.app.screen, GameOverScreen) and isinstance(pb.app.screen, GameOverScreen),
                    pa, pb, what="the game-over dialogs")
        log_a, log_b = ga.peer.files.log_path, gb.peer.files.log_path
        await until(lambda: ga._task.done() and gb._task.done(), pa, pb, what="the peers to close")
        banners = [screen.query_one(LinkBanner) for screen in screens.values()]
        # the links close after the end: the other player 'left' ('P1 Ann lost' read as the game's result)
        await until(lambda: all(f"{other} left" in b.text for b, other in zip(banners, (f"P2 {bob}", f"P1 {ann}"))),
                    pa, pb, what="both banners to say the other left")
        assert not any("lost" in b.text for b in banners)
    assert log_a.read_bytes() == log_b.read_bytes()
    report = verify_file(str(log_a), games=lambda gid: TOY)
    assert report.ok and report.result != "incomplete", report.problem


async def test_a_cut_link_shows_the_banner_play_resumes_by_itself_and_a_cheat_ends_the_game_readably(tmp_path):
    from lanterne.protocol.verify import verify_file

    ann, bob = unique("Ann"), unique("Bob")
    slow = PeerOptions(link=FAST.link, reconnect_every=1.0, linger=0.5)
    app_a = lobby_app(ann, tmp_path / "a", discover=False)
    app_b = lobby_app(bob, tmp_path / "b", discover=False, options=slow)
    async with app_a.run_test(size=(120, 40)) as pa, app_b.run_test(size=(120, 40)) as pb:
        screens = await seated(pa, pb, ann, bob, by_address=True)
        ga, gb = screens[pa].controller, screens[pb].controller
        assert await play_by_clicks(screens, moves=2) == 2
        # The link drops (the guest waits 1 s before it reconnects): both banners say so, then it comes back.
        for link in list(gb.peer.links.values()):
            await link.close("cable pulled")
        banners = [screens[p].query_one(LinkBanner) for p in (pa, pb)]
        # each banner said so (its history: the link may be back before both apps drew the same instant)
        await until(lambda: all(any("Link down" in t for t in b.history) for b in banners), pa, pb,
                    what="both banners down")
        assert all(any("Link down" in t and "resumes by itself" in t for t in b.history) for b in banners)
        status = gb.status()   # our turn: the link; theirs: who is gone, how long, and what the table does then
        assert not gb.link_down or status.startswith("Link down, reconnecting by itself") or (
            status.startswith(f"Waiting for {gb.seats[0].label} (gone 0:0") and "the game ends" in status), status
        await until(lambda: not any(b.has_class("-down") for b in banners), pa, pb,
                    what="the link back")
        assert await play_by_clicks(screens, moves=1) == 1  # play resumed
        await until(lambda: turn_of(screens) is not None, pa, pb, what="someone's turn")
        if turn_of(screens)[0] is not pb:
            await play_by_clicks(screens, moves=1)
        # Bob's app now signs a move its engine would refuse (+5) and sends it: Ann's app ends the game.
        s = gb.peer.session
        s.writer.write(s.state, "move", {"action": ["add", 5], "digest": s.game.digest(s.view)})
        gb.peer._report([])   # wakes every link's sender
        await until(lambda: ga.peer.session.over, pa, pb, what="the host to end the game")
        text = ga.status()
        assert text.startswith(f"Game ended, fault of {gb.seats[gb.my_seat].label}") and "illegal move" in text
        await until(lambda: isinstance(pa.app.screen, GameOverScreen), pa, pb, what="the host's end dialog")
        assert text in str(pa.app.screen.query_one("#game-over-result").render())
        await until(lambda: gb.peer.session.over, pa, pb, what="the cheat to learn it")
        assert gb.status().startswith("Game ended") and "illegal move by seat 2" in gb.status()
        log_a = ga.peer.files.log_path
        await until(lambda: ga._task.done(), pa, pb, what="the host to close")
    report = verify_file(str(log_a), games=lambda gid: TOY)  # the log is whole and names the cheat
    assert report.culprit == gb.my_seat + 1 and "illegal move" in report.reason, report  # verify counts from 1


async def test_nobody_at_an_address_and_a_declined_invitation_are_one_line_each(tmp_path):
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    ann, bob = unique("Ann"), unique("Bob")
    app_a = lobby_app(ann, tmp_path / "a", discover=False)
    app_b = lobby_app(bob, tmp_path / "b", discover=False)
    async with app_a.run_test(size=(120, 40)) as pa, app_b.run_test(size=(120, 40)) as pb:
        guest = pb.app.screen
        assert await pb.click("#join-address")
        await pb.pause()
        dialog = pb.app.screen
        for typed in ("not an address", "127.0.0.1:\u00b2"):  # "²".isdigit(), but int() refused it: a crash once
            dialog.query_one("#address-input").value = typed
            assert await pb.click("#address-join")
            assert "Not HOST:PORT" in str(dialog.query_one("#address-error").render())
        dialog.query_one("#address-input").value = f"127.0.0.1:{port}"
        assert await pb.click("#address-input")
        await pb.press("enter")  # (a second click on the same button at once is taken as a double click)
        await until(lambda: guest.pending is None and guest.status_text, pb, what="the error")
        assert guest.status_text.startswith("Cannot reach the host") and "Traceback" not in guest.status_text
        assert guest.query_one("#lobby-status").has_class("-error")

        await open_and_join(pa, pb, ann, by_address=True)
        assert await pa.click("#invite-decline")
        await until(lambda: guest.pending is None and "declined" in guest.status_text, pa, pb,
                    what="the guest told")
        assert "Not seated" in guest.status_text and "Traceback" not in guest.status_text
        host_lobby = pa.app.screen
        assert isinstance(host_lobby, LobbyScreen) and host_lobby.pending is not None  # the table stays open
        assert "declined" in host_lobby.status_text
        assert await pa.click("#close-table")
        await until(lambda: host_lobby.pending is None, pa)


@pytest.mark.slow
async def test_the_pagode_board_screen_plays_a_network_game_unchanged_against_a_headless_peer(tmp_path):
    """The lobby opens Pagode; a headless `lanterne join`-like peer (random bot) takes the seat."""
    from lanterne.engines.bots.simple import RandomBot
    from lanterne.engines.registry import get_game
    from lanterne.protocol.net.peer import Peer
    from tests.support.pagode import builder_choice, click_action, quick_buttons

    pagode = get_game("pagode")
    ann = unique("Ann")
    app = LanterneApp(settings=Settings(display_name=ann, computer_delay=0.0),
                      start=lambda: LobbyScreen(identity=Identity.generate(), interfaces=LOOPBACK,
                                                log_dir=tmp_path / "a", discover=False, games=[pagode],
                                                options=FAST))
    bot = Peer.guest(Identity.generate(), "Robo", tmp_path / "b", player=RandomBot(3), options=FAST,
                     say=lambda _: None)
    async with app.run_test(size=(160, 50)) as pilot:
        lobby = app.screen
        await pilot.press("o")
        await until(lambda: lobby.pending is not None and lobby.pending.listening is not None, pilot)
        guest = asyncio.get_running_loop().create_task(bot.run_guest(lobby.pending.listening, LOOPBACK, game="pagode"))
        try:
            await until(lambda: isinstance(app.screen, InviteScreen), pilot, what="the invitation")
            assert app.screen.joiner == "Robo"
            await pilot.press("a")
            await until(lambda: isinstance(app.screen, GameScreen), pilot, what="the board")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PagodeScreen) and isinstance(screen.network, NetworkSide)  # its own board
            controller = screen.controller
            quick_buttons(screen)
            banner = screen.query_one(LinkBanner)
            mine = 0
            while mine < 2 and not controller.is_over():
                await until(lambda: controller.waiting.kind == "human" and screen.acting_seat is not None
                            or controller.is_over(), pilot, what="Ann's turn")
                if controller.is_over():
                    break
                if controller.last_remote is not None:
                    turn = controller.last_turns[controller.last_remote.actor]     # the whole turn, not its end
                    assert turn[-1] is controller.last_remote
                    assert f"Robo played:  {', '.join(e.text for e in turn)} " in banner.text
                before = len(controller.log)
                await click_action(pilot, screen, builder_choice(controller, controller.my_seat))
                await until(lambda: len(controller.log) > before, pilot, what="the move logged")
                assert controller.log[before].actor == controller.my_seat
                mine += 1
            assert mine == 2
            controller.send_chat("back in a minute")
            await until(lambda: any(line.text == "back in a minute" for line in controller.chat), pilot,
                        what="our own chat line")
            await pilot.press("escape")
            await until(lambda: app.screen is not screen and not isinstance(app.screen, GameScreen), pilot)
            await pilot.press("y")  # leave: the log is kept
            await until(lambda: app.screen is lobby and controller._task.done(), pilot, what="back in the lobby")
            log = controller.peer.files.log_path
            size = log.stat().st_size
            assert size > 0
            # The game is unfinished: r resumes it from its files; the bot comes back by itself.
            assert "Unfinished: Pagode with" in str(lobby.query_one("#lobby-unfinished").render())
            await pilot.press("r")
            await until(lambda: isinstance(app.screen, GameScreen), pilot, what="the board again")
            await pilot.pause()
            screen, resumed = app.screen, app.screen.controller
            assert resumed is not controller and resumed.safety_code == controller.safety_code
            # the chat said before the pause is back, from the game's chat file, ours marked, without pop-ups
            assert [(line.text, line.mine) for line in resumed.chat] == [("back in a minute", True)]
            from lanterne.client.widgets.chat import ChatPane

            await until(lambda: [x.text for x in screen.query_one(ChatPane).lines] == ["back in a minute"], pilot,
                        what="the chat pane's history")
            assert resumed.linked or resumed.status().startswith("Link down, reconnecting by itself")
            assert [e.text for e in resumed.log[:len(controller.log)]] == [e.text for e in controller.log]
            theirs = [e for e in resumed.log if 0 <= e.actor != resumed.my_seat]
            assert resumed.last_remote == (theirs[-1] if theirs else None)
            # the score chart has the whole game, not only what follows the resume
            history = resumed.score_history
            assert history is not None and len(history) == 1 + len(resumed.log), (len(history or []), len(resumed.log))
            assert history[0] == [0, 0] and history[-1] == list(controller.game.display_scores(resumed.view(None)))
            assert screen.query_one(ScoreChart).points[:len(history)] == history
            quick_buttons(screen)
            await until(lambda: resumed.linked and resumed.waiting.kind == "human" and screen.acting_seat is not None,
                        pilot, what="Ann's turn after the resume")
            before = len(resumed.peer.session.chain)
            await click_action(pilot, screen, builder_choice(resumed, resumed.my_seat))
            await until(lambda: len(bot.session.chain) > before, pilot, what="the bot to get the move")
            assert bot.session.chain[before].raw == resumed.peer.session.chain[before].raw
            assert log.stat().st_size > size  # the same log goes on
            await pilot.press("escape")
            await pilot.press("y")
            await until(lambda: app.screen is lobby and resumed._task.done(), pilot, what="back in the lobby")
        finally:
            guest.cancel()
            try:
                await guest
            except BaseException:
                pass


async def test_the_status_says_what_we_wait_for_at_every_step_and_the_log_is_in_public_words(tmp_path):
    """Two NetworkGames on sessions joined frame by frame (no sockets): every status both sides show."""
    from collections import deque

    from lanterne.engines.core import IllegalAction
    from lanterne.protocol.log import open_entry
    from lanterne.protocol.memory import make_sessions
    from lanterne.protocol.net.files import GameFiles, SeatedPeer
    from lanterne.protocol.net.peer import Peer

    sessions = make_sessions(TOY, 2, "status", games=lambda g: TOY)
    keys = [SeatedPeer(s.public) for s in sessions]
    games = [NetworkGame(Peer(s.identity, s.name, GameFiles(tmp_path / str(i)), None, session=s, seats=keys),
                         runner=None, game=TOY if i == 0 else None) for i, s in enumerate(sessions)]
    seen: list[list[str]] = [[], []]
    frames: deque = deque()
    sent = [0, 0]

    def pump(i: int) -> None:
        """Send what session i wrote itself, in order (as a peer's sender reads its chain)."""
        chain = sessions[i].chain
        while sent[i] < len(chain):
            if chain[sent[i]].author == sessions[i].public:
                frames.append((i, chain[sent[i]].raw))
            sent[i] += 1

    def note() -> None:
        for i, g in enumerate(games):
            if g.seats and (not seen[i] or seen[i][-1] != g.status()):
                seen[i].append(g.status())

    games[0].peer._report(sessions[0].start())
    pump(0)
    while not all(s.over for s in sessions):
        note()
        if frames:
            src, raw = frames.popleft()
            dst = 1 - src
            games[dst].peer._report(sessions[dst].receive(open_entry(raw), sender=sessions[src].public))
            pump(dst)
            continue
        i = next(i for i, s in enumerate(sessions) if s.my_turn)
        other = games[1 - i]
        with pytest.raises(IllegalAction, match="not played from this keyboard"):
            other.submit(games[i].my_seat, ("add", 2))
        with pytest.raises(IllegalAction, match="not your turn"):
            other.submit(other.my_seat, ("add", 2))
        count = len(games[i].log)
        with pytest.raises(IllegalAction, match="not a toy move"):
            games[i].submit(games[i].my_seat, ("add", 5))
        assert len(games[i].log) == count
        assert games[i].submit(games[i].my_seat, ("add", 2)).text == "+2"
        pump(i)
    note()
    for i, lines in enumerate(seen):
        them = games[1 - i].seats[1 - i].label
        me = games[i].seats[i].label
        for wanted in ("Setting the table: waiting for {t}'s nonce", "Waiting for {t}'s sealed die (roll)",
                       "Waiting for {t}'s die reveal (roll)", "Waiting for {t}'s shuffle key (shuffle)",
                       "Waiting for {t}'s key to open cards (deal)", "Waiting for {t}'s move", "{m} to play",
                       "Game done: waiting for {t}'s final reveal", "Game done: waiting for {t}'s signed result"):
            assert wanted.format(t=them, m=me) in lines, (wanted, lines)
        assert lines[-1].startswith("Game over: P1 bot1 wins")
    texts = [e.text for e in games[1].log]
    assert texts[0].startswith("roll (first player): ") and texts[1] == "shuffle deck (6 cards)"
    assert texts[2:4] == ["deal 1 card to P1", "deal 1 card to P2"] and texts[4:] == ["+2"] * 7
    assert [e.text for e in games[0].log] == texts
    hidden = games[0].view(None)
    assert all(ident is None for ident in (hidden.cards.ids[s] for h in hidden.hands for s in h))


def test_a_network_game_says_so_in_its_title():
    from lanterne.client.local_play import HOT_SEAT, VS_COMPUTER, make_local_game
    from lanterne.client.net_controller import NetworkGame
    from lanterne.engines.registry import get_game

    assert NetworkGame.mode == "LAN game"
    assert make_local_game(get_game("pagode"), mode=HOT_SEAT, seed=1).mode == "hot-seat"
    assert make_local_game(get_game("pagode"), mode=VS_COMPUTER, seed=1).mode == "local game"
