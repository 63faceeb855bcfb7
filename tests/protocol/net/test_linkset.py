"""What a new link is sent: the entries its peer lacks, and the tail before them, so two chains that ended
differently meet; and a spectator, the new end of a chain cut back.

The case: seat 2 (the claimer) was cut off from both others while seat 1 wrote its entry; seat 3 got that
entry, seat 2 claimed against seat 1 at the same place. Both chains have one length. Counted from the length
alone, the link between them carried nothing and the table waited for good (the claimer for seat 3's answer,
seat 3 for the claimer's turn). Real sessions, a real TCP link on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import AsyncIterator

from lanterne.engines.bots import RandomBot
from lanterne.engines.registry import get_game
from lanterne.protocol.memory import make_sessions
from lanterne.protocol.net.handshake import PeerIdentity
from lanterne.protocol.net.invite import Request
from lanterne.protocol.net.linkset import TAIL_RESENT, LinkSet
from lanterne.protocol.net.tcp import bound_port, connect, serve
from lanterne.protocol.net.transport import Link
from lanterne.protocol.net.watchers import SpectatorServer
from lanterne.protocol.session import receive_frame
from lanterne.protocol.session.phases import Phase
from tests.protocol.helpers import drive
from tests.support.waiting import until

LOCAL = "127.0.0.1"


def diverged():
    """Three Pueblo sessions where the claimer (seat 2) holds a claim at the place where seat 3 holds seat 1's
    own entry; nothing of the one reached the other."""
    sessions = make_sessions(get_game("pueblo"), 3, "tail-race")
    ann, bob, cyd = sessions
    bob.timeout = 30
    cut = {"bob": False}
    pipe = drive(sessions, [RandomBot(1), RandomBot(2), RandomBot(3)],
                 before_move=lambda i, s, p: i == 0 and sum(e.kind == "move" for e in bob.chain) >= 6)
    place = len(bob.chain)

    def off_bob(src, dst, raw):
        return None if cut["bob"] and (src == 1 or dst == 1) else raw

    cut["bob"] = True
    pipe.collect(0, ann.act(RandomBot(1).choose(ann.game, ann.view, ann.my_seat)))
    pipe.deliver(off_bob)
    bob.tick(0.0)
    pipe.collect(1, bob.tick(31.0))
    pipe.deliver(off_bob)
    assert bob.chain[place].kind == "claim" and cyd.chain[place].author == ann.public
    assert len(bob.chain) == len(cyd.chain) == place + 1
    return sessions, place


@contextlib.asynccontextmanager
async def a_link_to_a_listener() -> AsyncIterator[tuple[Link, list[bytes]]]:
    """A real TCP link on 127.0.0.1, and the list of every frame its far end received."""
    got: list[bytes] = []

    async def receiver(link):
        while True:
            got.append(await link.recv())

    server = await serve(receiver, LOCAL, 0)
    async with server:
        link = await connect(LOCAL, bound_port(server))
        try:
            yield link, got
        finally:
            await link.close()


async def sent_over_a_new_link(session, have: int) -> list[bytes]:
    """The frames a LinkSet sends a peer that says it has ``have`` entries of ``session``'s chain."""
    async with a_link_to_a_listener() as (link, got):
        links, key = LinkSet(), b"\x02" * 32
        links.attach(key, link, have, len(session.chain))
        sender = asyncio.ensure_future(links.send_loop(key, link, session, lambda k, e: e.raw))
        await until(lambda: len(got) >= min(TAIL_RESENT, have), what="the tail, sent again")
        await until(lambda: links.drained(len(session.chain)), what="the sender at the chain's end")
        sender.cancel()
    return got


async def test_two_chains_of_one_length_that_end_differently_meet_over_a_new_link():
    (ann, bob, cyd), place = diverged()
    sent = await sent_over_a_new_link(cyd, have=len(bob.chain))
    assert len(sent) == TAIL_RESENT and sent[-1] == cyd.chain[place].raw
    events = [event for raw in sent for event in receive_frame(bob, raw, cyd.public)]
    assert bob.chain[place].raw == cyd.chain[place].raw and bob.claiming is None and bob.phase == Phase.PLAY
    assert any(type(e).__name__ == "ClaimRefused" for e in events)
    assert [e.raw for e in bob.chain] == [e.raw for e in cyd.chain]


async def test_the_tail_a_peer_holds_already_is_a_harmless_resend():
    (ann, bob, cyd), place = diverged()
    before = [e.raw for e in ann.chain]
    sent = await sent_over_a_new_link(cyd, have=len(ann.chain))
    assert sent == before[-TAIL_RESENT:]
    assert [event for raw in sent for event in receive_frame(ann, raw, cyd.public)] == []
    assert [e.raw for e in ann.chain] == before


async def test_a_link_at_the_start_sends_everything_once():
    (ann, bob, cyd), place = diverged()
    sent = await sent_over_a_new_link(cyd, have=0)
    assert sent == [e.raw for e in cyd.chain if e.author != b"\x02" * 32]


async def test_a_spectator_of_the_claimer_gets_the_seats_own_entry_once_the_claim_is_taken_back():
    (ann, bob, cyd), place = diverged()
    async with a_link_to_a_listener() as (link, got):
        watchers = SpectatorServer(lambda: bob, emit=lambda e: None, on_chat=lambda raw, link, key: None,
                                   on_change=lambda names: None)
        request = Request(PeerIdentity(b"\x07" * 32, "Eve"), "", "watch", have=0)
        serving = asyncio.ensure_future(watchers.serve(request, link))
        await until(lambda: len(got) == len(bob.chain), what="the claimer's chain, claim included")
        assert got[place] == bob.chain[place].raw and bob.chain[place].kind == "claim"
        receive_frame(bob, cyd.chain[place].raw, cyd.public)          # the seat's entry: the claim is void
        assert bob.chain[place].raw == cyd.chain[place].raw
        watchers.wake_all()
        await until(lambda: got[-1] == cyd.chain[place].raw, what="the seat's own entry, sent at the claim's place")
        serving.cancel()
