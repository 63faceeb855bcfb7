"""The group, hash and sampling helpers under the fair table."""

import pytest

from lanterne.protocol.fair import group as g
from lanterne.protocol.fair.driver import seeded_entropy


GAME = b"\x01" * 32


def test_card_points_are_valid_distinct_and_domain_separated():
    points = {g.card_point(GAME, 0, i) for i in range(55)}
    assert len(points) == 55 and all(g.is_point(p) for p in points)
    # another deck number or another game gives other points for the same cards
    assert not points & {g.card_point(GAME, 1, i) for i in range(55)}
    assert not points & {g.card_point(b"\x02" * 32, 0, i) for i in range(55)}


def test_card_point_is_not_a_small_integer_encoding():
    # a card is never k*G for a known k (the card-encoding attack): check it is not a small multiple
    base = g.card_point(GAME, 0, 0)
    small = {g.lock((k).to_bytes(32, "little"), _base_point()) for k in range(1, 64)}
    assert base not in small


def _base_point():
    from nacl.bindings import crypto_scalarmult_ed25519_base_noclamp
    return crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))


@pytest.mark.parametrize("bad", [
    bytes(32),                                   # y = 0: a point of order 4
    (1).to_bytes(32, "little"),                  # the identity
    b"\xec" + b"\xff" * 30 + b"\x7f",            # y = -1: order 2
    b"\xff" * 32,                                # not canonical
    b"\x02" * 31,                                # too short
    "not bytes",
])
def test_is_point_refuses_small_order_non_canonical_and_junk(bad):
    assert not g.is_point(bad)


def test_lock_refuses_a_point_outside_the_prime_order_group():
    from nacl.bindings import crypto_core_ed25519_add
    mixed = crypto_core_ed25519_add(g.card_point(GAME, 0, 1), bytes(32))  # + a point of order 4
    assert not g.is_point(mixed)
    with pytest.raises(ValueError):
        g.lock(g.random_scalar(seeded_entropy(1)), mixed)


def test_locks_commute_and_unlock_with_the_inverse():
    e = seeded_entropy(2)
    a, b = g.random_scalar(e), g.random_scalar(e)
    p = g.card_point(GAME, 0, 7)
    ab = g.lock(b, g.lock(a, p))
    assert ab == g.lock(a, g.lock(b, p))
    assert g.lock(g.scalar_inv(g.product([a, b])), ab) == p


def test_scalars_are_canonical_and_non_zero():
    e = seeded_entropy(3)
    assert all(g.is_scalar(g.random_scalar(e)) for _ in range(20))
    assert not g.is_scalar(bytes(32))
    assert not g.is_scalar(b"\xff" * 32)        # not reduced mod L


def test_rejection_sampling_is_exactly_uniform_over_every_block():
    # with 1-byte blocks the sampler keeps 252 of the 256 values for a d6: 42 each
    for faces in (2, 3, 5, 6, 7, 200):
        counts = [0] * faces
        rejected = 0
        for x in range(256):
            try:
                counts[g.uniform_below(faces, iter([bytes([x])]))] += 1
            except ValueError:
                rejected += 1
        assert len(set(counts)) == 1, faces
        assert rejected == 256 % faces


def test_rejection_sampling_moves_to_the_next_block():
    assert g.uniform_below(6, iter([b"\xff", b"\xfc", b"\x07"])) == 1   # 255, 252 rejected; 7 % 6
    with pytest.raises(ValueError):
        g.uniform_below(6, iter([b"\xfe"]))


def test_roll_value_depends_on_every_secret_and_the_roll_number():
    nonces = [b"a" * 32, b"b" * 32]
    values = {g.roll_value(GAME, r, 1000, nonces) for r in range(10)}
    assert len(values) > 5
    assert g.roll_value(GAME, 0, 1000, nonces) == g.roll_value(GAME, 0, 1000, list(nonces))
    assert g.roll_value(GAME, 0, 1000, nonces) != g.roll_value(GAME, 0, 1000, [b"a" * 32, b"c" * 32])


def test_random_permutation_is_a_permutation_and_varies():
    e = seeded_entropy(4)
    perms = [g.random_permutation(e, 10) for _ in range(50)]
    assert all(sorted(p) == list(range(10)) for p in perms)
    assert len({tuple(p) for p in perms}) == 50
    # every value reaches every place
    assert all({p[i] for p in perms} == set(range(10)) for i in range(10))


def test_random_below_stays_below():
    e = seeded_entropy(5)
    assert {g.random_below(e, 3) for _ in range(200)} == {0, 1, 2}
    assert g.random_below(e, 1) == 0


def test_digest_parts_cannot_be_shifted():
    assert g.digest(b"t", b"ab", b"c") != g.digest(b"t", b"a", b"bc")
    assert g.digest(b"t", 1) != g.digest(b"u", 1)


def test_seeded_entropy_is_deterministic():
    a, b = seeded_entropy("x"), seeded_entropy("x")
    assert [a(n) for n in (1, 40, 64)] == [b(n) for n in (1, 40, 64)]
    assert seeded_entropy("y")(32) != seeded_entropy("x")(32)
