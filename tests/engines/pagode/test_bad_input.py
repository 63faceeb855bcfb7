"""Bad input: illegal moves, bad notation and corrupt positions give one-line errors."""

import json

import pytest

from lanterne.engines.core import DEAL, ROLL, IllegalAction, NotationError, PositionError
from lanterne.engines.pagode import GAME

from .helpers import build, play, table


def one_line(excinfo):
    text = str(excinfo.value)
    assert text and "\n" not in text and "Traceback" not in text
    return text


@pytest.mark.parametrize("action,why", [
    ("column", "not an action"),
    ((), "not an action"),
    (("fly",), "unknown action 'fly'"),
    (("column", 0, 0), "a column is"),
    (("column", 9, 0, ((0, 0),)), "there is no site 9"),
    (("column", 0, 7, ((0, 0),)), "colour 7 is not a colour"),
    (("column", 0, 0, [(0, 0)]), "cards must be a tuple"),
    (("column", 0, 0, ((0,),)), "a card must be"),
    (("column", 0, 0, ((0, 99),)), "there is no card 99"),
    (("column", 0, 0, ((54, 54),)), "not in seat 1's reserve or hand"),
    (("column", 0, 0, ((0, 0), (0, 0))), "used twice"),
    (("column", 0, 0, ((0, 1),)), "claims card 1 in slot 0, which is card 0"),
    (("column", 0, 1, ((0, 0),)), "needs a blue card, not red"),
    (("column", 0, 0, ()), "takes one card"),
    (("tile", 0, 0, ((0, 0),)), "a tile needs 4"),
    (("roof", 0, 0, ((0, 0),), ()), "a tile needs 4"),
    (("roof", 5, 0, ((0, 0),), ()), "not ready for its roof (floor 1)"),
    (("end", "yes"), "fan true or false"),
    (("end", False), "at least 1 column"),
    (("draw",), "not now"),
    (("discard", 0, 0), "discards only"),
    (("lantern",), "no use of the lantern"),
])
def test_illegal_actions_are_refused_with_a_reason(action, why):
    state = build(reserve="rbgvy", hand="RB", sites={6: "r:4"})
    with pytest.raises(IllegalAction) as e:
        GAME.apply(state, action)
    assert why in one_line(e)
    assert GAME.check(state, action) == str(e.value)


def test_apply_never_changes_its_input():
    state = build(reserve="rbgvy", hand="RB", uses={"dragon": 2})
    before = json.dumps(state.to_data(), sort_keys=True)
    for text in ("c1 R", "dragon", "mod"):
        GAME.apply(state, GAME.parse_action(state, text))
    with pytest.raises(IllegalAction):
        GAME.apply(state, ("column", 0, 0, ((0, 0), (11, 11))))  # fails after claiming a card
    assert json.dumps(state.to_data(), sort_keys=True) == before


def test_only_the_seat_to_move_has_actions_and_the_table_gets_only_outcomes():
    state = build()
    assert GAME.legal_actions(state, 1) == []
    state, _ = play(state, "c1 r", "end")
    assert GAME.legal_actions(state, 0) == GAME.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="the table must deal"):
        GAME.apply(state, ("end", False))
    with pytest.raises(IllegalAction, match="deal of 1 cards got 2"):
        GAME.apply(state, (DEAL, (1, 2)))


def test_a_roll_outcome_must_be_a_face():
    state = GAME.setup()
    for bad in ((ROLL, 2), (ROLL, True), (ROLL,), ("shuffle", ())):
        with pytest.raises(IllegalAction) as e:
            GAME.apply(state, bad)
        one_line(e)


def test_no_move_after_the_end():
    state = build(reserve="gvvrb", hand="", seat=1, first=0,
                  sites={1: "rb,bg,gy,yr:0", 2: "br,rg,gb,bb:0", 3: "yb,bv,vg:4"})
    state, _ = play(state, "roof3 g/v vv", "end")
    assert GAME.is_over(state) and GAME.legal_actions(state, 0) == GAME.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="the game is over"):
        GAME.apply(state, ("end", False))


