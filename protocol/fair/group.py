"""The arithmetic under the fair table: Ed25519's prime-order group and hashes.

Cards are points of the prime-order subgroup of Ed25519 (libsodium through
PyNaCl), so no residuosity bit survives a lock (the quadratic-residue leak of
SRA over Z_p) and card points have no known discrete-log relations: each is
``from_uniform(H(tag, game id, deck number, identity))``. A lock is a scalar
multiplication by a secret scalar; unlocking multiplies by its inverse mod L.

Every hash here is SHA-256 over length-prefixed parts behind a domain tag, so
no two uses of the hash (cards, key commitments, die commitments, rolls) can
be confused, and no game's values can be replayed in another game.
"""

from __future__ import annotations

import hashlib
from itertools import count
from typing import Callable, Iterable, Iterator

from nacl import bindings as _na
from nacl.exceptions import CryptoError

Entropy = Callable[[int], bytes]

CARD_TAG = b"lanterne/card/v1"
KEY_TAG = b"lanterne/key/v1"
DIE_TAG = b"lanterne/die/v1"
ROLL_TAG = b"lanterne/roll/v1"

ZERO = bytes(32)


def digest(tag: bytes, *parts: bytes | int) -> bytes:
    """SHA-256 of the tag and the parts, each length-prefixed (ints as 8-byte signed)."""
    h = hashlib.sha256()
    h.update(len(tag).to_bytes(2, "big") + tag)
    for part in parts:
        if isinstance(part, int):
            part = part.to_bytes(8, "big", signed=True)
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.digest()


# --------------------------------------------------------------------------
# Points


def card_point(game_id: bytes, deck_no: int, ident: int) -> bytes:
    """The point that stands for card ``ident`` in deck ``deck_no`` of this game."""
    return _na.crypto_core_ed25519_from_uniform(digest(CARD_TAG, game_id, deck_no, ident))


def is_ident(value: object) -> bool:
    """A card identity the card hash can take: an int in the signed 64-bit range."""
    return isinstance(value, int) and not isinstance(value, bool) and -(1 << 63) <= value < 1 << 63


def is_point(value: object) -> bool:
    """A canonical encoding of a point of the prime-order subgroup (not the identity)."""
    return (isinstance(value, bytes) and len(value) == 32
            and bool(_na.crypto_core_ed25519_is_valid_point(value)))


def lock(scalar: bytes, point: bytes) -> bytes:
    """``scalar * point``. libsodium refuses points outside the prime-order subgroup.

    Raises ValueError for such a point (or a product that would be the identity).
    """
    try:
        return _na.crypto_scalarmult_ed25519_noclamp(scalar, point)
    except CryptoError:
        raise ValueError("not a point of the prime-order group") from None


# --------------------------------------------------------------------------
# Scalars (mod L, the group order)
#
# A scalar is 32 bytes, a little-endian number as libsodium reads it. The arithmetic mod L is done on
# Python's integers: the same numbers as libsodium's scalar functions give, several times faster than a
# call through cffi (a deal inverts and multiplies a key per card).

ORDER = 2 ** 252 + 27742317777372353535851937790883648493
"""L, the order of the prime-order subgroup."""


def random_scalar(entropy: Entropy) -> bytes:
    """A uniform non-zero scalar: 64 random bytes reduced mod L (negligible bias)."""
    while True:
        s = _na.crypto_core_ed25519_scalar_reduce(entropy(64))
        if s != ZERO:
            return s


def is_scalar(value: object) -> bool:
    """A canonical (reduced) non-zero scalar."""
    return isinstance(value, bytes) and len(value) == 32 and 0 < int.from_bytes(value, "little") < ORDER


def _number(a: bytes) -> int:
    if len(a) != 32:
        raise TypeError(f"a scalar is 32 bytes, not {len(a)}")
    return int.from_bytes(a, "little")


def _scalar(n: int) -> bytes:
    return n.to_bytes(32, "little")


def scalar_mul(a: bytes, b: bytes) -> bytes:
    return _scalar(_number(a) * _number(b) % ORDER)


def scalar_inv(a: bytes) -> bytes:
    """``1 / a`` mod L. ValueError for a multiple of L, which has no inverse."""
    n = _number(a) % ORDER
    if not n:
        raise ValueError("zero has no inverse mod L")
    return _scalar(pow(n, -1, ORDER))


def product(scalars: Iterable[bytes]) -> bytes:
    it = iter(scalars)
    acc = _number(next(it))
    for s in it:
        acc = acc * _number(s) % ORDER
    return _scalar(acc % ORDER)


# --------------------------------------------------------------------------
# Commitments


def key_commitment(game_id: bytes, deck_no: int, seat: int, pos: int, key: bytes) -> bytes:
    """The hash a seat publishes for its key of one deck position."""
    return digest(KEY_TAG, game_id, deck_no, seat, pos, key)


def die_commitment(game_id: bytes, roll_no: int, seat: int, nonce: bytes) -> bytes:
    """The hash a seat publishes for its secret of one roll before anyone reveals."""
    return digest(DIE_TAG, game_id, roll_no, seat, nonce)


# --------------------------------------------------------------------------
# Uniform choices


def uniform_below(n: int, blocks: Iterator[bytes]) -> int:
    """A uniform value in 0..n-1 by rejection sampling over random blocks.

    Each block is read as a big-endian number x below 2**bits; x is kept only
    when it is below the largest multiple of n that fits, so ``x % n`` has no
    modulo bias. ``blocks`` must not run dry before a block is kept.
    """
    if n < 1:
        raise ValueError(f"cannot choose among {n} values")
    for block in blocks:
        space = 1 << (8 * len(block))
        if space < n:
            raise ValueError(f"a {len(block)}-byte block cannot choose among {n} values")
        x = int.from_bytes(block, "big")
        if x < space - space % n:
            return x % n
    raise ValueError("ran out of random blocks")


def roll_value(game_id: bytes, roll_no: int, faces: int, nonces: list[bytes]) -> int:
    """The face of a roll from every seat's secret (in seat order)."""
    blocks = (digest(ROLL_TAG, game_id, roll_no, faces, *nonces, i) for i in count())
    return uniform_below(faces, blocks)


def random_below(entropy: Entropy, n: int) -> int:
    """A uniform value in 0..n-1 from the entropy source (rejection on a bit mask)."""
    if n <= 1:
        return 0
    bits = (n - 1).bit_length()
    size = (bits + 7) // 8
    mask = (1 << bits) - 1
    while True:
        x = int.from_bytes(entropy(size), "big") & mask
        if x < n:
            return x


def random_permutation(entropy: Entropy, n: int) -> list[int]:
    """A uniform permutation of range(n) (Fisher-Yates)."""
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = random_below(entropy, i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm
