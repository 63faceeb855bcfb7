"""``verify``'s one pass over a finished game (every seat's seed revealed) checks all that the seat-by-seat
replay checks: every valid log goes through it with the same report, and every validly signed lie in a
finished log makes it give up (the seat-by-seat replay then names the entry)."""

from __future__ import annotations

import hashlib
import random

import pytest

from lanterne.engines.bots import RandomBot
from lanterne.protocol.session.phases import Phase
from lanterne.protocol.fair import group as grp
from lanterne.protocol.fair.reveal import RevealedTable
from lanterne.protocol.log import open_entry
from lanterne.protocol.memory import make_sessions, play
from lanterne.protocol.session import END, FAIR_DOMAIN, Drbg
from lanterne.protocol.verify import check_every_seat, verify_entries
from tests.protocol.helpers import RESHUFFLE, forge, games, highcard_sessions, play_highcard


def _seeds(entries):
    return {e.author: e.body["seed"] for e in entries if e.kind == END}


def _played(kind: str, players: int = 2, seed: str = "one-pass"):
    if kind == "highcard":
        return play_highcard(players, seed)
    game = RESHUFFLE if kind == "reshuffle" else games(kind)
    sessions = make_sessions(game, players, seed, games=games)
    play(sessions, [RandomBot(f"{seed}/{i}") for i in range(players)])
    return sessions


_logs: dict = {}


def finished(kind: str, players: int = 2):
    """A finished game's log and the sessions that wrote it (cached: games take a while)."""
    if (kind, players) not in _logs:
        sessions = _played(kind, players)
        assert all(s.phase == Phase.OVER for s in sessions), [s.result for s in sessions]
        _logs[(kind, players)] = sessions
    return _logs[(kind, players)]


def reseal_from(sessions, index: int, **changes) -> list[bytes]:
    """The log with entry ``index`` changed and every later entry re-linked, each signed by its author."""
    keys = {s.public: s.identity for s in sessions}
    chain = sessions[0].chain
    out = [e.raw for e in chain[:index]]
    for i, entry in enumerate(chain[index:], index):
        fields = dict(changes) if i == index else {}
        if out:
            fields["prev"] = open_entry(out[-1]).hash
        out.append(forge(entry, keys[changes.get("author", entry.author) if i == index else entry.author],
                         **fields))
    return out


def both_refuse(raws: list[bytes]) -> None:
    entries = [open_entry(r) for r in raws]
    assert check_every_seat(entries, _seeds(entries), games) is None
    assert not verify_entries(raws, games=games).ok     # the seat-by-seat replay names the entry


@pytest.mark.parametrize("kind,players", [("highcard", 2), ("highcard", 3), ("reshuffle", 2), ("reshuffle", 3),
                                          ("pagode", 2), ("pueblo", 3), ("pandoria", 2)])
def test_every_valid_log_goes_through_the_one_pass_with_the_same_report(kind, players):
    raws = [e.raw for e in finished(kind, players)[0].chain]
    entries = [open_entry(r) for r in raws]
    assert check_every_seat(entries, _seeds(entries), games) is not None
    fast, slow = verify_entries(raws, games=games), verify_entries(raws, games=games, one_pass=False)
    assert fast.ok and slow.ok
    assert fast.to_json() == slow.to_json()
    assert fast.replayed == list(range(1, players + 1))


def test_the_reshuffle_really_relocks():
    """The relock path of RevealedTable is exercised (a pile with hidden cards is shuffled again)."""
    kinds = [e.kind for e in finished("reshuffle", 2)[0].chain]
    assert "fair_relock" in kinds


def test_the_revealed_table_opens_every_dealt_card_as_the_seats_saw_it():
    sessions = finished("highcard", 3)
    every = check_every_seat(sessions[0].chain, {x.public: x.seed for x in sessions}, games)
    assert isinstance(every.fair, RevealedTable)
    cards = every.fair.cards()
    assert cards
    for x in sessions:          # every card a seat knows is the card the revealed table gives
        for deck in x.fair._decks:
            for pos, ident in enumerate(deck.known):
                if ident is not None:
                    assert cards[(deck.number, pos)] == ident
    assert sorted(cards[(0, p)] for p in range(len(sessions[0].fair._decks[0].slots))) == \
        sorted(sessions[0].fair._decks[0].cards)


def test_a_seat_whose_fair_messages_are_not_what_its_revealed_seed_gives():
    """Seat 2 plays (consistently) with other randomness than its seed: nobody sees it live, verify does."""
    sessions = highcard_sessions(2, "other-entropy")
    cheat = sessions[1]
    start = cheat.seating._start_play

    def other_entropy():
        start()
        cheat.fair._entropy = Drbg(b"not the seed".ljust(32, b"."), FAIR_DOMAIN)
    cheat.seating._start_play = other_entropy
    play(sessions, [RandomBot("a"), RandomBot("b")])
    assert all(s.phase == Phase.OVER for s in sessions)
    both_refuse([e.raw for e in sessions[0].chain])


