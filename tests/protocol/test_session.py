"""session.py: whole games between honest peers, replays and restarts."""

import pytest

from lanterne.engines.bots import RandomBot
from lanterne.protocol.identity import safety_code
from lanterne.protocol.log import LogWriter, read_log
from lanterne.protocol.memory import Pipe, make_sessions, play
from lanterne.protocol.session import GameOver, Session, TableSet
from lanterne.protocol.wire import ProtocolError
from tests.protocol.helpers import HIGHCARD, games, highcard_sessions, play_highcard


@pytest.mark.parametrize("players", [2, 3])
def test_honest_game_ends_with_identical_chains(players):
    sessions = play_highcard(players)
    chains = {tuple(e.raw for e in s.chain) for s in sessions}
    assert len(chains) == 1
    results = {s.result for s in sessions}
    assert len(results) == 1 and isinstance(results.pop(), GameOver)
    kinds = [e.kind for e in sessions[0].chain]
    assert kinds[:players + 1] == ["hello"] * players + ["table"]
    assert kinds[players + 1:2 * players + 1] == ["genesis"] * players
    assert kinds[-2 * players:] == ["fair_final"] * players + ["end"] * players
    assert sessions[0].game_id and all(e.game == sessions[0].game_id for e in sessions[0].chain[2 * players + 1:])


def test_table_event_shows_the_same_safety_code():
    sessions = highcard_sessions(2)
    pipe = play(sessions, [RandomBot(0), RandomBot(1)])
    codes = [[e for e in pipe.events[i] if isinstance(e, TableSet)][0].safety_code for i in range(2)]
    assert codes[0] == codes[1] == safety_code(sessions[0].public, sessions[1].public)
    assert [e for e in pipe.events[1] if isinstance(e, TableSet)][0].my_seat == 1


def test_same_seed_same_bytes():
    a = [e.raw for e in play_highcard(2, seed="same")[0].chain]
    b = [e.raw for e in play_highcard(2, seed="same")[0].chain]
    c = [e.raw for e in play_highcard(2, seed="other")[0].chain]
    assert a == b and a != c


@pytest.mark.parametrize("players", [2, 3])
def test_replay_of_every_seat_reproduces_its_entries(players):
    sessions = play_highcard(players)
    raws = [e.raw for e in sessions[0].chain]
    for s in sessions:
        r = Session.replay(raws, s.public, s.seed, games=games)
        assert r.result == s.result and r.head == s.head


def test_replay_with_the_wrong_seed_is_caught():
    sessions = play_highcard(2)
    raws = [e.raw for e in sessions[0].chain]
    with pytest.raises(Exception) as info:
        Session.replay(raws, sessions[1].public, b"\x00" * 32, games=games)
    assert "seat 2" in str(info.value)


def test_pagode_logs_are_identical_byte_for_byte(tmp_path):
    from lanterne.engines.registry import get_game

    game = get_game("pagode")
    paths = [tmp_path / f"seat{i}.lanterne" for i in range(2)]
    writers = [LogWriter(p) for p in paths]
    sessions = make_sessions(game, 2, "pagode-test", stores=[w.append for w in writers])
    play(sessions, [RandomBot(1), RandomBot(2)])
    for w in writers:
        w.close()
    assert paths[0].read_bytes() == paths[1].read_bytes()
    raws, tail = read_log(paths[0])
    assert tail == 0 and raws == [e.raw for e in sessions[0].chain]
    first_roll = [e for e in sessions[0].chain if e.kind == "fair_commit"]
    assert first_roll, "the first player is drawn by a fair roll"


def test_restart_from_the_log_after_a_crash():
    sessions = play_highcard(2, seed="crash")
    full = [e.raw for e in sessions[0].chain]
    for cut in (1, 3, 9, 14, len(full) - 3):
        again = [Session.from_log(full[:cut], s.identity, s.seed, games=games, game=HIGHCARD, name=f"bot{i + 1}")
                 for i, s in enumerate(sessions)]
        assert all(s.chain[:cut] == sessions[0].chain[:cut] for s in again)
        pipe = Pipe(again)
        for i in range(2):
            pipe.collect(i, [])      # what a restarted peer writes at once goes out
        for _ in range(500):
            pipe.deliver()
            if all(s.over for s in again):
                break
            i = next(i for i, s in enumerate(again) if s.my_turn)
            pipe.collect(i, again[i].act(again[i].legal_actions()[0]))
        assert all(isinstance(s.result, GameOver) for s in again), cut
        assert [e.raw for e in again[0].chain] == [e.raw for e in again[1].chain]


