"""Moving the ship: one test per rule sentence of the seed (section 1)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanterne.engines.core import IllegalAction
from lanterne.engines.pacal import GAME, data
from lanterne.engines.pacal.view import reachable
from lanterne.engines.pacal.board import SACRED_CELLS, board_for
from lanterne.engines.pacal.rules.movement import turn_destinations, turn_destinations_by_walks
from lanterne.engines.pacal.state import BUILD, STONES
from tests.engines.pacal.helpers import c, play, position, started


def moves(s, mode):
    return sorted(a[2] for a in GAME.legal_actions(s, s.current) if a[0] == "move" and a[1] == mode)


def names(cells_):
    return sorted(cells_)


def test_straight_moves_go_the_full_count_in_one_direction():
    # "Déplacer son vaisseau spatial du nombre de points en ligne droite dans UNE seule direction (sans tourner !).
    #  Il ne peut pas avancer, puis reculer, et pas non plus déplacer son vaisseau en diagonale."
    s = position(ships={0: "e11"}, face=3)
    assert moves(s, "straight") == sorted([c("e8"), c("h11"), c("b11"), c("e13")])


def test_straight_move_stops_before_an_obstacle_and_the_overflow_is_lost():
    # "Si son vaisseau rencontre un obstacle (un autre vaisseau, le bord d'un plateau de jeu, le lac ou une pyramide),
    #  il reste devant cet obstacle et le nombre de points excédentaire tombe à l'eau."
    s = position(ships={0: "e11", 1: "g11"}, pyramids={"e9": (2, 1)}, face=5)
    # up: pyramid at e9 -> e10; right: ship at g11 -> f11; down: edge after e13; left: a11 after 4
    assert moves(s, "straight") == sorted([c("e10"), c("f11"), c("e13"), c("a11")])
    lake = position(ships={0: "c8"}, face=4)  # up: c7, c6, then the lake at c5
    assert c("c6") in moves(lake, "straight")
    covered = position(3, ships={0: "i5"}, face=4)  # 3 players: columns k-m of rows 1-9 are covered
    assert c("j5") in moves(covered, "straight")


def test_a_ship_next_to_an_obstacle_cannot_move_that_way():
    s = position(ships={0: "e11"}, pyramids={"e10": (1, 2), "f11": (1, 1)}, face=2)
    assert moves(s, "straight") == sorted([c("c11"), c("e13")])


def test_stones_and_the_river_are_no_obstacle():
    # "Les pierres divines et la rivière ne sont pas un obstacle, le vaisseau peut passer par-dessus."
    s = position(ships={0: "b10"}, stones={1: ["c10", "d10"]}, face=3)  # the river runs between c and d
    assert c("e10") in moves(s, "straight")


def test_a_straight_move_allows_two_stones():
    # "Si un joueur choisit cette possibilité, il peut ensuite mettre en jeu deux pierres divines"
    s = position(ships={0: "e11"}, face=3)
    s, events = play(s, "straight e8")
    assert s.phase == STONES and s.allowance == 2 and s.ships[0] == c("e8")
    assert ("move", 0, "straight", c("e11"), c("e8")) in events


def test_turning_uses_the_exact_count():
    # "Tourner en angle droit avec son vaisseau autant qu'il le souhaite. Dans ce cas, le nombre de points obtenu
    #  doit être épuisé. Il n'est pas obligé de tourner à chaque case."
    s = position(ships={0: "f11"}, face=2)
    ring = {c(x) for x in ("f9", "h11", "f13", "d11", "e10", "g10", "e12", "g12")}
    assert set(moves(s, "turn")) == ring
    s3 = position(ships={0: "f11"}, face=3)
    dests = set(moves(s3, "turn"))
    assert c("f8") in dests and c("h10") in dests and c("g11") in dests  # g11: up, right, down
    assert c("f11") not in dests  # the ship must move
    assert all(abs(d // 13 - 10) + abs(d % 13 - 5) in (1, 3) for d in dests)


def test_turning_cannot_stop_before_an_obstacle_it_goes_around():
    # "Un arrêt avant l'obstacle n'est pas autorisé, il faut le contourner."
    s = position(ships={0: "e12"}, pyramids={"e10": (1, 1)}, face=2)
    assert c("e11") not in moves(s, "turn")
    assert c("e11") in moves(s, "straight")
    s5 = position(ships={0: "e12"}, pyramids={"e10": (1, 1)}, face=5)
    assert c("e9") in moves(s5, "turn")  # around the pyramid: e11, d11, d10, d9, e9
    assert c("e9") not in moves(s5, "straight")


def test_dead_end_rule_keeps_the_ship_and_loses_the_overflow():
    # "Exception - règle du cul de sac : Si le joueur déplace son vaisseau sur une case entourée d'obstacles,
    #  le nombre de points excédentaires tombe à l'eau."
    s = position(ships={0: "b13"}, pyramids={"a10": (1, 1), "a12": (1, 2)}, face=4)
    assert c("a11") in moves(s, "turn")  # b12, b11, a11 = a dead end after 3 of 4
    free = position(ships={0: "b13"}, pyramids={"a10": (1, 1)}, face=4)
    assert c("a11") not in moves(free, "turn")  # a11 is 3 steps away: 4 cannot end there


def test_a_turning_move_allows_one_stone():
    # "Si un joueur choisit cette possibilité, il peut ensuite mettre en jeu une seule pierre divine"
    s = position(ships={0: "f11"}, face=2)
    s, _ = play(s, "turn g10")
    assert s.allowance == 1
    assert {a[1:3] for a in GAME.legal_actions(s, 0)} == {(False, None), (True, None)}


def test_arrows_move_any_distance_in_one_direction_over_obstacles():
    # "le joueur déplace son vaisseau dans UNE seule direction, dans la ligne ou la colonne dans laquelle il se
    #  trouve, d'autant de cases qu'il souhaite. Les obstacles ne jouent aucun rôle ici"
    s = position(ships={0: "c8", 1: "c10"}, pyramids={"c7": (1, 1)}, face=data.ARROWS)
    dests = set(moves(s, "arrow"))
    col_c = {c(f"c{r}") for r in range(1, 14)} - {c("c8"), c("c7"), c("c10"), c("c4"), c("c5")}
    row_8 = {c(f"{x}8") for x in "abdefghij"}  # k8-m8 are covered with 3 players
    assert dests == col_c | row_8  # over the pyramid, the lake and the ship; never onto them
    assert moves(s, "straight") == [] and moves(s, "turn") == []


def test_arrows_allow_two_stones():
    # "Le joueur peut ensuite mettre en jeu deux pierres divines"
    s = position(ships={0: "c8"}, face=data.ARROWS)
    s, _ = play(s, "arrow c1")
    assert s.allowance == 2


def test_energy_piece_teleports_to_any_free_cell_and_is_lost():
    # "Au lieu d'avancer, le joueur peut utiliser une de ses pièces d'énergie. Il place alors son vaisseau sur une
    #  case libre de son choix sur le plateau de jeu, et perd la pièce d'énergie utilisée. Il peut ensuite mettre en
    #  jeu une seule pierre divine"
    s = position(ships={0: "e11"}, pyramids={"m13": (1, 1)}, face=3)
    targets = {a[2] for a in GAME.legal_actions(s, 0) if a[0] == "energy" and a[1] == 4}
    playable = {x for x in range(169) if board_for(3).playable[x]}
    assert len(playable) == 169 - 4 - 27
    assert targets == playable - {c("e11"), c("b1"), c("a2"), c("m13")}
    after, events = play(s, "energy 4 b2")
    assert after.energy[0] == [2, 6] and after.ships[0] == c("b2") and after.allowance == 1
    assert ("energy", 0, 4) in events
    with pytest.raises(IllegalAction, match="lake|free"):
        play(s, "energy 2 c4")
    with pytest.raises(IllegalAction, match="no energy piece"):
        play(position(ships={0: "e11"}, energy={0: [2]}), "energy 6 b2")


def test_unused_energy_pieces_score_at_the_end():
    # "Remarque : Les pièces d'énergie qui n'ont pas été utilisées rapportent 2, 4 ou 6 points supplémentaires à la
    #  fin de la partie !" (see test_pacal_scoring for the final scoring)
    from lanterne.engines.pacal.rules.scoring import final_scoring

    s = position(energy={0: [2, 6], 1: [], 2: [4]})
    events = final_scoring(s, board_for(3))
    assert [e for e in events if e[3] == "energy pieces"] == [("score", 0, 8, "energy pieces"),
                                                              ("score", 2, 4, "energy pieces")]


def test_a_surrounded_ship_must_use_an_energy_piece():
    # "Si le vaisseau d'un joueur est entouré d'obstacles partout et qu'il ne peut plus le déplacer, le joueur doit
    #  utiliser une pièce d'énergie."
    s = position(ships={0: "a13", 1: "b13"}, pyramids={"a12": (1, 1)}, face=5)
    acts = GAME.legal_actions(s, 0)
    assert acts and all(a[0] == "energy" for a in acts)
    assert reachable(s, 0)[c("e5")] == ["energy"]


def test_a_surrounded_ship_without_energy_relocates_without_a_stone():
    # "S'il n'en possède plus – et dans ce cas seulement – il doit placer son vaisseau sur la case de son choix,
    #  mais il ne peut pas mettre en jeu de pierre divine"
    s = position(ships={0: "a13", 1: "b13"}, pyramids={"a12": (1, 1)}, face=5, energy={0: []},
                 stones={0: ["e5"]})
    acts = GAME.legal_actions(s, 0)
    assert acts and all(a[0] == "relocate" for a in acts)
    after, _ = play(s, "relocate e2")
    assert after.phase == BUILD and after.allowance == 0  # no stone step
    with pytest.raises(IllegalAction, match="only for a surrounded ship"):
        play(position(ships={0: "e11"}, energy={0: []}), "relocate e2")
    with pytest.raises(IllegalAction, match="must use an energy piece"):
        play(position(ships={0: "a13", 1: "b13"}, pyramids={"a12": (1, 1)}), "relocate e2")


def test_first_round_leaves_the_sacred_district_in_a_straight_line():
    # "lors du premier tour, chaque joueur doit quitter le quartier sacré en ligne droite avec son vaisseau. La
    #  possibilité de tourner en angle droit avec son vaisseau est seulement autorisée à partir du deuxième tour."
    s = started(3, ships=("f6", "g6", "h6"))
    s, _ = GAME.apply(s, ("roll", 0))  # face 2
    acts = GAME.legal_actions(s, 0)
    assert {a[0] for a in acts} == {"move"} and {a[1] for a in acts} == {"straight"}
    assert {a[2] for a in acts} == {c("f4"), c("d6")}  # right is blocked by g6, down 2 ends in the district
    assert all(a[2] not in SACRED_CELLS for a in acts)
    with pytest.raises(IllegalAction, match="straight line"):
        GAME.apply(s, ("move", "turn", c("e5")))
    with pytest.raises(IllegalAction, match="straight line"):
        GAME.apply(s, ("energy", 2, c("a1")))
    with pytest.raises(IllegalAction, match="leave the sacred district"):
        GAME.apply(s, ("move", "straight", c("f8")))


def test_first_round_arrows_must_end_outside_the_sacred_district():
    s = started(3, ships=("f6", "g6", "h6"))
    s, _ = GAME.apply(s, ("roll", 5))
    dests = {a[2] for a in GAME.legal_actions(s, 0)}
    assert dests and not dests & SACRED_CELLS


def test_a_ship_may_end_on_stones():
    # "Un vaisseau peut être placé sur une case sur laquelle se trouvent déjà une ou plusieurs pierres divines."
    s = position(ships={0: "e11"}, stones={0: ["e8"], 1: ["e8"]}, face=3)
    assert c("e8") in moves(s, "straight")
    after, _ = play(s, "straight e8")
    assert after.ships[0] == c("e8") and after.stone_mask(c("e8")) == 0b11


def test_illegal_moves_say_why():
    s = position(ships={0: "e11"}, face=3)
    with pytest.raises(IllegalAction, match="cannot end a straight move of 3 on e9"):
        play(s, "straight e9")
    with pytest.raises(IllegalAction, match="not the arrows"):
        play(s, "arrow e1")
    with pytest.raises(IllegalAction, match="arrows"):
        play(position(ships={0: "e11"}, face=data.ARROWS), "straight e8")
    with pytest.raises(IllegalAction, match="is not a move now"):
        play(s, "pass")


def test_reachable_lists_every_destination_with_its_ways():
    s = position(ships={0: "e11"}, face=3, energy={0: []})
    r = reachable(s, 0)
    assert r[c("e8")] == ["straight", "turn"]
    assert r[c("f9")] == ["turn"]
    assert set(r) == {a[2] for a in GAME.legal_actions(s, 0)}
    assert reachable(s, 1) == {} and reachable(GAME.setup(players=3), 0) == {}
    assert reachable(position(phase=BUILD, stones={0: ["e10"]}), 0) == {}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 168), st.integers(2, 6), st.sets(st.integers(0, 168), max_size=40), st.sampled_from([2, 3, 5]))
def test_remembered_turning_moves_equal_walk_by_walk(start, n, blocked, players):
    board = board_for(players)
    free = [board.playable[x] and x not in blocked for x in range(169)]
    if not board.playable[start]:
        return
    assert turn_destinations(board, free, start, n) == turn_destinations_by_walks(board, free, start, n)
    assert turn_destinations(board, free, start, n) == turn_destinations_by_walks(board, free, start, n)  # remembered
