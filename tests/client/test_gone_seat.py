"""A player of a 3-seat LAN table gone for good, in the app: a computer takes the seat, or the game ends.

Real apps (Pilot), real sockets on 127.0.0.1 only. The claim time is the
lobby's (its options' ``claim_after``, here two seconds, offered in the form
next to 1, 2, 5 and 10 minutes). One person leaves the board mid-game
(escape, yes); the others' status counts the time they have been gone, then
the table's policy applies: the claimer's app hosts a computer for the seat
(named ``[computer] Cyd`` on every screen) and the game goes on to the end,
or the game ends with the signed scores so far.
"""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from textual.widgets import Select

from lanterne.client.app import LanterneApp
from lanterne.client.net_controller import NetworkGame, claim_time, clock, describe_policy
from lanterne.client.screens.dialogs import GameOverScreen
from lanterne.client.screens.game import GameScreen
from lanterne.client.screens.lobby import LobbyScreen
from lanterne.client.settings import Settings
from lanterne.client.widgets.link_banner import LinkBanner
from lanterne.client.widgets.scoreboard import ScoreBoard
from lanterne.client.widgets.status_line import StatusLine
from lanterne.protocol.identity import Identity
from lanterne.protocol.log import read_log
from lanterne.protocol.session import Aborted, GameOver, Replaced
from lanterne.protocol.verify import verify_file
from tests.support.lobby import (LOOPBACK, MESH, MESH_SIZE, PUEBLO, ask_and_accept, boards, choose, open_table,
                                 mesh_app, play_one, play_to_the_end, table_text, unique)
from tests.support.waiting import until

CLAIM = 2.0
GONE = dataclasses.replace(MESH, claim_after=CLAIM, link=dataclasses.replace(MESH.link, read_timeout=60.0))
"""A claim time of 2 s, and links that never time out in a test: a person who leaves closes their links at once,
while a busy machine can stall three apps of one process for seconds (a link timed out there was a seat "gone" for
2 s, claimed against before the person ever left)."""


def policy_line(pilot) -> str:
    """The table's policy, under the table in the lobby."""
    return str(pilot.app.screen.query_one("#lobby-policy").render())


def record_statuses(controller: NetworkGame) -> list[str]:
    """Every status the controller had when it announced a change (the screen redraws on each)."""
    seen: list[str] = []
    controller.subscribe(lambda change: seen.append(controller.status()))
    return seen


async def leave_board(pilot) -> None:
    """The person presses escape on the board and confirms: the app leaves the game (its log stays)."""
    controller = pilot.app.screen.controller
    await pilot.press("escape")
    await until(lambda: not isinstance(pilot.app.screen, GameScreen), pilot, what="the leave dialog")
    await pilot.press("y")
    await until(lambda: isinstance(pilot.app.screen, LobbyScreen) and controller._task.done(), pilot,
                what="back in the lobby, the peer stopped")


async def until_turn(seat: int, controllers, pilots, rng: random.Random) -> None:
    """Play the present seats' moves until the game waits for ``seat``."""
    while controllers[0].waiting.seat != seat or controllers[0].waiting.kind == "table":
        if not any(play_one(c, rng) for c in controllers):
            await until(lambda: any(c.waiting.kind == "human" for c in controllers)
                        or controllers[0].waiting.seat == seat and controllers[0].waiting.kind != "table",
                        *pilots, what=f"seat {seat + 1}'s turn")


def test_the_words_of_the_policy_and_the_clocks():
    assert describe_policy("computer", 300) == "if a player is gone 5 min: a computer takes the seat"
    assert describe_policy("end", 60) == "if a player is gone 1 min: the game ends with the scores so far"
    assert claim_time(2.0) == "2 s" and claim_time(600) == "10 min" and claim_time(90) == "90 s"
    assert clock(42.9) == "0:42" and clock(300) == "5:00" and clock(-1) == "0:00"


