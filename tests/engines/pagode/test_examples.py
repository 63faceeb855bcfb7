"""The rulebook's worked examples, with its numbers."""

from lanterne.engines.pagode import GAME

from .helpers import build, moves, play, points, tile_id

R, B, G, V, Y = range(5)


def test_chloe_scores_4_with_two_red_columns_on_an_empty_site_and_a_blue_one_on_a_second_floor():
    # "Chloé joue 2 cartes rouges pour construire 2 colonnes rouges sur un terrain à bâtir vide. ... Elle joue
    #  également une carte bleue sur un autre terrain à bâtir pour construire une colonne bleue au 2e étage.
    #  ... Chloé marque donc un total de 4 points."
    state = build(reserve="rrbgv", hand="YY", sites={4: "gb:2"})
    state, events = play(state, "c1 r", "c1 r", "c4 b")
    assert [e[2] for e in events if e[0] == "score"] == [1, 1, 2]
    assert points(events) == 4 and GAME.scores(state) == [4, 0]
    assert state.site_cols[0] == 2 and state.site_colour[0] == R and state.site_cols[3] == 3


def test_lucas_scores_3_and_gains_the_lantern_finishing_floor_one_with_a_red_tile():
    # "Lucas joue 2 cartes rouges, avec lesquelles il construit les deux dernières colonnes du 1er étage. Il joue
    #  une troisième carte rouge pour construire une tuile pagode sur l'étage complet. Il marque un total de
    #  3 points ... De plus, il peut désormais utiliser la capacité spéciale Lanterne."
    state = build(reserve="rrrbg", hand="VY", sites={2: "r:2"})
    state, events = play(state, "c2 r", "c2 r", "t2 r/b")
    assert points(events) == 3 and ("gain", 0, "lantern", 2) in events
    assert ("tile", 0, 1, tile_id(R, B)) in events
    assert "lantern" in moves(state)
    # "il pourrait jouer une autre carte, par exemple bleue, pour construire la 1re colonne bleue du 2e étage
    #  (et marquer 2 points supplémentaires). Il pourrait également ... construire sa 3e colonne sur une autre pagode."
    after, more = play(state, "c2 b")
    assert points(more) == 2 and ("column", 0, 1, B, 2) in more
    assert "c1 b" in moves(state) and "c1 g" in moves(state)


def test_chloe_scores_10_with_the_last_green_column_and_a_green_roof_with_a_violet_summit():
    # "Chloé joue une carte verte pour construire la dernière colonne du 4e étage, et ainsi marquer 4 points.
    #  Puis, elle joue une seconde carte verte pour entamer la construction du toit par la pose de la tuile pagode
    #  verte sur l'étage complété. Elle marque 1 point supplémentaire et gagne la capacité spéciale verte.
    #  Maintenant, elle doit jouer deux cartes violettes en plus pour construire le sommet. Cela lui rapporte
    #  5 points supplémentaires, pour un total de 10 points marqués ce tour."
    state = build(reserve="ggvvr", hand="BY", sites={5: "rb,by,yg:3"})
    state, events = play(state, "c5 g", "roof5 g/v vv")
    assert [e[2] for e in events if e[0] == "score"] == [4, 1, 5]
    assert points(events) == 10
    assert ("gain", 0, "rice bowl", 2) in events and ("summit", 0, 4, V) in events
    assert GAME.is_complete(state, 4)
    # "Chloé n'ayant pour le moment construit que 2 colonnes (1 verte et le sommet comptant comme 1 colonne),
    #  elle peut choisir d'en construire une 3e dans la suite de son tour."
    assert state.columns == 2
    state, events = play(state, "c1 r")
    assert state.columns == 3 and not any(m.startswith("c") for m in moves(state))
