"""Seed §2, §5 and §12: setting up, one test per rule sentence."""

from __future__ import annotations

import pytest

from lanterne.engines.core import DEAL, ROLL, SHUFFLE, TABLE, RulesError
from lanterne.engines.pandoria import GAME
from lanterne.engines.pandoria import data as D
from lanterne.engines.pandoria.board import KIND, LAKES, PRINTED, START_HEXES
from lanterne.engines.pandoria.rules import new_state

from .positions import H, ScriptedTable, scripted, settle, started


def setup_ops(players, variant="classic", peoples=(0, 1, 2, 3)):
    st = GAME.setup(players=players, variant=variant)
    table = ScriptedTable(peoples[:players])
    ops = []
    while GAME.next_actor(st) == TABLE:
        op = GAME.table_op(st)
        ops.append(op)
        st, _ = GAME.apply(st, table.resolve(st, op))
    return ops, st


def test_first_player_is_rolled_first():
    # « Le plus jeune joueur reçoit le marqueur premier joueur et commence la partie. »
    # (Lanterne convention: a roll among the seats decides it.)
    ops, _ = setup_ops(3)
    assert ops[0].kind == ROLL and ops[0].faces == 3 and ops[0].why == "first player"
    st = settle(GAME.setup(players=3), ScriptedTable((0, 1, 2), first=2))
    assert st.first == 2 and st.current == 2 and st.phase == "place"


def test_people_boards_are_shuffled_and_one_dealt_to_each_player():
    # « Les cinq plateaux peuple sont mélangés et chaque joueur en reçoit un. »
    ops, st = setup_ops(3, peoples=(4, 2, 0))
    assert ops[1].kind == SHUFFLE and ops[1].pile == "peoples" and len(ops[1].slots) == 5
    assert ops[2].kind == DEAL and ops[2].to is None and len(ops[2].slots) == 3
    assert st.people == [4, 2, 0]


def test_deck_shuffled_market_of_four_face_up_four_secret_cards_each():
    # « Les 54 cartes (cartes individuelles comprises) sont mélangées et empilées face cachée
    #   sur le plateau de jeu. Les quatre premières cartes sont placées face visible [...]
    #   Chaque joueur reçoit 4 cartes de la pile, qu'il garde secrètement dans sa main. »
    ops, st = setup_ops(2)
    deck = [op for op in ops if op.pile == "deck"]
    assert deck[0].kind == SHUFFLE and len(deck[0].slots) == 54
    assert deck[1].kind == DEAL and deck[1].to is None and len(deck[1].slots) == 4
    assert [(op.to, len(op.slots)) for op in deck[2:]] == [(0, 4), (1, 4)]
    assert all(st.cards.is_public(s) for s in st.piles["market"])
    for seat in (0, 1):
        assert all(st.cards.seen[s] == 1 << seat for s in st.piles[f"hand{seat}"])
    assert len(st.piles["deck"]) == 54 - 4 - 8


def test_two_castles_each():
    # « chaque joueur choisit une couleur, en reçoit le matériel en bois et les deux châteaux. »
    assert started(3).castles_left == [2, 2, 2]


@pytest.mark.parametrize("players,figures", [(2, 6), (3, 5), (4, 4)])
def test_figures_by_player_count(players, figures):
    # « Chaque joueur reçoit 6 pions pour une partie à 2 joueurs, 5 pions à 3 joueurs, 4 pions à 4 joueurs. »
    st = started(players)
    assert st.reserve == [figures] * players and st.leader_home == [True] * players


def test_resources_start_by_people_and_score_at_zero():
    # « Les 3 jetons correspondants sont placés en fonction des capacités de chaque peuple
    #   sur ces pistes. Le jeton couronne de chaque joueur est placé sur le 0 »
    st = scripted(4, peoples=(0, 1, 2, 3))
    assert st.resources == [[5, 4, 5], [5, 10, 2], [4, 3, 8], [2, 2, 9]]  # wood, gold, crystal
    assert st.points == [0, 0, 0, 0]


@pytest.mark.parametrize("value", range(8))
def test_start_tiles_placed_at_random_on_the_four_start_hexes(value):
    # « Les deux tuiles doubles de départ sont placées aléatoirement sur les 4 emplacements de départ »
    ops, _ = setup_ops(2)
    assert ops[-1].kind == ROLL and ops[-1].faces == 8
    st = settle(GAME.setup(players=2), ScriptedTable((0, 1), start=value))
    faces = set()
    for a, b in START_HEXES:
        faces.add((st.terrain[a], st.symbols[a], st.terrain[b], st.symbols[b]))
    assert {f if f in D.START_TILES else (f[2], f[3], f[0], f[1]) for f in faces} == set(D.START_TILES)


def test_start_tile_rolls_give_eight_different_boards():
    boards = {tuple(settle(GAME.setup(players=2), ScriptedTable((0, 1), start=v)).terrain) for v in range(8)}
    assert len(boards) == 8


