"""Two rounds of a 3-player game, move by move in the notation: the rules working together."""

from lanterne.engines.core import TABLE
from lanterne.engines.pacal import GAME
from tests.engines.pacal.picture import picture
from lanterne.engines.pacal.state import BUILD, MOVE
from tests.engines.pacal.helpers import c, play, scored


def test_two_rounds_of_three_players():
    s = GAME.setup(players=3)
    s, _ = play(s, "first P1", "place f6", "place g6", "place h6")
    assert GAME.next_actor(s) == TABLE and s.round == 1

    # round 1: P1 rolls 4 for everybody; every ship leaves the sacred district in a straight line
    s, _ = play(s, "roll 3 = 4", "straight f2", "stones own P2")
    # P1's stones lie under ships: nothing visible, so no build step; P2 is up with the same 4
    assert s.current == 1 and s.phase == MOVE and s.face == 4
    s, _ = play(s, "straight g10", "stones own")
    s, _ = play(s, "straight h2", "stones own P1")
    assert s.stone_mask(c("f2")) == 0b101 and s.stone_mask(c("g6")) == 0b001 and s.stone_mask(c("h2")) == 0b100

    # round 2: the die passes to P2, who starts; P1, who started round 1, plays last
    assert GAME.next_actor(s) == TABLE and s.round == 2 and s.current == 1
    s, events = play(s, "roll 0 = 2", "turn f9", "stones own")
    assert s.phase == BUILD  # g10 is visible now that P2's ship has left it
    s, events = play(s, "build 1 on g10")
    assert scored(events) == [(1, 5, "district M first pyramid")]
    s, events = play(s, "straight h4", "stones none", "build 1 on h2")
    assert scored(events) == [(2, 4, "district C first pyramid")]
    assert s.current == 0
    s, events = play(s, "straight d2", "stones none")
    # P1's stone on g6 (dropped into P2's ship in round 1) is visible since P2 left
    assert {a[2] for a in GAME.legal_actions(s, 0) if a[0] == "build"} == {c("f2"), c("g6")}
    s, events = play(s, "build 1 on g6")
    assert scored(events) == [(0, 7, "district S first pyramid")]
    assert s.score == [7, 5, 4] and s.round == 3 and s.current == 2 and GAME.next_actor(s) == TABLE
    assert s.stone_mask(c("f2")) == 0b101  # P1's stone and P3's stone stay on f2
    board = picture(s)
    assert "P1:1" in board and "P2:1" in board and "P3:1" in board
