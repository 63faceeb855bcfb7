"""Points while building, the end of the game and the final scoring (seed sections 4, end, final scoring)."""

import pytest

from lanterne.engines.pacal import GAME, data
from lanterne.engines.pacal.board import board_for
from lanterne.engines.pacal.rules.scoring import district_final, final_scoring, ranked_awards, round_half_up
from lanterne.engines.pacal.state import BUILD, OVER
from tests.engines.pacal.helpers import play, position, scored

L = "L"  # district L: columns d-f, rows 10-13, worth 4 (house data)


def at_build(players=3, **kw):
    kw.setdefault("ships", {0: "a1", 1: "b1", 2: "a2", 3: "b2", 4: "a3"})
    kw["ships"] = {k: v for k, v in kw["ships"].items() if k < players}
    return position(players, phase=BUILD, **kw)


def test_first_pyramid_in_a_district_scores_its_value():
    # "être le premier à construire une pyramide dans un quartier" ; "il avance sa pierre sur le parcours de points
    #  autour du plateau de jeu du nombre de points indiqué sur ce quartier."
    assert data.DISTRICTS[L][0] == 4
    after, events = play(at_build(stones={0: ["e11"]}), "build 1 on e11")
    assert scored(events) == [(0, 4, "district L first pyramid")] and after.score[0] == 4


def test_taking_the_strict_majority_scores():
    # "prendre la majorité dans un quartier, en devenant le joueur ayant strictement le plus grand nombre d'étages sur
    #  ce quartier (en additionnant les étages de toutes ses pyramides)."
    s = at_build(stones={0: ["e11", "f11"]}, pyramids={"d10": (1, 3), "d13": (0, 2)})
    _, events = play(s, "build 2 on e11 with e11 f11")  # 2 + 2 = 4 storeys against 3
    assert scored(events) == [(0, 4, "district L majority taken")]
    _, events = play(s, "build 1 on e11")  # 2 + 1 = 3 against 3: no majority
    assert scored(events) == []


def test_no_points_for_a_majority_already_held():
    # "Attention : Si un joueur a déjà la majorité dans un quartier et construit une autre pyramide dans le même
    #  quartier, il ne reçoit pas de points car il possède déjà la majorité et ne la prend pas."
    s = at_build(stones={0: ["e11"]}, pyramids={"d10": (0, 2), "d13": (1, 1)})
    _, events = play(s, "build 1 on e11")
    assert scored(events) == []


def test_breaking_a_shared_majority_scores():
    # "Si deux ou plusieurs joueurs se partagent la majorité dans un quartier, et si un de ces joueurs construit une
    #  nouvelle pyramide, ce dernier reprend la majorité à lui seul et encaisse les points."
    s = at_build(stones={0: ["e11"]}, pyramids={"d10": (0, 2), "d13": (1, 2)})
    _, events = play(s, "build 1 on e11")
    assert scored(events) == [(0, 4, "district L majority taken")]


def test_an_upgrade_that_takes_the_majority_scores():
    s = at_build(stones={0: ["e11"]}, pyramids={"e12": (0, 1), "d10": (1, 1)})
    _, events = play(s, "upgrade 2 on e12 with e11 e12")
    assert scored(events) == [(0, 4, "district L majority taken")]


def ten_pyramids(seat, leave):
    """Cells for all of ``seat``'s pyramids but one of ``leave`` storeys (rows 12-13, columns a-f)."""
    sizes = [k for k, n in data.PYRAMIDS.items() for _ in range(n)]
    sizes.remove(leave)
    spots = [f"{x}{y}" for y in (13, 12) for x in "abcdef"]
    return {spots[i]: (seat, k) for i, k in enumerate(sizes)}


def test_last_pyramid_ends_the_game_at_once_with_5_more_points():
    # "un joueur construit sa dernière pyramide. Le jeu se termine immédiatement et ce joueur avance sa pierre de 5
    #  points de plus."
    s = at_build(stones={0: ["i6"]}, pyramids=ten_pyramids(0, 1), current=0, roller=0)
    assert sum(s.pyramid_supply[0]) == 1
    after, events = play(s, "build 1 on i6")
    assert GAME.is_over(after) and after.phase == OVER
    assert (0, data.LAST_PYRAMID_BONUS, "last pyramid") in scored(events)
    assert events.index(("score", 0, 5, "last pyramid")) < events.index(("end", "player 1 built their last pyramid"))
    assert GAME.legal_actions(after, 1) == []


