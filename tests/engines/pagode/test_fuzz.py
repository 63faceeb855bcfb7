"""Fuzzed input never escapes as anything but the contract's one-line errors."""

from hypothesis import given, settings
from hypothesis import strategies as st

from lanterne.engines.core import IllegalAction, NotationError, OpenTable, TABLE
from lanterne.engines.pagode import GAME

from .helpers import build

SCALARS = st.one_of(st.integers(-3, 60), st.booleans(), st.none(), st.sampled_from(
    ["column", "tile", "roof", "lantern", "dragon", "discard", "draw", "modified", "end", "deal", "shuffle", "roll"]))
VALUES = st.recursive(SCALARS, lambda inner: st.tuples(inner, inner) | st.tuples(inner) | st.lists(inner, max_size=3),
                      max_leaves=8)
KINDS = st.sampled_from(["column", "tile", "roof", "lantern", "dragon", "discard", "draw", "modified", "end"])


def positions():
    """A few positions in different phases: play, dragon, modified, a table deal, the setup."""
    out = [GAME.setup()]
    base = build(reserve="rbgvy", hand="RB", sites={1: "r:4", 2: "rb,bg,gg:4"},
                 uses={"dragon": 2, "rice bowl": 2, "buddha": 2, "lantern": 1, "fan": 1})
    out.append(base)
    for text in ("dragon", "mod", "c3 r"):
        out.append(GAME.apply(base, GAME.parse_action(base, text))[0])
    out.append(GAME.apply(out[-1], ("end", True))[0])
    return out


POSITIONS = positions()


@settings(max_examples=300, deadline=None)
@given(index=st.integers(0, len(POSITIONS) - 1), kind=KINDS, rest=st.lists(VALUES, max_size=5))
def test_fuzzed_actions_are_applied_or_refused_with_one_line(index, kind, rest):
    state = POSITIONS[index]
    action = (kind, *rest)
    try:
        GAME.apply(state, action)
    except IllegalAction as e:
        assert str(e) and "\n" not in str(e)


@settings(max_examples=300, deadline=None)
@given(index=st.integers(0, len(POSITIONS) - 1), text=st.text(alphabet="cCtroofRBGVYrbgvyxX=/+@ 0123456789endfanlatrgmodw", max_size=16))
def test_fuzzed_notation_parses_or_gives_one_line(index, text):
    state = POSITIONS[index]
    try:
        action = GAME.parse_action(state, text)
    except NotationError as e:
        assert str(e) and "\n" not in str(e)
        return
    assert isinstance(action, tuple) and action


@settings(max_examples=100, deadline=None)
@given(index=st.integers(0, len(POSITIONS) - 1), value=VALUES)
def test_fuzzed_table_outcomes_are_refused_with_one_line(index, value):
    state = POSITIONS[index]
    if GAME.next_actor(state) != TABLE:
        state = POSITIONS[-1]
    op = state.pending
    for outcome in ((op.kind, value), value if isinstance(value, tuple) else (value,)):
        try:
            GAME.apply(state, outcome)
        except IllegalAction as e:
            assert str(e) and "\n" not in str(e)
    assert GAME.apply(state, OpenTable(1).resolve(state, op))
