"""A listener's slots before the proof, and the claims a peer holds while it turns connections away: numbers only.

:class:`Admission` is given connections (any hashable) and their source
addresses; :class:`Presence` is told when we refused one. No socket, no
clock: the over-TCP cases are tests/adversary/test_slot_flood.py.
"""

from lanterne.protocol.net.admission import Admission, known_addresses, normalized
from lanterne.protocol.net.files import SeatedPeer
from lanterne.protocol.net.presence import REFUSAL_HOLD, Presence

SEAT = "10.0.0.7"
A, B = bytes([1]) * 32, bytes([2]) * 32


def door(**kw) -> tuple[Admission, list]:
    refused: list = []
    return Admission(known=lambda address: address == SEAT, on_refused=lambda a, k: refused.append((a, k)),
                     **kw), refused


def test_one_address_holds_at_most_its_share_of_the_slots():
    d, refused = door(per_address=4, shared=16)
    assert [d.enter(("x", i), "10.0.0.66") for i in range(4)] == [None] * 4
    assert "4 connections from your address" in d.enter(("x", 4), "10.0.0.66")
    assert d.enter(("y", 0), "10.0.0.67") is None, "another address still gets in"
    assert refused == [("10.0.0.66", False)] and d.refused == 1


def test_strangers_fill_the_shared_slots_and_a_known_address_still_gets_in():
    d, refused = door(per_address=4, shared=16, reserved=8)
    for i in range(16):
        assert d.enter(i, f"10.0.1.{i // 4}") is None
    assert "16 connections are still proving" in d.enter("late", "10.0.2.1")
    assert d.enter("seat", SEAT) is None, "the roster's address takes a reserved slot"
    assert d.in_reserve == 1 and d.count() == 17 and d.count(SEAT) == 1
    assert refused == [("10.0.2.1", False)]


def test_a_slot_is_free_once_its_link_proves_its_key_or_closes():
    d, _ = door(per_address=1, shared=1)
    assert d.enter("a", "10.0.0.1") is None
    assert d.enter("b", "10.0.0.2") is not None
    d.proven("a")
    assert d.enter("b", "10.0.0.2") is None and d.open_links() == 2
    d.leave("a")
    d.leave("b")
    assert d.count() == 0 and d.open_links() == 0


def test_proven_links_are_counted_too_per_address_and_for_strangers():
    d, _ = door(links=3, links_per_address=2)
    for i in range(2):
        assert d.enter(i, "10.0.0.1") is None
        d.proven(i)
    assert "2 connections from your address are open" in d.enter(2, "10.0.0.1")
    assert d.enter(3, "10.0.0.2") is None
    assert "3 connections are open" in d.enter(4, "10.0.0.3")
    assert d.enter(5, SEAT) is None, "the roster's address is not counted among the strangers' links"


def test_an_ipv4_mapped_address_is_the_same_address():
    assert normalized("::ffff:10.0.0.7") == "10.0.0.7" == normalized("10.0.0.7")
    d, _ = door()
    assert d.enter("seat", "::ffff:10.0.0.7") is None and d.in_reserve == 1


def test_while_we_refuse_connections_an_unlinked_seat_is_not_agreed_against():
    p = Presence(A)
    p.start(0.0)
    p.down(B, 0.0)
    p.refused(100.0)
    assert p.refusing(100.0) and p.refusing(100.0 + p.hold - 0.01) and not p.refusing(100.0 + p.hold)
    p.refused(104.0)
    assert p.refusing(104.0 + p.hold - 0.01), "the hold runs from the last refusal"
    assert p.consent(B, 500.0 - 1, linked=False, claim_time=300.0, move_clock=None, awaited_since=None) is True
    p.refused(500.0)
    assert p.consent(B, 500.0 + REFUSAL_HOLD - 0.01, linked=False, claim_time=300.0, move_clock=None,
                     awaited_since=None) is None, "it may be among those we turn away"
    assert p.consent(B, 500.0 + REFUSAL_HOLD - 0.01, linked=False, claim_time=300.0, move_clock=60.0,
                     awaited_since=0.0) is None, "not even on the move clock"
    assert p.consent(B, 500.0 + REFUSAL_HOLD, linked=False, claim_time=300.0, move_clock=None,
                     awaited_since=None) is None, "its absence counts from our last refusal"
    assert p.gone_for(B, 700.0) == 200.0
    assert p.consent(B, 800.0, linked=False, claim_time=300.0, move_clock=None, awaited_since=None) is True
    p.refused(1000.0)
    p.left_for_good(B)
    assert p.consent(B, 1000.0, linked=False, claim_time=300.0, move_clock=None, awaited_since=None) is True, \
        "a seat that said it left for good is not knocking"


def test_the_known_addresses_are_the_seats_last_addresses_at_each_connection():
    seats = [SeatedPeer(A, "Ann", ("10.0.0.1", 4000)), SeatedPeer(B, "Bob", None)]
    known = known_addresses(lambda: seats)
    assert known("10.0.0.1") and not known("10.0.0.2")
    seats[1].address = ("10.0.0.2", 4001)       # it came back from elsewhere
    assert known("10.0.0.2")