def test_a_seat_that_reveals_another_seed_than_its_genesis_nonce_says():
    sessions = finished("highcard", 2)
    last = len(sessions[0].chain) - 1
    body = dict(sessions[0].chain[last].body, seed=bytes(32))
    both_refuse(reseal_from(sessions, last, body=body))


def _kinds(sessions, kind):
    return [i for i, e in enumerate(sessions[0].chain) if e.kind == kind]


def test_a_final_reveal_that_is_not_the_seats_secrets():
    sessions = finished("highcard", 2)
    i = _kinds(sessions, "fair_final")[1]
    body = sessions[0].chain[i].body
    decks = [dict(d) for d in body["decks"]]
    decks[0]["keys"] = decks[0]["keys"][1:] + decks[0]["keys"][:1]
    both_refuse(reseal_from(sessions, i, body={"decks": decks}))


def test_a_claim_of_another_card_than_the_one_dealt():
    """A discard naming another card (re-signed): the union of the views knows the card, so the engine refuses."""
    sessions = finished("pagode", 2)
    i = next(i for i, e in enumerate(sessions[0].chain) if e.kind == "move" and "proof" in e.body
             and e.body["action"][0] == "discard")
    entry = sessions[0].chain[i]
    kind, slot, ident = entry.body["action"]
    both_refuse(reseal_from(sessions, i, body=dict(entry.body, action=[kind, slot, ident + 1])))


def _flip_some_bytes(value, rng):
    """``value`` with one bit flipped in one of its byte strings (None if it holds none)."""
    spots = []

    def walk(x, path):
        if isinstance(x, bytes) and x:
            spots.append(path)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(v, path + (k,))
        elif isinstance(x, list):
            for k, v in enumerate(x):
                walk(v, path + (k,))
    walk(value, ())
    if not spots:
        return None
    path = rng.choice(spots)

    def rebuild(x, rest):
        if not rest:
            b = bytearray(x)
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
            return bytes(b)
        if isinstance(x, dict):
            return {k: rebuild(v, rest[1:]) if k == rest[0] else v for k, v in x.items()}
        return [rebuild(v, rest[1:]) if k == rest[0] else v for k, v in enumerate(x)]
    return rebuild(value, path)


@pytest.mark.parametrize("kind,players", [("highcard", 3), ("reshuffle", 2), ("pagode", 2)])
def test_any_validly_signed_change_to_a_byte_string_of_a_finished_log_is_refused(kind, players):
    """Every byte string a body holds (nonces, points, commitments, keys, digests, seeds, secrets) is checked."""
    sessions = finished(kind, players)
    rng = random.Random(f"flip/{kind}/{players}")
    chain = sessions[0].chain
    spots = [i for i, e in enumerate(chain) if e.kind != "hello" and _flip_some_bytes(e.body, rng) is not None]
    by_kind: dict[str, list[int]] = {}
    for i in spots:
        by_kind.setdefault(chain[i].kind, []).append(i)
    picks = [rng.choice(where) for where in by_kind.values()]        # one entry of each kind
    if kind != "pagode":
        picks += rng.sample(spots, 4)
    assert {"table", "genesis", "fair_commit", "fair_open", "fair_shuffle", "fair_rekey", "fair_keys", "fair_final",
            "end"} <= set(by_kind), set(by_kind)
    for i in picks:
        both_refuse(reseal_from(sessions, i, body=_flip_some_bytes(chain[i].body, rng)))


def test_every_pass_is_computed_once():
    """The one pass locks each card once per relock, shuffle and rekey pass: no pass per seat."""
    sessions = finished("reshuffle", 3)
    entries = sessions[0].chain
    passes = [e for e in entries if e.kind in ("fair_relock", "fair_shuffle", "fair_rekey")]
    calls = 0
    lock = grp.lock

    def counting(scalar, point):
        nonlocal calls
        calls += 1
        return lock(scalar, point)
    grp.lock = counting
    try:
        assert check_every_seat(entries, _seeds(entries), games) is not None
    finally:
        grp.lock = lock
    assert calls == sum(len(e.body["points"]) for e in passes)


def test_bodies_compare_as_their_bytes_would():
    from lanterne.protocol.fair.reveal import _same

    assert _same({"roll": 1, "commit": b"x" * 32}, {"commit": b"x" * 32, "roll": 1})
    assert not _same({"roll": True}, {"roll": 1})              # True == 1 in Python, not on the wire
    assert not _same({"perm": [0, True]}, {"perm": [0, 1]})
    assert not _same({"keys": [b"a", b"b"]}, {"keys": [b"b", b"a"]})
    assert not _same({"keys": ["a"]}, {"keys": [b"a"]})
    assert not _same({"deck": 0, "x": 1}, {"deck": 0})
    assert not _same([b"a"], (b"a",))


