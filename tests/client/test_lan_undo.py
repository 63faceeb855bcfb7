"""Undo at a LAN table: two apps over 127.0.0.1, a table whose host allows a takeback if the other says yes.

The player whose turn it is plays a move, presses ``u``; the other app asks its person (a dialog: y or a
click), and both boards go back to the position before the move, both move logs a line shorter. A no by
click leaves the move where it was, and the asker's status line says who said no. Both chains stay the same,
entry for entry.
"""

from __future__ import annotations

import dataclasses

from lanterne.client.screens.dialogs import ConfirmScreen
from tests.support.lobby import FAST, click_move, lobby_app, seated, turn_of, unique
from tests.support.tally_game import GAME as TALLY
from tests.support.waiting import until


def status(screen) -> str:
    return str(screen.query_one("#status").render())


def chain(controller) -> list[bytes]:
    return [e.raw for e in controller.peer.session.chain]


async def test_u_asks_the_other_player_who_says_yes_or_no_and_both_boards_agree(tmp_path):
    ann, bob = unique("Ann"), unique("Bob")
    app_a = lobby_app(ann, tmp_path / "a", games=(TALLY,), discover=False,
                      options=dataclasses.replace(FAST, undo="ask"))
    app_b = lobby_app(bob, tmp_path / "b", games=(TALLY,), discover=False)
    async with app_a.run_test(size=(120, 40)) as pa, app_b.run_test(size=(120, 40)) as pb:
        screens = await seated(pa, pb, ann, bob, by_address=True)
        await until(lambda: turn_of(screens) is not None, pa, pb, what="someone's turn")
        mover, waiter = turn_of(screens)
        mc, wc = screens[mover].controller, screens[waiter].controller
        assert mc.offers_undo and wc.offers_undo
        assert screens[mover].check_action("undo", ()) is not False
        await click_move(mover, "add")
        await until(lambda: len(wc.log) == len(mc.log) and mc.log[-1].text == "add", pa, pb, what="the move")
        lines, scores = len(mc.log), list(mc.view(None).scores)

        await mover.press("u")
        await until(lambda: isinstance(waiter.app.screen, ConfirmScreen), pa, pb, what="the other's question")
        question = waiter.app.screen.question
        assert f"{mc.seats[mc.my_seat].label} asks to take back their last move" in question
        assert "asked to take back your last move" in mc.status()
        await waiter.press("y")
        await until(lambda: len(mc.log) == len(wc.log) == lines - 1, pa, pb, what="the move taken back")
        assert mc.view(None).scores[mc.my_seat] == scores[mc.my_seat] - 1 == wc.view(None).scores[mc.my_seat]
        await until(lambda: "Taken back: add" in status(screens[mover]), pa, pb,
                    what="the asker's status")
        assert mc.waiting.kind == "human", "still the asker's turn, from the position before the move"

        await click_move(mover, "add")
        await until(lambda: len(wc.log) == lines, pa, pb, what="the move again")
        await mover.press("u")
        await until(lambda: isinstance(waiter.app.screen, ConfirmScreen), pa, pb, what="the second question")
        await waiter.pause()
        assert await waiter.click("#no")
        await until(lambda: mc.peer.session.chain[-1].kind == "takeback_reply" and
                    "said no: your move stays" in status(screens[mover]), pa, pb,
                    what="the no")
        assert len(mc.log) == len(wc.log) == lines and mc.view(None).scores == wc.view(None).scores
        await until(lambda: chain(mc) == chain(wc), pa, pb, what="the same chain")
        await mover.press("u")      # the same move cannot be asked for again
        await until(lambda: "Cannot undo: nothing of yours" in status(screens[mover]),
                    pa, pb, what="the refusal")


def test_the_replay_of_a_log_with_a_granted_and_a_refused_takeback_shows_the_position_go_back(tmp_path):
    from lanterne.client.replay_model import load_replay
    from tests.support.logs import write_log
    from tests.support.tally_game import play_with_takebacks

    sessions = play_with_takebacks()
    path = tmp_path / "tally.lanterne"
    write_log(path, [e.raw for e in sessions[0].chain])
    replay = load_replay(path, games=lambda game_id: TALLY)
    assert replay.problem is None and replay.result == "over", replay.problem
    back = [i for i, step in enumerate(replay.steps) if step.back]
    assert len(back) == 1 and replay.steps[back[0]].text == "takes back 1 move"
    at = back[0] + 1        # states[i]: the position after step i (states[0]: the start)
    assert TALLY.digest(replay.states[at]) == TALLY.digest(replay.states[at - 2]), "the position before the move"
    assert TALLY.digest(replay.states[-1]) == TALLY.digest(TALLY.view(sessions[0].view, None))
    full = replay.full_states()     # every hand, after the audit: the same positions
    assert len(full) == len(replay.states)


def test_a_resumed_games_score_history_leaves_out_the_moves_taken_back():
    from lanterne.client.controller import scores_over
    from lanterne.protocol.session import Moved, Session, TableResolved, TakenBack
    from tests.support.tally_game import play_with_takebacks

    sessions = play_with_takebacks()
    s = sessions[0]
    replayed = Session.replay([e.raw for e in s.chain], s.public, s.seed, keep_events=True,
                              games=lambda game_id: TALLY)
    events = [ev for ev in replayed.replayed_events if isinstance(ev, (Moved, TableResolved, TakenBack))]
    history = scores_over(TALLY, s.chain, events)
    steps = sum(isinstance(ev, (Moved, TableResolved)) for ev in events)
    taken = sum(ev.moves for ev in events if isinstance(ev, TakenBack))
    assert taken == 1 and len(history) == steps - taken + 1
    assert history[-1] == list(TALLY.display_scores(s.view))
