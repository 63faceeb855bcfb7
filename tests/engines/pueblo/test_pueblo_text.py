"""Move notation, positions (save/load), one-line errors, and the drop house rule."""

import json

import pytest

from lanterne.engines.core import IllegalAction, NotationError, PositionError
from lanterne.engines.pueblo import GAME
from lanterne.engines.pueblo.state import state_to_data

from tests.engines.pueblo.pueblo_build import build

NO_FIT = '{"format":1,"game":"pueblo","state":{"at":0,"auction":0,"bidder":0,"card_of":[null,null,null,null],"chief":19,"coloured":[0,0,0,1],"dropped":[[0,0],[0,0],[0,0],[0,0]],"first":0,"half":["N","N","N","C"],"held":[0,0,0,0],"high":0,"high_seat":null,"lone":[false,false,false,false],"neutral":[1,1,1,0],"opener":0,"order":[0,1,2,3],"passed":0,"penalties":[27,14,26,30],"pending":null,"phase":"place","players":4,"sites":[],"sites_wanted":0,"stage":1,"stones":[[0,4,1,3],[1,0,4,1],[2,4,4,5],[3,9,1,5],[-1,8,5,2],[1,9,1,0],[-1,4,3,3],[3,4,6,5],[0,10,3,6],[-1,5,5,0],[2,7,2,0],[-1,3,0,2],[-1,10,5,3],[1,10,5,6],[-1,2,1,5],[3,5,1,5],[0,8,2,3],[-1,9,5,1],[2,0,2,0],[-1,8,6,0],[-1,1,6,0],[-1,7,4,6],[-1,0,4,6],[3,0,0,6],[0,10,0,5],[1,0,1,5],[2,4,0,0],[-1,3,0,0],[0,10,1,0],[1,1,0,0],[2,0,0,0],[-1,9,1,0]],"turn":32,"variant":"standard"}}'
"""A position reached in a 4-player game (found by a search that chose the most cramping stones):
seat 1 must place its neutral stone and none of the 588 placements rests on the pueblo."""


def started(players=2):
    return GAME.apply(GAME.setup(players=players), ("roll", 0))[0]


@pytest.mark.parametrize("text, action", [
    ("C b1^ a1 a2", ("place", "C", 0, 0, 0)),
    ("m3", ("move", 3)), ("move 4", ("move", 4)),
    ("bid 5", ("bid", 5)), ("pass", ("pass",)), ("card 2", ("card", 2)),
    ("site a1 b1 a2", ("site", 0, 1, 8)), ("drop N", ("drop", "N")), ("first P2", ("roll", 1)),
])
def test_notation_examples_round_trip(text, action):
    state = started()
    parsed = GAME.parse_action(state, text)
    assert parsed[0] == action[0]
    if action[0] != "place":
        assert parsed == action
    assert GAME.parse_action(state, GAME.format_action(state, parsed)) == parsed
    assert GAME.format_action(state, parsed) == text.replace("move ", "m")


def test_place_notation_names_cells_and_the_tall_one():
    state = started()
    a = GAME.parse_action(state, "C b1^ a1 a2")
    assert GAME.format_action(state, a) == "C b1^ a1 a2"
    assert GAME.parse_action(state, "c a2,a1 b1^") == a
    assert GAME.apply(state, a)[1][0] == ("place", 0, "C", a[2], a[3], a[4], 0)


def test_remove_notation_accepts_any_cell_of_the_stone():
    state = build(2, [(0, "b1^ a1 a2")], phase="remove", variant="dismantling", stage=3)
    assert GAME.parse_action(state, "x a2") == GAME.parse_action(state, "x b1") == ("remove", 1)
    assert GAME.format_action(state, ("remove", 1)) == "x b1"


@pytest.mark.parametrize("text, message", [
    ("", "empty"), ("C b1 a1 a2", "mark the one cell"), ("C b1^ a1^ a2", "mark the one cell"),
    ("C b1^ a1", "3 cells"), ("C b1^ c3 a2", "not a stone's footprint"), ("C b1^ a1 i2", "not a cell"),
    ("N b1^ b1 a2", "not a stone's footprint"), ("m", "cannot read"), ("bid x", "whole number"),
    ("x", "one cell"), ("site a1 b1", "3 cells"), ("drop X", "drop C or drop N"), ("first P9", "first P1 to P2"),
    ("hello", "cannot read"), ("bid ²", "whole number"), ("m٣", "cannot read"),
])
def test_bad_notation_gives_a_one_line_error(text, message):
    with pytest.raises(NotationError, match=message) as err:
        GAME.parse_action(started(), text)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("action, message", [
    (("move", 1), "stone must be placed"), (("place", "C", 12, 0, 0), "no such orientation"),
    (("place", "X", 0, 0, 0), "place takes"), (("fly",), "unknown action"), ((), "not an action"),
    (("place", "C", 0, 0), "place takes"), (("bid", 3), "cannot bid now"),
    # a peer's list, field by field through its record (actions.py)
    (("place", "C", True, 0, 0), "place takes a stone"), (("place", "C", 0, 0, "a1"), "place takes a stone"),
    (("place", ["C"], 0, 0, 0), "place takes a stone"), (("place", "C", 0, 0, 0, 0), "place takes a stone"),
    (("drop", "C", 1), "drop takes a stone"),
])
def test_illegal_actions_give_a_one_line_error(action, message):
    state = started()
    with pytest.raises(IllegalAction, match=message) as err:
        GAME.apply(state, action)
    assert "\n" not in str(err.value)
    assert GAME.check(state, action) == str(err.value)


