"""The Presence part decides who is here, who claims and what we answer to a claim from plain numbers.

No socket, no clock: each test says when links came and went and asks at a given ``now``.
"""

from lanterne.protocol.net.presence import Presence

A, B, C, D = (bytes([i]) * 32 for i in range(1, 5))
SEATS = [A, B, C, D]
CLAIM = 300.0


def consent(p: Presence, key: bytes, now: float, *, linked=False, claim_time=CLAIM, move_clock=None,
            awaited_since=None):
    return p.consent(key, now, linked=linked, claim_time=claim_time, move_clock=move_clock,
                     awaited_since=awaited_since)


def test_a_seat_gone_is_agreed_against_exactly_at_the_claim_time_after_its_link_went_down():
    p = Presence(A)
    p.start(0.0)
    p.up(C)
    p.down(C, 1000.0)
    assert consent(p, C, 1000.0 + CLAIM - 0.001) is None        # not yet: asked again at the next tick
    assert consent(p, C, 1000.0 + CLAIM) is True
    assert p.gone_for(C, 1100.0) == 100.0


def test_a_seat_never_linked_since_play_began_counts_as_gone_from_then():
    p = Presence(A)
    p.start(50.0)
    assert consent(p, D, 50.0 + CLAIM - 1) is None
    assert consent(p, D, 50.0 + CLAIM) is True


def test_a_seat_that_links_again_is_refused_and_its_gone_time_starts_over():
    p = Presence(A)
    p.down(B, 0.0)
    assert consent(p, B, 10_000.0, linked=True) is False          # linked: here and thinking
    p.up(B)
    p.down(B, 9_900.0)
    assert consent(p, B, 10_000.0) is None                        # 100 s only since this drop


def test_a_seat_that_left_for_good_is_agreed_against_at_once_unless_linked():
    p = Presence(A)
    p.down(B, 5.0, for_good=True)
    assert p.gone_for_good(B)
    assert consent(p, B, 5.0) is True
    assert consent(p, B, 5.0, linked=True) is False


def test_the_move_clock_agrees_against_a_linked_seat_that_was_awaited_too_long():
    p = Presence(A)
    assert consent(p, B, 119.9, linked=True, move_clock=120.0, awaited_since=0.0) is False
    assert consent(p, B, 120.0, linked=True, move_clock=120.0, awaited_since=0.0) is True
    assert consent(p, B, 10**6, claim_time=None) is None           # no claim time, no move clock: never


def test_bad_bytes_make_a_linked_seat_not_here_until_the_chain_moves():
    p = Presence(A)
    assert p.here(B, linked=True, chain=7)
    p.suspect(B, 7)
    assert not p.here(B, linked=True, chain=7)
    assert p.here(B, linked=True, chain=8)
    assert not p.here(B, linked=False, chain=8)


def test_the_lowest_present_seat_writes_the_claim_and_the_others_do_not():
    # C is absent; A (us) is linked to B and D: A claims
    us = Presence(A)
    assert us.claimer(SEATS, 2, linked={B, D}) == 0 and us.may_claim(SEATS, 2, linked={B, D})
    # B sees A linked: A claims, not B
    b = Presence(B)
    assert b.claimer(SEATS, 2, linked={A, D}) == 0 and not b.may_claim(SEATS, 2, linked={A, D})
    # the absent one is the lowest seat: the next present one claims
    assert b.claimer(SEATS, 0, linked={C, D}) == 1 and b.may_claim(SEATS, 0, linked={C, D})


def test_a_peer_cut_off_from_every_other_seat_never_claims():
    alone = Presence(C)
    assert alone.cut_off(SEATS, 0, linked=set())
    assert not alone.may_claim(SEATS, 0, linked=set())            # it may be the one who is gone
    assert not alone.cut_off(SEATS, 0, linked={D})
    two = Presence(A)
    assert not two.cut_off([A, B], 1, linked=set())               # a table of two: nobody else to be linked to
    assert two.may_claim([A, B], 1, linked=set())
