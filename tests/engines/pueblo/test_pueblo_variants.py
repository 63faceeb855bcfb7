"""The dismantling variant and the advanced rules, a test per rule sentence (quoted in French)."""

import pytest

from lanterne.engines.core import IllegalAction, RulesError
from lanterne.engines.pueblo import GAME
from lanterne.engines.pueblo.notation import parse_action

from tests.engines.pueblo.pueblo_build import build


def play(state, *texts):
    events = []
    for text in texts:
        state, ev = GAME.apply(state, GAME.parse_action(state, text))
        events += ev
    return state, events


def run_until(state, stop, pick=lambda acts: acts[0]):
    """Play fixed choices until ``stop(state)``; a bound proves it ends."""
    for _ in range(5000):
        if stop(state):
            return state
        acts = GAME.legal_actions(state, GAME.next_actor(state))
        state, _ = GAME.apply(state, pick(acts))
    raise AssertionError("no end")


def middle(acts):
    return acts[len(acts) // 2]


# ------------------------------------------------------------------ dismantling


def dismantle(stones, seat=0, players=3, **kw):
    return build(players, stones, phase="remove", seat=seat, variant="dismantling", stage=3, **kw)


def test_dismantling_starts_after_the_final_round_with_the_first_player_and_the_chief_on_the_marker():
    # « Après son dernier tour, le chef se trouve de nouveau sur la marque blanche. Celle-ci est alors
    #   retirée du jeu. Le premier joueur commence le démontage. »
    state = GAME.apply(GAME.setup(players=3, variant="dismantling"), ("roll", 1))[0]
    marker = None
    for _ in range(500):
        acts = GAME.legal_actions(state, GAME.next_actor(state))
        state, events = GAME.apply(state, middle(acts))
        for e in events:
            if e[0] == "final round":
                marker = e[1]
        if marker is not None:
            break
    assert state.stage == 3 and state.chief == marker
    assert GAME.next_actor(state) == 1 and state.phase in ("remove", "move")


def test_only_a_stone_that_touches_no_other_can_be_removed():
    # « Un joueur ne peut enlever une pierre que s'il ne touche pas aux autres. »
    # house rule: nothing of another stone lies on any of its cubes (it lifts straight up)
    state = dismantle([(0, "b1^ a1 a2"), ("N", "b2^ a2 a1"), (0, "e1^ d1 d2")])
    assert sorted(GAME.legal_actions(state, 0)) == sorted([("remove", parse_action(state, "x b2")[1]),
                                                           ("remove", parse_action(state, "x e1")[1])])
    with pytest.raises(IllegalAction, match="without touching"):
        play(state, "x b1")


def test_only_your_own_colour_or_neutral_may_be_removed():
    # « Il n'a le droit d'enlever une pierre que de sa couleur ou neutre. »
    state = dismantle([(1, "b1^ a1 a2"), (0, "e1^ d1 d2")])
    assert GAME.legal_actions(state, 0) == [("remove", parse_action(state, "x e1")[1])]
    with pytest.raises(IllegalAction, match="own coloured stones or neutral"):
        play(state, "x a1")


def test_no_neutral_removal_once_your_colour_is_off_the_board():
    # « Important : Si un joueur ne possède plus de pierres de sa couleur sur le plateau, il n'a plus le
    #   droit d'enlever de pierre neutre »
    state = dismantle([("N", "b1^ a1 a2"), (1, "e1^ d1 d2")], seat=0)
    with pytest.raises(IllegalAction, match="no stone of your colour"):
        GAME.apply(state, ("remove", parse_action(state, "x b1")[1]))
    state = dismantle([("N", "b1^ a1 a2"), (1, "e1^ d1 d2")], seat=1)
    assert len(GAME.legal_actions(state, 1)) == 2


def test_the_chieftain_moves_even_when_nothing_could_be_removed():
    # « Le joueur est obligé de déplacer le chef, même s'il n'a pas pu enlever de pierre. »
    state = dismantle([(1, "b1^ a1 a2"), (0, "h1^ g1 g2"), (0, "d4^ e4 e3")], seat=0, chief=30)
    state, _ = play(state, "x h1", "m1")
    assert GAME.next_actor(state) == 1 and state.phase == "remove"
    state, _ = play(state, "x a1", "m1")
    assert GAME.next_actor(state) == 2 and state.phase == "move"  # green has nothing to remove
    assert GAME.legal_actions(state, 2) == [("move", n) for n in (1, 2, 3, 4)]


def test_dismantling_penalties_still_count():
    # « Déplacer le chef de 1 à 4 cases : Les règles sont les mêmes que dans la version de base. »
    state = dismantle([(1, "b1^ a1 a2"), (0, "h8^ h7 g7")], seat=0, chief=26)
    state, events = play(state, "x h8", "m2")  # west of row 1: blue a1 level 1, b1 level 2
    assert [e for e in events if e[0] == "score"] == [("score", 1, -3, "west of row 1")]


def test_the_game_ends_when_the_last_coloured_stone_is_removed():
    # « La partie prend fin dès que la dernière pierre de couleur a été retirée du plateau. Le vainqueur
    #   est le joueur qui totalise le moins de points de pénalité. »
    state = dismantle([("N", "d4^ e4 e3"), (0, "b1^ a1 a2")], penalties=[3, 1, 2])
    state, events = play(state, "x a2")
    assert GAME.is_over(state) and events[-1] == ("over", (1,))
    assert GAME.winners(state) == [1]
    assert state.stones[1] is None and state.stones[0] is not None  # the neutral stone stays


def test_a_random_dismantling_game_ends_with_no_coloured_stone():
    state = GAME.apply(GAME.setup(players=4, variant="dismantling"), ("roll", 3))[0]
    state = run_until(state, GAME.is_over, middle)
    assert not any(st is not None and st[0] >= 0 for st in state.stones)


# ------------------------------------------------------------------ advanced


def advanced(players=3, sites=2, first=0, variant="advanced"):
    state = GAME.setup(players=players, variant=variant, sacred_sites=sites)
    return GAME.apply(state, ("roll", first))[0]


def test_advanced_two_blocks_each_held_back_for_phase_2():
    # « Quel que soit le nombre de joueurs, chacun met de côté 2 blocs (= 4 pierres) au début. Ils ne
    #   serviront que dans la seconde phase. »
    state = GAME.setup(players=4, variant="advanced")
    assert state.held == [2] * 4 and state.coloured == [3] * 4 and state.neutral == [2] * 4


def test_sacred_sites_one_to_four_placed_by_the_players():
    # « Les joueurs décident du nombre de lieux sacrés utilisés et de l'endroit où ils les placent sur
    #   le plateau. » (house rule: from the first player clockwise, one site each)
    for bad in (0, 5):
        with pytest.raises(RulesError, match="1 to 4 sacred sites"):
            GAME.setup(players=2, variant="advanced", sacred_sites=bad)
    state = advanced(players=3, sites=4, first=2)
    seats = []
    for text in ("site d4 e4 e5", "site a1 b1 a2", "site h8 g8 h7", "site c7 c8 d8"):
        seats.append(GAME.next_actor(state))
        state, _ = play(state, text)
    assert seats == [2, 0, 1, 2] and len(state.sites) == 4 and state.phase == "bid"
    with pytest.raises(IllegalAction, match="overlap"):
        play(advanced(sites=2), "site d4 e4 e5", "site e5 e4 f4")
    with pytest.raises(IllegalAction, match="L"):
        play(advanced(sites=2), "site a1 b1 c1")


def test_no_stone_on_a_sacred_site():
    # « Aucune pierre ne peut être posée sur un lieu sacré ! »
    state = build(2, phase="place", variant="advanced", sites=["d4 e4 e5"], sites_wanted=1)
    with pytest.raises(IllegalAction, match="d4 is a sacred site"):
        play(state, "C d4^ e4 e3")
    site = {parse_action(state, "x " + c)[1] for c in ("d4", "e4", "e5")}
    from lanterne.engines.pueblo.board import TEMPLATE_INDEX
    for a in GAME.legal_actions(state, 0):
        assert not site & set(TEMPLATE_INDEX[a[2:]].cells)


def start_auction(players=3, first=0):
    state = advanced(players=players, sites=1, first=first)
    state, _ = play(state, "site a1 b1 a2")
    return state


def test_as_many_turn_order_cards_as_players():
    # « Le nombre de cartes "Ordre de jeu" utilisées est égal au nombre de joueurs. Par exemple, à trois,
    #   la carte "4" n'est pas utilisée. »
    state, _ = play(start_auction(3), "bid 1", "pass", "pass")
    assert GAME.legal_actions(state, 0) == [("card", 1), ("card", 2), ("card", 3)]
    with pytest.raises(IllegalAction, match="card 4 is not available"):
        play(state, "card 4")


def test_auction_bids_go_clockwise_higher_or_pass_and_a_pass_is_final():
    # « Les offres sont faites dans le sens des aiguilles d'une montre. Le joueur le plus âgé commence et
    #   annonce son offre en points de pénalité. Les joueurs suivants peuvent alors surenchérir ou
    #   passer. S'il passe, un joueur ne peut plus reprendre les enchères en cours. »
    state = start_auction(4, first=1)
    assert GAME.next_actor(state) == 1  # house rule: the rolled seat plays the oldest player
    state, _ = play(state, "bid 2")
    assert GAME.next_actor(state) == 2
    with pytest.raises(IllegalAction, match="must beat 2"):
        play(state, "bid 2")
    state, _ = play(state, "pass", "bid 3")  # seat 2 passes, seat 3 bids 3
    assert GAME.next_actor(state) == 0
    state, _ = play(state, "bid 4", "bid 5")  # seat 0, then seat 1
    assert GAME.next_actor(state) == 3  # seat 2 passed: skipped for good
    assert ("bid", 6) in GAME.legal_actions(state, 3) and ("bid", 5) not in GAME.legal_actions(state, 3)


def test_the_last_bidder_left_picks_any_card_and_pays_the_bid():
    # « Les enchères continuent jusqu'à ce que tous les joueurs aient passé sauf un. Celui-ci choisit
    #   alors une carte "Ordre de jeu" et la pose devant lui. Il avance ensuite son compteur sur le
    #   tableau du nombre de points ainsi misés. »
    state, _ = play(start_auction(3), "bid 1", "bid 4", "pass", "pass")
    assert state.phase == "pick" and GAME.next_actor(state) == 1
    state, events = play(state, "card 2")
    assert state.card_of[1] == 2 and state.penalties == [0, 4, 0]
    assert ("score", 1, -4, "bid for turn-order card 2") in events


def test_the_player_left_of_the_winner_opens_the_next_card():
    # « Le joueur assis à gauche de celui qui à remporté la dernière carte "Ordre de jeu" commence ; il
    #   fait une nouvelle offre pour la carte "Ordre de jeu" suivante. »
    state, _ = play(start_auction(4), "pass", "bid 1", "pass", "pass", "card 1")  # seat 1 wins
    assert GAME.next_actor(state) == 2 and state.phase == "bid"


def test_the_last_card_is_free():
    # « Le joueur qui obtient la dernière carte "Ordre de jeu" ne marque aucun point de pénalité. »
    state, events = play(start_auction(2), "bid 3", "pass", "card 2")
    assert state.card_of == [2, 1] and state.penalties == [3, 0]
    assert ("card", 1, 1, 0) in events


def test_all_pass_the_opener_takes_a_card_for_free():
    # « Si le premier joueur passe dès le début des enchère et que tous les joueurs suivants passent
    #   également, il peut choisir une carte "Ordre de jeu" sans marquer de points de pénalité. »
    state, _ = play(start_auction(3, first=2), "pass", "pass", "pass")
    assert state.phase == "pick" and GAME.next_actor(state) == 2
    state, _ = play(state, "card 3")
    assert state.penalties == [0, 0, 0] and state.card_of[2] == 3


def test_card_1_plays_first_every_round_then_card_2():
    # « Le joueur qui possède la carte "Ordre de jeu 1" commence tous les tours, suivi du joueur qui
    #   possède la carte "Ordre de jeu 2"... »
    state, _ = play(start_auction(3), "pass", "pass", "pass", "card 3", "pass", "pass", "card 1")
    assert state.card_of == [3, 1, 2] and state.order == [1, 2, 0]
    seats = []
    for _ in range(6):
        seats.append(GAME.next_actor(state))
        state, _ = GAME.apply(state, GAME.legal_actions(state, seats[-1])[0])
        state, _ = GAME.apply(state, ("move", 1))
    assert seats == [1, 2, 0, 1, 2, 0]


def auctions_seen(variant, players=3):
    state = advanced(players=players, sites=1, variant=variant)
    log = []
    for _ in range(5000):
        if GAME.is_over(state):
            return log
        acts = GAME.legal_actions(state, GAME.next_actor(state))
        state, events = GAME.apply(state, acts[0] if state.phase == "bid" else middle(acts))
        for e in events:
            if e[0] == "auction":
                log.append((e[1], state.stage, [state.held[p] for p in range(players)]))
    raise AssertionError("no end")


def test_auctions_at_the_start_and_after_phase_1_then_the_held_blocks_come_in():
    # « Ces enchères ont lieu deux fois au cours de la partie : - Au début et - Après que tout les
    #   joueurs aient placé leur pierres de la première phase. Après ces secondes enchères, les joueurs
    #   reçoivent les deux blocs mis de côté pour la seconde phase. »
    assert auctions_seen("advanced") == [(1, 1, [2, 2, 2]), (2, 2, [0, 0, 0])]


def test_a_third_auction_before_dismantling():
    # « Important : Si les joueurs utilisent la variante "Démontage" dans la règle avancée, les enchères
    #   ont lieu une troisième fois avant le démontage. »
    assert [a[:2] for a in auctions_seen("advanced+dismantling")] == [(1, 1), (2, 2), (3, 3)]


def test_dismantling_with_no_coloured_stone_built_ends_after_the_final_round():
    # « La partie prend fin dès que la dernière pierre de couleur a été retirée du plateau. »
    # Every coloured stone was set aside (drop house rule): there is nothing to dismantle.
    state = build(2, [("N", "b1^ a1 a2")], phase="move", seat=1, variant="dismantling",
                  coloured=[0, 0], neutral=[0, 0], lone=[False, False], dropped=[[8, 7], [8, 6]])
    after, events = GAME.apply(state, ("move", 1))
    assert GAME.is_over(after) and events[-1] == ("over", (0, 1))


def test_auction_events_read_as_sentences():
    state, events = play(start_auction(2), "bid 3", "pass", "card 2")
    assert [GAME.describe_event(e) for e in events] == [
        "red bids 3", "blue passes", "red takes turn-order card 2 for 3", "red +3 penalty (bid for turn-order card 2)",
        "blue takes turn-order card 1 free", "turn order: blue, red"]


def test_house_data_a_sacred_site_is_an_l_of_3_cells_like_a_stone_footprint():
    # README: "sacred sites: 1-4 L-shaped 3-cell sites placed at setup"
    from lanterne.engines.pueblo.board import TEMPLATES
    from lanterne.engines.pueblo.board import SITE_SHAPES
    assert len(SITE_SHAPES) == 4 * 49
    assert set(SITE_SHAPES) == {tuple(sorted(t.cells)) for t in TEMPLATES}