def test_the_revealed_table_agrees_with_every_seats_fair_table():
    """Driven with the steps the seats' own FairTables exchange, it gives the union of their outcomes,
    accepts their proofs and final reveals, and refuses any other body, proof or claim."""
    from types import SimpleNamespace

    from lanterne.engines.core import DEAL, REVEAL, ROLL, SHUFFLE, Cards, TableOp, apply_outcome_to_cards
    from lanterne.protocol.fair import CheatDetected, FairTable
    from lanterne.protocol.fair.driver import run_op, wire

    gid, seeds = b"g" * 32, [bytes([65 + s]) * 32 for s in range(3)]
    tables = [FairTable(gid, s, 3, Drbg(seeds[s], FAIR_DOMAIN)) for s in range(3)]
    revealed = RevealedTable(gid, 3, [Drbg(x, FAIR_DOMAIN) for x in seeds])
    state = SimpleNamespace(cards=Cards.new(list(range(100, 108)), 3))
    ops = [TableOp(ROLL, faces=6), TableOp(SHUFFLE, "deck", tuple(range(6))), TableOp(DEAL, "deck", (0, 1), to=0),
           TableOp(DEAL, "deck", (2,), to=None), TableOp(SHUFFLE, "deck", (3, 4, 5, 6, 7)),
           TableOp(REVEAL, "deck", (3,)), TableOp(ROLL, faces=2)]
    kinds: set[str] = set()
    for op in ops:
        log: list = []
        outcomes = run_op(tables, op, [state] * 3, log)
        revealed.begin(op, state)
        for seat, kind, body in log:
            assert revealed.expected() == seat
            if kind != "fair_commit":
                with pytest.raises(CheatDetected):      # any other body of the same kind is refused
                    revealed.consume(seat, kind, _flip_some_bytes(body, random.Random(kind)))
            revealed.consume(seat, kind, body)
        ours = revealed.outcome()
        if op.kind == ROLL:
            assert {o for o in outcomes} == {ours}
        else:
            union = tuple(next((o[1][j] for o in outcomes if o[1][j] is not None), None)
                          for j in range(len(op.slots)))
            assert ours == (op.kind, union)
        apply_outcome_to_cards(state.cards, op, ours)
        kinds.update(kind for _, kind, _ in log)
    assert "fair_relock" in kinds               # the second shuffle takes hidden cards of the first deck
    ident = revealed.identity(*tables[0]._where[0])
    proof = tables[0].prove([0])
    with pytest.raises(CheatDetected, match="claims card"):
        revealed.check_claims(0, [0], [ident + 1000], wire(proof))
    with pytest.raises(CheatDetected, match="proof"):
        revealed.check_claims(0, [0], [ident], wire(dict(proof, keys=[tables[1]._decks[0].keys[0]])))
    revealed.check_claims(0, [0], [ident], wire(proof))
    d, pos = tables[1]._where[4]                     # slot 4: shuffled again, dealt to nobody
    stolen = {"decks": [d], "pos": [pos], "keys": [tables[1]._decks[d].keys[pos]]}
    with pytest.raises(CheatDetected, match="not dealt"):
        revealed.check_claims(1, [4], [revealed.identity(d, pos)], stolen)
    for seat, table in enumerate(tables):
        _, body = table.final_reveal()
        body = wire(body)
        with pytest.raises(CheatDetected):
            revealed.consume_final(seat, _flip_some_bytes(body, random.Random(seat)))
        revealed.consume_final(seat, body)
    assert revealed.cards()[(d, pos)] == revealed.identity(d, pos)


def test_a_seat_whose_genesis_nonce_is_not_the_hash_of_its_seed():
    """Seat 2 commits to another seed than the one it reveals (its fair play is its seed's): verify refuses."""
    sessions = highcard_sessions(2, "other-nonce")
    cheat = sessions[1]
    cheat.seating._nonce = lambda: hashlib.sha256(b"another/nonce" + cheat.seed).digest()
    play(sessions, [RandomBot("a"), RandomBot("b")])
    assert all(s.phase == Phase.OVER for s in sessions)
    both_refuse([e.raw for e in sessions[0].chain])


def test_a_proof_that_is_not_the_movers_keys():
    sessions = finished("pagode", 2)
    i = next(i for i, e in enumerate(sessions[0].chain) if e.kind == "move" and "proof" in e.body)
    entry = sessions[0].chain[i]
    proof = dict(entry.body["proof"], keys=[bytes(32)] + entry.body["proof"]["keys"][1:])
    both_refuse(reseal_from(sessions, i, body=dict(entry.body, proof=proof)))
