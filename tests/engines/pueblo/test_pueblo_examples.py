"""The rulebook's worked examples, rebuilt as positions, with the rulebook's numbers.

Seats in a 3-player game: 0 red, 1 blue, 2 green. Track spaces (house data):
10-17 = east side rows 8..1 looking west, 18 = south-east corner, 19-26 =
south side columns h..a looking north.
"""

from lanterne.engines.pueblo import GAME
from lanterne.engines.pueblo.board import cell_name
from lanterne.engines.pueblo.view import side_view

from tests.engines.pueblo.pueblo_build import build

RED, BLUE, GREEN, N = 0, 1, 2, "N"


def penalty_events(events):
    return {e[1]: -e[2] for e in events if e[0] == "score"}


def seen(state, space):
    return [(sq.level, cell_name(sq.cell), sq.owner) for sq in side_view(state, space)]


def test_example_1_neutral_first_level_green_second_level_costs_green_2():
    # « Le chef est déplacé de 2 cases de A à B. Il voit un carré neutre au premier niveau et un
    #   carré vert au deuxième niveau. Le joueur vert reçoit 2 points de pénalité. »
    state = build(3, [(N, "h6^ h5 g5"), (GREEN, "h4^ h5 g5")], chief=11)  # A = 11, B = 13 (row 5)
    assert seen(state, 13) == [(1, "h5", -1), (2, "h5", GREEN)]
    after, events = GAME.apply(state, ("move", 2))
    assert after.chief == 13
    assert penalty_events(events) == {GREEN: 2}
    assert after.penalties == [0, 0, 2]


def test_example_2_blue_first_and_second_level_costs_1_plus_2():
    # « Le chef est déplacé de 4 cases de B à C. Il voit un carré bleu aux premier et deuxième
    #   niveaux. Le joueur bleu reçoit 1 + 2 = 3 points de pénalité. »
    state = build(3, [(BLUE, "h1^ g1 g2")], chief=13)  # B = 13, C = 17 (row 1)
    assert seen(state, 17) == [(1, "h1", BLUE), (2, "h1", BLUE)]
    after, events = GAME.apply(state, ("move", 4))
    assert after.chief == 17
    assert penalty_events(events) == {BLUE: 3}


def test_example_3_red_levels_1_3_4_and_green_level_2_cost_8_and_2():
    # « Le chef est déplacé de 2 cases de C à D. Il voit un carré rouge aux premier, troisième et
    #   quatrième niveaux et un carré vert au deuxième niveau. Les joueurs rouge et vert reçoivent
    #   respectivement 1 + 3 + 4 = 8 et 2 points de pénalité. »
    state = build(3, [(RED, "g2^ h2 h1"), (GREEN, "g1^ h1 h2"), (RED, "h1^ g1 g2")], chief=17)
    assert seen(state, 19) == [(1, "h1", RED), (2, "h1", GREEN), (3, "h1", RED), (4, "h1", RED)]
    after, events = GAME.apply(state, ("move", 2))  # C = 17, D = 19, past the corner 18
    assert after.chief == 19
    assert penalty_events(events) == {RED: 8, GREEN: 2}
    assert after.penalties == [8, 0, 2]


def test_corner_example_bottom_right_quarter_blue_3_green_1_red_1():
    # « Le chef se trouve sur la case en bas à droite. Il regarde le quartier inférieur droit :
    #   Le joueur bleu reçoit 3 points de pénalité, et les joueurs vert et rouge 1 point. »
    state = build(3, [
        (BLUE, "h1^ g1 g2"),  # three blue squares on top
        (GREEN, "f2^ f1 e1"), (N, "e2^ e1 f1"),  # green shows only f2 from above
        (RED, "h4^ h3 g3"), (N, "g4^ g3 h3"),  # red shows only h4 from above
    ], chief=16)
    tops = sorted((cell_name(sq.cell), sq.owner) for sq in side_view(state, 18))
    assert tops == sorted([("h1", BLUE), ("g1", BLUE), ("g2", BLUE), ("f2", GREEN), ("f1", -1),
                           ("e1", -1), ("e2", -1), ("h4", RED), ("h3", -1), ("g3", -1), ("g4", -1)])
    after, events = GAME.apply(state, ("move", 2))
    assert after.chief == 18
    assert penalty_events(events) == {BLUE: 3, GREEN: 1, RED: 1}
