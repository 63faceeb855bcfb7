"""Seed §6.1, §6.2, §6.5, §7.1 and §8: tiles, castles, figures, regions and closing."""

from __future__ import annotations

import pytest

from lanterne.engines.core import DEAL, IllegalAction, NotationError
from lanterne.engines.pandoria import GAME
from lanterne.engines.pandoria.board import KIND, LAND, LAKES, NEIGHBOURS, NHEX, STEP, hex_name, region_of
from lanterne.engines.pandoria.data import CITY, FOREST, HILL, MOUNTAIN
from lanterne.engines.pandoria.rules import CASTLE, double_positions, single_positions

from .positions import H, bare, closable, cover, figure, give_tile, play

RED, BLUE = 0, 1


def test_tile_touches_a_placed_tile():
    # « Placez la tuile double ou une des deux tuiles château de votre main sur le plateau, de
    #   façon à ce qu'elle touche au moins d'un côté une tuile déjà placée. »
    st = bare(2)
    give_tile(st, RED, (FOREST, 1, HILL, 2))
    covered = {h for h in range(NHEX) if st.terrain[h] >= 0 and KIND[h] == 3}
    for h, d in double_positions(st):
        assert any(n in covered for n in NEIGHBOURS[h] + NEIGHBOURS[STEP[h][d]])
    with pytest.raises(IllegalAction, match="does not fit at c8"):
        play(st, "tile F1H2 c8 E")
    st, _ = play(st, "tile F1H2 i4 E")
    assert (st.terrain[H("i4")], st.symbols[H("i4")], st.terrain[H("j4")], st.symbols[H("j4")]) == (FOREST, 1, HILL, 2)


def test_double_tile_in_six_rotations():
    # The two halves differ, so the tile turns 6 ways: the second half in each direction.
    st = bare(2)
    assert {d for _, d in double_positions(st)} == set(range(6))
    give_tile(st, RED, (FOREST, 1, HILL, 2))
    east, _ = play(st, "tile F1H2 i4 E")
    west, _ = play(st, "tile F1H2 j4 W")
    assert east.terrain[H("i4")] == FOREST and west.terrain[H("i4")] == HILL


def test_printed_space_becomes_an_anchor_once_a_tile_touches_it():
    # « Dès qu'une tuile est posée adjacente à une région pré-imprimée, vous pouvez poser des
    #   tuiles adjacentes à cette région. »
    st = bare(2)
    assert H("c2") not in single_positions(st)  # c2 touches only the printed mountain c3
    cover(st, "d3", FOREST)
    assert H("c2") in single_positions(st)


@pytest.mark.parametrize("name,why", [("g4", "start tile"), ("f2", "lake"), ("c3", "printed space"),
                                      ("h4", "start tile")])
def test_nothing_is_covered(name, why):
    # « Aucune autre tuile, château, lac ou région pré-imprimée ne doit être recouverts »
    st = bare(2)
    with pytest.raises(IllegalAction, match=f"castle does not fit at {name}"):
        play(st, f"castle {name}")


def test_tile_stays_inside_the_board():
    # « [...] et la tuile ne doit pas dépasser du plateau. »
    st = bare(2)
    cover(st, "c1", FOREST)
    positions = double_positions(st)
    assert all(KIND[h] == LAND for p in positions for h in p[:1])
    assert (H("b1"), 2) not in positions  # b1 NW would be off the board
    with pytest.raises(NotationError, match="not a hex"):
        play(st, "castle a0")


def test_placing_is_compulsory():
    # « La pose de tuile ou d'un château est obligatoire ! »
    st = bare(2)
    give_tile(st, RED, (FOREST, 1, HILL, 2))
    actions = GAME.legal_actions(st, RED)
    assert ("skip",) not in actions and ("pass",) not in actions
    with pytest.raises(IllegalAction):
        play(st, "skip")
    with pytest.raises(IllegalAction, match="compulsory"):
        play(st, "pass")


def test_house_rule_pass_when_nothing_fits_and_a_round_of_passes_ends_the_game():
    st = bare(2)
    for h in range(NHEX):
        if KIND[h] == LAND and st.terrain[h] < 0:
            st.terrain[h] = CITY
    give_tile(st, RED, (FOREST, 1, HILL, 2))
    assert GAME.legal_actions(st, RED) == [("pass",)]
    st, events = play(st, "pass", "skip", "skip")
    assert st.current == BLUE and not st.tile_placed
    assert GAME.legal_actions(st, BLUE) == [("pass",)]
    st, events = play(st, "pass", "skip", "skip")
    assert GAME.is_over(st)


def test_castle_instead_of_a_tile_and_no_draw_after_it():
    # « Si vous avez joué un château, ne piochez pas de nouvelle tuile double. »
    st = bare(2)
    tile = give_tile(st, RED, (FOREST, 1, HILL, 2))
    st, events = play(st, "castle i4", "skip", "skip")
    assert st.terrain[H("i4")] == CASTLE and st.owner[H("i4")] == RED and st.castles_left[RED] == 1
    assert st.piles["tiles0"] == [tile] and st.current == BLUE


