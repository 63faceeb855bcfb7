"""Turn order and the die: the shared roll of a round, the 2-player own roll."""

import pytest

from lanterne.engines.core import TABLE, IllegalAction
from lanterne.engines.pacal import GAME
from lanterne.engines.pacal.state import MOVE, ROLL
from tests.engines.pacal.helpers import started


def finish_turn(s):
    """Play the seat's turn with its first legal moves, passing builds, until another actor is up."""
    seat = GAME.next_actor(s)
    while GAME.next_actor(s) == seat and not GAME.is_over(s):
        acts = GAME.legal_actions(s, seat)
        moves = [a for a in acts if a[0] == "move"]
        pick = moves[0] if moves else ([a for a in acts if a in (("pass",), ("stones", False, None, ()))] or acts)[0]
        s, _ = GAME.apply(s, pick)
    return s


def test_one_roll_holds_for_every_player_of_the_round():
    # "le résultat obtenu est valable pour TOUS les joueurs du tour."
    s = started(3, first=1)
    assert GAME.next_actor(s) == TABLE
    s, events = GAME.apply(s, ("roll", 4))  # face 5
    assert events == [("roll", 1, 5)]
    order = []
    for _ in range(3):
        order.append(s.current)
        assert s.face == 5 and GAME.next_actor(s) != TABLE
        s = finish_turn(s)
    assert order == [1, 2, 0]
    # "Lorsque chaque joueur a joué son coup, un nouveau tour commence et le dé passe au joueur suivant."
    assert GAME.next_actor(s) == TABLE and s.phase == ROLL and s.round == 2 and s.current == 2


def test_the_starter_of_a_round_plays_last_in_the_next():
    # "Le joueur qui commence un tour est toujours le dernier joueur du tour suivant."
    s = started(4, first=0)
    rounds = []
    for _ in range(3):
        s, _ = GAME.apply(s, ("roll", 0))
        order = []
        for _ in range(4):
            order.append(s.current)
            s = finish_turn(s)
        rounds.append(order)
    assert rounds == [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1]]
    assert rounds[0][0] == rounds[1][-1] and rounds[1][0] == rounds[2][-1]


def test_two_players_roll_for_their_own_turn():
    # "chaque joueur lance le dé à son tour de jeu et joue avec le résultat de son propre lancé."
    s = started(2, first=1)
    seen = []
    for value in (0, 4, 1, 5):
        assert GAME.next_actor(s) == TABLE
        s, events = GAME.apply(s, ("roll", value))
        seen.append((s.current, s.face, s.round))
        s = finish_turn(s)
    assert seen == [(1, 2, 1), (0, 5, 1), (1, 3, 2), (0, 0, 2)]


def test_a_turn_is_move_then_stones_then_build():
    # "1. Déplacer le vaisseau spatial (action obligatoire !) 2. Mettre en jeu une ou deux pierres divines
    #  (action optionnelle) 3. Construire une pyramide (action optionnelle)"
    s = started(3)
    s, _ = GAME.apply(s, ("roll", 0))
    assert s.phase == MOVE
    assert all(a[0] in ("move", "energy", "relocate") for a in GAME.legal_actions(s, 0))
    assert ("pass",) not in GAME.legal_actions(s, 0)  # moving is obligatory
    s, _ = GAME.apply(s, GAME.legal_actions(s, 0)[0])
    assert s.phase == "stones" and ("stones", False, None, ()) in GAME.legal_actions(s, 0)


@pytest.mark.parametrize("action, why", [
    (("place",), "place takes 1 arguments"),
    (("place", True), "place: argument 1 must be a number"),
    (("place", "f6"), "place: argument 1 must be a number"),
    (("place", 10_000), "not a cell"),
    (("pass", 1), "'pass' is not a move now"),
])
def test_a_malformed_action_from_a_peer_is_refused_field_by_field_in_one_line(action, why):
    s, _ = GAME.apply(GAME.setup(players=2), ("roll", 0))
    with pytest.raises(IllegalAction, match=why) as e:
        GAME.apply(s, action)
    assert "\n" not in str(e.value)


def test_a_malformed_move_or_stones_action_is_refused():
    s, _ = GAME.apply(started(2), ("roll", 1))
    for action, why in [(("move", "straight"), "move takes 2 arguments"),
                        (("move", "straight", None), "move: argument 2 must be a number"),
                        (("energy", True, 5), "energy: argument 1 must be a number")]:
        with pytest.raises(IllegalAction, match=why):
            GAME.apply(s, action)
