"""Building and upgrading pyramids (seed section 3), with the seed's examples as positions."""

import pytest

from lanterne.engines.core import IllegalAction
from lanterne.engines.pacal import GAME
from lanterne.engines.pacal.view import build_choices
from lanterne.engines.pacal.rules import build_actions
from lanterne.engines.pacal.state import BUILD, MOVE
from tests.engines.pacal.helpers import c, cells, play, position, scored

GREEN, YELLOW, BLUE = 0, 1, 2


def at_build(**kw):
    kw.setdefault("ships", {0: "a1", 1: "b1", 2: "a2"})
    return position(phase=BUILD, **kw)


def test_seed_example_build_on_a_or_b_or_c():
    # "Exemple : Le joueur avec les figurines vertes veut construire une pyramide à trois étages. S'il construit sur
    #  A ou B, il retire seulement ses 3 pierres divines de cette constellation. S'il construit sur C, il retire en
    #  plus la pierre jaune et la pierre bleue."
    A, B, C = "e10", "f10", "g10"
    s = at_build(stones={GREEN: [A, B, C], YELLOW: [C], BLUE: [C]})
    line = cells(A, B, C)
    for on in (A, B):
        after, events = GAME.apply(s, ("build", 3, c(on), line))
        assert [after.stone_mask(c(x)) for x in (A, B, C)] == [0, 0, 0b110]  # only green's 3 stones go
        assert after.stone_supply == [10, 9, 9]
        assert after.pyramid_owner[c(on)] == GREEN and after.pyramid_size[c(on)] == 3
    after, events = GAME.apply(s, ("build", 3, c(C), line))
    assert [after.stone_mask(c(x)) for x in (A, B, C)] == [0, 0, 0]  # plus the yellow and the blue stone
    assert after.stone_supply == [10, 10, 10]
    assert ("stones back", YELLOW, c(C), 1) in events and ("stones back", BLUE, c(C), 1) in events


def test_a_pyramid_goes_only_on_a_stone_cell_of_the_constellation():
    # "La pyramide peut être construite sur une des cases contenant une pierre divine de la constellation choisie."
    s = at_build(stones={GREEN: ["e10", "g10", "i10"]})
    with pytest.raises(IllegalAction, match="not a cell of the constellation"):
        GAME.apply(s, ("build", 3, c("f10"), cells("e10", "g10", "i10")))
    assert {a[2] for a in build_actions(s, GREEN) if a[1] == 3} == set(cells("e10", "g10", "i10"))


def test_seed_example_a_two_storey_pyramid_stands_in_for_a_stone():
    # "Pour construire une nouvelle pyramide, un joueur peut aussi utiliser une ou plusieurs pyramides déjà existantes
    #  comme pierres divines. Toutefois, celles-ci ne sont pas retirées ... Exemple : ... La pyramide à deux étages
    #  est comme une pierre divine. Le joueur peut désormais construire une nouvelle pyramide à quatre étages
    #  (par exemple sur A)."
    s = at_build(stones={GREEN: ["b9", "c10", "e12"]}, pyramids={"d11": (GREEN, 2)})
    line = cells("b9", "c10", "d11", "e12")
    assert ("build", 4, c("b9"), line) in build_actions(s, GREEN)
    after, _ = GAME.apply(s, ("build", 4, c("b9"), line))
    assert after.pyramid_size[c("b9")] == 4 and after.pyramid_size[c("d11")] == 2  # the old one stays
    assert not any(after.stones) and after.stone_supply[GREEN] == 10


def test_a_constellation_needs_at_least_one_stone():
    # "Il faut toutefois que la constellation contienne au moins une pierre divine car une nouvelle pyramide ne peut
    #  être construite que sur une case contenant une pierre divine."
    s = at_build(stones={GREEN: ["m13"]}, pyramids={"e10": (GREEN, 1), "f10": (GREEN, 2), "g10": (GREEN, 2)})
    assert all(c("m13") in a[3] for a in build_actions(s, GREEN))
    with pytest.raises(IllegalAction, match="at least one divine stone"):
        GAME.apply(s, ("build", 3, c("e10"), cells("e10", "f10", "g10")))


def test_seed_example_upgrade_to_three_or_four_storeys():
    # "Exemple : Le joueur veut upgrader sa pyramide à deux étages sur la case C. La constellation existante lui permet
    #  de la remplacer par une pyramide à trois ou quatre étages. Il choisit une pyramide à quatre étages et enlève
    #  alors toutes les pierres divines de cette constellation. S'il avait choisi une pyramide à trois étages, il aurait
    #  pu laisser la pierre divine sur la case A ou D"
    A, B, C, D = "i3", "i5", "i7", "i9"
    s = at_build(stones={GREEN: [A, B, D]}, pyramids={C: (GREEN, 2)})
    ups = {(a[1], a[3]) for a in build_actions(s, GREEN) if a[0] == "upgrade"}
    assert ups == {(4, cells(A, B, C, D)), (3, cells(A, B, C)), (3, cells(B, C, D))}
    four, events = GAME.apply(s, ("upgrade", 4, c(C), cells(A, B, C, D)))
    assert four.pyramid_size[c(C)] == 4 and not any(four.stones)
    assert ("upgrade", GREEN, 2, 4, c(C)) in events
    assert four.pyramid_supply[GREEN] == [1, 3, 3, 1, 2]  # the 2-storey pyramid is back in the supply
    three, _ = GAME.apply(s, ("upgrade", 3, c(C), cells(B, C, D)))
    assert three.stone_mask(c(A)) == 1 and three.pyramid_size[c(C)] == 3


