"""Move notation, position files and their one-line errors."""

from __future__ import annotations

import json

import pytest

from lanterne.engines.core import IllegalAction, NotationError, PositionError
from lanterne.engines.pandoria import GAME
from lanterne.engines.pandoria import data as D
from lanterne.engines.pandoria.data import FOREST, HILL

from .positions import H, bare, card_id, figure, give_card, give_tile, play, random_game, started, to_market


def test_notation_examples_of_the_docs():
    st = bare(2)
    tile = give_tile(st, 0, (FOREST, 1, HILL, 2))
    ident = st.cards.ids[tile]
    assert GAME.parse_action(st, "tile F1H2 i4 E") == ("tile", tile, ident, H("i4"), 0)
    assert GAME.parse_action(st, "TILE f1h2 I4 e") == ("tile", tile, ident, H("i4"), 0)
    assert GAME.parse_action(st, "castle e5") == ("castle", H("e5"))
    assert GAME.parse_action(st, "leader e5") == ("figure", H("e5"), True)
    assert GAME.parse_action(st, "monument 2") == ("monument", 1)
    slot = give_card(st, 0, card_id("Astral Ship", "Small Tower"))
    assert GAME.parse_action(st, "spell Astral Ship/Small Tower figure f2") == \
        ("spell", slot, card_id("Astral Ship", "Small Tower"), H("f2"), False)
    assert GAME.format_action(st, ("build", slot, card_id("Astral Ship", "Small Tower"), 0)) == \
        "build AstralShip/SmallTower 1"
    m = to_market(st, card_id("Clone", "Statue"))
    assert GAME.format_action(st, ("buy", m)) == "buy Clone/Statue"
    assert GAME.parse_action(st, "roll 3") == ("roll", 3)
    assert GAME.parse_action(st, "deal 5 ?") == ("deal", (5, None))


def test_identical_cards_and_tiles_are_offered_once():
    st = bare(2)
    give_tile(st, 0, (FOREST, 1, HILL, 2))
    give_tile(st, 0, (FOREST, 1, HILL, 2))
    assert len({a[1] for a in GAME.legal_actions(st, 0) if a[0] == "tile"}) == 1
    st.phase = "card"
    st.resources[0] = [10, 10, 10]
    a = give_card(st, 0, 10 + 2 * 6)      # two copies of Clone/Large Tower
    give_card(st, 0, 11 + 2 * 6)
    assert {x[1] for x in GAME.legal_actions(st, 0) if x[0] == "build"} == {a}
    assert D.card_name(10 + 2 * 6) == "Clone/Large Tower"


@pytest.mark.parametrize("text,message", [
    ("", "empty move"),
    ("fly e5", "unknown move 'fly'"),
    ("castle z9", "'z9' is not a hex"),
    ("castle", "expected castle HEX"),
    ("tile F1H1 i4 E", "no double tile F1H1 in the hand of seat 1"),
    ("tile F1H2 i4 UP", "'UP' is not a direction"),
    ("spell Nothing/Here", "no card named"),
    ("build Clone/Statue 1", "no Clone/Statue in the hand of seat 1"),
    ("monument two", "'two' is not a number"),
])
def test_bad_notation_gives_a_one_line_error(text, message):
    st = bare(2)
    give_tile(st, 0, (FOREST, 1, HILL, 2))
    with pytest.raises(NotationError, match=message) as e:
        GAME.parse_action(st, text)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("action,message", [
    (("castle", H("c8")), "castle does not fit at c8"),
    (("tile", 0, 100, H("i4"), 0), "no double tile in slot 0"),
    (("figure", H("i4"), False), "place a double tile or a castle first"),
    (("castle",), "castle takes 1 arguments"),
    ((), "starts with its kind"),
    # a peer's action, field by field through its record (actions.py)
    (("pass", 0), "pass takes 0 arguments"),
    (("tile", 0, 100, H("i4")), "tile takes 4 arguments"),
    (("tile", 0, True, H("i4"), 0), "tile: argument 2 must be a number"),
    (("castle", "c8"), "castle: argument 1 must be a number"),
    (("castle", 10**6), "castle: 1000000 is not a hex of the board"),
])
def test_illegal_moves_give_a_one_line_error(action, message):
    st = bare(2)
    with pytest.raises(IllegalAction, match=message) as e:
        GAME.apply(st, action)
    assert "\n" not in str(e.value)


