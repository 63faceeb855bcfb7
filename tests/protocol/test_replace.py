"""A gone seat replaced by a computer by agreement of the rest: signed, re-dealt, played to the end, verified."""

from __future__ import annotations

import pytest

from lanterne.engines.bots import RandomBot
from lanterne.engines.redeal import holders
from lanterne.engines.registry import get_game
from lanterne.protocol.session.phases import Phase
from lanterne.protocol.log import open_entry, seal
from lanterne.protocol.memory import make_sessions
from tests.support.replacing import play_replacing
from lanterne.protocol.session import (AGREE, COMPUTER_MARK, REPLACE, Aborted, GameOver, ReplaceAsked, Replaced, SeatReplaced,
                              Session)
from lanterne.protocol.verify import verify_entries
from lanterne.protocol.wire import ProtocolError

GONE = 2


def _game(game_id: str, seed: str, after_moves: int, players: int = 3, gone: int = GONE):
    sessions = make_sessions(get_game(game_id), players, seed, on_gone="computer")
    sessions[0].timeout = 30
    pipe, comp = play_replacing(sessions, [RandomBot(f"{seed}/{i}") for i in range(players)],
                                RandomBot(f"{seed}/computer"), gone=gone, after_moves=after_moves)
    return sessions, pipe, comp


@pytest.fixture(scope="module")
def pandoria():
    return _game("pandoria", "rp", 12)


@pytest.fixture(scope="module")
def pueblo():
    return _game("pueblo", "rq", 8)


def _raws(session):
    return [e.raw for e in session.chain]


@pytest.mark.parametrize("which", ["pandoria", "pueblo"])
def test_the_game_ends_normally_after_the_replacement_and_every_log_is_the_same(which, request):
    sessions, pipe, comp = request.getfixturevalue(which)
    assert comp is not None and comp.my_seat == GONE
    for s in (sessions[0], sessions[1], comp):
        assert isinstance(s.result, GameOver), s.result
    assert _raws(sessions[0]) == _raws(sessions[1]) == _raws(comp)
    kinds = [e.kind for e in sessions[0].chain]
    assert kinds.count(REPLACE) == 1 and kinds.count(AGREE) == 1
    replace = sessions[0].chain[kinds.index(REPLACE)]
    agree = sessions[0].chain[kinds.index(AGREE)]
    assert replace.author == sessions[0].public and replace.body["seat"] == GONE
    assert replace.body["key"] == comp.public and replace.body["name"].startswith(COMPUTER_MARK)
    assert agree.author == sessions[1].public and agree.body == {"replace": replace.hash}
    # from the next entry on the seat's key is the computer's; its name marks it, for everyone
    after = sessions[0].chain[kinds.index(AGREE) + 1:]
    assert any(e.author == comp.public for e in after)
    assert not any(e.author == sessions[GONE].public for e in after)
    for s in (sessions[0], sessions[1], comp):
        assert s.seats[GONE] == comp.public and s.names[GONE].startswith(COMPUTER_MARK)


@pytest.mark.parametrize("which", ["pandoria", "pueblo"])
def test_verify_replays_every_seat_the_computer_included(which, request):
    sessions, _, comp = request.getfixturevalue(which)
    report = verify_entries(_raws(sessions[0]))
    assert report.ok, report.problem
    assert report.result == "over" and sorted(report.replayed) == [1, 2, 3]
    assert report.seats[GONE]["computer"]["key"] == comp.public.hex()
    assert list(sessions[0].result.scores) == report.scores
    from lanterne.client.commands.verify import describe

    report.path = "game.log"
    assert f"(P{GONE + 1} taken over by {COMPUTER_MARK}" in describe(report)  # `lanterne verify` says so


