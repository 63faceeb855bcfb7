"""One test per rule sentence of the rulebook (quoted in French), standard rules."""

import pytest

from lanterne.engines.core import ROLL, TABLE, IllegalAction, RulesError
from lanterne.engines.pueblo import GAME
from lanterne.engines.pueblo.data import START_SPACE
from lanterne.engines.pueblo.board import TEMPLATES, parse_cell
from lanterne.engines.pueblo.notation import parse_action
from lanterne.engines.pueblo.view import chief_options

from tests.engines.pueblo.pueblo_build import build


def started(players=2, first=0, variant="standard"):
    state = GAME.setup(players=players, variant=variant)
    return GAME.apply(state, ("roll", first))[0]


def play(state, *texts):
    events = []
    for text in texts:
        state, ev = GAME.apply(state, GAME.parse_action(state, text))
        events += ev
    return state, events


@pytest.mark.parametrize("players, coloured, neutral", [(2, 8, 7), (3, 6, 5), (4, 5, 4)])
def test_stones_per_player_count(players, coloured, neutral):
    # « Selon le nombre de joueurs, chacun reçoit les pierres suivantes » (2: 8 + 7, 3: 6 + 5, 4: 5 + 4)
    state = GAME.setup(players=players)
    assert state.coloured == [coloured] * players
    assert state.neutral == [neutral] * players
    # « Un bloc est toujours composé de 2 pierres : une de couleur et une neutre. Une pierre de couleur reste seule. »
    assert all(state.lone) and coloured - 1 == neutral


def test_chieftain_starts_on_a_corner():
    # « Placer le chef sur une des cases de coin de parcours. » (house data: the north-west corner)
    assert GAME.setup(players=3).chief == START_SPACE == 0


def test_first_player_by_the_table_roll_then_clockwise():
    # « Le plus jeune joueur commence. Puis la partie se poursuit dans le sens des aiguilles d'une montre. »
    state = GAME.setup(players=4)
    assert GAME.next_actor(state) == TABLE
    op = GAME.table_op(state)
    assert (op.kind, op.faces, op.why) == (ROLL, 4, "first player")
    state, events = GAME.apply(state, ("roll", 2))
    assert ("first", 2) in events
    seats = []
    for _ in range(4):
        seats.append(GAME.next_actor(state))
        state, _ = GAME.apply(state, GAME.legal_actions(state, seats[-1])[0])
        state, _ = GAME.apply(state, ("move", 1))
    assert seats == [2, 3, 0, 1]


def test_a_turn_is_place_then_move():
    # « un joueur doit effectuer les deux actions suivantes l'une après l'autre :
    #   1) Poser une pierre ... 2) Déplacer le chef de 1 à 4 cases et attribuer les points de pénalité. »
    state = started()
    with pytest.raises(IllegalAction, match="stone must be placed"):
        GAME.apply(state, ("move", 1))
    state, _ = play(state, "C d4^ e4 e3")
    assert GAME.legal_actions(state, 0) == [("move", n) for n in (1, 2, 3, 4)]
    with pytest.raises(IllegalAction, match="chieftain must be moved"):
        play(state, "N a1^ b1 b2")
    state, _ = play(state, "m1")
    assert GAME.next_actor(state) == 1


def test_a_stone_anywhere_inside_the_8x8_area():
    # « Une pierre peut être posée n'importe où à l'intérieur de l'aire de jeu de 8 x 8 cases. »
    state = started()
    places = GAME.legal_actions(state, 0)
    assert len(places) == 4 * 49  # the 4 flat-bottom poses at all 49 boxes
    covered = set()
    for a in places:
        t = next(t for t in TEMPLATES if (t.orient, t.x, t.y) == a[2:])
        covered |= set(t.cells)
    assert covered == set(range(64))
    with pytest.raises(IllegalAction, match="no such orientation"):
        GAME.apply(state, ("place", "C", 0, 7, 0))


