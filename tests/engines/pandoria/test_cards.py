"""Seed §6.3 and §6.4: spells, buildings, monuments and the market; the house card
effects (research §7.4) and the FAQ rulings on spells."""

from __future__ import annotations

import pytest

from lanterne.engines.core import DEAL, IllegalAction
from lanterne.engines.pandoria import GAME
from lanterne.engines.pandoria import data as D
from lanterne.engines.pandoria.data import CITY, FOREST, HILL, MOUNTAIN
from lanterne.engines.pandoria.board import EMPTY, KIND, LAND, NEIGHBOURS, is_enclosed
from lanterne.engines.pandoria.rules import CASTLE, MONUMENT, building_cost, monument_cost

from .positions import (H, bare, card_id, closable, cover, crystal_region, figure, give_card, give_tile, play, set_building,
                        to_market)

RED, BLUE = 0, 1


def card_phase(**res):
    st = bare(2)
    st.phase = "card"
    st.resources[RED] = [res.get("wood", 0), res.get("gold", 0), res.get("crystal", 0)]
    return st


def test_one_card_or_one_monument_per_turn():
    # « Vous pouvez jouer une carte ou construire un monument. »
    st = card_phase(wood=10, crystal=10)
    give_card(st, RED, card_id("Clone", "Statue"))
    give_card(st, RED, card_id("Muster", "Lumberyard"))
    st, _ = play(st, "build Clone/Statue 1")
    assert st.phase != "card" and st.current == BLUE
    assert len(st.piles["hand0"]) == 1


def test_spell_paid_in_crystals_played_once_and_kept_visible():
    # « Si vous jouez une carte de votre main en tant que sortilège, payez le coût indiqué en
    #   cristaux [...] réalisez ce sortilège immédiatement (usage unique). »
    st = card_phase(crystal=1)
    give_card(st, RED, card_id("Muster", "Lumberyard"))
    assert [a for a in GAME.legal_actions(st, RED) if a[0] == "spell"] == []
    with pytest.raises(IllegalAction, match="Muster costs 2 crystals, seat 1 has 1"):
        play(st, "spell Muster/Lumberyard figure g4")
    st.resources[RED][D.CRYSTAL] = 2
    after, events = play(st, "spell Muster/Lumberyard figure g4")
    assert after.resources[RED][D.CRYSTAL] == 0 and after.occupant[H("g4")] == 0
    assert [after.cards.ids[s] for s in after.piles["spells0"]] == [card_id("Muster", "Lumberyard")]
    assert after.cards.is_public(after.piles["spells0"][0])


def test_building_paid_in_wood_in_one_of_five_slots_and_works_at_once():
    # « Si vous jouez une carte de votre main en tant que bâtiment, payez le coût indiqué en bois
    #   [...] sous l'un des 5 emplacements [...] L'effet du bâtiment est immédiatement disponible »
    st = crystal_region()
    give_card(st, RED, card_id("Astral Ship", "Small Tower"))
    st.resources[RED][D.WOOD] = 3
    st, events = play(st, "tile F1H1 h0 E", "skip", "build AstralShip/SmallTower 1")
    assert st.resources[RED][D.WOOD] == 0
    assert ("gain", RED, "crystal", 9 + 2) in events  # the Small Tower counts in this very scoring
    st2 = card_phase(wood=10)
    for i, (spell, building) in enumerate([("Clone", "Statue"), ("Muster", "Lumberyard"), ("Acquire", "Bank"),
                                           ("Construct", "Shrine"), ("Teleport", "Vault")]):
        set_building(st2, RED, i, card_id(spell, building))
    give_card(st2, RED, card_id("Astral Ship", "Repository"))
    builds = [a for a in GAME.legal_actions(st2, RED) if a[0] == "build"]
    assert sorted(a[3] for a in builds) == [0, 1, 2, 3, 4]  # full: only over a building


def test_overbuilding_costs_the_difference_at_least_one_and_hides_the_old_building():
    # « Vous pouvez construire par dessus un bâtiment en payant la différence [...] avec un minimum
    #   de 1 bois [...] Comme le nouveau bâtiment recouvre l'ancien, ce dernier ne peut plus être utilisé. »
    st = card_phase(wood=5)
    set_building(st, RED, 0, card_id("Clone", "Statue"))
    give_card(st, RED, card_id("Astral Ship", "Small Tower"))
    st, events = play(st, "build AstralShip/SmallTower 1")
    assert st.resources[RED][D.WOOD] == 4 and ("build", RED, card_id("Astral Ship", "Small Tower"), 0, 1) in events
    assert [st.cards.ids[s] for s in st.piles["under0"]] == [card_id("Clone", "Statue")]


