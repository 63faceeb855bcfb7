"""Divine stones (seed section 2): into ships, one per colour per cell, taking back, hidden under ships."""

import pytest

from lanterne.engines.core import IllegalAction
from lanterne.engines.pacal import GAME
from lanterne.engines.pacal.rules import build_actions, visible_stones
from lanterne.engines.pacal.state import BUILD, STONES
from tests.engines.pacal.helpers import c, play, position


def at_stones(allowance=2, **kw):
    kw.setdefault("ships", {0: "e11", 1: "h11", 2: "j3"})
    return position(phase=STONES, allowance=allowance, **kw)


def test_two_stones_one_in_own_ship_one_in_another_players_ship():
    # "mettre en jeu deux pierres divines - il prend alors deux de ses pierres et en place une dans son propre
    #  vaisseau et une dans le vaisseau d'un autre joueur de son choix"
    s = at_stones()
    after, events = play(s, "stones own P2")
    assert after.stone_mask(c("e11")) == 0b001 and after.stone_mask(c("h11")) == 0b001
    assert after.stone_supply[0] == 8
    assert ("stone", 0, c("e11"), 0) in events and ("stone", 0, c("h11"), 1) in events
    opts = {a[1:3] for a in GAME.legal_actions(s, 0)}
    assert opts == {(False, None), (True, None), (False, 1), (True, 1), (False, 2), (True, 2)}
    with pytest.raises(IllegalAction, match="no other ship"):
        play(s, "stones own P1")


def test_one_stone_goes_into_the_own_ship():
    # "mettre en jeu une seule pierre divine - il prend alors une de ses pierres et la place dans son propre vaisseau."
    s = at_stones(allowance=1)
    assert {a[1:3] for a in GAME.legal_actions(s, 0)} == {(False, None), (True, None)}
    with pytest.raises(IllegalAction, match="single stone goes into the player's own ship"):
        play(s, "stones P2")
    with pytest.raises(IllegalAction, match="allows 1 stone"):
        play(s, "stones own P2")
    after, _ = play(s, "stones own")
    assert after.stone_mask(c("e11")) == 1


def test_a_player_may_put_no_stone_or_only_one_of_two():
    # "RAPPEL : Un joueur peut décider ne pas poser de pierres à son tour de jeu. Si son déplacement lui permet de
    #  poser 2 pièces, il peut aussi décider de n'en poser qu'une."
    s = at_stones()
    none, _ = play(s, "stones none")
    assert none.stone_supply[0] == 10 and not any(none.stones)
    one, _ = play(s, "stones P3")
    assert one.stone_mask(c("j3")) == 1 and one.stone_supply[0] == 9


def test_two_stones_of_one_colour_on_a_cell_go_back_to_their_owner():
    # "Il ne peut y avoir qu'une seule pierre divine par couleur sur une case. ... Si deux pierres de la même couleur
    #  se trouvent sur une même case, elles sont retirées du plateau de jeu et rendues au joueur de cette couleur.
    #  Celui-ci peut les réutiliser plus tard."
    s = at_stones(stones={0: ["e11", "h11"], 1: ["e11"]})  # seat 0's stones lie under both ships
    after, events = play(s, "stones own P2")
    assert after.stone_mask(c("e11")) == 0b010 and after.stone_mask(c("h11")) == 0
    assert after.stone_supply[0] == 10
    assert ("stones back", 0, c("e11"), 2) in events


def test_stones_stay_on_the_cell_when_the_ship_moves():
    # "Pour ce faire, il soulève d'abord son vaisseau spatial pour que les pierres divines qui se trouvent peut-être
    #  à l'intérieur restent sur la case" ; "Quand un vaisseau spatial est déplacé, les pierres divines restent sur
    #  la case où elles ont été déposées."
    s = position(ships={0: "e11"}, stones={0: ["e11"], 2: ["e11"]}, face=3)
    after, _ = play(s, "straight e8")
    assert after.stone_mask(c("e11")) == 0b101 and after.ships[0] == c("e8")


def test_stones_under_a_ship_are_not_visible_and_form_no_constellation():
    # "Quand les pierres divines visibles d'un joueur forment une constellation" (README: stones under a ship form
    # no constellation until the ship leaves)
    s = position(ships={0: "e11", 1: "e10"}, stones={0: ["e11", "e10"]}, face=3, phase=BUILD)
    assert visible_stones(s, 0) == []
    assert build_actions(s, 0) == []
    s2 = position(ships={0: "e11", 1: "a1"}, stones={0: ["e10", "e11"]}, face=3)
    after, _ = play(s2, "straight e8", "stones none")
    assert after.phase == BUILD  # e10 and e11 are visible now: a pair for 2 storeys
    assert ("build", 2, c("e10"), (c("e10"), c("e11"))) in GAME.legal_actions(after, 0)


def test_without_stones_left_a_player_takes_back_visible_ones():
    # "Si un joueur n'a plus de pierre divine devant lui, il peut à son tour de jeu retirer des pierres parmi ses
    #  propres pierres visibles sur plateau de jeu et les réutiliser directement."
    many = ["a13", "b13", "c13", "d13", "e13", "f13", "g13", "h13", "i13", "e12"]
    s = at_stones(stones={0: many}, ships={0: "e11", 1: "h11", 2: "e12"})  # e12 is under a ship
    assert s.stone_supply[0] == 0
    opts = [a for a in GAME.legal_actions(s, 0) if a[1] and a[2] == 1]
    assert len(opts) == 36  # any 2 of the 9 visible stones
    after, events = play(s, "stones own P2 take a13 i13")
    assert after.stone_mask(c("a13")) == 0 and after.stone_mask(c("i13")) == 0
    assert after.stone_mask(c("e11")) & 1 and after.stone_mask(c("h11")) & 1 and after.stone_supply[0] == 0
    assert ("take back", 0, c("a13")) in events
    with pytest.raises(IllegalAction, match="own visible stones"):
        play(s, "stones own take e12")
    with pytest.raises(IllegalAction, match="must take back 1"):
        play(s, "stones own")
    with pytest.raises(IllegalAction, match="only when the player has none left"):
        play(at_stones(), "stones own take a13")


def test_with_one_stone_left_the_second_comes_from_the_board():
    s = at_stones(stones={0: ["a13", "b13", "c13", "d13", "e13", "f13", "g13", "h13", "i13"]})
    assert s.stone_supply[0] == 1
    after, _ = play(s, "stones own P3 take b13")
    assert after.stone_supply[0] == 0 and after.stone_mask(c("j3")) == 1 and after.stone_mask(c("b13")) == 0


def test_stones_under_ships_are_public_information():
    # "Les joueurs doivent savoir où ils ont placé leurs pierres." Every player saw them dropped: the public
    # position lists them, ship or no ship.
    s = position(ships={0: "e11", 1: "h11"}, stones={0: ["e11", "h11"], 1: ["e11"]})
    public = GAME.public_data(s)
    assert public["stones"] == {"e11": [0, 1], "h11": [0]}
    assert GAME.view(s, 2).to_data() == s.to_data()
