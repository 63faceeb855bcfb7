"""The mental-poker deck: shuffles, deals, reveals, claims and live cheat checks."""

import pytest

from lanterne.engines.core import DEAL, REVEAL, SHUFFLE, TableOp, canonical_pack
from lanterne.protocol.fair import CheatDetected, FairError, audit_transcript
from lanterne.protocol.fair import group as g
from lanterne.protocol.fair.driver import LocalTables, seeded_entropy

GAME = b"\xaa" * 32
PAGODE = list(range(55))


def shuffled(players: int, cards=PAGODE, seed: object = 0) -> LocalTables:
    local = LocalTables(GAME, players, cards, seed=seed)
    local.run(TableOp(SHUFFLE, "draw", tuple(range(len(cards)))))
    return local


@pytest.mark.parametrize("players", [2, 3])
def test_a_shuffle_hides_the_pile_from_everyone(players):
    local = LocalTables(GAME, players, PAGODE, seed=1)
    outcomes = local.run(TableOp(SHUFFLE, "draw", tuple(range(55))))
    assert outcomes == [(SHUFFLE, (None,) * 55)] * players
    assert all(view.cards.ids == [None] * 55 for view in local.views)
    kinds = [(seat, kind) for seat, kind, _ in local.log]
    shuffles = [(s, "fair_shuffle") for s in range(players)]
    rekeys = [(s, "fair_rekey") for s in range(players - 1)]
    assert kinds == shuffles + rekeys


@pytest.mark.parametrize("players", [2, 3])
def test_a_face_down_deal_shows_the_cards_to_their_owner_only(players):
    local = shuffled(players, seed=2)
    for seat in range(players):
        outcomes = local.run(TableOp(DEAL, "draw", (2 * seat, 2 * seat + 1), to=seat))
        mine = outcomes[seat][1]
        assert None not in mine and set(mine) <= set(PAGODE)
        for other in range(players):
            if other != seat:
                assert outcomes[other] == (DEAL, (None, None))
    # the other seats' keys only: one keys message per other seat
    deals = [(s, body) for s, kind, body in local.log if kind == "fair_keys"]
    assert [s for s, _ in deals] == [s for to in range(players) for s in range(players) if s != to]
    hands = [local.views[s].cards.ids[2 * s:2 * s + 2] for s in range(players)]
    assert len({c for h in hands for c in h}) == 2 * players


@pytest.mark.parametrize("players", [2, 3])
def test_dealing_the_whole_deck_face_up_gives_a_permutation_of_the_pile(players):
    local = shuffled(players, seed=3)
    outcomes = local.run(TableOp(DEAL, "draw", tuple(range(55)), to=None))
    ids = outcomes[0][1]
    assert all(o == outcomes[0] for o in outcomes)
    assert sorted(ids) == PAGODE and ids != tuple(PAGODE)
    assert audit_transcript(GAME, players, local.log, local.finish()) == []


def test_each_position_is_uniform_over_many_shuffles():
    # where card 0 lands over 300 small shuffles: chi-square with 4 degrees of freedom
    counts = [0] * 5
    for seed in range(300):
        local = LocalTables(GAME, 2, range(5), seed=("pos", seed))
        local.run(TableOp(SHUFFLE, "draw", tuple(range(5))))
        ids = local.run(TableOp(DEAL, "draw", tuple(range(5)), to=None))[0][1]
        counts[ids.index(0)] += 1
    expected = 60
    assert sum((c - expected) ** 2 / expected for c in counts) < 18.467, counts   # p = 0.001


def test_same_seeds_give_the_same_bytes_other_seeds_another_order():
    def game(seed):
        local = shuffled(2, seed=seed)
        local.run(TableOp(DEAL, "draw", (0, 1, 2), to=None))
        return canonical_pack(local.log)

    assert game(7) == game(7)
    assert game(7) != game(8)


def test_a_reveal_of_a_hand_card_needs_only_its_owners_key():
    local = shuffled(3, seed=4)
    local.run(TableOp(DEAL, "draw", (0,), to=1))
    card = local.views[1].cards.ids[0]
    before = len(local.log)
    outcomes = local.run(TableOp(REVEAL, "hand", (0,)))
    assert outcomes == [(REVEAL, (card,))] * 3
    assert [(s, k) for s, k, _ in local.log[before:]] == [(1, "fair_keys")]
    assert all(view.cards.is_public(0) for view in local.views)