def test_an_upgrade_must_be_higher_and_needs_a_stone():
    # "une pyramide déjà construite peut être remplacée par une pyramide plus haute ... la constellation doit contenir
    #  au moins une pierre divine qui est ensuite retirée après l'upgrade"
    s = at_build(stones={GREEN: ["e10"]}, pyramids={"f10": (GREEN, 3)})
    with pytest.raises(IllegalAction, match="higher than the 3-storey"):
        GAME.apply(s, ("upgrade", 2, c("f10"), cells("e10", "f10")))
    with pytest.raises(IllegalAction, match="no pyramid of player 1 to upgrade"):
        GAME.apply(s, ("upgrade", 2, c("e10"), cells("e10", "f10")))
    assert [a for a in build_actions(s, GREEN) if a[0] == "upgrade"] == []


def test_building_is_optional_and_one_pyramid_per_turn():
    # "La construction n'est pas obligatoire." ; "Un joueur ne peut construire qu'une seule pyramide par coup."
    s = at_build(stones={GREEN: ["e10", "g10", "m13"]})
    assert ("pass",) in GAME.legal_actions(s, GREEN)
    passed, _ = play(s, "pass")
    assert passed.current == 1 and passed.phase == MOVE and passed.stone_mask(c("e10")) == 1
    built, _ = play(s, "build 1 on e10")
    assert built.current == 1 and built.phase == MOVE  # the turn is over after one pyramid


def test_a_lower_pyramid_when_a_size_runs_out():
    # "Si un joueur ne possède plus un certain type de pyramide, il peut construire une pyramide plus basse s'il en a
    #  encore une."
    s = at_build(stones={GREEN: ["e10", "f10", "g10"]}, pyramids={"a13": (GREEN, 3), "b13": (GREEN, 3),
                                                                   "c13": (GREEN, 3)})
    line = cells("e10", "f10", "g10")
    assert s.pyramid_supply[GREEN][2] == 0
    assert {a[1] for a in build_actions(s, GREEN) if a[3] == line} == {1, 2}
    after, _ = GAME.apply(s, ("build", 2, c("e10"), line))
    assert after.pyramid_size[c("e10")] == 2 and not any(after.stone_mask(c(x)) for x in ("f10", "g10"))
    with pytest.raises(IllegalAction, match="no 3-storey pyramid left"):
        GAME.apply(s, ("build", 3, c("e10"), line))
    has_three = at_build(stones={GREEN: ["e10", "f10", "g10"]})
    with pytest.raises(IllegalAction, match="only when the 3-storey ones are used up"):
        GAME.apply(has_three, ("build", 2, c("e10"), line))
    with pytest.raises(IllegalAction, match="builds 3 storeys, not 4"):
        GAME.apply(has_three, ("build", 4, c("e10"), line))


def test_expert_variant_builds_new_pyramids_with_stones_only():
    # "les nouvelles pyramides peuvent seulement être construites avec des pierres divines, sans utiliser ses propres
    #  pyramides déjà construites. On ne peut alors utiliser une pyramide dans une constellation que pour upgrader
    #  cette pyramide."
    kw = dict(stones={GREEN: ["b9", "c10", "e12"]}, pyramids={"d11": (GREEN, 2)})
    line = cells("b9", "c10", "d11", "e12")
    expert = at_build(variant="expert", **kw)
    acts = build_actions(expert, GREEN)
    assert ("build", 4, c("b9"), line) not in acts
    assert ("upgrade", 4, c("d11"), line) in acts
    with pytest.raises(IllegalAction, match="expert variant"):
        GAME.apply(expert, ("build", 4, c("b9"), line))
    two = at_build(variant="expert", stones={GREEN: ["e10", "g10"]}, pyramids={"f10": (GREEN, 1), "h10": (GREEN, 2)})
    with pytest.raises(IllegalAction, match="only the upgraded pyramid"):
        GAME.apply(two, ("upgrade", 4, c("f10"), cells("e10", "f10", "g10", "h10")))
    standard = at_build(stones={GREEN: ["e10", "g10"]}, pyramids={"f10": (GREEN, 1), "h10": (GREEN, 2)})
    assert ("upgrade", 4, c("f10"), cells("e10", "f10", "g10", "h10")) in build_actions(standard, GREEN)


def test_bad_constellations_are_refused_with_a_reason():
    s = at_build(stones={GREEN: ["e10", "g10"], YELLOW: ["f10"]})
    with pytest.raises(IllegalAction, match="is not a constellation"):
        GAME.apply(s, ("build", 2, c("e10"), cells("e10", "g10")))
    with pytest.raises(IllegalAction, match="no visible stone or pyramid of player 1"):
        GAME.apply(s, ("build", 3, c("e10"), cells("e10", "f10", "g10")))
    with pytest.raises(IllegalAction, match="board order"):
        GAME.apply(s, ("build", 1, c("g10"), (c("g10"), c("e10"))))
    with pytest.raises(IllegalAction, match="1 to 5 storeys"):
        GAME.apply(s, ("build", 6, c("e10"), (c("e10"),)))


def test_build_choices_give_the_points_each_choice_scores():
    # for the screen: the points a constellation / pyramid choice would score
    s = at_build(stones={GREEN: ["e10", "f10"]}, pyramids={"e11": (YELLOW, 1)})  # district L (value 4)
    choices = dict(build_choices(s, GREEN))
    assert choices[("build", 2, c("e10"), cells("e10", "f10"))] == 4  # 2 storeys beat yellow's 1
    assert choices[("build", 1, c("e10"), cells("e10"))] == 0  # 1 against 1: no majority
    assert build_choices(s, YELLOW) == []
    after, events = GAME.apply(s, ("build", 2, c("e10"), cells("e10", "f10")))
    assert scored(events) == [(GREEN, 4, "district L majority taken")]