def test_carpenter_discount_not_when_it_is_covered():
    # « Attention : si « Carpenter » est recouvert, la réduction spéciale n'est pas appliquée pour
    #   la construction du nouveau bâtiment. » (and the same for a monument)
    st = card_phase()
    set_building(st, RED, 0, card_id("Conjure", "Carpenter"))
    statue = card_id("Clone", "Statue")
    give_card(st, RED, statue)
    assert building_cost(st, RED, statue, 1) == 4 - 1  # house data: Carpenter saves 1 wood
    assert building_cost(st, RED, statue, 0) == 1       # over the Carpenter: 4 - 4, at least 1
    large = card_id("Clone", "Large Tower")
    give_card(st, RED, large)
    assert building_cost(st, RED, large, 0) == 2        # 6 - 4, no discount
    assert monument_cost(st, RED, 0) == 4               # 8 - 4, no discount
    set_building(st, RED, 1, card_id("Astral Ship", "Small Tower"))
    assert monument_cost(st, RED, 1) == 5 - 1


def test_no_two_identical_visible_buildings_small_and_large_differ():
    # « Vous ne pouvez pas posséder 2 bâtiments identiques visibles sur vos 5 emplacements. Les petits
    #   et grands bâtiments d'un même type (Saw Mill, Tower, Treasury) sont considérés comme distincts. »
    st = card_phase(wood=10)
    set_building(st, RED, 0, card_id("Astral Ship", "Small Tower"))
    give_card(st, RED, card_id("Conjure", "Small Tower"))
    give_card(st, RED, card_id("Clone", "Large Tower"))
    builds = {(st.cards.ids[a[1]], a[3]) for a in GAME.legal_actions(st, RED) if a[0] == "build"}
    assert (card_id("Conjure", "Small Tower"), 1) not in builds
    assert (card_id("Conjure", "Small Tower"), 0) in builds  # over the other one: still one visible
    assert (card_id("Clone", "Large Tower"), 1) in builds
    with pytest.raises(IllegalAction, match="Small Tower cannot go in building slot 2"):
        play(st, "build Conjure/SmallTower 2")


def test_monument_covers_a_building_scores_at_once_and_is_never_covered():
    # « Pour construire un monument, il est nécessaire de recouvrir un bâtiment. Prenez le monument
    #   du dessus de la pile et recouvrez un de vos bâtiments. [...] Recevez de suite les points
    #   octroyés par ce monument. [...] Un monument ne peut jamais être recouvert. »
    st = card_phase(wood=10)
    assert not [a for a in GAME.legal_actions(st, RED) if a[0] == "monument"]
    with pytest.raises(IllegalAction, match="must cover one of your buildings"):
        play(st, "monument 1")
    set_building(st, RED, 0, card_id("Clone", "Statue"))
    top = st.monuments[-1]
    st, events = play(st, "monument 1")
    assert st.buildings[RED][0] == MONUMENT + top and ("score", RED, top, "monument") in events
    assert st.points[RED] == top and st.resources[RED][D.WOOD] == 10 - 4
    st = bare(2, seat=RED)
    st.buildings[RED][0] = MONUMENT + 6
    st.phase = "card"
    st.resources[RED][D.WOOD] = 10
    give_card(st, RED, card_id("Clone", "Statue"))
    assert [a[3] for a in GAME.legal_actions(st, RED) if a[0] == "build"] == [1]


def test_buy_from_the_market_after_a_scoring_and_refill_it():
    # « Si un décompte est effectué, vous pouvez (et seulement vous en tant que joueur actif),
    #   acheter une des 4 cartes du marché et la prendre dans votre main. Pour ce faire payez le
    #   coût en or [...] Enfin, révélez une nouvelle carte pour compléter le marché à 4 cartes. »
    st = crystal_region()
    st.resources[RED][D.GOLD] = 10
    bought = to_market(st, card_id("Clone", "Statue"))
    st, _ = play(st, "tile F1H1 h0 E", "skip", "skip")
    assert st.phase == "buy" and GAME.legal_actions(st, BLUE) == []
    st, _ = GAME.apply(st, GAME.parse_action(st, "buy Clone/Statue"))
    op = GAME.table_op(st)
    assert op.kind == DEAL and op.pile == "deck" and op.to is None and len(op.slots) == 1
    st, _ = play(st)
    assert bought in st.piles["hand0"] and len(st.piles["market"]) == 4
    assert st.resources[RED][D.GOLD] == 10 - 3


