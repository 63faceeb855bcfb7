"""Chat budgets are an author's own: a hostile seat relaying lines signed by fresh keys spends none of an honest
author's, and gets no more than a player with a full house of spectators.

The sans-IO book with numbers on an injected clock, then the same attack over
real TCP on 127.0.0.1 at a table of three.
"""

import asyncio
import itertools

import pytest

from lanterne.protocol.identity import Identity
from lanterne.protocol.net.chat import LINK_AUTHORS, LINK_STRIKES, RATE, WINDOW, ChatBook
from lanterne.protocol.wire import ProtocolError
from tests.support.chat import Table, signed
from tests.support.net import IDS
from tests.support.waiting import until

TABLE = bytes(32)
ANA, BOB, CY = (IDS[i].public for i in range(3))


def book(now: list[float], wall: float = 1_000.0) -> ChatBook:
    """Cy's chat: Ana and Bob are the other seats."""
    return ChatBook(IDS[2], "Cy", TABLE, seats=[ANA, BOB, CY], clock=lambda: now[0], wall=lambda: wall)


def reads(b: ChatBook, raws, via, sender) -> tuple[int, list[str]]:
    got, why = 0, []
    for raw in raws:
        try:
            b.read(raw, via=via, sender=sender)
            got += 1
        except ProtocolError as e:
            why.append(str(e))
    return got, why


def test_fresh_keys_through_one_seat_get_no_more_than_its_spectators_and_spend_nobody_elses_budget():
    now = [0.0]
    cy = book(now)
    fresh = [Identity.generate() for _ in range(50)]
    got, why = reads(cy, [signed(k, TABLE, f"spam {i}", 1) for i, k in enumerate(fresh)], "link to Bob", BOB)
    assert got == LINK_AUTHORS
    assert set(why) == {f"chat of more than {LINK_AUTHORS} spectators in 10 s through one seat"}
    # the same link still brings Bob's own lines and Ana's relayed ones: their budgets are their own
    got, why = reads(cy, [signed(IDS[1], TABLE, f"bob {i}", 10 + i) for i in range(RATE)], "link to Bob", BOB)
    assert (got, why) == (RATE, [])
    got, why = reads(cy, [signed(IDS[0], TABLE, f"ana {i}", 10 + i) for i in range(RATE)], "link to Bob", BOB)
    assert (got, why) == (RATE, [])
    # an admitted fresh key is held to its author's rate, like anybody
    got, why = reads(cy, [signed(fresh[0], TABLE, f"more {i}", 10 + i) for i in range(3 * RATE)], "link to Bob", BOB)
    assert got == 2 * RATE - 1 and why[0] == f"more than {2 * RATE} chat messages in 10 s from {fresh[0].fingerprint}"
    # one window later the seat may bring new spectators again
    now[0] = WINDOW
    assert cy.read(signed(fresh[-1], TABLE, "later", 1), via="link to Bob", sender=BOB).text == "later"


def test_a_spectators_own_link_is_where_its_lines_enter_and_the_link_cap_does_not_apply():
    now = [0.0]
    cy = book(now)
    eve = Identity.generate()
    got, _ = reads(cy, [signed(eve, TABLE, f"eve {i}", 1 + i) for i in range(2 * RATE)], "Eve's link", eve.public)
    assert got == 2 * RATE


def test_a_link_that_keeps_sending_bad_chat_is_not_read_until_the_window_is_over():
    now = [0.0]
    cy = book(now)
    forged = [signed(IDS[1], TABLE, f"forged {i}", 100 + i, sig=bytes(64)) for i in range(LINK_STRIKES + 5)]
    got, why = reads(cy, forged, "link to Bob", BOB)
    assert got == 0 and why[:LINK_STRIKES] == ["a chat message not signed by its author"] * LINK_STRIKES
    assert why[-1].startswith(f"more than {LINK_STRIKES} bad chat messages in 10 s on this link")
    honest = signed(IDS[0], TABLE, "hello", 5)
    assert cy.read(honest, via="link to Ana", sender=ANA).text == "hello", "another link is read"
    now[0] = WINDOW
    assert cy.read(signed(IDS[1], TABLE, "sorry", 6), via="link to Bob", sender=BOB).text == "sorry"


def test_a_line_shows_when_we_heard_it_not_what_its_author_signed():
    now = [0.0]
    cy = book(now, wall=1_000.0)
    line = cy.read(signed(IDS[0], TABLE, "from the future", 4_102_444_800_000), via="link to Ana", sender=ANA)
    assert line.ts == 4_102_444_800_000 and line.at == 1_000_000
    assert line.to_data()["at"] == 1_000_000


async def test_a_hostile_seat_relaying_fresh_keys_silences_no_honest_player(tmp_path):
    """Over real TCP: seat 2 (Bob) sends Cy 50 lines signed by 50 fresh keys and Ana 50 more; Ana and Cy then
    hear each other, and the host's next lines reach everyone; what Bob's fresh keys say reaches nobody past
    the first seat (a seat passes another seat's spectators' lines to its own spectators only)."""
    async with Table(tmp_path) as t:
        ana, bob, cy = t.peers
        counter = itertools.count(1)
        for target in (ana, cy):
            link = bob.links[target.me.public]
            for i in range(50):
                await link.send_chat(signed(Identity.generate(), bob.table_id, f"spam {next(counter)}", 1))
        await until(lambda: sum("spam" in line for line in t.chat_of(2)) >= LINK_AUTHORS
                    and sum("spam" in line for line in t.chat_of(0)) >= LINK_AUTHORS)
        for _ in range(RATE):
            ana.chat("Ana here")
        cy.chat("Cy here")
        await until(lambda: t.chat_of(2).count("chat: Ana: Ana here") == RATE and "chat: Cy: Cy here" in t.chat_of(0)
                    and "chat: Cy: Cy here" in t.chat_of(1))
        assert sum("spam" in line for line in t.chat_of(2)) == LINK_AUTHORS, "the cap of one seat, no more"
        assert sum("spam" in line for line in t.chat_of(0)) == LINK_AUTHORS
        assert not any("Ana here" in r or "Cy here" in r for i in range(3) for r in t.dropped(i))
        # the spectator watching through Ana hears what Bob's fresh keys said to Ana, but Cy never gets it twice
        await until(lambda: sum("spam" in x.text for x in t.heard) == LINK_AUTHORS)
