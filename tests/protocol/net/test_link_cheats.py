"""Cheats over real links with three peers: seat 3 lies to seat 1 only, and both honest seats name it.

The cheater is a Peer whose ``_outgoing`` re-signs (with its own key, so
the lie is its own) what it sends to seat 1, while seat 2 gets the truth.
Every peer forwards what it accepted to every other, so the honest seats
compare what each received: both end the game with an ``abort`` naming
seat 3, and each log passes ``verify`` with seat 3 as the culprit.
"""

import asyncio

import pytest

from lanterne.engines.bots import make_bot
from lanterne.engines.core import as_action
from lanterne.engines.registry import get_game
from lanterne.protocol.session.phases import Phase
from lanterne.protocol.log import open_entry, read_log
from lanterne.protocol.net.peer import Peer
from lanterne.protocol.session import Aborted
from lanterne.protocol.verify import verify_file
from tests.protocol.helpers import forge
from tests.support.net import FAST, IDS, LOCAL, NAMES, seated, until, wait_port

CHEAT, VICTIM, WITNESS = 2, 0, 1


class Plotter:
    """A bot that also prepares a second legal move (its digest included) for the lie."""

    def __init__(self, seed: int):
        self.bot = make_bot("random", seed)
        self.moves = 0
        self.alternative: dict | None = None

    def choose(self, game, view, seat):
        action = self.bot.choose(game, view, seat)
        self.moves += 1
        if self.alternative is None and self.moves >= 2:
            others = [a for a in game.legal_actions(view, seat) if a != action]
            if others:
                after, _ = game.apply(view, others[0])
                self.alternative = {"action": list(others[0]), "digest": game.digest(after)}
        return action


class Liar(Peer):
    """Sends seat 1 a different version of one of its own moves (``lie``), everyone else the truth."""

    def _outgoing(self, key, entry):
        if (entry.author == self.me.public and entry.kind == "move" and key == self.seats[VICTIM].key
                and not getattr(self, "told", None)):
            body = self.lie(entry, self.player)
            if body is not None:
                self.told = forge(entry, self.me, body=body)
                return self.told
        return entry.raw


def a_different_legal_move(entry, plotter):
    alt = plotter.alternative
    if alt is None or as_action(alt["action"]) == as_action(entry.body["action"]):
        return None
    return alt


def a_wrong_digest(entry, plotter):
    return {**entry.body, "digest": b"\x07" * 32} if plotter.moves >= 2 else None


def an_illegal_move(entry, plotter):
    return {**entry.body, "action": ["fly", 1]} if plotter.moves >= 2 else None


@pytest.mark.parametrize("lie, words", [(a_different_legal_move, "two different entries"),
                                        (a_wrong_digest, ""), (an_illegal_move, "")],
                         ids=["equivocation", "digest", "illegal"])
async def test_seat_3_lies_to_seat_1_and_both_honest_seats_name_it(tmp_path, lie, words):
    lines = [[] for _ in range(3)]
    host = Peer.host(IDS[0], NAMES[0], get_game("pueblo"), 3,
                         tmp_path / "p0", player=make_bot("random", 1), options=FAST, say=lines[0].append)
    witness = Peer.guest(IDS[1], NAMES[1], tmp_path / "p1", player=make_bot("random", 2), options=FAST,
                             say=lines[1].append)
    liar = Liar.guest(IDS[2], NAMES[2], tmp_path / "p2", player=Plotter(3), options=FAST, say=lines[2].append)
    liar.lie = lie
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    port = await wait_port(host)
    t1 = asyncio.create_task(witness.run_guest((LOCAL, port), [LOCAL], game="pueblo"))
    await until(lambda: seated(host) == 1)
    t2 = asyncio.create_task(liar.run_guest((LOCAL, port), [LOCAL], game="pueblo"))
    sessions = await asyncio.wait_for(asyncio.gather(host_task, t1, t2), 60)
    assert getattr(liar, "told", None), "the liar never lied"
    told = open_entry(liar.told)
    for peer, session in zip((host, witness), sessions):
        assert isinstance(session.result, Aborted) and session.result.culprit == CHEAT, (session.result, lines)
        assert words in session.result.reason
        report = verify_file(peer.files.log_path)
        assert report.ok and report.result == "aborted" and report.culprit == CHEAT + 1, report
    if lie is a_different_legal_move:
        # named with the two signed messages: one in the log, the other in the abort's evidence
        for session in sessions[:2]:
            abort = session.chain[-1]
            assert abort.kind == "abort" and abort.body["culprit"] == CHEAT
            shown = open_entry(abort.body["evidence"][0])
            logged = session.chain[told.seq]
            assert shown.author == logged.author == liar.me.public and shown.seq == logged.seq == told.seq
            assert shown.raw != logged.raw and {shown.raw, logged.raw} == {told.raw, liar.session.chain[told.seq].raw}


async def test_bytes_not_signed_by_seat_3_drop_one_link_and_the_entry_comes_through_seat_2(tmp_path):
    """A stranger could inject such bytes: not evidence against seat 3; the mesh delivers the true entry."""

    class Garbler(Peer):
        def _outgoing(self, key, entry):
            if (entry.author == self.me.public and entry.kind == "move" and key == self.seats[VICTIM].key
                    and not getattr(self, "told", None)):
                self.told = entry.raw[:-1] + bytes([entry.raw[-1] ^ 1])  # one bit of the signature flipped
                return self.told
            return entry.raw

    lines = [[] for _ in range(3)]
    host = Peer.host(IDS[0], NAMES[0], get_game("pueblo"), 3, tmp_path / "p0", player=make_bot("random", 1),
                         options=FAST, say=lines[0].append)
    witness = Peer.guest(IDS[1], NAMES[1], tmp_path / "p1", player=make_bot("random", 2), options=FAST,
                             say=lines[1].append)
    garbler = Garbler.guest(IDS[2], NAMES[2], tmp_path / "p2", player=make_bot("random", 3), options=FAST,
                            say=lines[2].append)
    host_task = asyncio.create_task(host.run_host([LOCAL], 0, discover=False))
    port = await wait_port(host)
    t1 = asyncio.create_task(witness.run_guest((LOCAL, port), [LOCAL], game="pueblo"))
    await until(lambda: seated(host) == 1)
    t2 = asyncio.create_task(garbler.run_guest((LOCAL, port), [LOCAL], game="pueblo"))
    sessions = await asyncio.wait_for(asyncio.gather(host_task, t1, t2), 60)
    assert garbler.told
    assert all(s.phase == Phase.OVER for s in sessions), [s.result for s in sessions]
    assert any("bytes not signed by the peer" in line for line in lines[0]), lines[0]
    logs = [read_log(p.files.log_path)[0] for p in (host, witness, garbler)]
    assert logs[0] == logs[1] == logs[2]