def test_resent_entries_are_ignored():
    sessions = highcard_sessions(2)
    a, b = sessions
    a.start()
    hello = a.chain[0]
    b.receive(hello)
    assert b.receive(hello) == [] and not b.over


def test_resume_after_a_dropped_link_by_log_heads():
    sessions = highcard_sessions(2, seed="drop")
    a, b = sessions
    pipe = Pipe(sessions)
    pipe.collect(0, a.start())
    bots = [RandomBot(1), RandomBot(2)]
    link_up = {"up": True, "dropped": 0}

    def link(src, dst, raw):
        if not link_up["up"]:
            link_up["dropped"] += 1
            return None
        return raw
    moves = 0
    while not all(s.over for s in sessions):
        pipe.deliver(link)
        movers = [i for i, s in enumerate(sessions) if s.my_turn]
        if not movers:                             # both wait: reconnect, compare heads, send what is missing
            if link_up["up"]:
                break
            link_up["up"] = True
            for me, other in ((a, b), (b, a)):
                for entry in me.chain[other.head[0]:]:
                    pipe.collect(sessions.index(other), other.receive(entry, sender=me.public))
                for entry in me.chain[0:][:2]:   # old entries sent again are harmless
                    assert other.receive(entry, sender=me.public) == []
            continue
        i = movers[0]
        moves += 1
        if moves == 1:
            link_up["up"] = False                  # the cable is pulled as the first move goes out
        pipe.collect(i, sessions[i].act(bots[i].choose(sessions[i].game, sessions[i].view, i)))
    assert link_up["dropped"] > 0
    assert isinstance(a.result, GameOver) and a.result == b.result
    assert [e.raw for e in a.chain] == [e.raw for e in b.chain]


@pytest.mark.parametrize("players", [2, 3])
def test_a_pile_with_hidden_cards_is_relocked_then_shuffled(players):
    from tests.protocol.helpers import RESHUFFLE, AlwaysSwap

    sessions = make_sessions(RESHUFFLE, players, "relock", games=games)
    play(sessions, [AlwaysSwap() for _ in range(players)])
    kinds = [e.kind for e in sessions[0].chain]
    assert kinds.count("fair_relock") == players
    assert len({tuple(e.raw for e in s.chain) for s in sessions}) == 1
    assert isinstance(sessions[0].result, GameOver)
    from lanterne.protocol.verify import verify_entries

    report = verify_entries([e.raw for e in sessions[0].chain], games=games)
    assert report.ok and report.replayed == list(range(1, players + 1))



def test_guests_listed_by_the_host_join_in_that_order():
    sessions = highcard_sessions(3, seed="order")
    host, g1, g2 = sessions
    assert host.guests == [g1.public, g2.public]
    host.start()
    hello = host.chain[0]

    def own(session):   # what a session wrote itself
        return [e for e in session.chain if e.author == session.public]

    g2.receive(hello, sender=host.public)
    assert own(g2) == []                           # not its turn: the first guest joins first
    g1.receive(hello, sender=host.public)
    g1_hello = own(g1)[0]
    g2.receive(g1_hello, sender=g1.public)
    assert len(own(g2)) == 1 and g2.chain[-1].author == g2.public

    from lanterne.protocol.log import seal

    stranger = highcard_sessions(3, seed="stranger")[2]
    stranger_hello = seal(stranger.identity, game=b"", seq=1, prev=host.chain[0].hash, kind="hello",
                          body={"versions": [1], "name": "eve"})
    host.receive(stranger_hello, sender=stranger.public)
    assert host.over and "not the guest the host expects" in host.result.reason


def test_every_host_lists_its_guests_and_a_hello_without_the_list_is_read_in_a_replay_only():
    """Two seats too: the host's hello names its guest. A log from before (the guest was whoever said
    hello first) still replays; live, such a hello is refused."""
    from pathlib import Path

    from lanterne.protocol.log import open_entry

    host, guest = highcard_sessions(2, seed="listed")
    host.start()
    assert host.chain[0].body["guests"] == [guest.public]
    raws, _ = read_log(Path(__file__).parent / "logs" / "pueblo-seed1.log")
    old_hello = open_entry(raws[0])
    assert "guests" not in old_hello.body
    replayed = Session.replay(raws[:3], old_hello.author, bytes(32))      # both hellos and the table
    assert len(replayed.seats) == 2
    with pytest.raises(ProtocolError, match="lists no guests"):
        guest.receive(old_hello, sender=old_hello.author, on_error="raise")


