"""Undo (u): a person takes back the last actions of the turn under way, in a game played on this machine.

Every game here has turns of several actions. The games are the app's own: a signed log in the test's
Lanterne home, you against a computer choosing at random. What is checked: the key and the footer take
back exactly the last action (the position before it, the log a line shorter), back to the turn's start
and no further; what the table dealt or rolled after an action keeps it, and the status line says why
in one line; the log left behind verifies, replays, resumes at the position after the undo, and is the
very log of the game played without the action taken back, byte for byte.
"""

from __future__ import annotations

import random

import pytest

from lanterne.client.local_play import VS_COMPUTER, make_local_game
from lanterne.client.local_record import RecordedGame, resume_local
from lanterne.client.replay_model import load_replay
from lanterne.client.screens.game import game_screen_for
from lanterne.engines.core import IllegalAction
from lanterne.engines.registry import get_game
from lanterne.protocol.log import read_log
from lanterne.protocol.verify import verify_file
from tests.support.apps import make_app
from tests.support.waiting import until

MULTI_ACTION_TURNS = ["pagode", "pueblo", "pacal", "pandoria"]


def local_game(game_id: str, folder, seed: str = "u") -> RecordedGame:
    game = get_game(game_id)
    made = make_local_game(game, VS_COMPUTER, bot="random", seed=seed, you="Ann", save_to=folder,
                           variant=game.variants[0] if "standard" not in game.variants else "standard")
    assert isinstance(made, RecordedGame)
    return made


def play_on(c, rng: random.Random, until_undoable: bool = True, most: int = 2000) -> None:
    """Moves chosen by ``rng`` (the computer's at once) until P1 has just played an action it may take back."""
    for _ in range(most):
        w = c.waiting
        assert w.kind != "over", "the game ended before an action could be taken back"
        if w.kind == "computer":
            c.play_computer_now()
            continue
        if until_undoable and c.undo_refusal(0) is None:
            return
        c.submit(0, rng.choice(c.legal_actions(0)))
    raise AssertionError("no action to take back in a whole game")


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector).render())


