"""Properties over random tables: any deal sequence gives a consistent, auditable game."""

from hypothesis import given, settings, strategies as st

from lanterne.engines.core import DEAL, REVEAL, SHUFFLE, TableOp
from lanterne.protocol.fair import audit_transcript
from lanterne.protocol.fair.driver import LocalTables

GAME = b"\x33" * 32


@st.composite
def games(draw):
    players = draw(st.integers(2, 3))
    size = draw(st.integers(1, 9))
    cards = draw(st.lists(st.integers(-1000, 1000), min_size=size, max_size=size, unique=True))
    deals = draw(st.lists(st.tuples(st.integers(0, size - 1), st.integers(-1, players - 1),
                                    st.booleans()), max_size=6))
    again = draw(st.lists(st.integers(0, size - 1), unique=True, max_size=size))
    return players, cards, deals, again, draw(st.integers(0, 1000))


@settings(max_examples=12, deadline=None)
@given(games())
def test_any_deal_sequence_is_consistent_and_audits_clean(game):
    players, cards, deals, again, seed = game
    local = LocalTables(GAME, players, cards, seed=seed)
    local.run(TableOp(SHUFFLE, "draw", tuple(range(len(cards)))))
    truth: dict[int, int] = {}
    for slot, to, reveal in deals:
        if reveal:
            outcomes = local.run(TableOp(REVEAL, "draw", (slot,)))
            assert len(set(outcomes)) == 1
            truth.setdefault(slot, outcomes[0][1][0])
        else:
            target = None if to < 0 else to
            outcomes = local.run(TableOp(DEAL, "draw", (slot,), to=target))
            for seat, (_, ids) in enumerate(outcomes):
                if target is None or seat == target:
                    truth.setdefault(slot, ids[0])
                    assert ids[0] == truth[slot]        # the same card every time it is opened
    assert len(set(truth.values())) == len(truth) and set(truth.values()) <= set(cards)
    # any slots reshuffled together (public, held, or still in the pile) keep their cards
    local.run(TableOp(SHUFFLE, "again", tuple(again)))
    dealt = local.run(TableOp(DEAL, "again", tuple(again), to=None))[0][1]
    assert len(set(dealt)) == len(again) and set(dealt) <= set(cards)
    assert {truth[s] for s in again if s in truth} <= set(dealt)
    assert not {truth[s] for s in truth if s not in again} & set(dealt)
    assert audit_transcript(GAME, players, local.log, local.finish()) == []
