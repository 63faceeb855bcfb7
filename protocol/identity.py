"""Who a peer is: an Ed25519 key pair kept in the user's data folder.

The public key (32 bytes) is the identity; its fingerprint names it in the UI
and the zeroconf TXT records; the safety code is what two players read aloud
to each other to be sure nobody sits between them. The private key file is
created with owner-only permissions (folder 0700, file 0600).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from nacl import bindings as _sodium
from nacl.exceptions import CryptoError
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

KEY_FILE = "identity.key"
FINGERPRINT_DOMAIN = b"lanterne/fingerprint/v1"
SAFETY_DOMAIN = b"lanterne/safety/v1"


def home() -> Path:
    """The Lanterne data folder: $LANTERNE_HOME, else platformdirs' user data dir."""
    env = os.environ.get("LANTERNE_HOME")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

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


def verify_openssl(public: bytes, signature: bytes, domain: bytes, message: bytes) -> bool:
    """The same check through ``cryptography`` (OpenSSL), for comparison in tests."""
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, domain + message)
    except (InvalidSignature, ValueError):
        return False
    return True


def fingerprint(public: bytes) -> str:
    """A short printable name of a key: 16 hex digits of SHA-256(domain || key), in groups of 4."""
    h = hashlib.sha256(FINGERPRINT_DOMAIN + public).hexdigest()[:16]
    return "-".join(h[i:i + 4] for i in range(0, 16, 4))


def safety_code(*publics: bytes) -> str:
    """The code all players compare aloud: 16 digits in 4 groups, same on every side.

    SHA-256(domain || the keys sorted bytewise), read as a big number mod 10^16.
    The order in which the keys are given does not matter.
    """
    h = hashlib.sha256(SAFETY_DOMAIN + b"".join(sorted(publics))).digest()
    digits = f"{int.from_bytes(h, 'big') % 10 ** 16:016d}"
    return " ".join(digits[i:i + 4] for i in range(0, 16, 4))
