"""Commit-reveal dice and coins on fair tables, 2 and 3 peers."""

import pytest

from lanterne.engines.core import ROLL, TableOp
from lanterne.protocol.fair import CheatDetected, FairTable
from lanterne.protocol.fair.driver import LocalTables, run_op, seeded_entropy

GAME = bytes(range(32))

# Chi-square critical values at p = 0.001 (fixed: the rolls come from seeded
# entropy, so the test is deterministic, never flaky).
CRITICAL_0_001 = {1: 10.828, 5: 20.515}


def chi_square(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def roll_many(players: int, faces: int, times: int, seed: object) -> list[int]:
    local = LocalTables(GAME, players, [], seed=seed)
    values = []
    for _ in range(times):
        outcomes = local.run(TableOp(ROLL, faces=faces))
        assert len(set(outcomes)) == 1          # every peer sees the same face
        values.append(outcomes[0][1])
    return values


@pytest.mark.parametrize("players,times", [(2, 3000), (3, 1800)])
def test_a_d6_is_uniform(players, times):
    values = roll_many(players, 6, times, seed=("d6", players))
    counts = [values.count(f) for f in range(6)]
    assert set(values) == set(range(6))
    assert chi_square(counts) < CRITICAL_0_001[5], counts


def test_the_pacal_die_shows_each_face_a_sixth_of_the_time():
    faces = ("2", "3", "3", "4", "5", "arrows")     # house data: rules/README.md
    values = roll_many(2, len(faces), 3000, seed="pacal")
    counts = [values.count(f) for f in range(6)]
    assert chi_square(counts) < CRITICAL_0_001[5], counts
    threes = sum(faces[v] == "3" for v in values)
    assert abs(threes / len(values) - 1 / 3) < 0.04


def test_a_coin_is_fair():
    values = roll_many(3, 2, 1500, seed="coin")
    assert chi_square([values.count(0), values.count(1)]) < CRITICAL_0_001[1]


def test_first_player_roll_names_a_seat_and_every_peer_agrees():
    for players in (2, 3):
        local = LocalTables(GAME, players, [], seed=players)
        seats = {local.run(TableOp(ROLL, faces=players, why="first player"))[0][1] for _ in range(40)}
        assert seats == set(range(players))


def test_the_steps_are_every_commit_then_every_open_in_seat_order():
    local = LocalTables(GAME, 3, [], seed=1)
    local.run(TableOp(ROLL, faces=6))
    assert [(seat, kind) for seat, kind, _ in local.log] == [
        (0, "fair_commit"), (1, "fair_commit"), (2, "fair_commit"),
        (0, "fair_open"), (1, "fair_open"), (2, "fair_open")]


def test_same_seeds_same_rolls_other_seeds_other_rolls():
    assert roll_many(2, 6, 30, seed=9) == roll_many(2, 6, 30, seed=9)
    assert roll_many(2, 6, 30, seed=9) != roll_many(2, 6, 30, seed=10)


def test_randomness_is_drawn_when_the_roll_begins_and_only_then():
    calls = []

    def entropy(n):
        calls.append(n)
        return bytes(n)

    tables = [FairTable(GAME, 0, 2, entropy), FairTable(GAME, 1, 2, seeded_entropy(1))]
    assert calls == []
    op = TableOp(ROLL, faces=6)
    tables[0].begin(op, None)
    assert calls == [32]
    tables[1].begin(op, None)
    while (seat := tables[0].expected()) is not None:
        kind, body = tables[seat].produce()
        tables[1 - seat].consume(seat, kind, body)
    assert calls == [32]


def test_a_secret_that_does_not_match_its_commitment_is_caught():
    def swap_nonce(seat, kind, body):
        if seat == 1 and kind == "fair_open":
            return {**body, "nonce": b"\x00" * 32}
        return body

    local = LocalTables(GAME, 2, [], seed=3)
    with pytest.raises(CheatDetected) as caught:
        local.run(TableOp(ROLL, faces=6), tamper=swap_nonce)
    assert caught.value.seat == 1
    assert "seat 2" in str(caught.value) and "commitment" in str(caught.value)


def test_an_old_secret_cannot_be_replayed_for_a_new_roll():
    local = LocalTables(GAME, 2, [], seed=4)
    local.run(TableOp(ROLL, faces=6))
    old = {kind: body for seat, kind, body in local.log if seat == 0}

    def replay(seat, kind, body):
        if seat == 0:
            return {**old[kind], "roll": body["roll"]}
        return body

    with pytest.raises(CheatDetected) as caught:
        local.run(TableOp(ROLL, faces=6), tamper=replay)
    assert caught.value.seat == 0


def test_messages_out_of_turn_or_of_the_wrong_kind_are_caught():
    tables = [FairTable(GAME, s, 2, seeded_entropy(s)) for s in range(2)]
    for t in tables:
        t.begin(TableOp(ROLL, faces=6), None)
    with pytest.raises(CheatDetected, match="seat 2 sent fair_commit but the next step is fair_commit by seat 1"):
        tables[0].consume(1, "fair_commit", {"roll": 0, "commit": bytes(32)})
    kind, body = tables[0].produce()
    with pytest.raises(CheatDetected, match="seat 1 sent fair_open"):
        tables[1].consume(0, "fair_open", {"roll": 0, "nonce": bytes(32)})


def test_a_malformed_body_is_caught_with_one_line():
    tables = [FairTable(GAME, s, 2, seeded_entropy(s)) for s in range(2)]
    for t in tables:
        t.begin(TableOp(ROLL, faces=6), None)
    with pytest.raises(CheatDetected) as caught:
        tables[1].consume(0, "fair_commit", {"roll": 0, "commit": b"short"})
    assert caught.value.seat == 0 and "commit" in str(caught.value) and "\n" not in str(caught.value)


def test_a_roll_for_another_roll_number_is_caught():
    tables = [FairTable(GAME, s, 2, seeded_entropy(s)) for s in range(2)]
    for t in tables:
        t.begin(TableOp(ROLL, faces=6), None)
    with pytest.raises(CheatDetected, match="roll 5, not roll 0"):
        tables[1].consume(0, "fair_commit", {"roll": 5, "commit": bytes(32)})


def test_run_op_returns_each_tables_outcome():
    tables = [FairTable(GAME, s, 3, seeded_entropy(s)) for s in range(3)]
    outcomes = run_op(tables, TableOp(ROLL, faces=20), [None] * 3)
    assert len(outcomes) == 3 and len(set(outcomes)) == 1 and 0 <= outcomes[0][1] < 20


def test_misuse_is_a_local_error():
    table = FairTable(GAME, 0, 2, seeded_entropy(0))
    with pytest.raises(ValueError, match="2 or more players"):
        FairTable(GAME, 0, 1, seeded_entropy(0))
    with pytest.raises(ValueError, match="not complete"):
        table.outcome()
    table.begin(TableOp(ROLL, faces=6), None)
    with pytest.raises(ValueError, match="still resolving"):
        table.begin(TableOp(ROLL, faces=6), None)


def test_an_op_naming_a_slot_the_game_does_not_have_is_a_local_error():
    from lanterne.engines.core import SHUFFLE
    from lanterne.protocol.fair import FairError

    local = LocalTables(GAME, 2, range(4), seed=0)
    with pytest.raises(FairError, match="names slot 9, but the game has slots 0..3"):
        local.run(TableOp(SHUFFLE, "draw", (0, 9)))
