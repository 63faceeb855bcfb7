"""`lanterne play`: bad requests are one line before any screen opens."""

from __future__ import annotations

import pytest

from lanterne.client.cli import main
from lanterne.client.local_play import HOT_SEAT, VS_COMPUTER, make_local_game
from lanterne.engines.registry import get_game
from tests.support.waiting import until


@pytest.mark.parametrize("args, says", [
    (["play", "chess"], "no game 'chess'"),
    (["play", "pagode", "--variant", "turbo"], "no variant 'turbo'"),
    (["play", "pagode", "--players", "3"], "not 3"),
    (["play", "pagode", "--bot", "chess"], "no computer player 'chess'"),
    (["play", "pagode", "--vs", "bot", "--hot-seat"], "not allowed with argument"),
])
def test_bad_requests_are_one_line(args, says, capsys):
    try:
        status = main(args)
    except SystemExit as e:  # argparse's own errors
        status = e.code
    err = capsys.readouterr().err
    assert status == 2
    assert says in err and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


def test_hot_seat_puts_everyone_at_the_keyboard():
    c = make_local_game(get_game("pagode"), mode=HOT_SEAT, seed="s", you="Ann")
    assert [s.kind for s in c.seats] == ["human", "human"]
    assert [s.name for s in c.seats] == ["Ann", "Player 2"]


def test_vs_computer_seats_you_first():
    c = make_local_game(get_game("pagode"), mode=VS_COMPUTER, bot="greedy", seed="s", you="Ann")
    assert [s.kind for s in c.seats] == ["human", "computer"]
    assert c.seats[1].name == "Computer" and c.seats[1].level == "beginner"


def test_the_seed_fixes_the_game():
    game = get_game("pagode")
    a = make_local_game(game, mode=HOT_SEAT, seed="42")
    b = make_local_game(game, mode=HOT_SEAT, seed="42")
    assert a.save_position() == b.save_position()


def test_lanterne_play_saves_its_game_where_the_app_resumes_and_lists_it(monkeypatch, capsys):
    """`lanterne play --watch` with bots, run headless to the end: its log is in games/local,
    the one line says where, Replays lists it and `lanterne verify` accepts it (exit 0)."""
    import asyncio

    from lanterne.client import app as app_module
    from lanterne.client.local_games import local_folder
    from lanterne.client.local_record import RecordedGame
    from lanterne.client.replay_model import saved_games
    from lanterne.protocol.identity import home

    seen = {}

    def headless(start):
        async def drive():
            app = app_module.LanterneApp(start=start)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                controller = next(s for s in app.screen_stack if hasattr(s, "controller")).controller
                seen["controller"] = controller
                await until(lambda: controller.waiting.kind == "over", pilot, what="the end of the game")
                await app.action_quit()
        asyncio.run(drive())
        return 0

    monkeypatch.setattr(app_module, "run_app", headless)
    status = main(["play", "pagode", "--variant", "quick", "--watch", "--bot", "random", "--delay", "0",
                   "--seed", "9"])
    out = capsys.readouterr().out
    controller = seen["controller"]
    assert status == 0 and isinstance(controller, RecordedGame)
    assert controller.waiting.kind == "over", controller.status()
    log = controller.log_path
    assert log.parent == local_folder() and log.is_file()
    lines = out.strip().splitlines()
    assert lines[-1] == f"Saved: {log} (finished; lanterne verify checks it)"
    assert [g.log for g in saved_games(home() / "games")] == [log]
    assert main(["verify", str(log)]) == 0
    assert ": valid: pagode (quick), 2 players" in capsys.readouterr().out