def test_no_buy_without_a_scoring():
    st = bare(2)
    st.resources[RED][D.GOLD] = 10
    give_tile(st, RED, (FOREST, 1, HILL, 1))
    st, _ = play(st, "tile F1H1 i4 E", "skip", "skip")
    assert st.current == BLUE  # no buy step


def test_closer_buys_even_without_resources():
    # « Seul le joueur ayant clôturé la région peut acheter une carte au marché, qu'il ait ou non reçu des ressources. »
    st = crystal_region()
    for h in ("e1", "f1"):
        st.occupant[H(h)] = -1
    st.reserve[RED], st.leader_home[RED] = 6, True
    st.resources[RED][D.GOLD] = 5
    st, events = play(st, "tile F1H1 h0 E", "skip", "skip")
    assert not any(e[0] == "gain" and e[1] == RED for e in events)
    assert st.phase == "buy" and st.current == RED


def test_a_closed_region_without_adjacent_figures_is_not_scored():
    # « Un décompte a lieu lorsqu'une région est clôturée et qu'au moins un pion adjacent à cette région est présent. »
    st = crystal_region()
    for h in ("e1", "f1", "g1"):
        st.occupant[H(h)] = -1
    st.resources[RED][D.GOLD] = 5
    st, events = play(st, "tile F1H1 h0 E", "skip", "skip")
    assert any(e[0] == "closed" for e in events) and not any(e[0] == "gain" for e in events)
    assert st.current == BLUE


def test_house_rule_the_market_is_not_refilled_from_an_empty_deck():
    st = crystal_region()
    st.resources[RED][D.GOLD] = 10
    st.piles["discard"] += st.piles["deck"]
    st.piles["deck"] = []
    st, _ = play(st, "tile F1H1 h0 E", "skip", "skip", "buy " + GAME.format_action(st, ("buy", st.piles["market"][0]))[4:])
    assert len(st.piles["market"]) == 3


# -- the house spells (research §7.4) and the FAQ rulings


def test_master_builder_also_builds_a_monument():
    st = card_phase(wood=10, crystal=3)
    set_building(st, RED, 0, card_id("Clone", "Statue"))
    give_card(st, RED, card_id("Master Builder", "Vault"))
    st, _ = play(st, "spell MasterBuilder/Vault")
    assert st.phase == "card" and [a for a in GAME.legal_actions(st, RED) if a[0] != "skip"] == [("monument", 0)]
    st, events = play(st, "monument 1")
    assert any(e[0] == "score" and e[3] == "monument" for e in events)


def test_acquire_takes_a_market_card_free():
    st = card_phase(crystal=2)
    slot = to_market(st, card_id("Clone", "Statue"))
    give_card(st, RED, card_id("Acquire", "Bank"))
    st, _ = play(st, "spell Acquire/Bank Clone/Statue")
    assert slot in st.piles["hand0"] and len(st.piles["market"]) == 4 and st.resources[RED][D.GOLD] == 0


def test_conjure_adds_one_per_own_figure_for_the_active_player_only():
    # « Les bâtiments des joueurs ou un sortilège du joueur actif peuvent influencer ce décompte. »
    st = crystal_region()
    give_card(st, RED, card_id("Conjure", "Small Tower"))
    st.resources[RED][D.CRYSTAL] = 1
    st, events = play(st, "tile F1H1 h0 E", "skip", "spell Conjure/SmallTower")
    assert ("gain", RED, "crystal", 9 + 2) in events and ("gain", BLUE, "crystal", 3) in events


def test_buildings_of_every_player_count_in_a_scoring():
    st = crystal_region()
    set_building(st, BLUE, 0, card_id("Clone", "Large Tower"))
    st, events = play(st, "tile F1H1 h0 E", "skip", "skip")
    assert ("gain", BLUE, "crystal", 3 + 2) in events