def test_the_replace_signs_the_scores_so_far_and_everyone_sees_the_events(pandoria):
    sessions, pipe, comp = pandoria
    replace = next(e for e in sessions[0].chain if e.kind == REPLACE)
    asked = [ev for ev in pipe.events[1] if isinstance(ev, ReplaceAsked)]
    done = [ev for ev in pipe.events[1] if isinstance(ev, SeatReplaced)]
    assert asked == [ReplaceAsked(0, GONE, replace.body["name"], tuple(replace.body["scores"]), comp.public)]
    assert done == [SeatReplaced(GONE, replace.body["name"], comp.public)]
    before = Session.replay(_raws(sessions[0]), sessions[1].public, sessions[1].seed, upto=replace.seq)
    assert replace.body["scores"] == list(before.game.scores(before.view))


def _redealt_at(raws, session) -> Session:
    """``session``'s seat replayed to the first entry after which the re-deal is complete (bisection)."""
    lo, hi = next(i for i, raw in enumerate(raws) if open_entry(raw).kind == AGREE), len(raws)
    while lo < hi:
        mid = (lo + hi) // 2
        s = Session.replay(raws, session.public, session.seed, upto=mid)
        if s.epoch and not s.chance.redeal:
            hi = mid
        else:
            lo = mid + 1
    return Session.replay(raws, session.public, session.seed, upto=lo)


def test_pandoria_hands_are_redealt_same_sizes_fresh_cards(pandoria):
    sessions, _, comp = pandoria
    raws = _raws(sessions[0])
    replace = next(e for e in sessions[0].chain if e.kind == REPLACE)
    before = Session.replay(raws, sessions[1].public, sessions[1].seed, upto=replace.seq)
    hands = holders(before.view)
    assert hands.get(GONE) and hands.get(1), "the seats held cards"
    after = _redealt_at(raws, comp)
    assert after.my_seat == GONE
    # same hands, same sizes, same holders; the computer's (the gone seat's) face up for everyone
    mine = {seat: slots for seat, slots in hands.items() if seat != GONE}
    assert holders(after.view) == mine
    everyone = after.view.cards.everyone
    assert all(after.view.cards.seen[s] == everyone for s in hands[GONE])
    theirs = _redealt_at(raws, sessions[1])
    assert theirs.view.cards.seen == after.view.cards.seen
    gone_cards = sorted(before.game.view(before.view, None).cards.ids[s] is None for s in hands[GONE])
    assert all(gone_cards)
    # the computer knows its hand, and so does seat 2 (a computer's cards are public); seat 2 knows its own
    assert all(after.view.cards.ids[s] is not None for s in hands[GONE])
    assert [theirs.view.cards.ids[s] for s in hands[GONE]] == [after.view.cards.ids[s] for s in hands[GONE]]
    assert all(theirs.view.cards.ids[s] is not None for s in hands[1])
    # fresh cards: seat 2's hand after the re-deal is not (in general) its old hand
    assert [theirs.view.cards.ids[s] for s in hands[1]] != [before.view.cards.ids[s] for s in hands[1]]
    # every seat, the computer included, locked and shuffled the fresh decks, in seat order
    at = next(e.seq for e in sessions[0].chain if e.kind == AGREE) + 1
    first = [open_entry(r) for r in raws[at:at + 3]]
    assert [e.kind for e in first] == ["fair_shuffle"] * 3
    assert [e.author for e in first] == [sessions[0].public, sessions[1].public, comp.public]


def test_the_gone_peer_coming_back_learns_it_was_replaced(pandoria):
    sessions, _, _ = pandoria
    gone, claimer = sessions[GONE], sessions[0]
    events = []
    for entry in list(claimer.chain):
        events += gone.receive(entry, sender=claimer.public)
        if gone.over:
            break
    assert isinstance(gone.result, Replaced) and gone.result.seat == GONE and gone.result.by == 0
    assert events[-1] == gone.result and "\n" not in gone.result.reason
    replace_at = next(e.seq for e in claimer.chain if e.kind == REPLACE)
    assert _raws(gone)[:replace_at] == _raws(claimer)[:replace_at], "identical up to where it left"