def test_a_reveal_of_a_pile_card_needs_every_key_and_a_second_reveal_none():
    local = shuffled(2, seed=5)
    first = local.run(TableOp(REVEAL, "draw", (9,)))
    assert first[0] == first[1] and first[0][1][0] in PAGODE
    before = len(local.log)
    assert local.run(TableOp(REVEAL, "draw", (9,))) == first
    assert len(local.log) == before


def test_cards_never_shuffled_are_dealt_without_messages():
    local = LocalTables(GAME, 2, [10, 11, 12, 13], seed=6)
    outcomes = local.run(TableOp(DEAL, "reserve", (0, 1), to=1))
    assert outcomes == [(DEAL, (10, 11))] * 2 and local.log == []


@pytest.mark.parametrize("players", [2, 3])
def test_a_pile_with_hidden_cards_is_reshuffled_through_a_relock(players):
    local = shuffled(players, cards=list(range(8)), seed=7)
    local.run(TableOp(DEAL, "draw", (0, 1), to=0))          # slot 0: seat 1 knows it, nobody else
    local.run(TableOp(REVEAL, "draw", (4,)))                 # slot 4: public
    mine, shown = local.views[0].cards.ids[0], local.views[0].cards.ids[4]
    before = len(local.log)
    pile = (0, 2, 3, 4)                                      # 2 and 3: nobody knows them
    assert local.run(TableOp(SHUFFLE, "pile", pile)) == [(SHUFFLE, (None,) * 4)] * players
    kinds = [(s, k) for s, k, _ in local.log[before:]]
    seats = range(players)
    assert kinds == ([(s, "fair_relock") for s in seats] + [(s, "fair_shuffle") for s in seats]
                     + [(s, "fair_rekey") for s in range(players - 1)])
    assert local.log[before][2]["hidden"] == [0, 1, 2] and local.log[before][2]["cards"] == [shown]
    # seat 1 no longer knows where its card went
    assert all(local.tables[0]._identity((1, pos)) is None for pos in range(4))
    local.run(TableOp(DEAL, "pile", (0,), to=players - 1))   # face down from the new deck, then played
    local.play(players - 1, [0])
    dealt = local.run(TableOp(DEAL, "pile", (2, 3, 4), to=None))[0][1] + (local.views[0].cards.ids[0],)
    assert mine in dealt and shown in dealt and len(set(dealt)) == 4 and set(dealt) <= set(range(8))
    assert not set(dealt) & {local.views[0].cards.ids[1]}    # seat 1's other card stayed out
    assert audit_transcript(GAME, players, local.log, local.finish()) == []


def test_a_tampered_relock_is_named_at_the_audit():
    local = shuffled(2, cards=list(range(8)), seed=23)
    local.run(TableOp(DEAL, "draw", (0,), to=1))

    def swap_two(seat, kind, body):
        if seat == 1 and kind == "fair_relock":
            return {**body, "points": [body["points"][1], body["points"][0]] + body["points"][2:]}
        return body

    local.run(TableOp(SHUFFLE, "pile", (0, 5, 6)), tamper=swap_two)
    finals = {t.seat: t.final_reveal()[1] for t in local.tables}
    step = next(i for i, (s, k, _) in enumerate(local.log) if s == 1 and k == "fair_relock")
    assert audit_transcript(GAME, 2, local.log, finals)[0] == (
        f"step {step}: seat 2's relock of deck 1 does not match its relock and old keys")


def test_a_relock_naming_other_hidden_slots_is_caught():
    local = shuffled(2, cards=list(range(8)), seed=24)

    def other(seat, kind, body):
        return {**body, "hidden": [0]} if kind == "fair_relock" and seat == 0 else body

    with pytest.raises(CheatDetected, match="seat 1 started deck 1 with other cards or slots"):
        local.run(TableOp(SHUFFLE, "pile", (0, 1)), tamper=other)


def test_an_empty_shuffle_needs_no_message():
    local = LocalTables(GAME, 2, [1, 2], seed=8)
    assert local.run(TableOp(SHUFFLE, "discard", ())) == [(SHUFFLE, ())] * 2
    assert local.log == []


