"""The board (house data) and the setup rules of the seed."""

import pytest

from lanterne.engines.core import ROLL, TABLE, RulesError
from lanterne.engines.pacal import GAME, data
from lanterne.engines.pacal.board import (CELLS, DISTRICT_OF_CELL, LAKE, LAKE_SCORING, RIVER_SCORING, SACRED_CELLS,
                                 board_for, cell_name, parse_cell)
from tests.engines.pacal.helpers import c, started


def test_house_board_tiles_the_13x13_grid_with_16_districts_and_the_lake():
    # "il représente la cité de Palenque, avec 16 quartiers ayant différentes valeurs, une rivière et un lac"
    assert len(data.DISTRICTS) == 16
    assert len(DISTRICT_OF_CELL) + len(LAKE) == CELLS == 169
    assert not set(DISTRICT_OF_CELL) & LAKE
    sizes = {d: sum(1 for x in DISTRICT_OF_CELL.values() if x == d) for d in data.DISTRICTS}
    assert sizes == {"A": 12, "B": 9, "C": 9, "D": 12, "E": 16, "F": 6, "G": 6, "H": 15, "I": 8, "S": 9,
                     "J": 11, "K": 12, "L": 12, "M": 8, "N": 8, "O": 12}
    assert sum(v for v, _ in data.DISTRICTS.values()) == 70


def test_the_sacred_district_is_the_central_3x3_worth_7():
    # "le quartier sacré (celui qui contient le chiffre 7, au centre du plateau de jeu)"
    assert data.DISTRICTS[data.SACRED][0] == 7
    assert SACRED_CELLS == {c(f"{col}{row}") for col in "fgh" for row in (6, 7, 8)}


def test_river_and_lake_scoring_cells():
    assert len(RIVER_SCORING) == 16 and len(LAKE_SCORING) == 8
    assert RIVER_SCORING & LAKE_SCORING == {c("c6"), c("d6")}
    for cell in LAKE_SCORING:
        r, col = divmod(cell, 13)
        assert any(abs(r - lr) + abs(col - lc) == 1 for lr, lc in data.LAKE)


@pytest.mark.parametrize("players,covered,in_play", [(5, set(), 16), (4, {"D"}, 15), (3, {"D", "H"}, 14),
                                                      (2, {"D", "H", "N", "O"}, 12)])
def test_cover_pieces_by_player_count(players, covered, in_play):
    # "S'il y a deux joueurs, place les pièces de recouvrement marquées 2 et 2/3 ... trois joueurs ... 2/3
    #  ... quatre joueurs ... 4"
    board = board_for(players)
    assert board.covered_districts == covered
    assert len(board.districts) == in_play
    for cell, d in DISTRICT_OF_CELL.items():
        assert board.playable[cell] == (d not in covered)
        assert board.covered[cell] == (d in covered)
    # no river or lake scoring cell is ever covered
    assert all(board.playable[x] for x in RIVER_SCORING | LAKE_SCORING)


def test_cell_names():
    assert cell_name(0) == "a1" and cell_name(168) == "m13"
    assert all(parse_cell(cell_name(x)) == x for x in range(CELLS))
    assert parse_cell("n1") is None and parse_cell("a14") is None and parse_cell("a0") is None
    assert parse_cell("z") is None and parse_cell("aa") is None


def test_setup_starts_with_the_first_player_roll():
    # convention: TableOp(ROLL, faces=players, why="first player")
    for players in range(2, 6):
        s = GAME.setup(players=players)
        assert GAME.next_actor(s) == TABLE
        op = GAME.table_op(s)
        assert (op.kind, op.faces, op.why) == (ROLL, players, "first player")


def test_each_player_gets_stones_pyramids_and_energy():
    # "toutes les pierres divines et les pyramides; 1 vaisseau spatial; 3 pièces d'énergie : une de 2, une de 4
    #  et une de 6 points"; "Chaque joueur place une de ses pierres divines sur la case 0"
    s = GAME.setup(players=4)
    assert data.STONES_PER_COLOUR == 11 and s.stone_supply == [10] * 4  # 11 stones, one marks the score
    assert s.pyramid_supply == [[1, 3, 3, 2, 2]] * 4 and sum(data.PYRAMIDS.values()) == 11
    assert s.energy == [[2, 4, 6]] * 4
    assert s.score == [0] * 4


def test_ships_start_in_the_sacred_district_first_player_first_then_clockwise():
    # "Le joueur qui commence place son vaisseau spatial sur la case de son choix dans le quartier sacré ...,
    #  chaque joueur fait ensuite de même sur une case libre du quartier sacré."
    s, _ = GAME.apply(GAME.setup(players=3), ("roll", 1))
    assert GAME.next_actor(s) == 1
    assert {a[1] for a in GAME.legal_actions(s, 1)} == SACRED_CELLS
    assert GAME.legal_actions(s, 0) == []
    s, _ = GAME.apply(s, ("place", c("g7")))
    assert GAME.next_actor(s) == 2
    assert c("g7") not in {a[1] for a in GAME.legal_actions(s, 2)}
    with pytest.raises(RulesError, match="already has a ship"):
        GAME.apply(s, ("place", c("g7")))
    with pytest.raises(RulesError, match="not in the sacred district"):
        GAME.apply(s, ("place", c("a1")))
    s, _ = GAME.apply(s, ("place", c("f6")))
    s, _ = GAME.apply(s, ("place", c("h8")))
    # then the first player rolls the die for round 1
    assert GAME.next_actor(s) == TABLE and GAME.table_op(s).faces == 6 and s.round == 1 and s.current == 1


def test_options_are_checked():
    with pytest.raises(RulesError):
        GAME.setup(players=6)
    with pytest.raises(RulesError):
        GAME.setup(players=3, variant="beginner")
    with pytest.raises(RulesError, match="no option"):
        GAME.setup(players=3, colour="red")


def test_die_faces_house_data():
    assert data.DIE_FACES == (2, 3, 3, 4, 5, data.ARROWS)
    s = started(3)
    for value, face in enumerate(data.DIE_FACES):
        after, events = GAME.apply(s, ("roll", value))
        assert after.face == face and ("roll", 0, face) in events


def test_the_board_as_text():
    from tests.engines.pacal.picture import cell_text, picture
    from tests.engines.pacal.helpers import position

    s = position(3, ships={0: "e11", 1: "h11"}, stones={0: ["e11", "c3"], 2: ["c3"]}, pyramids={"f10": (1, 3)})
    assert cell_text(s, c("e11")) == "S1*" and cell_text(s, c("h11")) == "S2"
    assert cell_text(s, c("f10")) == "P2:3" and cell_text(s, c("c3")) == "13"
    assert cell_text(s, c("c4")) == "~~" and cell_text(s, c("m1")) == "##" and cell_text(s, c("g7")) == "s"
    text = picture(s)
    lines = text.splitlines()
    assert len(lines) == 14 and lines[0].split() == list("abcdefghijklm")
    assert lines[11].startswith("11") and "S1*" in lines[11] and "P2:3" in lines[10]
