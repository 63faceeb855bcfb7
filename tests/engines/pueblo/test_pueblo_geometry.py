"""The stone, its 12 orientations, support, and what the chieftain sees (house data included)."""

import pytest

from lanterne.engines.pueblo import GAME
from lanterne.engines.pueblo.data import STONE_CUBES
from lanterne.engines.pueblo.board import (BY_CELLS, LINES, ORIENTATIONS, POSE_COLUMNS, QUARTERS, SPACE_NAMES,
                                     TEMPLATES, cell_name, parse_cell)
from lanterne.engines.pueblo.notation import parse_action
from lanterne.engines.pueblo.view import chief_options, footprint, side_view

from tests.engines.pueblo.pueblo_build import build


def test_house_data_stone_is_the_screw_tetracube_with_12_orientations():
    # README: "cubes (0,0,0) (1,0,0) (0,1,0) (1,0,1) ... 12 orientations"
    assert STONE_CUBES == ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1))
    assert len(ORIENTATIONS) == 12
    assert tuple(sorted(STONE_CUBES)) in ORIENTATIONS
    mirror = tuple(sorted(((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 0, 1))))
    assert mirror not in ORIENTATIONS  # the handedness matters: the mirror piece is another stone


def test_every_orientation_has_an_l_footprint_and_one_two_cube_column():
    # « Toutes les pierres ont la même forme. Chaque face est composée de 3 "carrés". »
    for cols in POSE_COLUMNS:
        assert len(cols) == 3
        assert sorted(c.count for c in cols) == [1, 1, 2]
        assert {(c.dx, c.dy) for c in cols} < {(0, 0), (1, 0), (0, 1), (1, 1)}


def test_three_families_of_four_orientations():
    # research §4: flat bottom, flat top, corner-tall; 4 each
    families = {"flat bottom": 0, "flat top": 0, "corner tall": 0}
    for cols in POSE_COLUMNS:
        tall = next(c for c in cols if c.count == 2)
        singles = [c for c in cols if c.count == 1]
        if all(c.low == 0 for c in cols):
            families["flat bottom"] += 1
        elif all(c.low == 1 for c in singles) and tall.low == 0:
            families["flat top"] += 1
        else:
            assert sorted(c.low for c in singles) == [0, 1]
            families["corner tall"] += 1
    assert families == {"flat bottom": 4, "flat top": 4, "corner tall": 4}


def test_cells_and_tall_cell_name_each_placement_once():
    assert len(TEMPLATES) == 12 * 49
    assert len(BY_CELLS) == len(TEMPLATES)


def test_stone_in_a_cube_with_its_complement_same_handedness():
    # research §4 (Q3): "a coloured and a neutral stone fit together into a 2x2x2 cube"
    box = {(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)}
    complement = tuple(sorted(box - set(STONE_CUBES)))
    assert complement in ORIENTATIONS
    state = build(2, [(0, "b1^ a1 a2"), ("N", "b2^ a2 a1")], phase="place")
    assert [state.heights[parse_cell(c)] for c in ("a1", "b1", "a2", "b2")] == [2, 2, 2, 2]


def test_track_numbering_house_data():
    # README: "0 = NW corner, clockwise"; 36 spaces
    assert set(QUARTERS) == {0, 9, 18, 27}
    assert len(LINES) == 32
    assert [cell_name(c) for c in LINES[1]] == [f"a{r}" for r in range(8, 0, -1)]  # north of a, looking south
    assert [cell_name(c) for c in LINES[10]] == [f"{f}8" for f in "hgfedcba"]  # east of row 8, looking west
    assert [cell_name(c) for c in LINES[19]] == [f"h{r}" for r in range(1, 9)]  # south of h, looking north
    assert [cell_name(c) for c in LINES[35]] == [f"{f}8" for f in "abcdefgh"]  # west of row 8, looking east
    assert SPACE_NAMES[18] == "SE corner"
    assert {cell_name(c) for c in QUARTERS[27]} == {f"{f}{r}" for f in "abcd" for r in "1234"}