@pytest.mark.parametrize("players", [2, 3])
def test_a_played_card_is_proved_and_the_discard_pile_reshuffled_into_a_new_deck(players):
    local = shuffled(players, cards=list(range(12)), seed=9)
    local.run(TableOp(DEAL, "draw", (0, 1, 2), to=1))
    local.play(1, [0, 2])
    hand = local.views[1].cards.ids
    for view in local.views:
        assert view.cards.ids[0] == hand[0] and view.cards.ids[2] == hand[2]
    local.run(TableOp(DEAL, "draw", (3, 4), to=None))
    # the discard pile (slots 0, 2, 3, 4, all public) becomes deck 1
    discard = (0, 2, 3, 4)
    cards = sorted(local.views[0].cards.ids[s] for s in discard)
    local.run(TableOp(SHUFFLE, "discard", discard))
    assert all(view.cards.ids[s] is None for view in local.views for s in discard)
    dealt = local.run(TableOp(DEAL, "discard", discard, to=None))[0][1]
    assert sorted(dealt) == cards
    decks = {body["deck"] for _, kind, body in local.log if kind == "fair_shuffle"}
    assert decks == {0, 1}
    assert audit_transcript(GAME, players, local.log, local.finish()) == []


def test_a_false_claim_is_caught_and_names_the_seat():
    local = shuffled(2, cards=list(range(8)), seed=10)
    local.run(TableOp(DEAL, "draw", (0,), to=0))
    real = local.views[0].cards.ids[0]
    with pytest.raises(CheatDetected) as caught:
        local.play(0, [0], [(real + 1) % 8])
    assert caught.value.seat == 0
    assert str(caught.value) == f"seat 1 claims card {(real + 1) % 8} in slot 0, but its keys open card {real}"


def test_a_claim_of_a_card_never_dealt_to_the_seat_is_caught():
    local = shuffled(3, cards=list(range(8)), seed=11)
    local.run(TableOp(DEAL, "draw", (0,), to=0))
    local.run(TableOp(DEAL, "draw", (1,), to=1))
    with pytest.raises(FairError, match="slot 1 is not a card we know"):
        local.tables[2].prove([1])
    # seat 3 'plays' seat 2's card with its own key, which is not enough to open it
    proof = {"decks": [0], "pos": [1], "keys": [local.tables[2]._decks[0].keys[1]]}
    with pytest.raises(CheatDetected, match="seat 3 claims slot 1, which was not dealt to it"):
        local.tables[0].check_claims(2, [1], [3], proof)


def test_a_proof_with_a_wrong_key_is_caught():
    local = shuffled(2, cards=list(range(8)), seed=12)
    local.run(TableOp(DEAL, "draw", (0,), to=1))
    proof = local.tables[1].prove([0])
    proof["keys"] = [g.random_scalar(seeded_entropy("forged"))]
    with pytest.raises(CheatDetected, match="seat 2's key for deck 0 position 0 does not match its commitment"):
        local.tables[0].check_claims(1, [0], [local.views[1].cards.ids[0]], proof)


def test_a_deal_key_that_does_not_match_its_commitment_is_caught():
    local = shuffled(3, seed=13)

    def forge(seat, kind, body):
        if kind == "fair_keys" and seat == 2:
            return {**body, "keys": [g.random_scalar(seeded_entropy("x"))] + body["keys"][1:]}
        return body

    with pytest.raises(CheatDetected) as caught:
        local.run(TableOp(DEAL, "draw", (0, 1), to=0), tamper=forge)
    assert caught.value.seat == 2 and "commitment" in str(caught.value)


def _tamper_points(seat_at, kind_at, change):
    def tamper(seat, kind, body):
        if seat == seat_at and kind == kind_at:
            body = dict(body)
            body["points"] = change(list(body["points"]))
        return body
    return tamper


SMALL_ORDER = bytes(32)


@pytest.mark.parametrize("players,seat,kind", [
    (2, 0, "fair_shuffle"),     # the next seat locks these points at once: the lock refuses it
    (2, 1, "fair_shuffle"),
    (2, 0, "fair_rekey"),       # nobody locks the final deck: is_valid_point refuses it
    (3, 1, "fair_rekey"),
])
def test_a_point_outside_the_group_is_caught_at_once(players, seat, kind):
    local = LocalTables(GAME, players, PAGODE, seed=14)
    tamper = _tamper_points(seat, kind, lambda pts: pts[:5] + [SMALL_ORDER] + pts[6:])
    with pytest.raises(CheatDetected) as caught:
        local.run(TableOp(SHUFFLE, "draw", tuple(range(55))), tamper=tamper)
    assert caught.value.seat == seat
    assert f"seat {seat + 1}'s {kind[5:]} of deck 0: position 5 is not a point of the group" == str(caught.value)


