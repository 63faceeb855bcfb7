"""identity.py: stored keys with owner-only permissions, fingerprints, safety codes."""

import hashlib
import os
import stat

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from lanterne.protocol.identity import (KEY_FILE, Identity, fingerprint, home, safety_code, safety_lines, safety_part,
                               verify)


def test_identity_is_created_once_with_owner_only_permissions(lanterne_home):
    a = Identity.load_or_create()
    assert home() == lanterne_home
    path = lanterne_home / KEY_FILE
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(lanterne_home).st_mode) == 0o700
    b = Identity.load_or_create()
    assert a.public == b.public and len(a.public) == 32


def test_sign_and_verify_are_domain_separated():
    a = Identity.from_seed(b"a")
    sig = a.sign(b"dom/1", b"hello")
    assert verify(a.public, sig, b"dom/1", b"hello")
    assert not verify(a.public, sig, b"dom/2", b"hello")
    assert not verify(a.public, sig, b"dom/1", b"hellO")
    assert not verify(Identity.from_seed(b"b").public, sig, b"dom/1", b"hello")


def _part(key: bytes) -> str:
    """Signal's numeric fingerprint, re-derived here with hashlib (not with the code under test)."""
    h = b"lanterne/safety/v2" + key
    for _ in range(5200):
        h = hashlib.sha512(h + key).digest()
    return "".join(str(int.from_bytes(h[i:i + 5], "big") % 100000).zfill(5) for i in range(0, 30, 5))


def test_fingerprint_and_safety_code():
    a, b, c = (Identity.from_seed(s).public for s in (b"a", b"b", b"c"))
    assert fingerprint(a) != fingerprint(b) and len(fingerprint(a)) == 19
    code = safety_code(a, b)
    assert code == safety_code(b, a)                 # order-independent
    assert code != safety_code(a, c)                 # depends on both keys
    groups = code.split(" ")
    assert len(groups) == 12 and all(len(g) == 5 and g.isdigit() for g in groups)
    assert code.replace(" ", "") == "".join(sorted([_part(a), _part(b)]))


def test_safety_code_vectors_of_fixed_keys():
    """Keys 00..1f and 20..3f as Ed25519 seeds: the code re-derived independently matches, and is fixed."""
    a = Identity.from_seed(bytes(range(32))).public
    b = Identity.from_seed(bytes(range(32, 64))).public
    assert safety_part(a) == _part(a) == "051861174142979930871760951499"
    assert safety_part(b) == _part(b) == "457971161996256346990830637584"
    assert safety_code(a, b) == ("05186 11741 42979 93087 17609 51499 "
                                 "45797 11619 96256 34699 08306 37584")
    assert safety_lines(safety_code(b, a)) == ["05186 11741 42979 93087 17609 51499",
                                               "45797 11619 96256 34699 08306 37584"]


def test_a_table_code_holds_every_seat_part_sorted():
    keys = [Identity.from_seed(s).public for s in (b"a", b"b", b"c")]
    code = safety_code(*keys)
    assert code == safety_code(*reversed(keys)) and len(code.split()) == 18
    assert safety_lines(code) == sorted(" ".join(_part(k)[i:i + 5] for i in range(0, 30, 5)) for k in keys)


def test_safety_part_is_cached_per_key():
    key = Identity.from_seed(b"cache").public
    safety_part.cache_clear()
    safety_part(key)
    safety_code(key, Identity.from_seed(b"other").public)
    assert safety_part.cache_info().hits >= 1


def verify_openssl(public: bytes, signature: bytes, domain: bytes, message: bytes) -> bool:
    """``identity.verify``'s check through ``cryptography`` (OpenSSL), to compare the two."""
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, domain + message)
    except (InvalidSignature, ValueError):
        return False
    return True


def test_libsodium_and_openssl_agree_on_signatures():
    a, b = Identity.from_seed(b"a"), Identity.from_seed(b"b")
    for i in range(30):
        msg = bytes([i]) * i
        sig = a.sign(b"d", msg)
        bad = bytearray(sig)
        bad[i % 64] ^= 1
        for key, s in ((a.public, sig), (b.public, sig), (a.public, bytes(bad))):
            assert verify(key, s, b"d", msg) == verify_openssl(key, s, b"d", msg)
    assert not verify(a.public, sig[:63], b"d", msg) and not verify(bytes(32), sig, b"d", msg)


def test_a_damaged_key_file_is_a_clear_error_and_loose_permissions_are_fixed(lanterne_home):
    import pytest

    Identity.load_or_create()
    path = lanterne_home / KEY_FILE
    os.chmod(path, 0o644)
    Identity.load_or_create()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    path.write_bytes(b"short")
    with pytest.raises(ValueError, match="not a Lanterne identity key"):
        Identity.load_or_create()