def test_apply_never_changes_its_input():
    state = started()
    before = GAME.save_position(state)
    GAME.apply(state, GAME.legal_actions(state, 0)[0])
    assert GAME.save_position(state) == before


def test_position_round_trip():
    state = build(3, [(0, "b1^ a1 a2"), ("N", "b2^ a2 a1"), (2, "h1^ g1 g2")], chief=5, penalties=[1, 2, 3])
    text = GAME.save_position(state)
    again = GAME.load_position(text)
    assert GAME.save_position(again) == text
    assert again.heights == state.heights and again.stacks == state.stacks


def corrupt(change):
    data = state_to_data(build(3, [(0, "b1^ a1 a2"), ("N", "b2^ a2 a1")]))
    change(data)
    return json.dumps({"game": "pueblo", "format": 1, "state": data})


@pytest.mark.parametrize("change, message", [
    (lambda d: d["stones"].append([1, 1, 0, 0]), "does not rest"),  # a square hanging over the cube
    (lambda d: d["stones"].insert(0, [1, 2, 3, 3]), "does not rest"),  # a stone in the air
    (lambda d: d["coloured"].__setitem__(0, 6), "do not add up"),  # a stone from nowhere
    (lambda d: d["neutral"].__setitem__(1, 0), "neutral stones do not add up"),
    (lambda d: d.__setitem__("players", 7), "players must be"),
    (lambda d: d.__setitem__("phase", "dance"), "unknown phase"),
    (lambda d: d.__setitem__("chief", 36), "chief must be"),
    (lambda d: d.__setitem__("order", [0, 0, 1]), "every seat once"),
    (lambda d: d["stones"].__setitem__(0, [0, 99, 0, 0]), "no orientation 99"),
    (lambda d: d["stones"].__setitem__(0, [5, 0, 0, 0]), "owner 5"),
    (lambda d: d.__setitem__("sites", [[0, 1, 2]]), "not 3 cells of a 2x2"),
    (lambda d: d.__setitem__("sites", [[0, 1, 8]]), "stands on a sacred site"),
    (lambda d: d.pop("turn"), "'turn' is missing"),
    (lambda d: d.__setitem__("phase", "roll"), "roll is pending exactly"),
    (lambda d: d.__setitem__("stones", 3), "stones must be a list"),
    (lambda d: d.__setitem__("half", ["X", None, None]), "half must"),
])
def test_corrupt_positions_give_a_one_line_error(change, message):
    with pytest.raises(PositionError, match=message) as err:
        GAME.load_position(corrupt(change))
    assert "\n" not in str(err.value)


def test_not_a_pueblo_position():
    with pytest.raises(PositionError, match="not a Pueblo position"):
        GAME.load_position('{"game": "pagode", "format": 1, "state": {}}')
    with pytest.raises(PositionError, match="not a position file"):
        GAME.load_position("{")


def test_house_rule_a_stone_that_fits_nowhere_is_set_aside():
    # House rule (the rulebook is silent): when no placement rests on the pueblo, the due stone is set
    # aside and the chieftain still moves, so the game always ends.
    state = GAME.load_position(NO_FIT)
    seat = GAME.next_actor(state)
    assert GAME.legal_actions(state, seat) == [("drop", "N")]
    after, events = GAME.apply(state, ("drop", "N"))
    assert events == [("drop", seat, "N")] and after.dropped[seat] == [0, 1] and after.phase == "move"
    assert GAME.format_action(state, ("drop", "N")) == "drop N"
    GAME.load_position(GAME.save_position(after))  # still every stone accounted for
    with pytest.raises(IllegalAction, match="fits nowhere"):
        GAME.apply(started(), ("drop", "C"))


def test_load_of_a_bad_map_is_a_position_error():
    with pytest.raises(PositionError, match="is missing"):
        GAME.load({"players": 2})
    with pytest.raises(PositionError, match="is a map"):
        GAME.load([1, 2])


@pytest.mark.parametrize("action", [("place", "C", 12, 0, 0), ("remove", 99), ("fly",), (), ("move",)])
def test_formatting_a_malformed_action_is_a_notation_error(action):
    with pytest.raises(NotationError, match="no notation"):
        GAME.format_action(started(), action)