@pytest.mark.parametrize("players,aside", [(2, 12), (3, 8), (4, 4)])
def test_double_tiles_shuffled_one_secret_each_some_set_aside(players, aside):
    # « Toutes les autres tuiles doubles sont mélangées et empilées face cachée. Chaque joueur
    #   reçoit une tuile double, qu'il conserve secrètement. Un certain nombre de tuiles sont
    #   écartées secrètement dans la boîte : 4 tuiles à 4 joueurs, 8 tuiles à 3 joueurs et
    #   12 tuiles à 2 joueurs. »
    ops, st = setup_ops(players, variant="beginner")
    tiles = [op for op in ops if op.pile == "tiles"]
    assert tiles[0].kind == SHUFFLE and len(tiles[0].slots) == 48
    assert [(op.to, len(op.slots)) for op in tiles[1:]] == [(s, 1) for s in range(players)]
    assert len(st.piles["aside"]) == aside
    assert all(st.cards.seen[s] == 0 for s in st.piles["aside"])
    assert len(st.piles["tiles"]) == 48 - players - aside
    for s in range(players):
        (slot,) = st.piles[f"tiles{s}"]
        assert st.cards.seen[slot] == 1 << s
        assert GAME.view(st, 1 - s if players == 2 else (s + 1) % players).cards.ids[slot] is None


def test_single_tiles_shuffled_face_down_used_only_by_a_spell():
    # « Les 8 tuiles simples sont mélangées et empilées face cachée. Elles n'entrent en jeu qu'avec un sortilège. »
    ops, st = setup_ops(2)
    single = [op for op in ops if op.pile == "singles"]
    assert single[0].kind == SHUFFLE and len(single[0].slots) == 8
    assert len(st.piles["singles"]) == 8 and all(st.cards.seen[s] == 0 for s in st.piles["singles"])
    assert all(a[0] != "single" for a in GAME.legal_actions(st, st.current))


@pytest.mark.parametrize("players,stack", [(2, [3, 3, 3, 3, 4, 5, 6]), (3, [3, 3, 3, 3, 4, 4, 5, 5, 6, 6]),
                                           (4, [3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6])])
def test_monument_stack_threes_at_the_bottom_and_removals(players, stack):
    # « Les monuments sont également empilés [...] en commençant par les monuments de valeur 3
    #   en dessous de la pile, puis par valeur croissante [...] A 2 joueurs, on retire six
    #   monuments : deux de valeur 4, deux de valeur 5 et deux de valeur 6. A 3 joueurs, on
    #   retire trois monuments : un de valeur 4, un de valeur 5 et un de valeur 6. »
    assert new_state(players, "classic").monuments == stack  # the top is the end of the list


def test_board_has_lakes_with_ships_printed_spaces_and_start_hexes():
    # « Le plateau de jeu représente la plaine fertile [...] entourée d'imposantes montagnes,
    #   sillonnées par quelques sentiers. Un sortilège permet d'occuper les bateaux des lacs. »
    assert len(LAKES) == 3
    assert sum(1 for k in KIND if k == PRINTED) == 4
    st = started(2)
    assert sorted(st.terrain[h] for h in (H("c3"), H("k3"), H("c6"), H("k6"))) == [0, 1, 2, 3]


def test_classic_players_get_four_random_cards():
    # « Lors d'une partie classique (côté « B »), chaque peuple [...] débute avec 4 cartes tirées au hasard. »
    st = started(4)
    assert [len(st.piles[f"hand{s}"]) for s in range(4)] == [4, 4, 4, 4]
    assert all(b == -1 for row in st.buildings for b in row)


def test_beginner_side_a_individual_cards_starting_building_and_resources():
    # « Les cartes individuelles sont séparées des autres cartes et chaque joueur reçoit les deux
    #   cartes individuelles spécifiques à son peuple. Les cartes individuelles restantes sont
    #   mélangées aux 44 autres cartes en une pile [...] donner à chaque joueur deux cartes.
    #   La carte individuelle marquée « A » de chaque joueur est glissée comme bâtiment de départ
    #   [...] Chaque joueur a donc 3 cartes en main. »
    ops, st = setup_ops(2, variant="beginner", peoples=(3, 4))
    deck_shuffle = next(op for op in ops if op.pile == "deck")
    assert len(deck_shuffle.slots) == 54 - 4
    assert [D.CARDS[st.cards.ids[st.buildings[s][0]]][1] for s in (0, 1)] == ["Large Tower", "Small Treasury"]
    assert [len(st.piles[f"hand{s}"]) for s in (0, 1)] == [3, 3]
    assert 7 in [st.cards.ids[x] for x in st.piles["hand0"]]  # Enchanted Castle/Shrine
    assert st.resources == [[2, 2, 7], [6, 3, 5]]


def test_beginner_resources_of_every_people():
    # « Les Hommes commencent avec 5 cristaux, 5 ors et 5 bois. [...] Les Nains [...] 2 cristaux,
    #   8 ors et 5 bois. [...] Les Elfes [...] 6 cristaux, 3 ors et 4 bois. [...] Les Magiciens
    #   [...] 7 cristaux, 2 ors et 2 bois. [...] Les Halfelins [...] 5 cristaux, 3 ors et 6 bois. »
    got = {}
    for peoples in ((0, 1, 2, 3), (4, 0, 1, 2)):
        st = scripted(4, "beginner", peoples)
        got.update({p: tuple(r) for p, r in zip(peoples, st.resources)})
    assert got == {0: (5, 5, 5), 1: (5, 8, 2), 2: (4, 3, 6), 3: (2, 2, 7), 4: (6, 3, 5)}


def test_options_are_checked():
    with pytest.raises(RulesError, match="team game is for 4"):
        GAME.setup(players=2, variant="team")
    with pytest.raises(RulesError, match="2 to 4 players"):
        GAME.setup(players=5)
    with pytest.raises(RulesError, match="no variant"):
        GAME.setup(players=2, variant="advanced")
    assert GAME.setup(players=2, variant="standard").variant == "classic"