def test_a_gone_peer_that_moved_on_its_own_learns_it_from_the_computers_first_entry():
    """Back from its files, the gone seat played its turn before any link (moves that never left it). The
    others' replace and agree are held aside at those places; the computer's first entry, signed with the key
    the replace named, tells it that its seat is gone (found by CI: this entry was refused as a stranger's)."""
    sessions, _, comp = _game("pueblo", "rh1", 8)
    gone, claimer = sessions[GONE], sessions[0]
    place = next(e.seq for e in claimer.chain if e.kind == REPLACE)
    while gone.my_turn:
        gone.act(RandomBot("rh1/back").choose(gone.game, gone.view, gone.my_seat))
    assert len(gone.chain) > place + 1 and all(e.author == gone.public for e in gone.chain[place:])
    events = []
    for entry in claimer.chain[place:]:
        events += gone.receive(entry, sender=claimer.public)
        if gone.over:
            break
    assert isinstance(gone.result, Replaced) and gone.result.by == 0 and "while this peer was gone" in \
        gone.result.reason, gone.result
    assert entry.author == comp.public, "out at the computer's first entry, not before"
    assert _raws(gone)[:place] == _raws(claimer)[:place]


def test_a_held_replace_counts_only_the_answer_of_the_seat_whose_answer_it_is():
    """At a table of three the one answer is the third seat's: an agree signed by the claimer itself (a seat
    that wants the gone one out) is not taken, and a computer's entry built on it changes nothing."""
    sessions, _, comp = _game("pueblo", "rh1", 8)
    gone, claimer = sessions[GONE], sessions[0]
    place = next(e.seq for e in claimer.chain if e.kind == REPLACE)
    gone.act(RandomBot("rh1/back").choose(gone.game, gone.view, gone.my_seat))
    replace = claimer.chain[place]
    forged = seal(claimer.identity, game=claimer.game_id, seq=place + 1, prev=replace.hash, kind=AGREE,
                  body={"replace": replace.hash})
    gone.receive(replace, sender=claimer.public)
    gone.receive(forged, sender=claimer.public)
    move = next(e for e in claimer.chain[place:] if e.author == comp.public)   # the claimer runs the computer:
    built = seal(comp.identity, game=claimer.game_id, seq=place + 2, prev=forged.hash, kind=move.kind,
                 body=move.body)                                            # it can sign on its own agree
    gone.receive(built, sender=claimer.public)
    assert not gone.over and gone.phase == Phase.PLAY


def test_the_replacing_key_is_an_author_only_on_the_held_branch():
    """The computer's key is taken only for an entry built on the held replace: one signed by it that extends
    the gone seat's own chain (the claimer holds that key) is dropped, and the game goes on for it."""
    sessions, _, comp = _game("pueblo", "rh1", 8)
    gone, claimer = sessions[GONE], sessions[0]
    place = next(e.seq for e in claimer.chain if e.kind == REPLACE)
    gone.act(RandomBot("rh1/back").choose(gone.game, gone.view, gone.my_seat))
    gone.receive(claimer.chain[place], sender=claimer.public)
    move = next(e for e in claimer.chain[place:] if e.author == comp.public)
    stray = seal(comp.identity, game=claimer.game_id, seq=len(gone.chain), prev=gone.chain[-1].hash,
                 kind=move.kind, body=move.body)
    events = gone.receive(stray, sender=claimer.public)
    assert not gone.over and gone.phase == Phase.PLAY and type(events[-1]).__name__ == "Dropped", events
    assert "holds no seat here" in events[-1].reason


