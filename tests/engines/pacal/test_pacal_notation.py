"""Move notation and the position format: round trips and one-line errors."""

import json

import pytest

from lanterne.engines.core import IllegalAction, NotationError, PositionError, RulesError
from lanterne.engines.pacal import GAME
from lanterne.engines.pacal.state import BUILD, STONES
from tests.engines.pacal.helpers import c, cells, position, started


@pytest.mark.parametrize("text,action", [
    ("straight e8", ("move", "straight", c("e8"))),
    ("TURN F9", ("move", "turn", c("f9"))),
    ("energy 4 b2", ("energy", 4, c("b2"))),
    ("relocate b2", ("relocate", c("b2"))),
    ("pass", ("pass",)),
])
def test_parse_examples(text, action):
    s = position(ships={0: "e11"}, face=3)
    assert GAME.parse_action(s, text) == action


def test_format_examples():
    s = position(ships={0: "e11"}, phase=STONES, allowance=2)
    assert GAME.format_action(s, ("stones", True, 2, ())) == "stones own P3"
    assert GAME.format_action(s, ("stones", False, None, ())) == "stones none"
    assert GAME.format_action(s, ("stones", True, 1, cells("a13", "c4"))) == "stones own P2 take c4 a13"
    assert GAME.parse_action(s, "stones own p2 take a13, c4") == ("stones", True, 1, cells("a13", "c4"))
    b = position(phase=BUILD, stones={0: ["e10", "f10", "g10"]})
    act = ("build", 3, c("f10"), cells("e10", "f10", "g10"))
    assert GAME.format_action(b, act) == "build 3 on f10 with e10 f10 g10"
    assert GAME.parse_action(b, "build 3 f10 e10 f10 g10") == act
    assert GAME.parse_action(b, "build 3 on f10") == act  # the only constellation that fits
    assert GAME.format_action(b, ("upgrade", 4, c("e5"), cells("e2", "e3", "e4", "e5"))) == \
        "upgrade 4 on e5 with e2 e3 e4 e5"


def test_table_outcomes_have_notation():
    s = GAME.setup(players=3)
    assert GAME.format_action(s, ("roll", 2)) == "first P3" and GAME.parse_action(s, "first P3") == ("roll", 2)
    r = started(3)
    assert GAME.format_action(r, ("roll", 5)) == "roll 5 = arrows"
    assert GAME.format_action(r, ("roll", 2)) == "roll 2 = 3"
    assert GAME.parse_action(r, "roll 2") == ("roll", 2) == GAME.parse_action(r, "roll 2 = 3")
    with pytest.raises(NotationError, match="is the face 3, not 4"):
        GAME.parse_action(r, "roll 2 = 4")


@pytest.mark.parametrize("text,message", [
    ("", "empty move"),
    ("fly e8", "unknown move 'fly'"),
    ("straight", "say: straight <cell>"),
    ("straight z9", "'z9' is not a cell"),
    ("straight e14", "'e14' is not a cell"),
    ("energy four b2", "is not a number"),
    ("stones own P9", "'p9' is not a player"),
    ("stones own own", "say: stones none"),
    ("stones own take", "say which stones to take back"),
    ("build 3", "say: build"),
    ("build 3 on e5 with", "say: build"),
    ("build 2 on e11", "no build of 2 storeys on e11"),
    ("roll 9", "a die value is 0 to 5"),
    ("first P7", "is not a player"),
])
def test_bad_notation_gives_one_line_errors(text, message):
    s = position(ships={0: "e11"}, face=3)
    with pytest.raises(NotationError, match=message) as e:
        GAME.parse_action(s, text)
    assert "\n" not in str(e.value)


def test_ambiguous_build_asks_for_the_constellation():
    b = position(phase=BUILD, stones={0: ["e10", "f10", "g10", "f11"]})
    with pytest.raises(NotationError, match="constellations fit"):
        GAME.parse_action(b, "build 2 on f10")


def test_illegal_actions_are_one_line():
    s = position(ships={0: "e11"}, face=3)
    for bad in [("move", "fly", 5), ("move", "straight", 999), ("move",), ("energy", 3, c("b2")), (), "x",
                ("stones", True, None, ()), ("roll", 1), ({"a": 1},), (("move",), 1), ("move", "straight", "e8"),
                ("energy", [2], c("b2")), ("relocate", True)]:
        with pytest.raises(IllegalAction) as e:
            GAME.apply(s, bad)
        assert "\n" not in str(e.value)


def test_malformed_stones_and_builds_are_refused():
    s = position(ships={0: "e11"}, phase=STONES, allowance=2)
    for bad in [("stones", 1, None, ()), ("stones", True, "P2", ()), ("stones", True, 0, ()), ("stones", True, None),
                ("stones", True, None, ({},)), ("stones", True, None, [c("a1")])]:
        with pytest.raises(IllegalAction):
            GAME.apply(s, bad)
    b = position(phase=BUILD, stones={0: ["e10"]})
    for bad in [("build", 1, c("e10")), ("build", "1", c("e10"), (c("e10"),)), ("build", 1, c("e10"), ("e10",)),
                ("build", 1, c("e10"), c("e10")), ("upgrade", 2, c("e10"), (c("e10"),)), ("build", 1, None, (c("e10"),))]:
        with pytest.raises(IllegalAction):
            GAME.apply(b, bad)


