"""`lanterne play`: bad requests are one line before any screen opens."""

from __future__ import annotations

import pytest

from client.cli import main
from client.local_play import HOT_SEAT, VS_COMPUTER, make_local_game
from engines.registry import get_game


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
    assert c.seats[1].name == "greedy bot"


def test_the_seed_fixes_the_game():
    game = get_game("pagode")
    a = make_local_game(game, mode=HOT_SEAT, seed="42")
    b = make_local_game(game, mode=HOT_SEAT, seed="42")
    assert a.save_position() == b.save_position()
