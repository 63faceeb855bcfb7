"""Constellations for 1 to 5 storeys (seed section 3, the guide card)."""

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanterne.engines.pacal import data
from lanterne.engines.pacal.rules.constellations import constellations, has_constellation, has_long_constellation, shape_storeys
from tests.engines.pacal.helpers import cells


def storeys(*names):
    return shape_storeys(cells(*names))


def test_one_stone_builds_one_storey():
    # "Une pyramide à un étage s'il y a une pierre divine."
    assert storeys("e5") == 1


def test_two_stones_side_by_side_build_two_storeys():
    # "Une pyramide à deux étages si deux pierres divines sont placées de manière horizontale ou verticale directement
    #  l'une à côté de l'autre. Il est interdit de construire une pyramide si les pierres sont en diagonale ou si elles
    #  sont séparées par une ou plusieurs cases vides."
    assert storeys("e5", "f5") == 2 and storeys("e5", "e6") == 2
    assert storeys("e5", "f6") is None  # diagonal
    assert storeys("e5", "g5") is None and storeys("e5", "e8") is None  # a gap


@pytest.mark.parametrize("line", [("a1", "b1", "c1"), ("c3", "c4", "c5"), ("a1", "b2", "c3"), ("e1", "d2", "c3"),
                                  ("a1", "c1", "e1"), ("b2", "b6", "b10"), ("a1", "d4", "g7"), ("k1", "h4", "e7")])
def test_three_in_line_with_equal_gaps_build_three_storeys(line):
    # "Une pyramide à trois étages si trois pierres divines sont placées en ligne, de manière horizontale, verticale
    #  ou diagonale. Une ou plusieurs cases vides entre les pierres divines sont autorisées seulement si le nombre de
    #  cases vides entre les différentes pierres est identique."
    assert storeys(*line) == 3


@pytest.mark.parametrize("cells_", [("a1", "b1", "d1"), ("a1", "b2", "c4"), ("a1", "b1", "b2"), ("a1", "c2", "e3")])
def test_three_with_unequal_gaps_or_off_line_build_nothing(cells_):
    assert storeys(*cells_) is None


@pytest.mark.parametrize("line", [("a1", "b1", "c1", "d1"), ("f2", "f5", "f8", "f11"), ("a1", "b2", "c3", "d4"),
                                  ("m1", "j4", "g7", "d10")])
def test_four_in_line_with_equal_gaps_build_four_storeys(line):
    # "Une pyramide à quatre étages si quatre pierres divines sont placées en ligne, de manière horizontale, verticale
    #  ou diagonale. Une ou plusieurs cases vides ... seulement si le nombre de cases vides ... est identique."
    assert storeys(*line) == 4
    assert storeys(*line[:3]) == 3 and storeys(*line[1:]) == 3


def test_four_with_unequal_gaps_build_nothing():
    assert storeys("a1", "b1", "c1", "e1") is None and storeys("a1", "c3", "e5", "f6") is None


def test_a_square_builds_five_storeys():
    # "Une pyramide à cinq étages si quatre pierres divines forment un carré. Ici aussi, une ou plusieurs cases sont
    #  autorisées entre les différentes pierres divines tant que le nombre de cases vides est toujours le même"
    assert storeys("a1", "b1", "a2", "b2") == 5
    assert storeys("c3", "f3", "c6", "f6") == 5
    assert storeys("c3", "f3", "c5", "f5") is None  # a rectangle
    assert storeys("c3", "d3", "c5", "d5") is None


def test_guide_card_gaps_may_be_larger_when_equal():
    # "Les écartements peuvent être plus grands que ceux montrés du moment qu'ils sont identiques"
    assert storeys("a1", "a7", "a13") == 3 and storeys("a1", "e1", "i1", "m1") == 4
    assert storeys("a1", "m1", "a13", "m13") == 5


def test_a_turned_square_is_no_square_in_the_house_reading():
    # house data: data.ROTATED_SQUARES is False (the seed says only "un carré")
    assert data.ROTATED_SQUARES is False
    assert storeys("b1", "a2", "c2", "b3") is None


def test_a_turned_square_counts_when_the_rule_flag_is_on(monkeypatch):
    monkeypatch.setattr(data, "ROTATED_SQUARES", True)
    assert storeys("b1", "a2", "c2", "b3") == 5
    found = set(constellations(set(cells("b1", "a2", "c2", "b3")), set(cells("b1"))))
    assert (5, cells("b1", "a2", "c2", "b3")) in found


def brute_force(pieces, stones):
    out = set()
    for n in range(1, 5):
        for combo in combinations(sorted(pieces), n):
            k = shape_storeys(combo)
            if k is not None and any(x in stones for x in combo):
                out.add((k, combo))
    return out


@settings(max_examples=40, deadline=None)
@given(st.sets(st.integers(0, 168), max_size=9), st.data())
def test_enumeration_finds_exactly_the_constellations(pieces, draw):
    stones = draw.draw(st.sets(st.sampled_from(sorted(pieces)), max_size=len(pieces)) if pieces else st.just(set()))
    found = list(constellations(pieces, stones))
    assert len(found) == len(set(found))
    assert set(found) == brute_force(pieces, stones)


def test_enumeration_on_a_dense_block_matches_brute_force():
    block = set(cells(*[f"{x}{y}" for x in "abcd" for y in (1, 2, 3, 4)]))
    stones = set(cells("a1", "c3", "d2"))
    assert set(constellations(block, stones)) == brute_force(block, stones)


def _bits(cells_):
    return sum(1 << c for c in cells_)


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(0, 168), max_size=30), st.data(), st.sampled_from((4, 5)))
def test_the_bitboard_answer_for_4_and_5_storeys_is_the_walks(pieces, draw, least):
    """rules.can_build asks has_long_constellation for 4 or 5 storeys: the same answer as has_constellation."""
    stones = draw.draw(st.sets(st.sampled_from(sorted(pieces)), max_size=len(pieces)) if pieces else st.just(set()))
    expected = any(k >= least for k, _ in constellations(pieces, stones))
    assert has_constellation(pieces, stones, least) == expected
    assert has_long_constellation(_bits(pieces), _bits(stones), least) == expected


@pytest.mark.parametrize("names, stones, least, expected", [
    (("a1", "d4", "g7", "j10"), ("j10",), 4, True),           # a diagonal with gap 3, to the corner side
    (("m1", "j4", "g7", "d10"), ("m1",), 4, True),            # the other diagonal
    (("m1", "j4", "g7", "d10"), (), 4, False),                # no stone
    (("k1", "l1", "m1", "a2"), ("a2",), 4, False),            # no line across the board's edge
    (("a1", "m1", "a13", "m13"), ("m13",), 5, True),          # the largest square
    (("a1", "m1", "a13", "m13"), ("m13",), 4, True),          # a square builds 5 >= 4
    (("a1", "b1", "c1", "d1"), ("a1",), 5, False),            # a line of 4 is no 5
    (("l1", "m1", "a2", "b2"), ("a2",), 5, False),            # no square across the edge
])
def test_the_bitboard_answer_on_lines_and_squares_at_the_edges(names, stones, least, expected):
    pieces, held = set(cells(*names)), set(cells(*stones)) if stones else set()
    assert has_constellation(pieces, held, least) == expected
    assert has_long_constellation(_bits(pieces), _bits(held), least) == expected
