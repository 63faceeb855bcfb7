"""Seed §9-§13: the end, final points and ties, the peoples' abilities, the team game."""

from __future__ import annotations

import pytest

from lanterne.engines.core import TABLE
from lanterne.engines.pandoria import GAME
from lanterne.engines.pandoria import data as D
from lanterne.engines.pandoria.data import CITY, FOREST, HILL, MOUNTAIN
from lanterne.engines.core import IllegalAction
from lanterne.engines.pandoria.board import EMPTY, KIND, LAKE, LAND, NEIGHBOURS, hex_name, is_enclosed
from lanterne.engines.pandoria.rules import CASTLE, close_regions, finish

from .positions import H, at_phase, bare, card_id, cover, figure, give_card, give_tile, play, scripted, set_building
from .positions import crystal_region

HUMANS, DWARVES, ELVES, MAGES, HALFLINGS = range(5)


def test_end_when_a_tile_cannot_be_drawn_finishing_the_round():
    # « Lorsqu'un joueur ne peut plus tirer de tuile double car il n'y en a plus de disponible, les
    #   joueurs finissent le tour jusqu'au joueur situé à droite du premier joueur et la partie prend fin. »
    st = bare(3, seat=1)
    st.piles["aside"] += st.piles["tiles"]
    st.piles["tiles"] = []
    give_tile(st, 1, (FOREST, 1, HILL, 1))
    st, events = play(st, "tile F1H1 i4 E", "skip", "skip")
    assert ("ending", 1) in events and not GAME.is_over(st) and st.current == 2
    st, events = play(st, "castle k4", "skip", "skip")
    assert GAME.is_over(st) and ("over",) in events


def test_the_last_seat_of_the_round_ends_the_game_at_once():
    st = bare(3, seat=2)
    st.piles["aside"] += st.piles["tiles"]
    st.piles["tiles"] = []
    give_tile(st, 2, (FOREST, 1, HILL, 1))
    st, _ = play(st, "tile F1H1 i4 E", "skip", "skip")
    assert GAME.is_over(st) and st.turn == 1


def test_final_points_cards_in_hand_and_resources_by_three_or_two():
    # « En fin de partie, chaque joueur reçoit encore 1 point pour chaque carte de sa main et 1 point
    #   pour 3 ressources restantes du même type (arrondi à l'inférieur). Un joueur possédant un
    #   bâtiment encore visible avec un meilleur ratio d'échange (Vault, Lumberyard, Repository) l'utilise. »
    st = bare(2)
    give_card(st, 0, card_id("Clone", "Statue"))
    give_card(st, 0, card_id("Muster", "Lumberyard"))
    st.resources[0] = [8, 5, 2]   # wood 2, gold 1, crystal 0 -> 3 points, 2+2+2 left
    st.resources[1] = [5, 5, 5]
    set_building(st, 1, 0, card_id("Teleport", "Vault"))  # gold at 2 : 1
    events = []
    finish(st, events)
    assert ("score", 0, 2, "cards in hand") in events
    assert st.points == [2 + 2 + 1 + 0, 1 + 2 + 1]
    assert st.leftover == [2 + 2 + 2, 2 + 1 + 2]


def test_tie_goes_to_the_most_resources():
    # « En cas d'égalité, le joueur avec le plus grand nombre de ressources l'emporte. »
    st = bare(2)
    st.resources = [[2, 2, 1], [1, 1, 1]]
    st.points = [10, 10]
    finish(st, [])
    assert GAME.scores(st) == [10, 10] and GAME.winners(st) == [0]
    st.leftover = [3, 3]
    assert GAME.winners(st) == [0, 1]


def test_scores_during_the_game_are_the_points_so_far():
    st = crystal_region(red_crystals=10)
    st, events = play(st, "tile F1H1 h0 E", "skip", "skip")
    assert GAME.scores(st) == [3, 0]


# -- peoples, side B


def test_humans_place_the_leader_at_any_time():
    # « Capacité : le leader peut être placé n'importe quand, pas seulement en tant que dernier pion. »
    st = bare(2, peoples=(HUMANS, DWARVES), variant="classic")
    st, _ = play(st, "castle i4")
    assert ("figure", H("i4"), True) in GAME.legal_actions(st, 0)
    side_a = bare(2, peoples=(HUMANS, DWARVES))
    side_a, _ = play(side_a, "castle i4")
    assert ("figure", H("i4"), True) not in GAME.legal_actions(side_a, 0)