def test_an_upgrade_is_not_a_last_pyramid():
    pyr = ten_pyramids(0, 5)
    s = at_build(stones={0: ["a11", "b11"]}, pyramids=pyr)  # the square a11 b11 a12 b12
    assert s.pyramid_supply[0] == [0, 0, 0, 0, 1]
    acts = [a for a in GAME.legal_actions(s, 0) if a[0] == "upgrade"]
    assert acts
    for a in acts:
        after, events = GAME.apply(s, a)
        assert not GAME.is_over(after) and sum(after.pyramid_supply[0]) == 1


@pytest.mark.parametrize("players,threshold", [(3, 40), (4, 35), (5, 30)])
def test_the_point_threshold_finishes_the_round(players, threshold):
    # "Si un joueur atteint les nombre de points suivants avec sa pierre sur le parcours de points : 40 points s'il y a
    #  3 joueurs - 35 points s'il y a 4 joueurs - 30 points s'il y a 5 joueurs. Dans ce cas, on joue jusqu'à la fin du
    #  tour."
    assert data.END_THRESHOLD[players] == threshold
    s = at_build(players, stones={1: ["e11"]}, current=1, roller=0, score={1: threshold - 4})
    after, events = play(s, "build 1 on e11")
    assert after.triggered and not GAME.is_over(after) and after.score[1] == threshold
    assert ("end triggered", 1, threshold) in events
    for _ in range(players - 2):  # seats 2 .. players-1 finish the round
        assert after.current != 0
        after, _ = play(after, GAME.format_action(after, GAME.legal_actions(after, after.current)[0]))
        while not GAME.is_over(after) and after.phase != "move":
            acts = GAME.legal_actions(after, after.current)
            after, _ = GAME.apply(after, ("pass",) if ("pass",) in acts else acts[0])
    assert GAME.is_over(after)
    assert after.end_reason == f"the round ended after a player reached {threshold} points"


def test_below_the_threshold_the_game_goes_on():
    s = at_build(stones={1: ["e11"]}, current=1, roller=0, score={1: 35})
    after, _ = play(s, "build 1 on e11")
    assert after.score[1] == 39 and not after.triggered


def test_two_players_end_at_45_at_once():
    # "Le jeu se termine dès qu'un joueur obtient 45 points sur le parcours de points avec sa pierre (ou qu'il
    #  construit sa dernière pyramide)"
    assert data.END_THRESHOLD[2] == 45 and data.TWO_PLAYER_ENDS_AT_ONCE
    s = at_build(2, stones={0: ["e11"]}, current=0, roller=0, score={0: 41})
    after, events = play(s, "build 1 on e11")
    assert GAME.is_over(after) and after.end_reason == "player 1 reached 45 points"


def test_second_to_last_pyramid_after_the_trigger_scores_5():
    # "Il n'y a pas de points de bonus sauf si un joueur réussit à construire son avant-dernière pyramide. Dans ce
    #  cas, il avance sa pierre de 5 points de plus."
    pyr = ten_pyramids(2, 1)
    pyr.pop("a13")  # one 2-storey pyramid back in the supply: 2 left
    s = at_build(stones={2: ["i6"]}, pyramids=pyr, current=2, roller=0, triggered=True, score={0: 41})
    assert sum(s.pyramid_supply[2]) == 2
    after, events = play(s, "build 1 on i6")
    assert (2, data.SECOND_TO_LAST_BONUS, "second-to-last pyramid after the end was triggered") in scored(events)
    calm = at_build(stones={2: ["i6"]}, pyramids=pyr, current=2, roller=0)
    _, events = play(calm, "build 1 on i6")
    assert [e for e in scored(events) if "second-to-last" in e[2]] == []


def test_seed_example_lake_scoring_12_6_6():
    # "Exemple : Le jaune a construit des pyramides au bord lac avec un total de 8 étages, le mauve et le vert, des
    #  pyramides d'un total de 6 étages chacun. Le jaune reçoit 12 points, le mauve et le vert se partagent 8+4=12
    #  points, c'est à dire 6 points chacun."
    YELLOW, MAUVE, GREEN = 0, 1, 2
    s = position(3, pyramids={"c3": (YELLOW, 5), "d3": (YELLOW, 3), "b4": (MAUVE, 4), "b5": (MAUVE, 2),
                              "e4": (GREEN, 5), "e5": (GREEN, 1)})
    events = final_scoring(s, board_for(3))
    assert [(e[1], e[2]) for e in events if e[3] == "lake"] == [(YELLOW, 12), (MAUVE, 6), (GREEN, 6)]
    assert [e for e in events if e[3] == "river"] == []


def test_river_places_12_8_4():
    # "Celui qui a la majorité autour de la rivière marque 12 points, le second 8 points et le troisième 4 points."
    assert data.WATER_AWARDS == (12, 8, 4)
    assert ranked_awards([3, 5, 1, 0], (12, 8, 4)) == [8, 12, 4, 0]
    assert ranked_awards([1, 2, 3, 4, 5], (12, 8, 4)) == [0, 0, 4, 8, 12]


