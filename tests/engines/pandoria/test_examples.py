"""The seed's worked examples, with its numbers, as positions."""

from __future__ import annotations

from lanterne.engines.pandoria import GAME
from lanterne.engines.pandoria import data as D
from lanterne.engines.pandoria.data import CITY, FOREST, HILL, MOUNTAIN
from lanterne.engines.pandoria.rules import building_cost, monument_cost

from .positions import (H, bare, card_id, cover, crystal_region, give_card, give_tile, play, set_building,
                        to_market)

RED, BLUE = 0, 1


def test_scoring_example_leader_counts_two():
    # « Le joueur rouge reçoit 9 cristaux (3 cristaux x 3 pions - le leader comptant
    #   pour 2 pions !) et le joueur bleu reçoit 3 cristaux. »
    st = crystal_region()
    st, events = play(st, "tile F1H1 h0 E", "skip", "skip")
    assert ("closed", "mountain", (H("f0"), H("g0"))) in events
    assert ("gain", RED, "crystal", 9) in events
    assert ("gain", BLUE, "crystal", 3) in events
    assert st.resources[RED][D.CRYSTAL] == 9 and st.resources[BLUE][D.CRYSTAL] == 3


def test_scoring_example_towers_and_the_cap_of_ten():
    # « Il reçoit 9 cristaux pour ses 3 pions, 4 cristaux supplémentaires pour la grande
    #   tour (2 x 2) et 2 cristaux pour sa petite tour (2 x 1), soit un total de 15 cristaux.
    #   Supposons qu'il possède déjà 2 cristaux, il aurait alors un total de 17 cristaux :
    #   son jeton cristaux est alors placé sur la case « 10 » et il reçoit 2 points pour
    #   les 7 cristaux restants. Le cristal restant est perdu. »
    st = crystal_region(red_buildings=[("Teleport", "Large Tower"), ("Astral Ship", "Small Tower")],
                        red_crystals=2)
    st, events = play(st, "tile F1H1 h0 E", "skip", "skip")
    assert ("gain", RED, "crystal", 15) in events
    assert st.resources[RED][D.CRYSTAL] == 10
    assert ("score", RED, 2, "crystal above 10") in events
    assert st.points[RED] == 2


def test_spell_costs_two_crystals_example():
    # « Payez 2 cristaux pour le sortilège »
    st = bare(2)
    st.phase = "card"
    slot = give_card(st, RED, card_id("Muster", "Lumberyard"))
    cover(st, "f3", FOREST)
    st.resources[RED][D.CRYSTAL] = 5
    st, events = play(st, "spell Muster/Lumberyard figure f3")
    assert st.resources[RED][D.CRYSTAL] == 3
    assert slot in st.piles["spells0"] and st.occupant[H("f3")] == 0


def test_building_costs_six_wood_example():
    # « Payez 6 bois pour le bâtiment »
    st = bare(2)
    st.phase = "card"
    give_card(st, RED, card_id("Clone", "Large Tower"))
    st.resources[RED][D.WOOD] = 7
    st, _ = play(st, "build Clone/LargeTower 1")
    assert st.resources[RED][D.WOOD] == 1


def test_market_card_costs_two_gold_example():
    # « Payez 2 ors pour la carte »
    st = crystal_region()
    to_market(st, card_id("Conjure", "Small Tower"))
    st.resources[RED][D.GOLD] = 3
    st, events = play(st, "tile F1H1 h0 E", "skip", "skip", "buy Conjure/SmallTower")
    assert st.resources[RED][D.GOLD] == 1
    assert any(e[0] == "buy" and e[3] == 2 for e in events)


def test_monument_example_corrected_eight_minus_three_is_five():
    # « Payez 8-5=3 bois pour un monument »: the rules README (FAQ erratum) says the
    # text is wrong and the picture right: covering a 3-wood building costs 8 - 3 = 5.
    st = bare(2)
    set_building(st, RED, 0, card_id("Astral Ship", "Small Tower"))
    set_building(st, RED, 1, card_id("Clone", "Large Tower"))
    set_building(st, RED, 2, card_id("Clone", "Statue"))
    assert monument_cost(st, RED, 0) == 5
    assert monument_cost(st, RED, 1) == 2
    assert monument_cost(st, RED, 2) == 4
    st.phase = "card"
    st.resources[RED][D.WOOD] = 5
    st, events = play(st, "monument 1")
    assert st.resources[RED][D.WOOD] == 0
    assert ("score", RED, 6, "monument") in events


def test_overbuilding_pays_the_difference_example():
    # « Vous pouvez construire par dessus un bâtiment en payant la différence entre le coût
    #   du nouveau bâtiment [et celui du] recouvert, avec un minimum de 1 bois »
    st = bare(2)
    set_building(st, RED, 0, card_id("Astral Ship", "Small Tower"))
    large = card_id("Clone", "Large Tower")
    give_card(st, RED, large)
    assert building_cost(st, RED, large, 0) == 3
    set_building(st, RED, 1, card_id("Master Builder", "Large Tower"))
    small = card_id("Teleport", "Small Saw Mill")
    assert building_cost(st, RED, small, 1) == 1
    assert GAME.scores(st) == [0, 0]


def test_turn_steps_come_in_the_seed_order():
    # « À votre tour, réalisez les actions suivantes dans cet ordre : 6.1. Placer obligatoirement une
    #   tuile double ou un château [...] 6.2. Placer un pion ou en reprendre un 6.3. Jouer une carte ou
    #   construire un monument 6.4. Décompter et acheter des cartes 6.5 Tirer une tuile double »
    st = crystal_region()
    st.resources[RED][D.GOLD] = 5
    phases = [st.phase]
    for text in ("tile F1H1 h0 E", "figure i0", "skip", "skip"):
        st, _ = play(st, text)
        phases.append(st.phase if st.current == RED else "next seat")
    assert phases == ["place", "figure", "card", "buy", "next seat"]


def test_region_products_by_terrain():
    # « Selon le type de la région décomptée, les joueurs reçoivent du bois (forêt), du cristal
    #   (montagne), de l'or (colline) ou des points (cités). »
    for terrain, resource in ((FOREST, D.WOOD), (HILL, D.GOLD), (MOUNTAIN, D.CRYSTAL), (CITY, None)):
        st = crystal_region()
        st.terrain[H("f0")] = st.terrain[H("g0")] = terrain
        st.terrain[H("e0")] = MOUNTAIN if terrain == CITY else CITY
        for h in ("e1", "f1", "g1"):
            if st.terrain[H(h)] == terrain:
                st.terrain[H(h)] = MOUNTAIN
        st, events = play(st, "tile F1H1 h0 E" if terrain not in (FOREST,) else "tile F1H1 i0 W", "skip", "skip")
        if resource is None:
            assert st.points == [9, 3]
        else:
            assert st.resources[RED][resource] == 9 and st.resources[BLUE][resource] == 3
            assert st.points == [0, 0]


def test_every_player_with_adjacent_figures_takes_part_not_only_the_active_one():
    # « Tous les joueurs ayant des pions adjacents à la région clôturée prennent part au décompte
    #   (et pas seulement le joueur actif!). »
    st = crystal_region()
    st.current = BLUE
    give_tile(st, BLUE, (FOREST, 1, HILL, 1))
    st, events = play(st, "tile F1H1 h0 E", "skip", "skip")
    assert ("gain", RED, "crystal", 9) in events and ("gain", BLUE, "crystal", 3) in events