def test_draw_a_secret_tile_after_a_double_tile():
    # « Si vous avez joué une tuile double, piochez une nouvelle tuile double de la pile et gardez-la secrètement. »
    st = bare(2)
    give_tile(st, RED, (FOREST, 1, HILL, 2))
    st, _ = play(st, "tile F1H2 i4 E", "skip")
    st, _ = GAME.apply(st, ("skip",))
    op = GAME.table_op(st)
    assert op.kind == DEAL and op.pile == "tiles" and op.to == RED and len(op.slots) == 1
    st, _ = play(st)
    assert len(st.piles["tiles0"]) == 1 and st.cards.seen[st.piles["tiles0"][0]] == 1 << RED


def test_region_is_adjacent_spaces_of_one_type():
    # « Un ou plusieurs emplacements adjacents du même type forment une « région ». »
    st = bare(2)
    cover(st, "i4", FOREST)
    cover(st, "j4", FOREST)
    cover(st, "h3", HILL)
    assert region_of(st.terrain, H("j4")) == sorted([H("i4"), H("j4")])
    assert region_of(st.terrain, H("h3")) == sorted([H("h3"), H("h4")])  # h4: the start tile's hill


def test_closed_region_lakes_castles_and_edge_bound_it():
    # « Lorsqu'une région est entièrement entourée par d'autres régions, des lacs ou le bord du
    #   plateau, on dit qu'elle est clôturée »
    st = bare(2)
    cover(st, "e2", CITY)      # next to the lake f2
    cover(st, "e1", FOREST)
    cover(st, "f1", HILL)
    cover(st, "d2", FOREST)
    cover(st, "d3", HILL)
    cover(st, "e3", FOREST)
    st.terrain[H("f3")], st.owner[H("f3")] = CASTLE, BLUE
    give_tile(st, RED, (FOREST, 1, HILL, 1))
    assert H("f2") in LAKES
    st2, events = play(st, "castle d1")
    assert ("closed", "city", (H("e2"),)) in events
    # closing the top edge region around it too
    assert st2.closed[H("e2")] == 1


def test_a_one_hex_hole_keeps_a_region_open():
    # FAQ (rules README): any empty neighbouring hex keeps a region open, one-hex holes included.
    st = closable(bare(2))
    cover(st, "h0", HILL)
    cover(st, "i0", HILL)
    cover(st, "h1", HILL)
    cover(st, "g2", FOREST)
    cover(st, "h2", FOREST)
    st.terrain[H("g1")] = -1  # g1: a one-hex hole next to the mountain region, no double tile fits
    assert all(H("g1") not in (h, STEP[h][d]) for h, d in double_positions(st))
    give_tile(st, RED, (FOREST, 1, HILL, 1))
    st2, events = play(st, "castle j0")
    assert not any(e[0] == "closed" and e[1] == "mountain" for e in events)
    st3, events = play(st2, "skip", "skip", "castle g1")
    assert ("closed", "mountain", (H("f0"), H("g0"))) in events


def test_figures_leave_a_closed_region_at_once_except_on_castles_and_ships():
    # « Les pions se trouvant sur des régions complètement clôturées retournent immédiatement
    #   dans la réserve des joueurs concernés [...] Exception : château et bateau. »
    # « Tous les pions qui se trouvent à l'intérieur de cette région sont écartés du plateau dès
    #   la pose de la tuile ou du château qui clôture cette région. »
    st = closable(bare(2))
    figure(st, "f0", BLUE)
    figure(st, "g0", RED, leader=True)
    st.terrain[H("g1")], st.owner[H("g1")] = CASTLE, RED
    figure(st, "g1", BLUE)
    give_tile(st, RED, (FOREST, 1, HILL, 1))
    st, events = GAME.apply(st, GAME.parse_action(st, "tile F1H1 h0 E"))
    assert ("leave", BLUE, H("f0"), False) in events and ("leave", RED, H("g0"), True) in events
    assert st.occupant[H("f0")] == st.occupant[H("g0")] == -1
    assert st.reserve[BLUE] == 6 - 1 and st.leader_home[RED]
    assert st.occupant[H("g1")] == BLUE * 2  # on the castle: stays


def test_figure_on_a_ship_stays_when_its_lake_is_closed_in():
    st = bare(2)
    lake = H("f2")
    for n in ("e2", "f1", "g1", "g2", "g3", "e1"):
        cover(st, n, CITY if n in ("e2", "e1") else FOREST)
    figure(st, "f2", RED)
    give_tile(st, RED, (FOREST, 1, HILL, 1))
    st, events = play(st, "castle f3")
    assert st.occupant[lake] == RED * 2


