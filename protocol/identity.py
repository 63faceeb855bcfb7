"""Who a peer is: an Ed25519 key pair kept in the user's data folder.

The public key (32 bytes) is the identity; its fingerprint names it in the UI
and the zeroconf TXT records; the safety code is what two players read aloud
to each other to be sure nobody sits between them. The private key file is
created with owner-only permissions (folder 0700, file 0600).
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nacl import bindings as _sodium
from nacl.exceptions import CryptoError
from platformdirs import user_data_dir

KEY_FILE = "identity.key"
FINGERPRINT_DOMAIN = b"lanterne/fingerprint/v1"
SAFETY_DOMAIN = b"lanterne/safety/v2"


def home() -> Path:
    """The Lanterne data folder: $LANTERNE_HOME, else platformdirs' user data dir."""
    env = os.environ.get("LANTERNE_HOME")
    if env:
        return Path(env)
    return Path(user_data_dir("lanterne"))


class Identity:
    """A signing key. ``public`` is the 32-byte raw Ed25519 public key."""

    __slots__ = ("_key", "public")

    def __init__(self, key: Ed25519PrivateKey):
        self._key = key
        self.public: bytes = key.public_key().public_bytes_raw()

    @classmethod
    def generate(cls) -> "Identity":
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> "Identity":
        """A deterministic identity from 32 secret bytes (tests, selfplay)."""
        if len(seed) != 32:
            seed = hashlib.sha256(b"lanterne/test-identity/v1" + seed).digest()
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    @classmethod
    def load_or_create(cls, folder: Path | str | None = None) -> "Identity":
        """The identity stored in ``folder`` (default :func:`home`), made on first use."""
        folder = Path(folder) if folder is not None else home()
        folder.mkdir(parents=True, exist_ok=True)
        os.chmod(folder, 0o700)
        path = folder / KEY_FILE
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            key = Ed25519PrivateKey.generate()
            tmp = folder / (KEY_FILE + ".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.write(fd, key.private_bytes_raw())
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, path)
            return cls(key)
        if len(raw) != 32:
            raise ValueError(f"{path} is not a Lanterne identity key (expected 32 bytes, found {len(raw)})")
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    def sign(self, domain: bytes, message: bytes) -> bytes:
        """A 64-byte signature over ``domain || message``."""
        return self._key.sign(domain + message)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)


def verify(public: bytes, signature: bytes, domain: bytes, message: bytes) -> bool:
    """Whether ``signature`` is ``public``'s signature over ``domain || message``.

    Checked with libsodium's strict Ed25519 verification (canonical S, no
    small-order key or R), about twice as fast here as OpenSSL's; signing
    stays with ``cryptography``. Both follow RFC 8032.
    """
    if len(public) != 32 or len(signature) != 64:
        return False
    try:
        _sodium.crypto_sign_open(signature + domain + message, public)
    except (CryptoError, ValueError, TypeError):
        return False
    return True


def fingerprint(public: bytes) -> str:
    """A short printable name of a key: 16 hex digits of SHA-256(domain || key), in groups of 4."""
    h = hashlib.sha256(FINGERPRINT_DOMAIN + public).hexdigest()[:16]
    return "-".join(h[i:i + 4] for i in range(0, 16, 4))


SAFETY_ITERATIONS = 5200
"""SHA-512 rounds per key part (Signal's safety numbers use 5,200 too)."""
PART_DIGITS = 30
"""Digits per key: six chunks of 5 decimal digits, about 99.7 bits."""


@lru_cache(maxsize=256)
def safety_part(public: bytes) -> str:
    """One key's 30-digit part of a safety code (no spaces), as Signal's safety numbers derive it.

    ``h = "lanterne/safety/v2" || key``, then 5,200 times ``h = SHA-512(h || key)``; the first 30 bytes
    of ``h`` as six 5-byte big-endian numbers, each mod 100000, 5 digits each. Cached per key: the
    screens ask for it again and again and each costs 5,200 hashes.
    """
    public = bytes(public)
    h = SAFETY_DOMAIN + public
    for _ in range(SAFETY_ITERATIONS):
        h = hashlib.sha512(h + public).digest()
    return "".join(f"{int.from_bytes(h[i:i + 5], 'big') % 100000:05d}" for i in range(0, 30, 5))


def safety_code(*publics: bytes) -> str:
    """The code players compare aloud: each key's 30-digit part, the parts sorted, in groups of 5.

    Two keys (a joiner and a host): 60 digits, 12 groups. A table of N: 30N digits, the same on
    every screen. The order in which the keys are given does not matter.
    """
    digits = "".join(sorted(safety_part(k) for k in publics))
    return " ".join(digits[i:i + 5] for i in range(0, len(digits), 5))


def safety_lines(code: str, per_line: int = 6) -> list[str]:
    """A code as lines of ``per_line`` groups; with 6, each line is one key's part (35 columns)."""
    groups = code.split()
    return [" ".join(groups[i:i + per_line]) for i in range(0, len(groups), per_line)] or [""]
