"""LocalGame: the table resolves itself, people submit, computers play in the background."""

from __future__ import annotations

import asyncio

import pytest

from lanterne.client.controller import COMPUTER, HUMAN, TABLE, LocalGame, Waiting, describe_table_op
from lanterne.engines.bots import RandomBot
from lanterne.engines.core import DEAL, ROLL, SHUFFLE, IllegalAction, NotationError, TableOp
from tests.support.toy_game import GAME
from tests.support.waiting import DEADLINE


def hot_seat(seed=1) -> LocalGame:
    return LocalGame(GAME, [None, None], names=["Ann", "Bob"], seed=seed)


def test_table_operations_are_resolved_at_once():
    c = hot_seat()
    assert c.waiting.kind == HUMAN
    assert [e.actor for e in c.log] == [TABLE] * 4  # roll, shuffle, two deals
    assert c.log[0].text.startswith("roll (first player): ")
    assert c.log[2].text == "deal 1 card to P1"


def test_the_log_never_names_a_hidden_card():
    c = hot_seat()
    hidden = [c.state.cards.ids[s] for h in c.state.hands for s in h]
    for entry in c.log[1:]:
        assert not any(str(card) in entry.text.split() for card in hidden), entry.text


def test_views_hide_the_other_hand():
    c = hot_seat()
    ann, bob = c.state.hands
    assert c.view(0).cards.ids[ann[0]] is not None
    assert c.view(0).cards.ids[bob[0]] is None
    assert c.view(None).cards.ids[ann[0]] is None


def test_submit_plays_and_logs_in_notation():
    c = hot_seat()
    seat = c.waiting.seat
    entry = c.submit(seat, ("add", 2))
    assert entry.text == "+2" and entry.actor == seat
    assert c.scores()[seat] == 2
    assert c.waiting == Waiting(HUMAN, 1 - seat)


def test_submit_refuses_with_a_one_line_reason():
    c = hot_seat()
    seat = c.waiting.seat
    with pytest.raises(IllegalAction, match="not a toy move"):
        c.submit(seat, ("add", 5))
    with pytest.raises(IllegalAction, match=r"it is not P\d .*'s turn"):
        c.submit(1 - seat, ("add", 1))
    assert c.scores() == [0, 0]


def test_parse_uses_the_game_notation():
    c = hot_seat()
    seat = c.waiting.seat
    assert c.parse(seat, " +1 ") == ("add", 1)
    with pytest.raises(NotationError, match="unknown toy move"):
        c.parse(seat, "fly")


def test_same_seed_and_moves_give_the_same_game():
    a, b = hot_seat(seed=7), hot_seat(seed=7)
    for c in (a, b):
        while not c.is_over():
            c.submit(c.waiting.seat, c.legal_actions(c.waiting.seat)[-1])
    assert a.save_position() == b.save_position()
    assert [e.text for e in a.log] == [e.text for e in b.log]


def test_status_says_whose_turn_and_the_result():
    c = hot_seat()
    assert c.status() == f"{c.seats[c.waiting.seat].label} to play"
    while not c.is_over():
        c.submit(c.waiting.seat, ("add", 2))
    assert c.status().startswith("Game over: ") and "wins" in c.status()
    assert c.legal_actions(0) == [] and c.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="the game is over"):
        c.submit(0, ("add", 1))


async def test_computers_play_in_the_background_until_a_person_must_act():
    c = LocalGame(GAME, [None, RandomBot(3)], names=["Ann"], seed=2)
    changed = asyncio.Event()
    changes = []
    c.subscribe(lambda change: (changes.append(change), changed.set()))
    task = asyncio.create_task(c.run())
    while not c.is_over():
        w = c.waiting
        if w.kind == HUMAN:
            c.submit(0, ("add", 1))
        else:
            assert w == Waiting(COMPUTER, 1)
            changed.clear()
            await asyncio.wait_for(changed.wait(), DEADLINE)  # the computer's move arrives by itself
    await asyncio.wait_for(task, DEADLINE)
    assert any(e.actor == 1 for e in c.log)
    assert len(changes) == sum(1 for e in c.log if e.actor != TABLE)
    assert c.seats[1].kind == COMPUTER


def test_computer_seats_cannot_be_played_from_the_keyboard():
    c = LocalGame(GAME, [RandomBot(1), RandomBot(2)], seed=1)
    with pytest.raises(IllegalAction, match="not played from this keyboard"):
        c.submit(c.waiting.seat, ("add", 1))


def test_describe_table_op_is_public():
    assert describe_table_op(TableOp(SHUFFLE, "draw", (1, 2, 3))) == "shuffle draw (3 cards)"
    assert describe_table_op(TableOp(DEAL, "draw", (4, 5), to=1)) == "deal 2 cards to P2"
    assert describe_table_op(TableOp(DEAL, "draw", (4,))) == "deal 1 card face up"
    assert describe_table_op(TableOp(ROLL, faces=2, why="first player"), (ROLL, 1)) == "roll (first player): P2 starts"
    assert describe_table_op(TableOp(ROLL, faces=6, why="die"), (ROLL, 0), "pacal") == "roll (die): 2"
    assert describe_table_op(TableOp(ROLL, faces=6, why="die"), (ROLL, 5), "pacal") == "roll (die): arrows"