def test_dwarves_always_hold_two_double_tiles():
    # « Capacité : vous avez toujours deux tuiles doubles en main au lieu d'une seule. »
    st = scripted(2, "classic", (DWARVES, HUMANS))
    assert [len(st.piles["tiles0"]), len(st.piles["tiles1"])] == [2, 1]
    face = D.DOUBLE_TILES[st.cards.ids[st.piles["tiles0"][0]] - D.TILE_BASE]
    action = next(a for a in GAME.legal_actions(st, 0) if a[0] == "tile" and a[1] == st.piles["tiles0"][0])
    st, _ = GAME.apply(st, action)
    st, _ = play(st, "skip", "skip")
    assert len(st.piles["tiles0"]) == 2 and face


def test_elves_move_a_figure_one_or_two_spaces_at_the_end_of_the_turn():
    # « A la fin de votre tour, vous pouvez déplacer l'un de vos pions (sauf le leader) d'un ou deux
    #   emplacements à condition qu'il arrive sur un emplacement non occupé et non clôturé du plateau.
    #   Les châteaux adverses et les bateaux ne peuvent être ni occupés ni traversés. Cependant, vous
    #   pouvez traverser des emplacements occupés ou clôturés. »
    st = bare(2, peoples=(ELVES, HUMANS), variant="classic")
    cover(st, "i4", FOREST)
    cover(st, "j4", HILL)
    cover(st, "k4", CITY)
    cover(st, "i5", MOUNTAIN)
    figure(st, "i4", 0)
    figure(st, "j4", 1)               # occupied: crossed, not entered
    figure(st, "f4", 0, leader=True)  # the leader never moves
    st.closed[H("i5")] = 1            # closed: crossed, not entered
    st.terrain[H("h3")], st.owner[H("h3")] = CASTLE, 1  # an opponent's castle: neither
    st = at_phase(st, "elf", 0)
    moves = {(a[1], a[2]) for a in GAME.legal_actions(st, 0) if a[0] == "move"}
    assert (H("i4"), H("k4")) in moves          # two spaces, across the occupied j4
    assert (H("i4"), H("h5")) in moves          # one space
    assert (H("i4"), H("j4")) not in moves and (H("i4"), H("i5")) not in moves
    assert (H("i4"), H("h3")) not in moves
    assert all(src != H("f4") for src, _ in moves)
    st, events = play(st, "move i4 k4")
    assert st.occupant[H("k4")] == 0 and st.current == 1


def test_elves_never_move_onto_an_enclosed_own_castle():
    # Rules README: « The Elves' move ends on a space that is free and *not enclosed* (seed §11):
    #   an own castle whose neighbours are all covered is enclosed, so no Elf may move onto it. »
    st = bare(2, peoples=(ELVES, HUMANS), variant="classic")
    castle = H("j4")
    st.terrain[castle], st.owner[castle] = CASTLE, 0
    cover(st, "i4", FOREST)
    figure(st, "i4", 0)
    st = at_phase(st, "elf", 0)
    assert ("move", H("i4"), castle) in GAME.legal_actions(st, 0)     # open: an empty hex touches it
    for n in NEIGHBOURS[castle]:
        if st.terrain[n] == EMPTY and KIND[n] != LAKE:
            cover(st, hex_name(n), HILL)
    assert is_enclosed(st.terrain, castle)
    assert ("move", H("i4"), castle) not in GAME.legal_actions(st, 0)
    with pytest.raises(IllegalAction, match="not enclosed"):
        GAME.apply(st, ("move", H("i4"), castle))


def test_a_figure_on_an_enclosed_castle_stays():
    # Rules README: « Castles and ships get enclosed like regions (seed §6.1: their figures stay). »
    st = bare(2)
    castle = H("j4")
    st.terrain[castle], st.owner[castle] = CASTLE, 0
    figure(st, "j4", 0)
    holes = [n for n in NEIGHBOURS[castle] if st.terrain[n] == EMPTY and KIND[n] == LAND]
    for n in holes[1:]:
        cover(st, hex_name(n), HILL)
    st.terrain[holes[0]] = CITY   # the last hole is covered: the castle is enclosed
    close_regions(st, [holes[0]], [])
    assert is_enclosed(st.terrain, castle) and st.occupant[castle] == 0