async def test_the_form_offers_the_policy_and_claim_time_at_every_table_size(tmp_path):
    app = LanterneApp(settings=Settings(display_name="Ann", computer_delay=0.0),
                      start=lambda: LobbyScreen(identity=Identity.generate(), interfaces=LOOPBACK, log_dir=tmp_path,
                                                discover=False, games=[PUEBLO]))
    async with app.run_test(size=MESH_SIZE) as pilot:
        lobby = app.screen
        on_gone, claim = lobby.query_one("#lan-on-gone", Select), lobby.query_one("#lan-claim", Select)
        assert on_gone.value == "end" and claim.value == 300.0   # the defaults: end, 5 minutes
        assert [v for _, v in claim._options if v is not Select.BLANK] == [60.0, 120.0, 300.0, 600.0]
        assert [str(label) for label, _ in claim._options][:4] == ["1 min", "2 min", "5 min", "10 min"]
        assert lobby.query_one("#lan-seats", Select).value == 2
        assert not on_gone.disabled and not claim.disabled   # a table of two has its policy too
        await choose(pilot, "#lan-seats", 3)
        assert not on_gone.disabled and not claim.disabled
        await choose(pilot, "#lan-on-gone", "computer")
        await choose(pilot, "#lan-claim", 120.0)
        await choose(pilot, "#lan-computers", 2)
        await choose(pilot, "#lan-bot", "random")
        assert await pilot.click("#open-table")
        await until(lambda: isinstance(app.screen, GameScreen), pilot, what="the board")
        host = app.screen.controller
        assert host.peer.on_gone == "computer" and host.peer.options.claim_after == 120.0
        assert host.peer.session.on_gone == "computer"   # signed in the table
        await until(lambda: host.safety_code and "a computer" in app.screen.query_one(LinkBanner).text, pilot)
        assert "if a player is gone 2 min: a computer takes the seat" in app.screen.query_one(LinkBanner).text
    saved = Settings.load()   # the choice is kept for the next table (in LANTERNE_HOME here)
    assert (saved.on_gone, saved.claim_after) == ("computer", 120.0)
    again = LanterneApp(settings=saved, start=lambda: LobbyScreen(identity=Identity.generate(), interfaces=LOOPBACK,
                                                                   log_dir=tmp_path, discover=False, games=[PUEBLO]))
    async with again.run_test(size=MESH_SIZE) as pilot:
        lobby = again.screen
        assert lobby.query_one("#lan-on-gone", Select).value == "computer"
        assert lobby.query_one("#lan-claim", Select).value == 120.0


