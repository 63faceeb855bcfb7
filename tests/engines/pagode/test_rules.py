"""One test per rule sentence of the Pagode rulebook (shared/seeds/pagode.fr.txt).

Positions are built by hand (helpers.build) and played in the move notation.
"""

import pytest

from lanterne.engines.core import DEAL, ROLL, SHUFFLE, TABLE, IllegalAction, OpenTable
from lanterne.engines.pagode import GAME
from lanterne.engines.pagode.data import TILES

from .helpers import build, moves, play, points, table, tile_id

R, B, G, V, Y = range(5)


def illegal(state, text, match):
    with pytest.raises(IllegalAction, match=match) as e:
        GAME.apply(state, GAME.parse_action(state, text))
    assert "\n" not in str(e.value)


# ---------------------------------------------------------------------- setup


def test_setup_reserves_one_card_of_each_colour_face_up_and_two_hidden_cards_in_hand():
    # "Chaque joueur prend 1 carte de chacune des 5 couleurs et les place face visible devant lui."
    # "Mélangez les cartes restantes ... pour former la pioche." "Chaque joueur prend 2 cartes de la pioche"
    state = GAME.setup()
    assert state.pending.kind == ROLL and state.pending.faces == 2 and state.pending.why == "first player"
    for seat in (0, 1):
        assert sorted(state.cards.ids[s] // 11 for s in state.reserves[seat]) == [R, B, G, V, Y]
        assert all(state.cards.is_public(s) for s in state.reserves[seat])
    assert len(state.draw) == 45
    state, _ = GAME.apply(state, (ROLL, 1))
    assert state.first == 1 and state.pending.kind == SHUFFLE and state.pending.slots == state.draw
    state, events, ops = table(state, seed=4)
    assert [op.kind for op in ops] == [SHUFFLE, DEAL, DEAL]
    assert [op.to for op in ops[1:]] == [1, 0], "the first player's hand first, face down"
    for seat in (0, 1):
        assert len(state.hands[seat]) == 2
        assert all(state.cards.knows(seat, s) and not state.cards.knows(1 - seat, s) for s in state.hands[seat])
    assert len(state.draw) == 41
    assert GAME.next_actor(state) == 1 and ("turn", 1) in events


def test_deals_take_the_top_cards_of_the_draw_pile():
    state = GAME.setup()
    state, _ = GAME.apply(state, (ROLL, 0))
    state, _ = GAME.apply(state, OpenTable(2).resolve(state, state.pending))
    top = state.draw[:2]
    assert state.pending.kind == DEAL and state.pending.slots == top


def test_first_player_is_the_roll():
    # "Le possesseur du jeton premier joueur démarre la partie"
    for value in (0, 1):
        state, _, _ = table(GAME.apply(GAME.setup(), (ROLL, value))[0])
        assert state.current == value == state.first


# ---------------------------------------------------------------------- hand and reserve


def test_cards_from_reserve_or_hand_have_the_same_effect():
    # "vous avez le choix de jouer une carte de votre réserve personnelle ou de votre main.
    #  Les cartes ont le même effet, quelles que soient leurs provenances."
    state = build(reserve="rbgvy", hand="R")
    a, ev_a = play(state, "c1 r")
    b, ev_b = play(state, "c1 R")
    assert points(ev_a) == points(ev_b) == 1
    assert a.site_cols == b.site_cols and a.site_colour == b.site_colour


def test_reserve_is_visible_to_the_opponent_and_the_hand_is_not():
    # "les cartes de la réserve personnelle sont visibles par l'adversaire, contrairement aux cartes en main."
    state = build(reserve="rbgvy", hand="RB")
    other = GAME.view(state, 1)
    assert all(other.cards.ids[s] is not None for s in state.reserves[0])
    assert all(other.cards.ids[s] is None for s in state.hands[0])


# ---------------------------------------------------------------------- colour chart


def test_a_first_floor_column_may_be_any_colour():
    # "Il vous est donc possible de démarrer la construction d'une pagode avec une colonne de la couleur de votre choix."
    state = build(reserve="rbgvy", hand="")
    assert {"c1 r", "c1 b", "c1 g", "c1 v", "c1 y"} <= moves(state)


def test_the_other_columns_of_the_first_floor_match_the_first():
    # "les 3 autres colonnes du 1er étage de cette pagode devront être de la même couleur que la première"
    state = build(reserve="rbgvy", hand="", sites={1: "r:1"})
    assert {m for m in moves(state) if m.startswith("c1")} == {"c1 r"}
    illegal(state, "c1 b", "takes red columns, not blue")


def test_a_floor_has_four_columns():
    # "Chaque étage ... est constitué de 4 colonnes de la même couleur."
    state = build(reserve="rrbgv", hand="", sites={1: "r:4"})
    illegal(state, "c1 r", "floor is full: it needs a tile")


def test_a_tile_background_matches_the_columns_under_it_and_the_card():
    # "La couleur de la carte doit être identique à la couleur de fond de la tuile pagode, qui elle-même
    #  doit être identique à la couleur des colonnes sur lesquelles vous construisez votre tuile pagode."
    state = build(reserve="rbgvy", hand="", sites={1: "r:4"})
    tiles = {m for m in moves(state) if m.startswith("t")}
    assert tiles == {f"t1 r/{f}" for f in "rbgvy"}
    illegal(state, "t1 b/g", "needs a red card, not blue")


def test_the_tile_spots_give_the_colour_of_the_next_floor():
    # "La couleur des emplacements pour colonnes de la tuile pagode impose la couleur des colonnes
    #  à placer sur l'étage supérieur."
    state = build(reserve="rbgvy", hand="", sites={1: "r:4"})
    state, _ = play(state, "t1 r/g")
    assert state.site_colour[0] == G and state.site_cols[0] == 0
    assert {m for m in moves(state) if m.startswith("c1")} == {"c1 g"}


def test_the_summit_colour_is_the_roof_tile_summit_spot():
    # "La couleur de l'emplacement pour sommet impose la couleur des colonnes utilisées pour former ce sommet."
    state = build(reserve="gvvyy", hand="", sites={1: "rb,bg,gg:4"})
    assert TILES[tile_id(G, Y)][2] == Y
    state2, ev = play(state, "roof1 g/y yy")
    assert ("summit", 0, 0, Y) in ev
    illegal(state, "roof1 g/y vv", "the summit is yellow")


# ---------------------------------------------------------------------- turn limits


def test_a_turn_must_build_at_least_one_column():
    # "Vous devez construire au minimum 1 colonne avant de pouvoir mettre fin à votre tour de jeu."
    state = build()
    assert "end" not in moves(state)
    illegal(state, "end", "at least 1 column")
    state, _ = play(state, "c1 r")
    assert "end" in moves(state)


def test_no_more_than_three_columns_a_turn():
    # "Vous ne pouvez pas construire plus de 3 colonnes durant votre tour (limite de construction par tour)."
    state = build(reserve="rrrrb")
    state, _ = play(state, "c1 r", "c2 r", "c3 r")
    assert not any(m.startswith("c") for m in moves(state))
    illegal(state, "c4 r", "limit of 3 columns")


def test_a_summit_counts_as_one_column_for_the_limit():
    # "1 sommet ne compte que comme 1 colonne au regard des règles précédentes"
    state = build(reserve="rrgvv", hand="RB", sites={1: "rb,bg,gg:4"})
    state, _ = play(state, "c2 r", "c2 r", "roof1 g/v vv")
    assert state.columns == 3
    illegal(state, "c2 R", "limit of 3 columns")


def test_no_roof_after_three_columns():
    # "si vous avez déjà construit 3 colonnes durant votre tour, il vous est impossible de lancer la construction d'un toit."
    state = build(reserve="rrrgv", hand="V", sites={1: "rb,bg,gg:4"})
    state, _ = play(state, "c2 r", "c2 r", "c2 r")
    assert not any(m.startswith("roof") for m in moves(state))
    illegal(state, "roof1 g/v vV", "limit of 3 columns")


def test_tiles_are_not_limited_in_a_turn():
    # "Le nombre de tuiles pagode que vous pouvez construire dans un même tour n'est pas limité."
    state = build(reserve="rbgvy", hand="RB", sites={1: "r:4", 2: "b:4", 3: "g:4"})
    state, ev = play(state, "t1 r/r", "t2 b/b", "t3 g/g", "c1 R")
    assert [e[0] for e in ev].count("tile") == 3 and state.columns == 1


def test_several_sites_in_one_turn():
    # "Vous pouvez construire sur plusieurs terrains à bâtir au cours du même tour."
    state = build(reserve="rbgvy")
    state, _ = play(state, "c1 r", "c2 b", "c6 g")
    assert [state.site_cols[i] for i in (0, 1, 5)] == [1, 1, 1]


# ---------------------------------------------------------------------- points


@pytest.mark.parametrize("floor,spec", [(1, "r:1"), (2, "rb:1"), (3, "rb,bg:1"), (4, "rb,bg,gv:1")])
def test_a_column_scores_its_floor_number(floor, spec):
    # "Le nombre de points gagnés correspond à l'étage sur lequel la colonne a été construite."
    colour = "rbgv"[floor - 1]
    state = build(reserve="rbgvy", sites={1: spec})
    _, ev = play(state, f"c1 {colour}")
    assert points(ev) == floor


def test_a_tile_needs_a_full_floor():
    # "il n'est possible de construire une tuile pagode que sur des étages complets de 4 colonnes."
    state = build(reserve="rbgvy", sites={1: "r:3"})
    assert not any(m.startswith("t") for m in moves(state))
    illegal(state, "t1 r/b", "has 3 columns: a tile needs 4")


def test_a_tile_scores_one_and_gives_its_ability_twice():
    # "La construction d'une tuile pagode rapporte 1 point, et ce quel que soit l'étage."
    # "vous pouvez utiliser cette capacité spéciale 2 fois."
    state = build(reserve="rbgvy", sites={1: "rb,bg:4"})
    state, ev = play(state, "t1 g/v")
    assert points(ev) == 1 and state.uses[0][G] == 2 and ("gain", 0, "rice bowl", 2) in ev


def test_a_new_tile_sets_the_ability_to_two_whatever_was_left():
    # "on ne tient pas compte de la position précédente du marqueur"
    state = build(reserve="rrgvy", sites={1: "r:4", 2: "b:4"}, uses={"lantern": 1})
    state, _ = play(state, "t1 r/b")
    assert state.uses[0][R] == 2


def test_the_fourth_tile_is_only_built_as_a_roof():
    # "Attention : la 4e tuile d'une pagode ne peut pas être construite par cette action."
    state = build(reserve="gvvyy", sites={1: "rb,bg,gg:4"})
    assert not any(m.startswith("t") for m in moves(state))
    with pytest.raises(IllegalAction, match="roof"):
        GAME.apply(state, ("tile", 0, V, ((state.reserves[0][0], state.cards.ids[state.reserves[0][0]]),)))


def test_a_roof_needs_its_summit_in_the_same_action():
    # "Si vous n'êtes pas en mesure de construire le sommet alors vous n'êtes pas autorisé à construire la 4e tuile pagode."
    state = build(reserve="rbgyy", hand="", sites={1: "bg,gy,yr:4"})
    assert {m for m in moves(state) if m.startswith("roof")} == {"roof1 r/y yy"}
    state = build(reserve="rbgvy", hand="", sites={1: "bg,gy,yr:4"})
    assert not any(m.startswith("roof") for m in moves(state))
    illegal(state, "roof1 r/v v", "a summit takes two cards")
    illegal(state, "roof1 r/v vy", "the summit is violet")


def test_a_roof_scores_six():
    # "Construire un sommet rapporte 5 points, la construction d'un toit rapporte donc au total 6 points"
    state = build(reserve="gvvrb", sites={1: "rb,bg,gg:4"})
    state, ev = play(state, "roof1 g/v vv")
    assert points(ev) == 6 and state.columns == 1 and GAME.is_complete(state, 0)


def test_the_roof_tile_gives_its_ability_at_once():
    # "Comme vous construisez une tuile pagode, vous marquez 1 point et gagnez la capacité spéciale correspondante."
    # Rice bowl ("Désormais (et même immédiatement)") serves the summit of the same roof.
    state = build(reserve="gyrrb", hand="", sites={1: "rb,bg,gg:4"})
    state, ev = play(state, "roof1 g/y y+rr")
    assert ("use", 0, "rice bowl", 1) in ev and points(ev) == 6


# ---------------------------------------------------------------------- draw phase


def test_draw_phase_discards_played_cards_then_refills_reserve_to_five_then_hand_to_two():
    # "A la fin de votre tour, défaussez toutes les cartes jouées. Ensuite, piochez des cartes afin de
    #  compléter en premier votre réserve à 5 cartes, puis votre main à 2 cartes."
    state = build(reserve="rbgvy", hand="RB")
    state, _ = play(state, "c1 r", "c2 b", "c3 R")
    played = state.played
    state, ev = play(state, "end")
    assert set(played) <= set(state.discard) and state.played == ()
    op = state.pending
    assert op.kind == DEAL and op.to is None and len(op.slots) == 2 and op.slots == state.draw[:2]
    state, _ = GAME.apply(state, OpenTable(1).resolve(state, op))
    op = state.pending
    assert op.kind == DEAL and op.to == 0 and len(op.slots) == 1
    state, ev = GAME.apply(state, OpenTable(1).resolve(state, op))
    assert len(state.reserves[0]) == 5 and len(state.hands[0]) == 2
    assert state.current == 1 and ("turn", 1) in ev


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_discard_pile():
    # "Si la pioche venait à se vider, mélangez les cartes de la défausse pour former une nouvelle pioche."
    state = build(reserve="rbgvy", hand="RB", draw=1)
    state, _ = play(state, "c1 r", "c2 b")
    state, _ = play(state, "end")
    assert state.pending.kind == DEAL and len(state.pending.slots) == 1
    discard = state.discard
    state, _ = GAME.apply(state, OpenTable(1).resolve(state, state.pending))
    op = state.pending
    assert op.kind == SHUFFLE and op.pile == "discard" and op.slots == discard
    state, ev = GAME.apply(state, OpenTable(1).resolve(state, op))
    assert ("reshuffle", len(discard)) in ev and state.discard == () and len(state.draw) == len(discard)
    assert state.pending.kind == DEAL and state.pending.to is None
    state, _, _ = table(state)
    assert len(state.reserves[0]) == 5


def test_drawing_stops_when_both_piles_are_empty():
    # House rule. Unreachable with 55 cards (reserves and hands hold at most 18), so the position is forced:
    # a Dragon draw with every other card lying among the played ones.
    state = build(reserve="rbgvy", hand="RB", uses={"dragon": 2})
    state, _ = play(state, "dragon", "x r")
    state.played, state.draw, state.discard = state.played + state.draw + state.discard, (), ()
    state, ev = play(state, "draw")
    assert ("no cards", 0, "reserve", 1) in ev and state.pending is None and state.phase == "play"
    assert len(state.reserves[0]) == 4


# ---------------------------------------------------------------------- modified turn


def test_modified_turn_discards_four_and_builds_one_column_of_any_colour():
    # "défaussez 4 cartes (de votre main ou de votre réserve) et construisez 1 colonne de
    #  n'importe quelle couleur sur le terrain à bâtir de votre choix. Vous marquez les points correspondants"
    state = build(reserve="rbgvy", hand="RB", sites={2: "rb,bg:2"})
    state, ev = play(state, "mod", "x r", "x R", "x B", "x y")
    assert state.phase == "modified column" and [e[0] for e in ev].count("discard") == 4
    assert "c2=g" in moves(state) and "c1=y" in moves(state) and "c2=y" not in moves(state)
    assert GAME.parse_action(state, "c2 g") == GAME.parse_action(state, "c2=g"), "a person may forget the '='"
    state, ev = play(state, "c2=g")
    assert points(ev) == 3
    # "Ensuite, votre tour se termine immédiatement, et vous procédez à la phase Piocher."
    assert moves(state) == {"end"}


def test_modified_column_respects_the_colour_rules():
    # "la construction de cette colonne doit respecter toutes les règles de construction définies précédemment."
    state = build(reserve="rbgvy", hand="RB", sites={1: "r:2"})
    state, _ = play(state, "mod", "x r", "x R", "x B", "x y")
    illegal(state, "c1=b", "takes red columns")


def test_no_modified_turn_after_a_normal_turn_started():
    # "Il n'est pas possible de jouer un tour modifié si vous avez déjà commencé un tour normal."
    state = build(reserve="rbgvy", hand="RB")
    state, _ = play(state, "c1 r")
    assert "mod" not in moves(state)
    illegal(state, "mod", "cannot follow")


def test_modified_turn_allows_only_fan_and_dragon():
    # "Au cours d'un tour modifié, seules les capacités spéciales de l'Eventail (violet) et du Dragon (jaune)
    #  peuvent être utilisées."
    full = {"lantern": 2, "buddha": 2, "rice bowl": 2, "fan": 2, "dragon": 2}
    state = build(reserve="rbgvy", hand="RB", uses=full)
    assert {"mod", "dragon"} <= moves(state)
    state, _ = play(state, "mod")
    assert "dragon" not in moves(state)
    assert "lantern" not in moves(state)
    illegal(state, "lantern", "not now")
    state, _ = play(state, "x r", "x R", "x B", "x b")
    assert all("=" in m and " " not in m for m in moves(state)), "no card, hence no Rice bowl"
    state, _ = play(state, "c1=r")
    assert moves(state) == {"end", "end fan"}
    # and the Lantern used first forbids the modified turn
    state = build(reserve="rbgvy", hand="RB", uses=full)
    state, _ = play(state, "lantern")
    assert "mod" not in moves(state)
    illegal(state, "mod", "lantern was used")


# ---------------------------------------------------------------------- abilities


def test_each_ability_at_most_once_a_turn():
    # "il n'est pas possible d'utiliser la même capacité spéciale plus d'une fois dans le même tour."
    state = build(uses={"lantern": 2})
    state, _ = play(state, "lantern")
    assert "lantern" not in moves(state)
    illegal(state, "lantern", "already used this turn")


def test_each_use_moves_the_marker_left_and_none_left_means_no_ability():
    # "Après chaque utilisation, déplacez le marqueur d'1 case vers la gauche. Si le marqueur atteint la case
    #  la plus à gauche, vous ne pourrez plus utiliser cette capacité spéciale"
    state = build(uses={"lantern": 1})
    state, ev = play(state, "lantern")
    assert state.uses[0][R] == 0 and ("use", 0, "lantern", 0) in ev
    state = build(uses={})
    illegal(state, "lantern", "no use of the lantern left")


def test_abilities_are_usable_at_once_after_the_tile():
    # "Désormais (et même immédiatement), vous pouvez utiliser cette capacité spéciale"
    state = build(reserve="rrrbv", sites={1: "r:2"})
    state, _ = play(state, "c1 r", "c1 r", "t1 r/b")
    assert "lantern" in moves(state)


def test_fan_only_in_the_draw_phase_and_refills_the_hand_to_four():
    # "Cette capacité spéciale ne peut être utilisée qu'à la fin de votre tour, durant la phase Piocher.
    #  ... vous pouvez immédiatement compléter votre main à 4 cartes."
    state = build(reserve="rbgvy", hand="RB", uses={"fan": 2})
    assert not any("fan" in m for m in moves(state))
    state, _ = play(state, "c1 r")
    assert {"end", "end fan"} <= moves(state)
    state, ev = play(state, "end fan")
    assert ("use", 0, "fan", 1) in ev
    state, _, ops = table(state)
    assert len(state.hands[0]) == 4 and [len(op.slots) for op in ops] == [1, 2]


def test_a_larger_hand_is_kept_and_never_exceeds_four():
    # "Cela ne signifie pas que vous devrez défausser pour revenir à 2 cartes en main s'il vous restait des
    #  cartes en excédent." "Vous ne pouvez jamais posséder plus de 4 cartes en main."
    state = build(reserve="rbgvy", hand="RBGV", uses={"fan": 2})
    state, _ = play(state, "c1 r", "end")
    state, _, ops = table(state)
    assert len(state.hands[0]) == 4 and [op.to for op in ops] == [None]
    state = build(reserve="rbgvy", hand="RBGV", uses={"fan": 2})
    state, ev = play(state, "c1 r", "end fan")  # no effect with 4 cards, but the use is spent
    state, _, ops = table(state)
    assert len(state.hands[0]) == 4 and state.uses[0][V] == 1
    state = build(reserve="rbgvy", hand="RBG", uses={"fan": 2})
    state, _ = play(state, "c1 R", "c2 B", "end fan")
    state, _, ops = table(state)
    assert len(state.hands[0]) == 4 and [len(op.slots) for op in ops if op.to == 0] == [3]
    state = build(reserve="rbgvy", hand="RBG", uses={"fan": 2})
    state, _ = play(state, "c1 r", "end fan")  # 3 cards in hand: only one more
    state, _, ops = table(state)
    assert [len(op.slots) for op in ops if op.to == 0] == [1] and len(state.hands[0]) == 4


def test_dragon_only_before_the_first_action():
    # "Cette capacité ne peut être utilisée qu'au début de votre tour, avant d'effectuer votre première action."
    state = build(uses={"dragon": 2})
    assert "dragon" in moves(state)
    state, _ = play(state, "c1 r")
    assert "dragon" not in moves(state)
    illegal(state, "dragon", "before the turn's first action")


def test_dragon_discards_any_cards_and_draws_as_many():
    # "vous pouvez immédiatement défausser autant de cartes que vous le souhaitez, de votre réserve ou de votre
    #  main. Puis, vous piochez un nombre de cartes égal au nombre de cartes défaussées."
    state = build(reserve="rbgvy", hand="RB", uses={"dragon": 2})
    state, ev = play(state, "dragon", "x r", "x g", "x B", "draw")
    discarded = [e[2] for e in ev if e[0] == "discard"]
    assert len(discarded) == 3 and set(discarded) <= set(state.discard)
    state, ev, ops = table(state)
    assert [(op.to, len(op.slots)) for op in ops] == [(None, 2), (0, 1)]
    assert len(state.reserves[0]) == 5 and len(state.hands[0]) == 2
    assert state.phase == "play" and state.current == 0 and state.uses[0][Y] == 1


def test_dragon_restores_a_hand_enlarged_by_the_fan():
    # "Si votre main était constituée de plus de 2 cartes grâce à l'utilisation de la capacité spéciale violette,
    #  vous piochez jusqu'à retrouver le nombre exact de cartes qui constituaient votre main."
    state = build(reserve="rbgvy", hand="RBGV", uses={"dragon": 2})
    state, _ = play(state, "dragon", "x R", "x B", "x G", "x V", "draw")
    state, _, ops = table(state)
    assert len(state.hands[0]) == 4 and [len(op.slots) for op in ops] == [4]


def test_dragon_may_precede_a_modified_turn():
    # "Il est possible d'utiliser cette capacité avant de déclencher un tour modifié."
    state = build(reserve="rbgvy", hand="RB", uses={"dragon": 2})
    state, _ = play(state, "dragon", "draw")
    state, _, _ = table(state)
    assert "mod" in moves(state)
    state, _ = play(state, "mod")
    assert state.phase == "modified"


def test_rice_bowl_two_cards_of_one_colour_for_a_column_of_any_colour():
    # "vous pouvez immédiatement jouer 2 cartes de la même couleur pour construire 1 colonne de la couleur de
    #  votre choix (tout en respectant la charte des couleurs). Exemple : vous jouez 2 cartes rouges pour
    #  construire 1 colonne jaune."
    state = build(reserve="rrgvb", hand="", sites={1: "y:1"}, uses={"rice bowl": 2})
    assert "c1=y rr" in moves(state)
    state2, ev = play(state, "c1=y rr")
    assert ("column", 0, 0, Y, 1) in ev and ("use", 0, "rice bowl", 1) in ev
    illegal(state, "c1=y rg", "two cards of one colour")
    illegal(state, "c1=b rr", "takes yellow columns")


def test_rice_bowl_only_in_a_column_or_roof_build():
    # "Cette capacité spéciale ne peut être utilisée qu'au cours d'une action Construire une colonne ou
    #  Construire un toit." A tile paid with two cards is the Buddha, not the Rice bowl.
    state = build(reserve="rrgvb", hand="", sites={1: "y:4"}, uses={"rice bowl": 2})
    assert not any(m.startswith("t") for m in moves(state))
    illegal(state, "t1 rr/g", "no use of the buddha")


def test_rice_bowl_replaces_only_one_summit_column():
    # "Si vous utilisez cette capacité pour construire un sommet ..., vous ne pouvez remplacer qu'une seule des
    #  deux colonnes. Pour la 2e colonne, vous devez jouer une carte de la couleur imposée. Exemple : ...
    #  vous pouvez utiliser 1 carte jaune et, par exemple, 2 cartes bleues ou 2 cartes rouges."
    state = build(reserve="gybbr", hand="R", sites={1: "rb,bg,gg:4"}, uses={"rice bowl": 2})
    ms = moves(state)
    assert {"roof1 g/y y+bb", "roof1 g/y y+rR"} <= ms
    state2, ev = play(state, "roof1 g/y y+bb")
    assert points(ev) == 6
    illegal(state, "roof1 g/y bbrR", "a summit takes two cards, or one plus two")
    illegal(state, "roof1 g/y bb", "the summit is yellow")


def test_buddha_two_cards_of_one_colour_for_a_tile_of_any_colour():
    # "vous pouvez jouer 2 cartes de la même couleur pour construire 1 tuile pagode de la couleur de votre choix
    #  (tout en respectant la charte des couleurs). Exemple : vous jouez 2 cartes vertes pour construire
    #  1 tuile pagode violette."
    state = build(reserve="ggrby", hand="", sites={1: "rb,bv:4"}, uses={"buddha": 2})
    assert "t1 gg/r" in moves(state)
    state, ev = play(state, "t1 gg/r")
    assert ("tile", 0, 0, tile_id(V, R)) in ev and ("use", 0, "buddha", 1) in ev


def test_buddha_only_in_a_tile_or_roof_build():
    # "Cette capacité spéciale ne peut être utilisée qu'au cours d'une action Construire une tuile pagode ou
    #  Construire un toit."
    state = build(reserve="ggrby", hand="", sites={1: "v:1"}, uses={"buddha": 2})
    assert "c1=v gg" not in moves(state)
    illegal(state, "c1=v gg", "no use of the rice bowl")
    state = build(reserve="bbyyr", hand="", sites={2: "rb,bg,gg:4"}, uses={"buddha": 2})
    assert "roof2 bb/y yy" in moves(state)
    state, ev = play(state, "roof2 bb/y yy")
    assert ("use", 0, "buddha", 1) in ev and points(ev) == 6


def test_lantern_raises_the_column_limit_to_four():
    # "Cette capacité spéciale peut être utilisée à tout moment durant votre tour. Votre limite de construction
    #  pour ce tour passe de 3 à 4 colonnes."
    state = build(reserve="rrrrr", hand="", uses={"lantern": 2})
    state, _ = play(state, "c1 r", "c1 r", "c1 r", "lantern", "c1 r")
    assert state.columns == 4 and not any(m.startswith("c") for m in moves(state))


# ---------------------------------------------------------------------- the end


def _almost_over(seat, first, scores=(0, 0)):
    """Two roofs built; site 3 waits for its roof; seat can build it."""
    return build(reserve="gvvrb", hand="", seat=seat, first=first, scores=scores,
                 sites={1: "rb,bg,gy,yr:0", 2: "br,rg,gb,bb:0", 3: "yb,bv,vg:4"})


def test_the_game_ends_after_the_third_roof_when_the_second_player_built_it():
    # "La fin de partie est déclenchée dès que 3 pagodes ont été entièrement construites ... Le joueur actif
    #  finit son tour normalement."
    state = _almost_over(seat=1, first=0)
    state, ev = play(state, "roof3 g/v vv")
    assert not GAME.is_over(state) and state.phase == "play", "the active player finishes the turn"
    state, ev = play(state, "c4 r", "end")
    assert GAME.is_over(state) and ev[-1][0] == "over" and state.pending is None


def test_the_second_player_plays_one_more_turn_when_the_first_ended_it():
    # "Si le possesseur du jeton premier joueur met fin à la partie, alors son adversaire joue un autre tour"
    state = _almost_over(seat=0, first=0)
    state, _ = play(state, "roof3 g/v vv", "end")
    assert not GAME.is_over(state)
    state, _, _ = table(state)
    assert state.current == 1 and not GAME.is_over(state)
    # "Il est ainsi possible de terminer la construction d'autres pagodes au cours de ce tour."
    state, _ = play(state, GAME.format_action(state, GAME.legal_actions(state, 1)[0]))
    state, _ = play(state, "end")
    assert GAME.is_over(state) and state.turn == 2


def test_a_tie_is_a_shared_win():
    # "En cas d'égalité, les deux joueurs partagent la victoire."
    state = _almost_over(seat=1, first=0, scores=(33, 27))
    state, ev = play(state, "roof3 g/v vv", "end")
    assert GAME.is_over(state) and GAME.scores(state) == [33, 33]
    assert GAME.winners(state) == [0, 1] and ev[-1] == ("over", (33, 33), (0, 1))
    state = _almost_over(seat=1, first=0, scores=(34, 27))
    state, _ = play(state, "roof3 g/v vv", "end")
    assert GAME.winners(state) == [0]


def test_an_exhausted_tile_colour_stops_the_pagoda_and_it_counts_as_complete():
    # "Il peut ainsi arriver qu'une construction nécessite une tuile pagode dont la couleur est épuisée. Dans ce
    #  cas, il n'est pas possible de poursuivre la construction de cette pagode. Toutefois, elle compte comme une
    #  pagode entièrement construite au regard des conditions de fin de partie."
    state = build(reserve="yrbgv", hand="", sites={1: "y:3"}, tiles_out=("yr", "yb", "yg", "yv", "yy"))
    assert not GAME.is_complete(state, 0)
    state, ev = play(state, "c1 y")
    assert ("complete", 0, "exhausted") in ev and GAME.is_complete(state, 0)
    assert not any(m.startswith(("c1", "t1", "roof1")) for m in moves(state))
    assert GAME.complete_pagodas(state) == 1


def test_the_last_tile_of_a_colour_stops_the_pagodas_waiting_for_it():
    state = build(reserve="yrbgv", hand="", sites={1: "y:4", 2: "y:4"}, tiles_out=("yr", "yb", "yg", "yv"))
    state, ev = play(state, "t1 y/y")
    assert ("complete", 1, "exhausted") in ev and GAME.complete_pagodas(state) == 1


# ---------------------------------------------------------------------- variants


def test_quick_game_has_three_floors_and_a_four_point_summit():
    # "Pour une partie rapide, réduisez d'1 étage ... La 3e tuile pagode est le toit, surmontée du sommet.
    #  Le sommet ne rapporte que 4 points dans ce type de partie."
    state = build(reserve="gvvrb", hand="", variant="quick", sites={1: "rb,bg:4"})
    assert not any(m.startswith("t1") for m in moves(state))
    state, ev = play(state, "roof1 g/v vv")
    assert points(ev) == 5 and GAME.is_complete(state, 0)


def test_quick_game_still_ends_at_the_third_pagoda():
    # "La fin de partie est toujours déclenchée une fois la 3e pagode entièrement construite."
    state = build(reserve="gvvrb", hand="", variant="quick", seat=1, first=0,
                  sites={1: "rb,bg,gy:0", 2: "br,rg,gb:0", 3: "yv,vg:4"})
    state, _ = play(state, "roof3 g/v vv", "end")
    assert GAME.is_over(state)


def test_beginner_game_has_no_abilities():
    # "il est possible de jouer une partie sans utiliser les capacités spéciales du plateau Architecte."
    state = build(reserve="rrrbv", variant="beginner", sites={1: "r:2"})
    state, ev = play(state, "c1 r", "c1 r", "t1 r/b")
    assert not any(e[0] == "gain" for e in ev) and state.uses[0] == (0, 0, 0, 0, 0)
    assert "lantern" not in moves(state)
    state.uses = ((2, 2, 2, 2, 2), (0, 0, 0, 0, 0))
    illegal(state, "lantern", "no abilities in the beginner game")


def test_columns_are_unlimited():
    # "Le nombre de colonnes présentes dans la réserve générale est théoriquement illimité."
    state = build(reserve="rrrrr", sites={1: "r:4", 2: "r:4", 3: "r:4", 4: "r:4", 5: "r:4", 6: "r:3"})
    # 23 red columns stand; red columns keep coming, well past the 25 of the box
    state, _ = play(state, "c6 r")
    state.site_cols = (0,) * 5 + (4,)
    state.site_colour = (None,) * 5 + (R,)
    state.columns = 0
    state, events = play(state, "c1 r", "c2 r")
    assert [e for e in events if e[0] == "column"] == [("column", 0, 0, R, 1), ("column", 0, 1, R, 1)]


# ---------------------------------------------------------------------- house rule: nothing to build


def test_house_rule_a_seat_that_can_build_nothing_may_discard_and_pass():
    # House rule: no column, tile, roof or modified turn possible -> discard cards and end the turn.
    sites = {1: "r:4", 2: "r:4", 3: "b:4", 4: "b:4", 5: "g:4", 6: "g:4"}
    state = build(reserve="vvvyy", hand="YV", sites=sites, uses={"dragon": 2})
    ms = moves(state)
    assert not any(m.startswith(("c", "t", "roof", "mod")) for m in ms)
    assert {"end", "x v", "x y", "x Y", "x V", "dragon"} <= ms
    assert GAME.is_stuck(state, 0)
    state2, ev = play(state, "x v", "x Y")
    assert [e[0] for e in ev] == ["discard", "discard"] and len(state2.discard) == 2
    assert "dragon" not in moves(state2) and "end" in moves(state2)
    state3, ev = play(state2, "end")
    assert state3.pending.kind == DEAL


def test_house_rule_pass_is_refused_when_something_can_be_built():
    state = build(reserve="vvvyr", hand="YV", sites={1: "r:4", 2: "r:3"})
    illegal(state, "end", "at least 1 column")
    illegal(state, "x v", "discards only")


def test_a_tile_then_nothing_to_build_allows_ending_the_turn():
    # After a tile, no column may be possible any more (and no modified turn after an action).
    sites = {1: "r:4", 2: "b:4", 3: "b:4", 4: "b:4", 5: "g:4", 6: "g:4"}
    state = build(reserve="rvvyy", hand="", sites=sites)
    state, _ = play(state, "t1 r/g")
    assert "end" in moves(state)
    state, _ = play(state, "end")
    assert state.phase == "draw"


# ---------------------------------------------------------------------- abilities by colour, several a turn


@pytest.mark.parametrize("letter,ability", [("r", "lantern"), ("b", "buddha"), ("g", "rice bowl"),
                                            ("v", "fan"), ("y", "dragon")])
def test_the_tile_colour_defines_the_ability_gained(letter, ability):
    # "La couleur de la tuile pagode définit la capacité spéciale que vous gagnez."
    state = build(reserve=letter * 2 + "bgv", hand="", sites={1: f"{letter}:4"})
    state, ev = play(state, f"t1 {letter}/r")
    assert [e for e in ev if e[0] == "gain"] == [("gain", 0, ability, 2)]


def test_several_different_abilities_in_one_turn():
    # "il vous est possible d'utiliser une ou plusieurs capacités spéciales différentes acquises précédemment"
    state = build(reserve="bbrrg", hand="GY", sites={1: "v:4", 2: "y:3"},
                  uses={"lantern": 2, "buddha": 2, "rice bowl": 2})
    state, ev = play(state, "lantern", "t1 bb/y", "c2=y rr", "c1 Y", "c3 g", "c4 G")
    assert [e[2] for e in ev if e[0] == "use"] == ["lantern", "buddha", "rice bowl"]
    assert state.columns == 4


def test_the_draw_pile_is_hidden_from_both_players():
    state, _, _ = table(GAME.apply(GAME.setup(), (ROLL, 0))[0])
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        assert all(view.cards.ids[s] is None for s in state.draw)
    assert all(state.cards.ids[s] is not None for s in state.draw), "the full state (open table) knows them"


def test_points_are_scored_before_the_played_cards_are_discarded():
    # "Remarque très importante : effectuez le décompte des points avant de défausser les cartes !"
    state = build(reserve="rbgvy")
    state, ev = play(state, "c1 r", "end")
    kinds = [e[0] for e in ev]
    assert kinds.index("score") < kinds.index("end") and GAME.scores(state) == [1, 0]


def test_every_event_has_a_sentence_and_every_table_outcome_a_line():
    state = GAME.setup()
    texts = []
    t = OpenTable(5)
    for _ in range(400):
        if GAME.is_over(state):
            break
        if GAME.next_actor(state) == TABLE:
            action = t.resolve(state, state.pending)
        else:
            action = GAME.legal_actions(state, state.current)[-1]
        texts.append(GAME.format_action(state, action))
        state, ev = GAME.apply(state, action)
        for e in ev:
            sentence = GAME.describe_event(e)
            assert sentence and "\n" not in sentence and not sentence.startswith(e[0] + " ")
    assert any(x.startswith("deal") for x in texts) and any(x.startswith("first player") for x in texts)


def test_views_in_any_order_mask_exactly_what_each_seat_may_not_know():
    state, _, _ = table(GAME.apply(GAME.setup(), (ROLL, 0))[0])
    for order in ((0, 1, None), (None, 1, 0), (1, 0, 1)):
        for seat in order:
            view = GAME.view(state, seat)
            assert view.cards.ids == state.cards.masked(seat).ids
            assert "masks" not in view.to_data()
    state2, _ = GAME.apply(state, GAME.legal_actions(state, 0)[0])
    for seat in (0, 1, None):
        assert GAME.view(state2, seat).cards.ids == state2.cards.masked(seat).ids


def test_rice_bowl_summit_cards_in_any_order():
    state = build(reserve="gybbr", hand="R", sites={1: "rb,bg,gg:4"}, uses={"rice bowl": 2})
    ids = state.cards.ids
    by_colour = {}
    for slot in state.reserves[0]:
        by_colour.setdefault(ids[slot] // 11, []).append(slot)
    (g,), (y,), (b1, b2) = by_colour[G], by_colour[Y], by_colour[B]
    tile = ((g, ids[g]),)
    for summit in (((y, ids[y]), (b1, ids[b1]), (b2, ids[b2])), ((b1, ids[b1]), (y, ids[y]), (b2, ids[b2]))):
        after, ev = GAME.apply(state, ("roof", 0, Y, tile, summit))
        assert points(ev) == 6
    with pytest.raises(IllegalAction, match="one yellow card, and two cards of one colour"):
        GAME.apply(state, ("roof", 0, Y, tile, ((b1, ids[b1]), (b2, ids[b2]), (state.hands[0][0], ids[state.hands[0][0]]))))


def test_the_box_55_cards_11_per_colour_and_25_tiles_5_per_colour():
    # "55 cartes, 11 par couleur." "25 tuiles pagode, 5 par couleur." (every background/spots pair once)
    from lanterne.engines.pagode.data import COLOURS, DECK_SIZE, colour_of
    assert DECK_SIZE == 55 and [sum(colour_of(i) == c for i in range(55)) for c in range(5)] == [11] * 5
    assert len(TILES) == 25 and sorted((b, f) for b, f, _ in TILES) == [(b, f) for b in range(5) for f in range(5)]
    assert all(summit == spots for _, spots, summit in TILES), "house data: the summit is the spot colour"
    assert COLOURS == ("red", "blue", "green", "violet", "yellow")
    assert TILES[tile_id(G, V)][2] == V, "the rulebook's one example: a green tile with a violet summit"