def test_place_a_figure_on_the_tile_just_placed_or_take_one_back_or_neither():
    # « Vous pouvez placer l'un de vos pions sur l'un des deux emplacements de la tuile double ou
    #   sur le château que vous venez de placer. [...] ou Vous pouvez reprendre un de vos pions du
    #   plateau et le mettre dans votre réserve. [...] Vous pouvez choisir de ne faire aucune de
    #   ces actions. »
    st = bare(2)
    figure(st, "g5", RED)
    figure(st, "h5", BLUE)
    give_tile(st, RED, (FOREST, 1, HILL, 1))
    st, _ = play(st, "tile F1H1 i4 E")
    actions = GAME.legal_actions(st, RED)
    assert sorted(a for a in actions if a[0] == "figure") == [("figure", H("i4"), False), ("figure", H("j4"), False)]
    assert [a for a in actions if a[0] == "take"] == [("take", H("g5"))]
    assert ("skip",) in actions
    with pytest.raises(IllegalAction, match="just placed"):
        play(st, "figure c4")
    took, events = play(st, "take g5")
    assert took.reserve[RED] == 6 and ("take", RED, H("g5"), False) in events
    with pytest.raises(IllegalAction, match="no figure of seat 1"):
        play(st, "take h5")
    placed, _ = play(st, "figure j4")
    assert placed.occupant[H("j4")] == 0 and placed.phase == "card"


def test_figure_on_the_castle_just_placed():
    st = bare(2)
    st, _ = play(st, "castle i4")
    assert ("figure", H("i4"), False) in GAME.legal_actions(st, RED)


def test_one_figure_per_space():
    # « Chaque emplacement peut être occupé par un pion au maximum. »
    st = bare(2)
    give_tile(st, RED, (FOREST, 1, HILL, 1))
    st, _ = play(st, "tile F1H1 i4 E")
    st.occupant[H("i4")] = BLUE * 2
    assert ("figure", H("i4"), False) not in GAME.legal_actions(st, RED)
    with pytest.raises(IllegalAction, match="occupied"):
        play(st, "figure i4")


def test_figures_only_in_regions_not_closed():
    # « Les pions peuvent être placés uniquement sur les emplacements des régions qui ne sont pas clôturées. »
    st = closable(bare(2))
    cover(st, "i0", CITY)
    give_tile(st, RED, (MOUNTAIN, 1, CITY, 1))
    st, events = play(st, "tile M1C1 h0 SE")  # h0 joins the mountain region and closes it
    assert st.closed[H("h0")]
    assert ("figure", H("h0"), False) not in GAME.legal_actions(st, RED)
    with pytest.raises(IllegalAction, match="closed region"):
        play(st, "figure h0")


def test_leader_placed_only_after_all_other_figures():
    # « Il peut être joué seulement lorsque tous les autres pions du joueur sont déjà placés. »
    st = bare(2)
    give_tile(st, RED, (FOREST, 1, HILL, 1))
    st, _ = play(st, "tile F1H1 i4 E")
    assert ("figure", H("i4"), True) not in GAME.legal_actions(st, RED)
    with pytest.raises(IllegalAction, match="leader comes out only after"):
        play(st, "leader i4")
    st.reserve[RED] = 0
    assert GAME.legal_actions(st, RED)[:2] == [("figure", H("i4"), True), ("figure", H("j4"), True)]


def test_path_region_never_closes_and_its_figures_stay():
    # « Si une région est reliée à une région dont sort un sentier de même type, elle ne sera
    #   jamais clôturée et décomptée. Cela signifie que les pions présents dans cette région ne
    #   seront jamais écartés et seront repris par le joueur à l'aide d'une action ou d'un sortilège. »
    # House data (paths reading A): a mountain path leaves the board at b1.
    st = bare(2)
    cover(st, "c0", MOUNTAIN, 2)
    cover(st, "d0", MOUNTAIN, 1)
    cover(st, "b1", FOREST)
    cover(st, "c1", HILL)
    cover(st, "d1", CITY)
    figure(st, "c0", BLUE)
    st, events = play(st, "castle e0")
    assert not any(e[0] in ("closed", "leave") for e in events)
    assert st.occupant[H("c0")] == BLUE * 2
    # the same region without the path would close:
    st2 = bare(2)
    cover(st2, "d0", MOUNTAIN)
    cover(st2, "c0", CITY)
    cover(st2, "c1", HILL)
    cover(st2, "d1", CITY)
    st2, events = play(st2, "castle e0")
    assert ("closed", "mountain", (H("d0"),)) in events
    # and the blue figure is taken back by an action
    st.current = BLUE
    st.phase = "figure"
    st.placed = []
    st, events = play(st, "take c0")
    assert st.reserve[BLUE] == 6


def test_hex_names():
    assert hex_name(H("k9")) == "k9" and H("c3") == 3 * 14 + 2


def test_the_leader_can_be_taken_back():
    # FAQ: when you take back a figure, you may take back the leader.
    st = bare(2)
    figure(st, "g5", RED, leader=True)
    st, _ = play(st, "castle i4")
    assert ("take", H("g5")) in GAME.legal_actions(st, RED)
    st, events = play(st, "take g5")
    assert st.leader_home[RED] and ("take", RED, H("g5"), True) in events