@pytest.mark.slow
async def test_a_player_gone_for_good_is_replaced_by_a_computer_and_the_game_goes_on_to_the_end(tmp_path):
    ann, bob, cyd = unique("Ann"), unique("Bob"), unique("Cyd")
    app_a, app_b, app_c = (mesh_app(n, tmp_path / n[0], options=GONE) for n in (ann, bob, cyd))
    async with app_a.run_test(size=MESH_SIZE) as pa, app_b.run_test(size=MESH_SIZE) as pb, app_c.run_test(size=MESH_SIZE) as pc:
        await choose(pa, "#lan-seats", 3)
        await choose(pa, "#lan-on-gone", "computer")
        await choose(pa, "#lan-bot", "random")   # the level of the computer Ann's app would host
        await open_table(pa, 3, bot="random")
        policy = "if a player is gone 2 s: a computer takes the seat"
        assert policy_line(pa) == policy[0].upper() + policy[1:]
        await ask_and_accept(pa, pb, ann, bob, free=2)
        await ask_and_accept(pa, pc, ann, cyd, free=1)
        screens = await boards(pa, pb, pc)
        controllers = [s.controller for s in screens]
        await until(lambda: all(c.linked for c in controllers), pa, pb, pc, what="a full mesh")
        for s in screens:
            assert policy in s.query_one(LinkBanner).text, s.query_one(LinkBanner).text
        present, gone = controllers[:2], controllers[2]
        seen = [record_statuses(c) for c in present]
        await until_turn(2, present, [pa, pb], random.Random(5))
        assert gone.waiting.kind == "human"
        await leave_board(pc)   # Cyd leaves on purpose (a pause), on her turn, and does not come back
        # the two others: who left, how long ago, and what comes at the claim time
        waiting = re.compile(rf"^Waiting for P3 {cyd}, who left on purpose 0:0\d ago; at 0:02 a computer takes the seat$")
        shown = screens[0].query_one(StatusLine)
        await until(lambda: waiting.match(str(shown._content)) or present[0].seats[2].name != cyd, pa, pb,
                    what="the gone clock on Ann's status line")
        assert waiting.match(str(shown._content)), shown._content   # the 2 s before the claim were seen
        await until(lambda: all(c.seats[2].name == f"[computer] {cyd}" for c in present), pa, pb,
                    what="the seat given to a computer")
        for statuses in seen:
            assert any(waiting.match(t) for t in statuses), statuses[-8:]
        for c, s in zip(present, screens):
            assert c.notice == (f"P3 {cyd} was gone 2 s: P3 [computer] {cyd} plays that seat from now on "
                                f"(every present player signed it; hidden cards re-dealt)")
            await until(lambda: c.notice in s.query_one(LinkBanner).text, pa, pb, what="the notice")
            assert f"P3 [computer] {cyd}" in str(s.query_one(ScoreBoard)._content)
        await until(lambda: all(f"P3 [computer] {cyd} linked" in s.query_one(LinkBanner).text for s in screens[:2]),
                    pa, pb, what="the computer linked with both")
        # Cyd comes back (r in her lobby): her app learns her seat is a computer's; her board stays read-only
        await pc.press("r")
        await until(lambda: isinstance(app_c.screen, GameOverScreen), pa, pb, pc, what="Cyd's end dialog")
        await pc.pause()
        back = app_c.screen_stack[-2].controller   # her board, under the dialog
        assert isinstance(back, NetworkGame) and back is not gone
        assert isinstance(back.peer.session.result, Replaced)
        assert back.status() == (f"Game over for you: while you were gone, P1 {ann} gave your seat (P3) to a "
                                 f"computer, which plays on; the board shows the game as you left it")
        assert str(app_c.screen.query_one("#game-over-result").render()) == back.status()
        assert back.legal_actions(2) == [] and back.view(2) is back.peer.session.view
        await play_to_the_end([pa, pb], present, seed=11)
        await until(lambda: all(c.peer.session.over and c._task.done() for c in present), pa, pb,
                    what="the end on both")
        assert all(isinstance(c.peer.session.result, GameOver) for c in present)
        assert present[0].status() == present[1].status() and f"P3 [computer] {cyd}" in present[0].status()
    logs = [read_log(c.peer.files.log_path)[0] for c in present]
    assert logs[0] == logs[1]
    report = verify_file(str(present[1].peer.files.log_path))
    assert report.ok and report.result == "over" and len(report.seats) == 3, report
    assert report.seats[2]["computer"]["key"] == present[0].peer.session.seats[2].hex()


@pytest.mark.slow
async def test_a_player_gone_for_good_ends_the_game_with_the_scores_so_far(tmp_path):
    ann, bob = unique("Ann"), unique("Bob")
    app_a, app_b = (mesh_app(n, tmp_path / n[0], discover=False, options=GONE) for n in (ann, bob))
    async with app_a.run_test(size=MESH_SIZE) as pa, app_b.run_test(size=MESH_SIZE) as pb:
        host = await open_table(pa, 3, computers=1, bot="random")   # the policy left at its default: end
        await until(lambda: "[computer]" in table_text(pa), pa, what="the computer seated")
        assert policy_line(pa) == "If a player is gone 2 s: the game ends with the scores so far"
        pb.app.screen.join(host.listening, seats=3, who=ann)
        from lanterne.client.screens.invite import InviteScreen

        await until(lambda: isinstance(pa.app.screen, InviteScreen), pa, pb, what="the invitation dialog")
        await pa.pause()
        assert await pa.click("#invite-accept")
        screens = await boards(pa, pb)
        guest = screens[1].controller
        assert guest.my_seat == 2 and guest.policy_text() == describe_policy("end", CLAIM) + "; a move takes at most 10 min"
        seen = record_statuses(host)
        await until_turn(2, [host, guest], [pa, pb], random.Random(2))
        await leave_board(pb)   # Bob leaves on purpose (a pause), on his turn, and does not come back
        await until(lambda: isinstance(host.peer.session.result, Aborted), pa, what="the claim")
        assert any(t.startswith(f"Waiting for P3 {bob}, who left on purpose 0:0") and t.endswith(
            "ago; at 0:02 the game ends with the scores so far") for t in seen), seen[-8:]
        result = host.peer.session.result
        assert result.culprit == 2 and result.scores is not None
        tally = ", ".join(f"{s.label} {v}" for s, v in zip(host.seats, result.scores))
        agreed = ", ".join(host.seats[a].label for a in result.agreed)
        assert result.agreed == (1,), "the computer seat's own clock agreed to the claim"
        assert host.status() == f"Game ended: P3 {bob} was gone 2 s (agreed by {agreed}); scores so far: {tally}"
        assert tally.startswith(f"P1 {ann} ") and f", P2 [computer] {ann} 1 " in tally
        await until(lambda: isinstance(app_a.screen, GameOverScreen), pa, what="the end dialog")
        await pa.pause()
        assert str(app_a.screen.query_one("#game-over-result").render()) == host.status()
        await pa.press("escape")   # back to the board: the end text stays in its status line
        await until(lambda: isinstance(app_a.screen, GameScreen), pa)
        await until(lambda: str(app_a.screen.query_one(StatusLine)._content) == host.status(), pa)
        await until(lambda: host._task.done(), pa, what="the peer to close")
    report = verify_file(str(host.peer.files.log_path))
    assert report.ok and len(report.seats) == 3, report