@pytest.mark.parametrize("change,reason", [
    (lambda pts: pts[:-1], "has 54 cards, not 55"),
    (lambda pts: pts + [pts[0]], "has 56 cards, not 55"),
    (lambda pts: [pts[1]] + pts[1:], "repeats a card"),
])
def test_a_deck_of_the_wrong_size_or_with_a_repeated_point_is_caught(change, reason):
    local = LocalTables(GAME, 2, PAGODE, seed=15)
    with pytest.raises(CheatDetected, match=reason) as caught:
        local.run(TableOp(SHUFFLE, "draw", tuple(range(55))), tamper=_tamper_points(0, "fair_shuffle", change))
    assert caught.value.seat == 0


def test_a_deck_started_with_other_cards_is_caught():
    local = LocalTables(GAME, 2, PAGODE, seed=16)

    def other_cards(seat, kind, body):
        return {**body, "cards": list(range(1, 56))} if "cards" in body else body

    with pytest.raises(CheatDetected, match="seat 1 started deck 0 with other cards"):
        local.run(TableOp(SHUFFLE, "draw", tuple(range(55))), tamper=other_cards)


def test_the_last_shuffle_must_carry_the_key_commitments():
    local = LocalTables(GAME, 2, PAGODE, seed=17)

    def drop(seat, kind, body):
        return {k: v for k, v in body.items() if k != "commits"}

    with pytest.raises(CheatDetected, match="seat 2's shuffle of deck 0 lacks key commitments"):
        local.run(TableOp(SHUFFLE, "draw", tuple(range(55))), tamper=drop)


def test_a_replaced_card_is_caught_when_it_is_opened():
    # a valid, distinct point that is no card passes every live check of the shuffle...
    local = LocalTables(GAME, 2, PAGODE, seed=18)
    stranger = g.card_point(b"another game", 0, 0)
    local.run(TableOp(SHUFFLE, "draw", tuple(range(55))),
              tamper=_tamper_points(0, "fair_shuffle", lambda pts: [stranger] + pts[1:]))
    # ...but the card it became opens to no card
    with pytest.raises(CheatDetected) as caught:
        local.run(TableOp(DEAL, "draw", tuple(range(55)), to=None))
    assert caught.value.seat is None and "opens to no card" in str(caught.value)


def test_a_forged_final_reveal_is_caught_by_the_other_peers():
    local = shuffled(2, cards=list(range(8)), seed=19)
    local.run(TableOp(DEAL, "draw", (0,), to=0))
    _, honest = local.tables[1].final_reveal()
    forged = {"decks": [{**honest["decks"][0], "perm": list(reversed(honest["decks"][0]["perm"]))}]}
    with pytest.raises(CheatDetected) as caught:
        local.tables[0].consume_final(1, forged)
    assert caught.value.seat == 1 and "does not match its lock and permutation" in str(caught.value)


def test_no_table_operation_after_the_final_reveal():
    local = shuffled(2, cards=list(range(4)), seed=20)
    local.finish()
    with pytest.raises(FairError, match="secrets are revealed"):
        local.tables[0].begin(TableOp(REVEAL, "draw", (0,)), local.views[0])


def test_a_move_playing_public_and_hidden_cards_proves_only_the_deck_cards():
    local = LocalTables(GAME, 2, list(range(8)), seed=21)
    local.run(TableOp(SHUFFLE, "draw", tuple(range(6))))     # slots 6 and 7 stay public, never shuffled
    local.run(TableOp(DEAL, "draw", (0,), to=0))
    proof = local.tables[0].prove([0, 6])
    assert proof["decks"] == [0] and proof["pos"] == [0]
    local.tables[1].check_claims(0, [0, 6], [local.views[0].cards.ids[0], 6], proof)


def test_a_final_reveal_is_taken_once_per_other_seat():
    local = shuffled(2, cards=list(range(4)), seed=22)
    _, body = local.tables[1].final_reveal()
    local.tables[0].consume_final(1, body)
    with pytest.raises(CheatDetected, match="seat 2 revealed its secrets twice"):
        local.tables[0].consume_final(1, body)
    with pytest.raises(FairError):
        local.tables[0].consume_final(0, body)