def test_terrain_places_a_single_tile_that_may_close_a_region():
    # FAQ: only castles or a Terrain single tile fill a one-hex hole.
    st = card_phase(crystal=3)
    give_card(st, RED, card_id("Terrain", "Lumberyard"))
    st, _ = GAME.apply(st, GAME.parse_action(st, "spell Terrain/Lumberyard"))
    op = GAME.table_op(st)
    assert op.kind == DEAL and op.pile == "singles" and op.to is None
    st, _ = play(st)
    assert st.phase == "terrain"
    st, events = play(st, "single i4")
    assert st.terrain[H("i4")] in (FOREST, HILL, MOUNTAIN, CITY) and st.phase == "terrain_figure"
    st, _ = play(st, "figure i4")
    assert st.occupant[H("i4")] == 0


def test_muster_puts_a_figure_on_any_open_space_printed_ones_too_never_ships_castles():
    # FAQ: spells may place figures onto the printed spaces, never onto a ship, a castle, an
    # occupied space or a closed region; the leader counts as a figure.
    st = card_phase(crystal=2)
    give_card(st, RED, card_id("Muster", "Lumberyard"))
    st.terrain[H("i4")], st.owner[H("i4")] = CASTLE, RED
    figure(st, "g4", BLUE)
    st.closed[H("h4")] = 1
    spots = {a[3] for a in GAME.legal_actions(st, RED) if a[0] == "spell"}
    assert H("c3") in spots and H("g5") in spots
    assert not spots & {H("i4"), H("g4"), H("h4"), H("f2")}
    st.reserve[RED] = 0
    assert {a[4] for a in GAME.legal_actions(st, RED) if a[0] == "spell"} == {True}


def test_adopt_replaces_an_adjacent_opponent_figure():
    st = card_phase(crystal=4)
    give_card(st, RED, card_id("Adopt", "Store"))
    figure(st, "g4", RED)
    figure(st, "h4", BLUE)
    figure(st, "k6", BLUE)
    targets = {a[3] for a in GAME.legal_actions(st, RED) if a[0] == "spell"}
    assert targets == {H("h4")}
    st, events = play(st, "spell Adopt/Store figure h4")
    assert st.occupant[H("h4")] == 0 and st.reserve[BLUE] == 6 - 1


def test_teleport_moves_a_figure_leader_included():
    st = card_phase(crystal=2)
    give_card(st, RED, card_id("Teleport", "Vault"))
    figure(st, "g4", RED, leader=True)
    st, events = play(st, "spell Teleport/Vault g4 c3")
    assert st.occupant[H("c3")] == 1 and st.occupant[H("g4")] == -1


def test_enchanted_castle_uses_an_own_empty_castle():
    st = card_phase(crystal=4)
    give_card(st, RED, card_id("Enchanted Castle", "Shrine"))
    st.terrain[H("i4")], st.owner[H("i4")] = CASTLE, RED
    st.terrain[H("f4")], st.owner[H("f4")] = CASTLE, BLUE
    targets = {a[3] for a in GAME.legal_actions(st, RED) if a[0] == "spell"}
    assert targets == {H("i4")}


def test_enchanted_castle_reaches_an_enclosed_own_castle_as_its_card_says():
    # Rules README: spells never place figures on castles « except [...] Enchanted Castle on the
    # caster's own castle, as their cards say »; the card names no enclosure (only the Elves do).
    st = card_phase(crystal=4)
    give_card(st, RED, card_id("Enchanted Castle", "Shrine"))
    st.terrain[H("i4")], st.owner[H("i4")] = CASTLE, RED
    for n in NEIGHBOURS[H("i4")]:
        if st.terrain[n] == EMPTY and KIND[n] == LAND:
            st.terrain[n] = D.HILL
    assert is_enclosed(st.terrain, H("i4"))
    assert {a[3] for a in GAME.legal_actions(st, RED) if a[0] == "spell"} == {H("i4")}


def test_construct_builds_one_more_for_two_wood_less():
    st = card_phase(crystal=2, wood=4)
    give_card(st, RED, card_id("Construct", "Shrine"))
    large = give_card(st, RED, card_id("Clone", "Large Tower"))
    st, _ = play(st, "spell Construct/Shrine", "build Clone/LargeTower 1")
    assert st.buildings[RED][0] == large and st.resources[RED][D.WOOD] == 0