async def test_a_player_who_resigns_ends_the_game_at_once_with_the_scores_so_far(tmp_path):
    """Leaving on purpose for good: a signed abort naming the player's own seat, seen by the others at once."""
    ann, bob = unique("Ann"), unique("Bob")
    app_a, app_b = (mesh_app(n, tmp_path / n[0], discover=False, options=GONE) for n in (ann, bob))
    async with app_a.run_test(size=MESH_SIZE) as pa, app_b.run_test(size=MESH_SIZE) as pb:
        host = await open_table(pa, 2)
        pb.app.screen.join(host.listening, seats=2, who=ann)
        from lanterne.client.screens.invite import InviteScreen

        await until(lambda: isinstance(pa.app.screen, InviteScreen), pa, pb, what="the invitation dialog")
        await pa.pause()
        assert await pa.click("#invite-accept")
        screens = await boards(pa, pb)
        guest = screens[1].controller
        await pb.press("escape")
        await until(lambda: not isinstance(pb.app.screen, GameScreen), pb, what="the leave dialog")
        await pb.press("r", "y")      # resign, and yes
        await until(lambda: isinstance(host.peer.session.result, Aborted), pa, pb, what="the resignation")
        result = host.peer.session.result
        assert result.by == 1 and result.culprit == 1 and "resigned" in result.reason
        assert result.scores is not None
        said = host.early_end()
        assert said.startswith(f"Game ended: P2 {bob} resigned; scores so far: ") and "fault of" not in said, said
        await until(lambda: guest._task.done(), pa, pb, what="Bob's peer to stop")
        await until(lambda: host._task.done(), pa, pb, what="Ann's peer to stop")
    report = verify_file(str(host.peer.files.log_path))
    assert report.ok and report.result == "aborted", report


async def test_a_resignation_at_a_table_of_three_names_who_wins(tmp_path):
    """At a table of three the game that a resignation ends names its winner too (the others' leader, by the
    game's rule: Pueblo's fewest penalties)."""
    ann, bob = unique("Ann"), unique("Bob")
    app_a, app_b = (mesh_app(n, tmp_path / n[0], discover=False, options=GONE) for n in (ann, bob))
    async with app_a.run_test(size=MESH_SIZE) as pa, app_b.run_test(size=MESH_SIZE) as pb:
        host = await open_table(pa, 3, computers=1)
        pb.app.screen.join(host.listening, seats=3, who=ann)
        from lanterne.client.screens.invite import InviteScreen

        await until(lambda: isinstance(pa.app.screen, InviteScreen), pa, pb, what="the invitation dialog")
        await pa.pause()
        assert await pa.click("#invite-accept")
        await boards(pa, pb)
        await pb.press("escape")
        await until(lambda: not isinstance(pb.app.screen, GameScreen), pb, what="the leave dialog")
        await pb.press("r", "y")
        await until(lambda: isinstance(host.peer.session.result, Aborted), pa, pb, what="the resignation")
        culprit = host.peer.session.result.culprit
        leaders = [i for i in host.winners() if i != culprit]
        said = host.early_end()
        assert " resigned; scores so far: " in said, said
        assert leaders and (said.endswith("; you win") if leaders == [0] else " wins" in said or "share the win" in said), said