@pytest.mark.parametrize("text,why", [
    ("", "empty move"),
    ("   ", "empty move"),
    ("q3 r", "unknown move 'q3'"),
    ("c9 r", "there is no site 9"),
    ("c0 r", "there is no site 0"),
    ("c3 x", "'x' is not a card"),
    ("c3", "a column names its card"),
    ("c3 rb", "a Rice bowl column names its colour"),
    ("c3=q r", "'q' is not a colour"),
    ("c3 rbg", "a column takes one card"),
    ("c3 y", "no yellow card in your reserve"),
    ("c3 G", "no green card in your hand"),
    ("c3 rr", "a Rice bowl column names its colour"),
    ("c3=r rrr", "no more red card in your reserve"),
    ("c3 r@54", "slot 54 is not in your reserve"),
    ("c3 b@0", "slot 0 is red, not blue"),
    ("c3=r r@0r@0", "slot 0 is named twice"),
    ("t3 r", "a tile is written"),
    ("t3=r r/b", "'=' names a column's colour"),
    ("roof3 r/b", "a roof is"),
    ("end now", "'end' takes only 'fan'"),
    ("lantern please", "'lantern' takes nothing"),
    ("x", "'x' discards exactly one card"),
    ("x rb", "'x' discards exactly one card"),
])
def test_bad_notation_is_one_line_naming_the_problem(text, why):
    state = build(reserve="rbgvr", hand="RB")
    with pytest.raises(NotationError) as e:
        GAME.parse_action(state, text)
    assert why in one_line(e)


def test_a_hidden_card_cannot_be_named_by_slot_in_a_view_that_does_not_know_it():
    state = build(reserve="rbgvy", hand="RB")
    slot = state.hands[0][0]
    other = GAME.view(state, 1)
    assert GAME.format_action(other, ("column", 0, 0, ((slot, state.cards.ids[slot]),))) == f"c1 R@{slot}"
    with pytest.raises(NotationError, match=f"the card in slot {slot} is unknown here"):
        GAME.parse_action(other, f"c1 R@{slot}", seat=0)


def test_notation_accepts_spaces_and_upper_case_words():
    state = build(reserve="rbgvr", hand="RB")
    assert GAME.parse_action(state, "C 3 r") == GAME.parse_action(state, "c3 r")
    assert GAME.parse_action(state, "END Fan") == ("end", True)
    assert GAME.parse_action(state, "c3=b r r") == GAME.parse_action(state, "c3=b rr")


def good_position():
    state, _, _ = table(GAME.setup(), seed=3)
    return json.loads(GAME.save_position(state))


def corrupt(change):
    data = good_position()
    change(data["state"])
    return json.dumps(data)