def test_clone_next_to_an_own_figure():
    st = card_phase(crystal=3)
    give_card(st, RED, card_id("Clone", "Statue"))
    figure(st, "g4", RED)
    assert {a[3] for a in GAME.legal_actions(st, RED) if a[0] == "spell"} == {H("h4"), H("g5")}


def test_astral_ship_puts_a_figure_on_a_ship():
    st = card_phase(crystal=2)
    give_card(st, RED, card_id("Astral Ship", "Repository"))
    st, _ = play(st, "spell AstralShip/Repository figure f2")
    assert st.occupant[H("f2")] == 0


def test_bank_shrine_store_statue_mills_treasuries():
    st = bare(2)
    for i, b in enumerate([("Acquire", "Bank"), ("Construct", "Shrine"), ("Adopt", "Store"),
                           ("Clone", "Statue"), ("Teleport", "Small Saw Mill")]):
        set_building(st, RED, i, card_id(*b))
    from lanterne.engines.pandoria.rules import buy_price, gain, region_yield, spell_cost
    assert buy_price(st, RED, card_id("Clone", "Statue")) == 2 and spell_cost(st, RED, "Conjure") == 0
    st.resources[RED][D.WOOD] = 9
    events = []
    gain(st, RED, FOREST, 6, events)  # 15 wood: 5 above 10 at 2 : 1 with a Store
    assert ("score", RED, 2, "wood above 10") in events and st.resources[RED][D.WOOD] == 10
    cover(st, "i4", CITY, 2)
    figure(st, "i5", RED)
    assert region_yield(st, [H("i4")]) == {RED: 2 + 1}
    cover(st, "j4", FOREST, 1)
    assert region_yield(st, [H("j4")]) == {RED: 1 + 1}


def test_terrain_single_tile_fills_a_one_hex_hole_and_closes_the_region():
    # FAQ: only castles, or a single tile from the Terrain spell, can fill a one-hex hole.
    st = closable(bare(2))
    for name in ("h0", "i0", "h1", "g2", "h2"):
        cover(st, name, HILL)
    st.terrain[H("g1")] = -1
    st.phase = "card"
    st.resources[RED][D.CRYSTAL] = 3
    figure(st, "e1", RED)
    give_card(st, RED, card_id("Terrain", "Lumberyard"))
    st.piles["singles"].sort(key=lambda s: st.cards.ids[s] != 200 + 2 * CITY)  # a city tile on top
    st, events = play(st, "spell Terrain/Lumberyard", "single g1")
    assert ("closed", "mountain", (H("f0"), H("g0"))) in events
    st, events = play(st, "skip")
    assert ("gain", RED, "crystal", 3) in events


def test_house_rule_a_single_tile_that_fits_nowhere_is_discarded():
    st = bare(2)
    from lanterne.engines.pandoria.board import KIND, LAND, NHEX
    for h in range(NHEX):
        if KIND[h] == LAND and st.terrain[h] < 0:
            st.terrain[h] = FOREST
    st.phase = "card"
    st.resources[RED][D.CRYSTAL] = 3
    give_card(st, RED, card_id("Terrain", "Lumberyard"))
    st, events = play(st, "spell Terrain/Lumberyard")
    assert ("discard", RED) in events and len(st.piles["discard"]) == 1 and st.phase != "terrain"


def test_clone_and_teleport_never_reach_ships_castles_or_occupied_spaces():
    st = card_phase(crystal=5)
    give_card(st, RED, card_id("Clone", "Statue"))
    give_card(st, RED, card_id("Teleport", "Vault"))
    cover(st, "e2", FOREST)
    figure(st, "e2", RED)            # next to the lake f2 (a ship)
    st.terrain[H("e1")], st.owner[H("e1")] = CASTLE, RED
    cover(st, "d2", HILL)
    figure(st, "d2", BLUE)
    spots = {a[3] for a in GAME.legal_actions(st, RED) if a[0] == "spell" and a[2] == card_id("Clone", "Statue")}
    assert H("e3") not in spots and not spots & {H("f2"), H("e1"), H("d2")}
    dests = {a[4] for a in GAME.legal_actions(st, RED) if a[0] == "spell" and a[2] == card_id("Teleport", "Vault")}
    assert H("c3") in dests and not dests & {H("f2"), H("e1"), H("d2"), H("e2")}