def test_different_colours_may_touch():
    # « Des pierres de couleur différentes peuvent se toucher. »
    state = build(2, [(0, "b1^ a1 a2")], phase="place", seat=1)
    state.lone[1] = False
    state, _ = play(state, "C d1^ c1 c2")  # c1, c2 touch red a1, b1
    assert state.stones[-1][0] == 1


def test_one_stone_from_the_reserve_each_turn():
    # « Un joueur doit poser une pierre de sa réserve par tour. »
    state = started()
    before = state.stones_left(0)
    state, _ = play(state, "C d4^ e4 e3", "m1")
    assert state.stones_left(0) == before - 1
    assert ("pass",) not in GAME.legal_actions(state, 1)
    with pytest.raises(IllegalAction):
        GAME.apply(state, ("pass",))


def test_the_lone_coloured_stone_first():
    # « La pierre de couleur qui se trouve seule en début de partie doit être posée en premier. »
    state = started()
    assert {a[1] for a in GAME.legal_actions(state, 0)} == {"C"}
    with pytest.raises(IllegalAction, match="lone coloured stone"):
        play(state, "N d4^ e4 e3")


def test_a_block_begun_is_finished_next_turn_with_the_other_half():
    # « A chaque fois qu'il entame un nouveau bloc, le joueur décide s'il pose d'abord la pierre de
    #   couleur ou la pierre neutre. Au tour suivant, il devra poser la seconde pierre avant de
    #   pouvoir entamer un nouveau bloc »
    state = started()
    state, _ = play(state, "C d4^ e4 e3", "m1", "C a7^ a8 b8", "m1")
    assert {a[1] for a in GAME.legal_actions(state, 0)} == {"C", "N"}  # new block: free choice
    state, _ = play(state, "N b1^ a1 a2", "m1", "C h8^ h7 g7", "m1")
    assert {a[1] for a in GAME.legal_actions(state, 0)} == {"C"}  # the block's other half
    with pytest.raises(IllegalAction, match="begun block must be finished"):
        play(state, "N g1^ f1 f2")
    state, _ = play(state, "C h2^ h1 g1", "m1", "N a5^ a6 b6", "m1")
    assert {a[1] for a in GAME.legal_actions(state, 0)} == {"C", "N"}