def test_position_round_trip_and_readable_cells():
    s = position(ships={0: "e11"}, stones={0: ["c3"], 1: ["c3", "e11"]}, pyramids={"e5": (1, 3)}, score={2: 7})
    text = GAME.save_position(s)
    assert '"c3":[0,1]' in text and '"e5":[1,3]' in text
    back = GAME.load_position(text)
    assert back.to_data() == s.to_data()
    assert GAME.save_position(back) == text


def corrupt(mutate):
    d = position(ships={0: "e11"}, stones={0: ["c2"]}, pyramids={"e5": (1, 3)}).to_data()
    mutate(d)
    return json.dumps({"game": "pacal", "format": 1, "state": d})


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d.update(players=7), "players must be"),
    (lambda d: d.update(variant="easy"), "no variant"),
    (lambda d: d.update(phase="dance"), "no phase"),
    (lambda d: d["ships"].__setitem__(0, "z1"), "not a cell"),
    (lambda d: d["ships"].__setitem__(1, "e11"), "two ships on one cell"),
    (lambda d: d["ships"].__setitem__(1, "c4"), "not in play"),
    (lambda d: d["stones"].update({"e6": [0]}), "seat 1 has 2 stones on the board and 9 in supply"),
    (lambda d: d["stones"].update({"c2": [0, 0]}), "two stones of one colour"),
    (lambda d: d["stones"].update({"e5": [2]}), "shares its cell"),
    (lambda d: d["pyramids"].update({"f5": [1, 3]}), "not 3"),
    (lambda d: d["pyramids"].update({"f5": [1, 9]}), "storeys 1-5"),
    (lambda d: d.update(energy=[[2, 2], [], []]), "energy of seat 1"),
    (lambda d: d.update(face=7), "no die face"),
    (lambda d: d.update(face=False), "no die face"),
    (lambda d: d["pyramids"].update({"e5": [True, 3]}), "storeys 1-5"),
    (lambda d: d.update(energy=[[2, 4, 6], ["2"], []]), "energy of seat 2"),
    (lambda d: d.update(pending="roll"), "bad table operation"),
    (lambda d: d.update(current=-1), "needs a current seat"),
    (lambda d: d.update(phase="first"), "needs the table to roll a 3-faced die"),
    (lambda d: d.update(pending={"kind": "roll", "pile": "", "slots": [], "to": None, "faces": 6}),
     "has no table operation"),
    (lambda d: d.update(score=[1, 2]), "score must be a list of 3"),
    (lambda d: d.update(triggered="no"), "true or false"),
    (lambda d: d.pop("ships"), "ships must be a list"),
])
def test_corrupt_positions_give_one_line_errors(mutate, message):
    with pytest.raises(PositionError, match=message) as e:
        GAME.load_position(corrupt(mutate))
    assert "\n" not in str(e.value)


def test_not_a_position():
    with pytest.raises(PositionError, match="not a position file"):
        GAME.load_position("{nope")
    with pytest.raises(PositionError, match="not a Pacal's Rocket position"):
        GAME.load_position(json.dumps({"game": "pagode", "format": 1, "state": {}}))
    with pytest.raises(PositionError, match="not a map"):
        GAME.load_position(json.dumps({"game": "pacal", "format": 1, "state": [1]}))


def test_registry_and_aliases():
    from lanterne.engines.registry import get_game

    assert get_game("pacal") is GAME and get_game("Pacal's Rocket") is GAME
    with pytest.raises(RulesError, match="5 players, not 6"):
        GAME.check_options(6, "standard")


def test_every_notation_example_of_the_rules_doc_parses_and_reads_back():
    from pathlib import Path
    import re

    doc = Path(__file__).resolve().parents[3] / "docs" / "rules" / "pacal.md"
    section = doc.read_text().split("## Move notation")[1].split("\n## ")[0]
    examples = [e for line in section.splitlines() if line.startswith("| `")
                for e in re.findall(r"`([^`]+)`", line.split("|")[1])]
    assert len(examples) >= 15
    build = position(phase=BUILD, stones={0: ["e10", "f10", "g10", "i3", "i5", "i9"]}, pyramids={"i7": (0, 2)})
    for text in examples:
        state = build if text.split()[0] in ("build", "upgrade", "pass") else position(ships={0: "e11"})
        if text.startswith("first"):
            state = GAME.setup(players=3)
        action = GAME.parse_action(state, text)
        assert GAME.parse_action(state, GAME.format_action(state, action)) == action