@pytest.mark.parametrize("change,why", [
    (lambda s: s.pop("sites"), "sites: missing"),
    (lambda s: s.update(variant="huge"), "variant: 'huge' is not one of"),
    (lambda s: s.update(phase="dancing"), "phase: 'dancing' is not one of"),
    (lambda s: s["draw"].append(s["draw"][0]), "the 55 cards are not each in exactly one place"),
    (lambda s: s["draw"].pop(), "the 55 cards are not each in exactly one place"),
    (lambda s: s["reserves"][0].append("x"), "reserves: 'x' is not a number"),
    (lambda s: s["sites"][0].update(tiles=[3], colour=3), "the 25 tiles are not each in exactly one place"),
    (lambda s: s["sites"][0].update(columns=5), "columns: 5 is not a number in 0..4"),
    (lambda s: s["sites"][0].update(columns=2), "site 1: impossible pagoda"),
    (lambda s: s.update(scores=[1]), "scores: not a list of 2"),
    (lambda s: s["cards"]["ids"].pop(), "cards: ids and seen differ in length"),
    (lambda s: s["cards"]["ids"].__setitem__(0, 1), "a card identity appears twice"),
    (lambda s: s["cards"]["seen"].__setitem__(0, 9), "cards: slot 0 is corrupt"),
    (lambda s: s.update(pending={"kind": "deal"}), "pending: pile and why must be text"),
    (lambda s: s.update(pending={"kind": "deal", "pile": "draw", "slots": [1], "to": None, "faces": 0}),
     "pending: a play phase has no table operation"),
    (lambda s: s.update(pending={"kind": "juggle"}), "pending: unknown table operation 'juggle'"),
    (lambda s: s.update(current=2), "current: 2 is not a number in 0..1"),
    (lambda s: s.update(acted="no"), "acted: not a bool"),
    (lambda s: s.update(refill=[[0, "pocket", 1]]), "refill: corrupt entry"),
    (lambda s: s.update(uses=[[0, 0], [0, 0, 0, 0, 0]]), "uses: not a list of 5"),
    (lambda s: s.update(phase="modified", mod_left=0, pending=None), "a modified turn has 1 to 4 discards left"),
    (lambda s: s.update(phase="dragon", mark=[0, 0], pending=None), "the dragon restores sizes"),
    (lambda s: s.update(first=None, pending=None), "only the setup has no first player"),
    (lambda s: s["hands"][0].extend(s["draw"][:3]) or s["draw"].__delitem__(slice(0, 3)),
     "a hand at most 4"),
])
def test_corrupt_positions_give_one_line_position_errors(change, why):
    with pytest.raises(PositionError) as e:
        GAME.load_position(corrupt(change))
    assert why in one_line(e)


def test_not_a_pagode_position():
    for text, why in [("{", "not a position file"), ('{"game": "pueblo"}', "not a Pagode position"),
                      ('{"game": "pagode", "format": 1, "state": []}', "a Pagode position is a map"),
                      ('{"game": "pagode", "format": 1, "state": {"cards": 3}}', "corrupt Pagode position|: ")]:
        with pytest.raises(PositionError) as e:
            GAME.load_position(text)
        one_line(e)
        assert any(w in str(e.value) for w in why.split("|"))


def test_only_ascii_digits_name_sites_and_slots():
    state = build(reserve="rbgvr", hand="RB")
    for text in ("c\u0663 r", "c3 r@\u0660", "c3=\u00e9 r"):
        with pytest.raises(NotationError) as e:
            GAME.parse_action(state, text)
        one_line(e)


def test_a_pending_deal_must_be_the_top_of_the_draw_pile():
    state = build(reserve="rbgvy", hand="RB")
    state, _ = play(state, "c1 r", "end")
    data = json.loads(GAME.save_position(state))
    assert GAME.load_position(json.dumps(data))
    data["state"]["pending"]["slots"] = [data["state"]["draw"][5]]
    with pytest.raises(PositionError, match="top cards of the draw pile") as e:
        GAME.load_position(json.dumps(data))
    one_line(e)
    data = json.loads(GAME.save_position(state))
    data["state"]["pending"]["to"] = 1
    with pytest.raises(PositionError, match="does not match the refill"):
        GAME.load_position(json.dumps(data))
    data = json.loads(GAME.save_position(GAME.setup()))
    data["state"]["pending"] = {"kind": "shuffle", "pile": "draw", "slots": [], "to": None, "faces": 0}
    with pytest.raises(PositionError, match="the table must roll"):
        GAME.load_position(json.dumps(data))


def test_every_move_in_the_documented_notation_table_parses():
    import pathlib
    import re
    doc = pathlib.Path(__file__).resolve().parents[3] / "docs" / "rules" / "pagode.md"
    rows = [line for line in doc.read_text().splitlines() if line.startswith("| `")]
    texts = [t for row in rows for t in re.findall(r"`([^`]+)`", row.split("|")[1])]
    assert len(texts) >= 15
    state = build(reserve="rbbggvy", hand="RBGV")
    for text in texts:
        assert GAME.parse_action(state, text), text