def test_stones_at_any_level_in_any_of_the_12_orientations():
    # « Les pierres peuvent donc être posées à n'importe quel niveau et dans n'importe quelle position »
    # « Une pierre peut être tournée dans n'importe quel sens. »
    state = build(2, [(0, "b1^ a1 a2"), ("N", "b2^ a2 a1")], phase="place")  # a 2x2x2 cube at a1
    state.lone[0] = False
    on_cube = [a for a in GAME.legal_actions(state, 0) if GAME.apply(state, a)[1][0][6] == 2]
    assert on_cube  # level 3 and up
    orientations, state = set(), started()
    for _ in range(40):  # a fixed line of play: every one of the 12 poses becomes playable
        acts = GAME.legal_actions(state, GAME.next_actor(state))
        orientations |= {a[2] for a in acts if a[0] == "place"}
        state, _ = GAME.apply(state, acts[(7 * len(acts)) // 11])
    assert orientations == set(range(12))


def test_all_three_squares_of_the_underside_must_rest():
    # « Les 3 "carrés" qui composent la face d'une pierre doivent tous reposer sur le plateau et/ou
    #   sur d'autres pierres. »
    state = build(2, [(0, "b1^ a1 a2")], phase="place", seat=1)
    state.lone[1] = False
    with pytest.raises(IllegalAction, match="c1 would hang in the air"):
        play(state, "C b1^ c1 c2")  # flat top needs c1, c2 one higher than b1... b1 is 2, they are 0
    with pytest.raises(IllegalAction, match="hang"):
        play(state, "C c2^ c1 b1")  # flat bottom over b1 (2 high) and c1, c2 (empty)
    # no floating cube anywhere after any legal placement: every column is a gap-free stack
    for a in GAME.legal_actions(state, 1):
        after, _ = GAME.apply(state, a)
        assert all(len(after.stacks[c]) == after.heights[c] for c in range(64))


def test_the_chieftain_moves_1_to_4_spaces_clockwise():
    # « il déplace le chef sur son parcours de 1, 2, 3 ou 4 cases, dans le sens des aiguilles d'une montre »
    state = build(2, chief=34)
    for bad in (0, 5, -1):
        with pytest.raises(IllegalAction, match="1 to 4"):
            GAME.apply(state, ("move", bad))
    assert GAME.apply(state, ("move", 3))[0].chief == 1  # past the north-west corner, space 0


def test_the_chieftain_sees_the_whole_line_whatever_the_distance():
    # « Le chef regarde toujours vers la rangée de pueblo directement devant lui. Tous les joueurs dont
    #   les pierres sont visibles reçoivent des points de pénalité, peu importe à combien de cases de
    #   distance et à quel niveau elles se trouvent. »
    state = build(2, [(1, "b1^ a1 a2")], chief=15)  # east side, row 1 is space 17: a1 is 8 cells away
    after, events = GAME.apply(state, ("move", 2))
    assert [e for e in events if e[0] == "score"] == [("score", 1, -3, "east of row 1")]  # a1 level 1 + b1 level 2


def test_a_visible_square_costs_its_level():
    # « Un carré visible au premier niveau coûte 1 point de pénalité au joueur, au deuxième niveau
    #   2 points, au troisième 3 points... »
    state = build(2, [("N", "b1^ a1 a2"), ("N", "b2^ a2 a1"), (0, "a1^ a2 b2")], chief=27)
    # west of row 1: a1 neutral 1, neutral 2, red 3 and red 4 (a1 is the red stone's two-cube column)
    assert [o.penalties for o in chief_options(state)][0] == (7, 0)


def test_a_corner_scores_the_quarter_from_above_one_point_per_square():
    # « Si le chef s'arrête sur un coin, il regarde alors le quartier correspondant du dessus. Tous les
    #   joueurs qui possèdent des pierres visibles du dessus reçoivent 1 point de pénalité par carré. »
    state = build(2, [("N", "b1^ a1 a2"), ("N", "b2^ a2 a1"), (0, "a1^ a2 b2"), (1, "g7^ g8 h8")], chief=26)
    after, events = GAME.apply(state, ("move", 1))  # SW corner: red tops a1, a2, b2 (levels 3-4) = 3
    assert [e for e in events if e[0] == "score"] == [("score", 0, -3, "SW corner")]
    assert chief_options(build(2, [(1, "g7^ g8 h8")], chief=8))[0].penalties == (0, 3)  # NE corner


def test_nothing_happens_when_no_coloured_stone_is_seen():
    # « Si de la case où il est arrivé, le chef ne voit aucune pierre de couleur, il ne se passe rien
    #   et c'est au tour du joueur suivant. »
    state = build(2, [("N", "b1^ a1 a2"), (0, "g7^ g8 h8")], chief=27)
    after, events = GAME.apply(state, ("move", 1))
    assert not [e for e in events if e[0] == "score"]
    assert GAME.next_actor(after) == 1 and after.phase == "place"


def test_penalties_past_99_are_kept_exactly():
    # « Si un joueur dépasse 99 points de pénalité au cours de la partie, il repart de 0 et ajoutera
    #   100 à la fin. » (the wrap is only the score board; Lanterne keeps the exact total)
    state = build(2, [(1, "b1^ a1 a2")], chief=16, penalties=[0, 98])
    after, _ = GAME.apply(state, ("move", 1))
    assert after.penalties == [0, 101] and GAME.scores(after) == [0, -101]


def last_move_position(players=2, dismantling=False):
    """A full pueblo with one stone left to place (seat 1's), then the final chieftain move."""
    variant = "dismantling" if dismantling else "standard"
    state = started(players, variant=variant)
    while True:
        seat = GAME.next_actor(state)
        if state.phase == "place" and sum(state.stones_left(p) for p in range(players)) == 1:
            return state
        acts = GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, acts[len(acts) // 2])


def test_final_round_scores_all_36_spaces_and_ends_on_the_marker():
    # « Une fois que le dernier joueur a effectué son dernier coup (posé une pierre et déplacé le chef),
    #   le pueblo est terminé. Le chef entame alors son dernier tour et en même temps le décompte final.
    #   La marque blanche est alors placée sur la case sur laquelle il se trouve (= point de départ).
    #   Le chef se déplace alors case par case, dans le sens des aiguilles d'une montre, et contrôle
    #   sur chaque case quelles pierres de couleur il voit. »
    state = last_move_position()
    state, _ = GAME.apply(state, GAME.legal_actions(state, GAME.next_actor(state))[0])
    marker = (state.chief + 2) % 36
    before = state.penalties[:]
    final, events = GAME.apply(state, ("move", 2))
    assert ("final round", marker) in events
    from lanterne.engines.pueblo.board import penalties_at
    walk = [penalties_at(final.heights, final.stacks, final.owners, (marker + k) % 36, 2) for k in range(37)]
    expected = [before[p] + sum(w[p] for w in walk) for p in range(2)]  # the marker space counts twice
    assert final.penalties == expected
    assert final.chief == marker and GAME.is_over(final)


def test_fewest_penalties_wins_and_a_tie_is_shared():
    # « Une fois toutes les pierres posées, le vainqueur est le joueur qui totalise le moins de points
    #   de pénalité. »
    state = build(3, phase="over", penalties=[5, 3, 7])
    assert GAME.winners(state) == [1] and GAME.scores(state) == [-5, -3, -7]
    state = build(3, phase="over", penalties=[4, 9, 4])
    assert GAME.winners(state) == [0, 2]


def test_setup_errors_are_one_line():
    for kwargs in ({"players": 5}, {"players": 2, "variant": "turbo"},
                   {"players": 2, "sacred_sites": 2}, {"players": 2, "colour": 1}):
        with pytest.raises(RulesError) as err:
            GAME.setup(**kwargs)
        assert "\n" not in str(err.value)


def test_cells_are_named_like_a_chess_board():
    assert parse_cell("a1") == 0 and parse_cell("h8") == 63 and parse_cell("i1") is None
    state = started()
    assert parse_action(state, "C b1^ a1 a2") == parse_action(state, "c a2 A1 B1^")


def test_standard_game_has_no_turn_order_cards_and_no_sacred_sites():
    # « Les cartes "Ordre du jeu" et les lieux sacrés restent dans la boîte. Ils ne sont utilisés que
    #   dans la règle avancée. »
    state = started(4)
    assert state.phase == "place" and state.sites == [] and state.held == [0] * 4
    with pytest.raises(RulesError, match="advanced rules"):
        GAME.setup(players=4, sacred_sites=1)


def test_views_offer_the_same_actions_and_events_read_as_sentences():
    state = build(3, [(1, "h1^ g1 g2")], chief=13)
    for seat in range(3):
        assert GAME.legal_actions(GAME.view(state, seat), seat) == GAME.legal_actions(state, seat)
    after, events = GAME.apply(state, ("move", 4))
    text = [GAME.describe_event(e) for e in events]
    assert text == ["red moves the chieftain to east of row 1", "blue +3 penalty (east of row 1)"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_box_holds_enough_stones_and_counters_start_at_0(players):
    # « 27 pierres de couleur (8 bleues, 8 rouges, 6 vertes, 5 violettes) 16 pierres neutres »
    # « Chaque joueur choisit une couleur et place le compteur correspondant sur la case "0" »
    box = {"red": 8, "blue": 8, "green": 6, "purple": 5}
    from lanterne.engines.pueblo.data import COLOURS
    state = GAME.setup(players=players)
    for seat in range(players):
        assert state.coloured[seat] <= box[COLOURS[seat]]
    assert sum(state.neutral) <= 16
    assert state.penalties == [0] * players and GAME.scores(state) == [0] * players