@pytest.mark.parametrize("game_id", MULTI_ACTION_TURNS)
async def test_u_takes_back_the_last_action_of_your_turn_and_no_more(game_id, lanterne_home, tmp_path):
    c = local_game(game_id, tmp_path)
    game = c.game
    rng = random.Random(game_id)
    play_on(c, rng)
    # the position before each action of this turn that may be taken back, newest last
    lines = len(c.log)
    screen = game_screen_for(c)
    app = make_app(lambda: screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Undo" in screen.help_text()
        taken = 0
        while c.undo_refusal(0) is None:
            last = c.log[-1]
            await pilot.press("u")
            await until(lambda: len(c.log) == last.number - 1, pilot, what="the action taken back")
            await until(lambda: "Taken back" in text_of(screen, "#status"), pilot, what="the status says it")
            taken += 1
        assert taken >= 1 and len(c.log) == lines - taken
        assert c.waiting.kind == "human" and c.waiting.seat == 0, "still your turn, from where it was"
        await pilot.press("u")      # nothing more: the turn's start, or what the table did in it
        await until(lambda: "Cannot undo:" in text_of(screen, "#status"), pilot, what="the refusal")
        assert len(c.log) == lines - taken
        status = text_of(screen, "#status")
        assert any(why in status for why in ("nothing of yours to take back this turn", "revealed a card",
                                             "cannot be rolled again", "has played since")), status
        # the game goes on from the position taken back to, and its log is sound
        legal = c.legal_actions(0)
        assert legal and all(isinstance(a, tuple) for a in legal)
        before = game.digest(c.view(0))
    c.flush()
    report = verify_file(str(c.log_path))
    assert report.ok or report.unfinished, report.problem
    resumed = resume_local(c.log_path.with_suffix(".json"))
    try:
        assert game.digest(resumed.view(0)) == before and resumed.moves == c.moves
    finally:
        resumed.close()
        c.close()


@pytest.mark.parametrize("game_id", MULTI_ACTION_TURNS)
def test_a_log_after_undos_is_the_log_of_the_game_played_without_them(game_id, lanterne_home, tmp_path):
    """Played twice from one seed: once with actions tried and taken back all along, once with only the actions
    kept. The two logs are the same bytes; the first verifies, replays to the same end and resumes there."""
    with_undos, kept = [], []
    c = local_game(game_id, tmp_path / "a")
    rng = random.Random(f"{game_id}/undo")
    undone = 0
    while c.waiting.kind != "over" and len(c.log) < 300:
        w = c.waiting
        if w.kind == "computer":
            c.play_computer_now()
            kept.append(None)
            continue
        if c.undo_refusal(0) is None and rng.random() < 0.4:
            c.undo(0)
            kept.pop()
            undone += 1
            continue
        action = rng.choice(c.legal_actions(0))
        c.submit(0, action)
        kept.append(action)
        with_undos.append(action)
    assert undone >= 3, f"only {undone} actions taken back"
    c.close()
    log = c.log_path
    report = verify_file(str(log))
    assert report.ok or report.unfinished, report.problem
    replay = load_replay(log)
    assert replay.problem is None

    d = local_game(game_id, tmp_path / "b")
    for action in kept:
        if action is None:
            d.play_computer_now()
        else:
            d.submit(0, action)
    d.close()
    assert read_log(d.log_path) == read_log(log), "the undone actions left no trace in the log"

    resumed = resume_local(log.with_suffix(".json"))
    try:
        assert resumed.moves == d.moves and [e.text for e in resumed.log] == [e.text for e in d.log]
    finally:
        resumed.close()


async def test_the_footers_undo_takes_back_by_mouse_at_80x24(lanterne_home, tmp_path):
    from textual.widgets._footer import FooterKey

    c = local_game("pacal", tmp_path)
    play_on(c, random.Random(8))
    last = c.log[-1]
    screen = game_screen_for(c)
    app = make_app(lambda: screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert len(c.log) == last.number
        for _ in range(3):
            [key] = [k for k in screen.query(FooterKey) if k.key == "u"]
            assert key.region.right <= 80, "the footer shows Undo at 80 columns"
            # The footer draws its keys anew when the bindings change (the board takes the focus after the
            # first paint), so the key may be replaced under the click; the undo is made by the click itself,
            # so a click that missed shows at once as a log still as long, and a person clicks again.
            if await pilot.click(key) or len(c.log) != last.number:
                break
        await until(lambda: len(c.log) == last.number - 1, pilot, what="the action taken back by a click")
    c.close()


def find(game_id: str, folder, wanted: str, seeds: int = 12) -> RecordedGame:
    """A game stopped at P1's turn where undo is refused for ``wanted`` (random play, seeds tried in order)."""
    for n in range(seeds):
        c = local_game(game_id, folder / str(n), seed=f"find{n}")
        rng = random.Random(n)
        for _ in range(600):
            w = c.waiting
            if w.kind == "over":
                break
            if w.kind == "computer":
                c.play_computer_now()
                continue
            if wanted in (c.undo_refusal(0) or ""):
                return c
            c.submit(0, rng.choice(c.legal_actions(0)))
        c.close()
    raise AssertionError(f"no {game_id} game met {wanted!r}")


@pytest.mark.parametrize("game_id", ["pagode", "pandoria"])
async def test_an_action_the_draw_followed_stays_and_the_status_says_why(game_id, lanterne_home, tmp_path):
    c = find(game_id, tmp_path, "the draw after it revealed a card")
    lines = len(c.log)
    screen = game_screen_for(c)
    app = make_app(lambda: screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("u")
        await until(lambda: "Cannot undo: the draw after it revealed a card" in text_of(screen, "#status"), pilot,
                    what="the refusal in the status line")
        assert len(c.log) == lines
    c.close()


async def test_the_refusal_and_the_action_taken_back_are_said_in_french(lanterne_home, tmp_path, request):
    from lanterne.client import i18n

    i18n.set_language("fr")
    request.addfinalizer(lambda: i18n.set_language("en"))
    c = local_game("pagode", tmp_path)
    play_on(c, random.Random(2))
    screen = game_screen_for(c)
    app = make_app(lambda: screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        while c.undo_refusal(0) is None:
            last = c.log[-1]
            await pilot.press("u")
            await until(lambda: len(c.log) == last.number - 1, pilot, what="the action taken back")
            await until(lambda: "Coup repris : " in text_of(screen, "#status"), pilot, what="said in French")
        await pilot.press("u")
        await until(lambda: "Coup non repris : " in text_of(screen, "#status"), pilot,
                    what="the refusal in French")
        assert "aucune action à vous à reprendre dans ce tour" in text_of(screen, "#status")
    c.close()


def test_undo_is_refused_at_the_turns_start_on_the_computers_turn_and_once_over(lanterne_home, tmp_path):
    c = local_game("pueblo", tmp_path)
    rng = random.Random(3)
    while c.waiting.kind == "computer":
        c.play_computer_now()
    assert c.undo_refusal(0) == "nothing of yours to take back this turn", "nothing played yet this turn"
    with pytest.raises(IllegalAction, match="nothing of yours"):
        c.undo(0)
    play_on(c, rng)      # P1 played an action of the turn: it may be taken back...
    while c.waiting.kind == "human":        # ... until the turn is over
        c.submit(0, rng.choice(c.legal_actions(0)))
    assert c.waiting.kind == "computer" and c.undo_refusal(0) == "it is not your turn"
    while c.waiting.kind == "computer":
        c.play_computer_now()
    assert c.undo_refusal(0) == "nothing of yours to take back this turn", "your last turn is over"
    while c.waiting.kind != "over":
        w = c.waiting
        if w.kind == "computer":
            c.play_computer_now()
        else:
            c.submit(0, rng.choice(c.legal_actions(0)))
    assert c.undo_refusal(0) == "the game is over"
    c.close()


def test_a_resumed_game_keeps_what_was_played_before_the_resume(lanterne_home, tmp_path):
    c = local_game("pacal", tmp_path)
    play_on(c, random.Random(5))
    c.close()
    resumed = resume_local(c.log_path.with_suffix(".json"))
    try:
        assert resumed.undo_refusal(0) == "it was played before the game was resumed"
    finally:
        resumed.close()


def test_another_seat_that_played_within_your_turn_keeps_your_action(lanterne_home, tmp_path):
    c = find("pacal", tmp_path, "has played since")
    assert c.undo_refusal(0) == "P2 Computer has played since"
    c.close()


@pytest.mark.parametrize("game_id", MULTI_ACTION_TURNS)
def test_an_open_table_and_a_hot_seat_game_take_back_too(game_id):
    """Without a log (the open table in memory), hot-seat: whoever's turn it is takes back to the position before."""
    game = get_game(game_id)
    c = make_local_game(game, "hot-seat", seed="open", variant=game.variants[0] if "standard" not in game.variants
                        else "standard")
    rng = random.Random(game_id)
    taken = 0
    for _ in range(400):
        w = c.waiting
        if w.kind == "over":
            break
        before = game.digest(c.view(None))
        lines = len(c.log)
        c.submit(w.seat, rng.choice(c.legal_actions(w.seat)))
        if c.undo_refusal(w.seat) is None:
            c.undo(w.seat)
            taken += 1
            assert game.digest(c.view(None)) == before and len(c.log) == lines and c.waiting == w
            c.submit(w.seat, rng.choice(c.legal_actions(w.seat)))
    assert taken >= 5, f"only {taken} actions taken back"