def test_claiming_a_tile_that_is_not_the_one_in_hand_is_refused():
    st = bare(2)
    slot = give_tile(st, 0, (FOREST, 1, HILL, 2))
    wrong = next(i for i in range(100, 148) if i != st.cards.ids[slot] and D.DOUBLE_TILES[i - 100] != (0, 1, 1, 2))
    with pytest.raises(IllegalAction, match="claims card"):
        GAME.apply(st, ("tile", slot, wrong, H("i4"), 0))


def test_position_round_trip_and_corrupt_positions():
    st = started(3, "classic", seed=4)
    text = GAME.save_position(st)
    assert GAME.load_position(text).to_data() == st.to_data()
    assert GAME.save_position(GAME.load_position(text)) == text
    data = json.loads(text)
    for corrupt, message in [
        ("{", "not a position file"),
        (json.dumps({"game": "pagode", "format": 1, "state": {}}), "not a Pandoria position"),
        (json.dumps({**data, "state": {**data["state"], "players": 7}}), "seats 2 to 4"),
        (json.dumps({**data, "state": {**data["state"], "phase": "dance"}}), "unknown phase"),
        (json.dumps({**data, "state": {**data["state"], "terrain": [0]}}), "terrain must have"),
        (json.dumps({**data, "state": {**data["state"], "piles": {**data["state"]["piles"], "deck": []}}}),
         "lost or duplicated"),
        (json.dumps({**data, "state": {k: v for k, v in data["state"].items() if k != "points"}}), "lacks points"),
        (json.dumps({**data, "state": {**data["state"], "people": "x"}}), "one entry per player"),
    ]:
        with pytest.raises(PositionError, match=message) as e:
            GAME.load_position(corrupt)
        assert "\n" not in str(e.value)


def test_events_describe_themselves():
    st = bare(2)
    figure(st, "g5", 0)
    assert GAME.describe_event(("score", 0, 3, "city")) == "seat 1 scores 3 (city)"
    assert GAME.describe_event(("gain", 1, "wood", 2)) == "seat 2 gains 2 wood"
    st, events = play(st, "castle i4")
    assert events[0] == ("castle", 0, H("i4"))


def test_every_event_of_a_game_has_a_sentence():
    seen = set()

    def each(before, actor, op, action, after, events):
        for e in events:
            text = GAME.describe_event(e)
            assert text and text != " ".join(str(x) for x in e), e
            seen.add(e[0])
    random_game(4, "classic", 11, each)
    assert {"tile", "figure", "closed", "over"} <= seen


def test_hexes_off_the_map_rectangle_are_refused():
    st = bare(2)
    give_tile(st, 0, (FOREST, 1, HILL, 2))
    tile = st.piles["tiles0"][0]
    for action in (("tile", tile, st.cards.ids[tile], 291, 0), ("castle", -1), ("castle", 140)):
        with pytest.raises(IllegalAction, match="not a hex of the board"):
            GAME.apply(st, action)


@pytest.mark.parametrize("field,value,message", [
    ("terrain", [9] * 140, "terrain holds 9"),
    ("occupant", [7] + [-1] * 139, "occupant holds 7"),
    ("resources", [[11, 0, 0], [0, 0, 0], [0, 0, 0]], "resources holds 11"),
    ("buildings", [[-1] * 5, [-1] * 5, [999] + [-1] * 4], "building slot holds 999"),
    ("variant", "chess", "unknown variant"),
    ("bonus", "wish", "unknown bonus"),
    ("current", 5, "outside -1..2"),
])
def test_positions_with_values_out_of_range_are_refused(field, value, message):
    data = json.loads(GAME.save_position(started(3, "classic", seed=4)))
    data["state"][field] = value
    with pytest.raises(PositionError, match=message):
        GAME.load_position(json.dumps(data))