def test_a_seat_that_sees_the_claimed_seat_here_refuses_and_the_replacement_is_withdrawn():
    """Seat 2 still sees seat 3 linked: it refuses the replace; the computer takes nothing; play waits again."""
    from tests.protocol.helpers import drive

    sessions = make_sessions(get_game("pueblo"), 3, "refuse", on_gone="computer")
    claimer, refuser = sessions[0], sessions[1]
    claimer.timeout = 30
    refuser.consent = lambda seat: False       # its own clock: seat 3 is linked to it and thinking
    cut = []

    def silent(src, dst, raw):
        if sum(e.kind == "move" for e in claimer.chain) >= 6 and (src == GONE or dst == GONE):
            cut.append(1)
            return None
        return raw
    pipe = drive(sessions, [RandomBot(i) for i in range(3)], filter=silent)
    assert cut and claimer.waiting_for() == GONE
    claimer.tick(0.0)
    pipe.collect(0, claimer.tick(31.0))
    pipe.deliver(silent)
    replace, refusal = claimer.chain[-2:]
    assert replace.kind == REPLACE and refusal.kind == "refuse" and refusal.author == refuser.public
    assert refusal.body == {"claim": replace.hash, "reason": "seat 2 sees seat 3 here"}
    for s in sessions[:2]:
        assert s.phase == Phase.PLAY and s.waiting_for() == GONE and s.claiming is None and not s.replaced
        assert s.seats[GONE] == sessions[GONE].public          # the seat is still seat 3's
    report = verify_entries(_raws(claimer))
    assert report.unfinished and "refuse" in report.problem


def test_a_seat_whose_clock_has_not_run_out_answers_later():
    """consent None: not yet; the answer comes with a later step (the peer calls Session.step)."""
    from tests.protocol.helpers import drive

    sessions = make_sessions(get_game("pueblo"), 3, "later", on_gone="computer")
    claimer, other = sessions[0], sessions[1]
    claimer.timeout = 30
    answer = [None]
    other.consent = lambda seat: answer[0]

    def silent(src, dst, raw):
        if sum(e.kind == "move" for e in claimer.chain) >= 6 and (src == GONE or dst == GONE):
            return None
        return raw
    pipe = drive(sessions, [RandomBot(i) for i in range(3)], filter=silent)
    claimer.tick(0.0)
    pipe.collect(0, claimer.tick(31.0))
    pipe.deliver(silent)
    assert claimer.chain[-1].kind == REPLACE and other.phase == Phase.CLAIM and other.step() == []
    answer[0] = True
    pipe.collect(1, other.step())
    pipe.deliver(silent)
    assert claimer.chain[-1].kind == AGREE and GONE in claimer.replaced.values()


def test_a_table_without_the_policy_ends_the_game_by_a_claim():
    sessions = make_sessions(get_game("pueblo"), 3, "nopolicy")
    sessions[0].timeout = 30
    _, comp = play_replacing(sessions, [RandomBot(i) for i in range(3)], RandomBot(9), gone=GONE, after_moves=6)
    assert comp is None
    assert isinstance(sessions[0].result, Aborted) and sessions[0].result.culprit == GONE
    assert REPLACE not in [e.kind for e in sessions[0].chain]


def test_the_policy_is_signed_in_the_table_and_old_tables_keep_their_bytes():
    sessions, _, _ = _game("pueblo", "policy2", 4)
    table = next(e for e in sessions[0].chain if e.kind == "table")
    assert table.body["on_gone"] == "computer"
    plain = make_sessions(get_game("pueblo"), 3, "plain")
    from lanterne.protocol.memory import play
    play(plain, [RandomBot(i) for i in range(3)])
    assert "on_gone" not in next(e for e in plain[0].chain if e.kind == "table").body
    with pytest.raises(Exception, match="on-gone policy 'later'"):
        make_sessions(get_game("pueblo"), 3, "bad", on_gone="later")


def test_a_computers_cards_are_public_so_its_host_knows_nothing_the_others_do_not(pandoria):
    """Like the dummy in bridge: every card dealt to the computer face down is revealed to every seat right after."""
    sessions, pipe, comp = pandoria
    resolved = [ev for ev in pipe.events[1] if type(ev).__name__ == "TableResolved"]
    after = resolved[next(i for i, ev in enumerate(resolved) if ev.op.pile == "redeal"):]
    dealt = {slot for ev in after if ev.op.face_down and ev.op.to == GONE for slot in ev.op.slots}
    revealed = {slot for ev in after if ev.op.why == "a computer's cards are public" for slot in ev.op.slots}
    assert dealt and dealt == revealed
    for s in (sessions[0], sessions[1], comp):   # no card is known to the computer (and its host) alone
        assert GONE not in holders(s.view), holders(s.view)
    assert verify_entries(_raws(sessions[0])).ok