def test_footprint_preview_gives_cells_levels_and_reason():
    state = build(2, [(0, "b1^ a1 a2")], phase="place")
    on_top = parse_action(state, "N c2^ c1 b1")  # flat bottom, but b1 is 2 high
    fp = footprint(state, *on_top[2:])
    assert not fp.legal and "hang" in fp.reason
    flat = parse_action(state, "N d4^ e4 e3")
    fp = footprint(state, *flat[2:])
    assert fp.legal and fp.base == 0 and fp.reason is None
    complement = parse_action(state, "N b2^ a2 a1")
    fp = footprint(state, *complement[2:])
    assert fp.legal and fp.base == 0
    assert sorted((cell_name(c), lo, hi) for c, lo, hi in fp.cells) == [("a1", 2, 2), ("a2", 2, 2), ("b2", 1, 2)]
    assert footprint(state, 0, 7, 0).reason.startswith("no such")


def test_chief_options_give_the_penalty_of_each_move():
    state = build(3, [(1, "h1^ g1 g2")], chief=13)
    options = chief_options(state)
    assert [o.steps for o in options] == [1, 2, 3, 4]
    assert [o.space for o in options] == [14, 15, 16, 17]
    assert options[3].penalties == (0, 3, 0)  # example 2
    assert options[2].penalties == (0, 1, 0)  # row 2: g2 level 1
    assert options[0].penalties == (0, 0, 0)


def test_side_view_hides_what_is_behind():
    state = build(3, [(0, "b1^ a1 a2"), (1, "h1^ g1 g2")])
    # west of row 1 looks east: red a1 (level 1) and b1 (levels 1-2) hide blue h1 (levels 1-2)
    assert [(sq.level, cell_name(sq.cell), sq.owner) for sq in side_view(state, 28)] == [(1, "a1", 0), (2, "b1", 0)]


@pytest.mark.parametrize("space", range(36))
def test_empty_pueblo_shows_nothing(space):
    state = build(2)
    assert side_view(state, space) == []
    assert GAME.apply(build(2, chief=(space - 1) % 36), ("move", 1))[0].penalties == [0, 0]


@pytest.mark.parametrize("text, family", [
    ("b1^ a1 a2", "flat bottom"), ("a2^ b2 b1", "flat bottom"), ("b2^ b1 a1", "flat bottom"),
    ("a1^ a2 b2", "flat bottom"), ("b2^ a2 a1", "flat top"), ("a1^ b1 b2", "flat top"),
    ("b1^ b2 a2", "flat top"), ("a2^ a1 b1", "flat top"), ("a1^ b1 a2", "corner tall"),
])
def test_the_orientation_list_of_the_docs(text, family):
    # docs/rules/pueblo.md lists the orientations by family: keep it true
    state = build(2, phase="place")
    place = parse_action(state, "C " + text)
    t = next(t for t in TEMPLATES if (t.orient, t.x, t.y) == place[2:])
    lows = {cell_name(c): col.low for c, col in zip(t.cells, POSE_COLUMNS[t.orient])}
    tall = text.split("^")[0]
    others = [c for c in lows if c != tall]
    if family == "flat bottom":
        assert set(lows.values()) == {0}
    elif family == "flat top":
        assert lows[tall] == 0 and all(lows[c] == 1 for c in others)
    else:
        assert lows == {"a1": 0, "b1": 0, "a2": 1}


def test_footprint_preview_names_a_sacred_site():
    state = build(2, phase="place", variant="advanced", sites=["d4 e4 e5"], sites_wanted=1)
    fp = footprint(state, *parse_action(state, "C d4^ e4 e3")[2:])
    assert not fp.legal and fp.reason == "d4 is a sacred site: nothing may be built on it"
    assert [(cell_name(c), lo, hi) for c, lo, hi in fp.cells][0][1:] in ((1, 2), (1, 1))


def test_chief_options_wrap_round_the_north_west_corner():
    state = build(2, [(0, "a8^ b8 b7")], chief=34)
    options = chief_options(state)
    assert [(o.space, o.name) for o in options] == [(35, "west of row 8"), (0, "NW corner"),
                                                    (1, "north of a"), (2, "north of b")]
    # a8 flat-bottom tall: west of row 8 sees a8 levels 1-2 (3); the NW quarter shows 3 red tops;
    # north of a sees a8 (1 + 2); north of b sees b8 level 1 then nothing at level 2 behind it
    assert [o.penalties for o in options] == [(3, 0), (3, 0), (3, 0), (1, 0)]