def test_elves_have_their_move_phase_after_drawing():
    st = bare(2, peoples=(ELVES, HUMANS), variant="classic")
    figure(st, "g4", 0)
    give_tile(st, 0, (FOREST, 1, HILL, 1))
    st, _ = play(st, "tile F1H1 i4 E", "skip", "skip")
    assert st.phase == "elf" and st.current == 0 and len(st.piles["tiles0"]) == 1


def test_mages_buy_a_card_every_turn():
    # « Capacité : vous pouvez acheter une carte à chaque tour, même s'il n'y a pas eu de décompte. »
    st = bare(2, peoples=(MAGES, HUMANS), variant="classic")
    st.resources[0][D.GOLD] = 5
    st, _ = play(st, "castle i4", "skip", "skip")
    assert st.phase == "buy" and st.current == 0
    st, _ = play(st, "skip")
    st.resources[1][D.GOLD] = 5
    st, _ = play(st, "castle i5", "skip", "skip")
    assert st.current == 0  # the Humans had no scoring: no buy


def test_halflings_play_one_more_spell_after_a_building():
    # « Capacité : Après avoir construit un bâtiment ou un monument, vous pouvez jouer un sortilège en plus. »
    st = bare(2, peoples=(HALFLINGS, HUMANS), variant="classic")
    st.phase = "card"
    st.resources[0] = [10, 0, 10]
    give_card(st, 0, card_id("Clone", "Statue"))
    give_card(st, 0, card_id("Muster", "Lumberyard"))
    st, _ = play(st, "build Clone/Statue 1")
    kinds = {a[0] for a in GAME.legal_actions(st, 0)}
    assert kinds == {"spell", "skip"}
    st, _ = play(st, "spell Muster/Lumberyard figure g4")
    assert st.current == 1


def test_beginner_side_has_no_abilities():
    # « Utilisez le côté « A » du plateau peuple. Les peuples n'ont pas de capacité spéciale »
    st = scripted(2, "beginner", (DWARVES, MAGES))
    assert len(st.piles["tiles0"]) == 1
    st = bare(2, peoples=(MAGES, ELVES))
    st.resources[0][D.GOLD] = 5
    st, _ = play(st, "castle i4", "skip", "skip")
    assert st.current == 1


# -- the team game


def test_team_game_partners_opposite_share_their_score():
    # « Chaque joueur joue pour lui comme à l'ordinaire et l'on ajoute les points du joueur assis en
    #   face : les deux jetons couronne des joueurs sont empilés et avancent ensemble »
    st = bare(4, variant="team")
    st.points = [3, 1, 4, 1]
    assert GAME.scores(st) == [7, 2, 7, 2]
    finish(st, [])
    assert GAME.winners(st) == [0, 2]


def test_team_game_plays_like_the_classic_game():
    st = scripted(4, "team", (DWARVES, HUMANS, ELVES, MAGES))
    assert len(st.piles["tiles0"]) == 2 and [len(st.piles[f"hand{s}"]) for s in range(4)] == [4] * 4
    assert GAME.next_actor(st) != TABLE


@pytest.mark.parametrize("variant", ["classic", "beginner", "team"])
def test_selfplay_command_runs(variant, capsys):
    from lanterne.client.cli import main
    assert main(["selfplay", "pandoria", "--players", "4", "--variant", variant, "--games", "1", "--seed", "3"]) == 0
    assert "games/s" in capsys.readouterr().out


def test_dwarves_who_cannot_draw_back_to_two_start_the_end():
    st = bare(2, peoples=(DWARVES, HUMANS), variant="classic")
    give_tile(st, 0, (FOREST, 1, HILL, 1))
    give_tile(st, 0, (FOREST, 1, CITY, 1))
    st.piles["aside"] += st.piles["tiles"]
    st.piles["tiles"] = []
    st, events = play(st, "tile F1H1 i4 E", "skip", "skip")
    assert ("ending", 0) in events and len(st.piles["tiles0"]) == 1
    assert not GAME.is_over(st) and st.current == 1