def test_a_table_that_cannot_be_played_is_refused_before_it_enters_the_chain():
    from lanterne.protocol.log import seal

    host, guest = highcard_sessions(2, seed="badtable")
    host.start()
    guest.receive(host.chain[0], sender=host.public)
    head = guest.head
    body = {"game": "highcard", "variant": "nope", "players": 2, "options": {},
            "seats": [host.public, guest.public], "names": ["bot1", "bot2"]}
    table = seal(host.identity, game=b"", seq=2, prev=guest.head[1], kind="table", body=body)
    with pytest.raises(ProtocolError, match="cannot be played"):
        guest.receive(table, sender=host.public, on_error="raise")
    assert guest.head == head
    guest.receive(table, sender=host.public)
    assert guest.over and guest.chain[-1].kind == "abort"


def test_a_host_proposing_an_impossible_game_is_told_at_once():
    from lanterne.engines.core import RulesError
    from lanterne.protocol.identity import Identity

    with pytest.raises(RulesError):
        Session(Identity.from_seed(b"h"), host=True, game=HIGHCARD,
                guests=[Identity.from_seed(bytes([i])).public for i in range(6)])


def test_each_table_a_host_opens_has_its_own_table_id():
    """The table id (hash of entry 0) names a game's files: two tables must never share one,
    or a new game would overwrite the log of the last one."""
    import hashlib
    import os

    from lanterne.engines.registry import get_game
    from lanterne.protocol.identity import Identity

    me = Identity.from_seed(b"one host")
    first_entries = set()
    for _ in range(3):
        host = Session(me, host=True, name="H", game=get_game("pueblo"), guests=[Identity.from_seed(b"g").public],
                       seed=os.urandom(32))
        host.start()
        first_entries.add(hashlib.sha256(host.chain[0].raw).digest())
    assert len(first_entries) == 3


def test_a_copy_stays_where_it_was_made_and_plays_on_as_the_log_cut_there_would():
    """Session.copy (a local game's undo): the originals play on, the copies do not move; played on from there,
    the copies write the very entries that sessions rebuilt from the log cut at that place write."""
    from lanterne.engines.registry import get_game

    game = get_game("pagode")
    sessions = make_sessions(game, 2, "copy-test")
    pipe = Pipe(sessions)
    pipe.collect(0, sessions[0].start())
    bots = [RandomBot(1), RandomBot(2)]
    for _ in range(40):          # into the game: cards in hand, claims with proofs
        pipe.deliver()
        i = next(i for i, s in enumerate(sessions) if s.my_turn)
        pipe.collect(i, sessions[i].act(bots[i].choose(game, sessions[i].view, i)))
    pipe.deliver()
    cut = len(sessions[0].chain)
    copies = [s.copy() for s in sessions]
    digests = [game.digest(s.view) for s in copies]
    for _ in range(30):
        pipe.deliver()
        i = next(i for i, s in enumerate(sessions) if s.my_turn)
        pipe.collect(i, sessions[i].act(bots[i].choose(game, sessions[i].view, i)))
    pipe.deliver()
    assert len(sessions[0].chain) > cut
    assert [len(s.chain) for s in copies] == [cut, cut] and [game.digest(s.view) for s in copies] == digests
    raws = [e.raw for e in sessions[0].chain[:cut]]
    rebuilt = [Session.from_log(raws, s.identity, s.seed, name=f"bot{i + 1}") for i, s in enumerate(sessions)]
    ends = []
    for group in (copies, rebuilt):
        pipe = Pipe(group)
        for i, s in enumerate(group):
            pipe.sent[i] = [e.hash for e in s.chain]     # sent already, before the copy
        bots = [RandomBot("on/1"), RandomBot("on/2")]
        play_to_end = 0
        while not all(s.over for s in group) and play_to_end < 5000:
            pipe.deliver()
            movers = [i for i, s in enumerate(group) if s.my_turn]
            if movers:
                i = movers[0]
                pipe.collect(i, group[i].act(bots[i].choose(game, group[i].view, i)))
            play_to_end += 1
        ends.append([e.raw for e in group[0].chain])
    assert all(isinstance(s.result, GameOver) for s in copies)
    assert ends[0] == ends[1], "the copies and the log cut there play on alike"