def test_water_ties_share_the_places_and_round():
    # "En cas d'égalité, les points des places sont additionnés et répartis de manière égale entre les joueurs. Si le
    #  nombre de points obtenu n'est pas entier, on arrondit."
    assert ranked_awards([4, 4, 1], (12, 8, 4)) == [10, 10, 4]
    assert ranked_awards([4, 2, 2, 2], (12, 8, 4)) == [12, 4, 4, 4]
    assert ranked_awards([1, 1, 1, 1, 1], (12, 8, 4)) == [5] * 5  # 24 / 5 = 4.8
    assert ranked_awards([3, 2, 1, 1, 1], (12, 8, 4)) == [12, 8, 1, 1, 1]  # 4 / 3 = 1.33
    assert round_half_up(5, 2) == 3 and round_half_up(7, 3) == 2 and round_half_up(12, 5) == 2


def test_river_scoring_in_a_position():
    s = position(3, pyramids={"c10": (0, 2), "d10": (1, 1), "c12": (2, 1)})
    events = final_scoring(s, board_for(3))
    assert [(e[1], e[2]) for e in events if e[3] == "river"] == [(0, 12), (1, 6), (2, 6)]


def test_district_majority_and_second_place():
    # "Dans chaque quartier les deux premiers joueurs marquent des points. Celui qui possède la majorité dans un
    #  quartier avance du nombre indiqué dans ce quartier. Le joueur qui a la deuxième place avance de 2 points."
    assert district_final([3, 1, 2], 4) == ([4, 0, 0], [0, 0, 2])
    assert district_final([3, 0, 0], 4) == ([4, 0, 0], [0, 0, 0])
    assert district_final([0, 0, 0], 4) == ([0, 0, 0], [0, 0, 0])


def test_district_ties():
    # "En cas d'égalité sur la majorité, tous les joueurs concernés avancent du nombre indiqué dans le quartier. Dans
    #  ce cas, il n'y a pas de points pour la deuxième place. En cas d'égalité sur la deuxième place, tous les joueurs
    #  concernés avancent de deux cases."
    assert district_final([3, 3, 2], 5) == ([5, 5, 0], [0, 0, 0])
    assert district_final([4, 2, 2, 1], 5) == ([5, 0, 0, 0], [0, 2, 2, 0])


def test_final_scoring_of_districts_in_a_position():
    s = position(3, pyramids={"e11": (0, 3), "f12": (1, 2), "e13": (2, 1), "i6": (1, 1)})
    events = final_scoring(s, board_for(3))
    got = {(e[1], e[2], e[3]) for e in events if e[3].startswith("district")}
    assert got == {(0, 4, "district L majority"), (1, 2, "district L second"), (1, 6, "district J majority")}


def test_final_scoring_happens_when_the_game_ends_and_scores_are_the_events():
    s = at_build(stones={0: ["i6"]}, pyramids=ten_pyramids(0, 1), energy={1: [6]}, score={0: 12})
    after, events = play(s, "build 1 on i6")
    assert after.score[0] == 12 + sum(e[2] for e in events if e[0] == "score" and e[1] == 0)
    assert (1, 6, "energy pieces") in scored(events)


def test_the_winner_has_the_most_points_ties_share():
    # "Après le décompte final, le gagnant est le joueur qui a marqué le plus de points."
    s = position(3, score={0: 30, 1: 41, 2: 41})
    assert GAME.winners(s) == [1, 2]


def test_ships_and_stones_are_worth_nothing_at_the_end():
    # "On retire d'abord tous les vaisseaux spatiaux et les pierres divines. Ils n'ont aucune valeur."
    s = position(3, ships={0: "c6", 1: "e11"}, stones={0: ["c7", "d7", "e4"], 1: ["f11"], 2: ["c3"]},
                 energy={0: [], 1: [], 2: []})
    assert final_scoring(s, board_for(3)) == []


def test_selfplay_command_plays_pacal(capsys):
    # `lanterne selfplay pacal --players N --variant V --games K --seed S`
    from lanterne.client.cli import main

    assert main(["selfplay", "pacal", "--players", "2", "--variant", "expert", "--games", "1", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "game 0:" in out and "P1=" in out and "P2=" in out


def test_events_read_as_sentences():
    s = at_build(stones={0: ["e11"]})
    _, events = play(s, "build 1 on e11")
    texts = [GAME.describe_event(e) for e in events]
    assert "P1 builds 1 storeys on e11" in texts and "P1 scores 4 (district L first pyramid)" in texts
