"""A passive observer holding every message learns no hidden card before it is revealed."""

from itertools import combinations

import pytest

from lanterne.engines.core import DEAL, REVEAL, SHUFFLE, TableOp
from lanterne.protocol.fair import group as g
from lanterne.protocol.fair.driver import LocalTables

GAME = b"\x77" * 32
CARDS = list(range(16))


def observer_opens(log: list, players: int) -> dict[tuple[int, int], int]:
    """What an observer with the whole log can open: every deck position whose
    published keys (any subset of them) take the final deck point to a card point."""
    card_of: dict[bytes, int] = {}      # every card point of every deck (hidden cards keep old ones)
    final: dict[int, list[bytes]] = {}
    keys: dict[tuple[int, int], set[bytes]] = {}
    for seat, kind, body in log:
        if "cards" in body:
            card_of.update({g.card_point(GAME, body["deck"], c): c for c in CARDS})
        if kind in ("fair_shuffle", "fair_rekey"):
            final[body["deck"]] = body["points"]
        proof = body["proof"] if kind == "fair_claim" else body if kind == "fair_keys" else None
        if proof:
            for d, pos, key in zip(proof["decks"], proof["pos"], proof["keys"]):
                keys.setdefault((d, pos), set()).add(key)
    opened = {}
    for (d, pos), ks in keys.items():
        for size in range(1, len(ks) + 1):
            for subset in combinations(sorted(ks), size):
                point = g.lock(g.scalar_inv(g.product(subset)), final[d][pos])
                if point in card_of:
                    opened[(d, pos)] = card_of[point]
    return opened


def every_point_and_key(log: list) -> set[bytes]:
    found = set()

    def walk(v):
        if isinstance(v, bytes):
            found.add(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)

    walk([body for _, _, body in log])
    return found


@pytest.mark.parametrize("players", [2, 3])
def test_an_observer_opens_exactly_the_revealed_cards(players):
    local = LocalTables(GAME, players, CARDS, seed=("observer", players))
    local.run(TableOp(SHUFFLE, "draw", tuple(range(16))))
    for seat in range(players):
        local.run(TableOp(DEAL, "draw", (3 * seat, 3 * seat + 1, 3 * seat + 2), to=seat))
    local.play(0, [0])                                   # played from a hand: public
    local.run(TableOp(REVEAL, "hand", (4,)))             # seat 2's card shown
    local.run(TableOp(DEAL, "draw", (15,), to=None))     # face up
    public = {0: local.views[0].cards.ids[0], 4: local.views[1].cards.ids[4], 15: local.views[0].cards.ids[15]}

    opened = observer_opens(local.log, players)
    assert opened == {(0, slot): card for slot, card in public.items()}   # and nothing else

    # no hidden card's point, nor its owner's key, is anywhere in the messages
    seen = every_point_and_key(local.log)
    deck = local.tables[0]._decks[0]
    hidden = [s for s in range(3 * players) if s not in public]
    for slot in hidden:
        owner = slot // 3
        card = local.views[owner].cards.ids[slot]
        assert g.card_point(GAME, 0, card) not in seen
        assert local.tables[owner]._decks[0].keys[slot] not in seen
    assert not {g.card_point(GAME, 0, c) for c in CARDS} & seen
    # the pile's order is hidden too: the undealt positions were never opened by anyone
    assert all(not deck.opened[pos] for pos in range(3 * players, 15))

    # a hand card and two pile cards reshuffled together (a relock), one of them dealt face up
    local.run(TableOp(SHUFFLE, "pile", (1, 13, 14)))
    up = local.run(TableOp(DEAL, "pile", (13,), to=None))[0][1][0]
    opened = observer_opens(local.log, players)
    assert opened == {**{(0, slot): card for slot, card in public.items()}, (1, 1): up}
    assert not {g.card_point(GAME, d, c) for d in (0, 1) for c in CARDS} & every_point_and_key(local.log)


def test_the_recipient_alone_opens_a_face_down_card():
    local = LocalTables(GAME, 3, CARDS, seed="alone")
    local.run(TableOp(SHUFFLE, "draw", tuple(range(16))))
    local.run(TableOp(DEAL, "draw", (5,), to=2))
    assert [view.cards.ids[5] is not None for view in local.views] == [False, False, True]
    # the other seats hold every key but the recipient's, and still cannot open it
    assert all(t._identity((0, 5)) is None for t in local.tables[:2])
    assert observer_opens(local.log, 3) == {}


@pytest.mark.parametrize("players", [2, 3])
def test_a_watching_table_follows_the_game_and_sees_only_public_cards(players):
    from lanterne.protocol.fair import FairError, FairTable
    from lanterne.protocol.fair.driver import run_op

    local = LocalTables(GAME, players, CARDS, seed=("watch", players))
    watcher = FairTable(GAME, None, players, None)
    tables = local.tables + [watcher]

    def run(op):
        outcomes = run_op(tables, op, local.views + [local.views[0]])
        return outcomes[:-1], outcomes[-1]

    seats, seen = run(TableOp("roll", faces=6))
    assert all(o == seen for o in seats)
    seats, seen = run(TableOp(SHUFFLE, "draw", tuple(range(16))))
    assert seen == (SHUFFLE, (None,) * 16)
    seats, seen = run(TableOp(DEAL, "draw", (0, 1), to=1))
    assert seen == (DEAL, (None, None)) and None not in seats[1][1]
    seats, seen = run(TableOp(DEAL, "draw", (2,), to=None))
    assert seen == seats[0] and seen[1][0] is not None
    with pytest.raises(FairError):
        watcher.produce()
    with pytest.raises(FairError):
        watcher.final_reveal()
    finals = {t.seat: t.final_reveal()[1] for t in local.tables}
    for seat, body in finals.items():
        watcher.consume_final(seat, body)
