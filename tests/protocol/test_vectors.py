"""The test vectors of docs/protocol.md (section 12), read from the page and checked against the code.

Each vector is checked twice: recomputed from the page's own definitions
with stock libraries (hashlib, msgpack, ``cryptography``, libsodium through
PyNaCl's bindings), so the page is right on its own, and through
Lanterne's code, so the code does what the page says.
"""

from __future__ import annotations

import hashlib
import re
from itertools import count
from pathlib import Path

import msgpack
import nacl.bindings as sodium
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from lanterne.protocol import identity as ids
from lanterne.protocol.fair import group
from lanterne.protocol.log import FIRST_PREV, open_entry, seal

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def read_vectors(text: str) -> dict[str, str]:
    """Every ``name = value`` line of the fenced blocks of section 12; indented lines continue a value."""
    section = text[text.index("## 12. Test vectors"):]
    out: dict[str, str] = {}
    last = None
    for block in re.findall(r"```text\n(.*?)```", section, re.S):
        for line in block.splitlines():
            m = re.match(r"([a-z0-9_.]+) = (.+)$", line)
            if m:
                last = m.group(1)
                assert last not in out, f"{last} given twice"
                out[last] = m.group(2).strip()
            elif line.startswith(" ") and last is not None:
                out[last] += line.strip()
            elif line.strip():
                raise AssertionError(f"a line of the vectors that is not name = value: {line!r}")
    return out


V = read_vectors(DOC.read_text(encoding="utf-8"))


def b(name: str) -> bytes:
    return bytes.fromhex(V[name])


def H(tag: bytes, *parts: bytes | int) -> bytes:
    """The page's H, written from its words: 2-byte tag length, then every part with a 4-byte length."""
    data = len(tag).to_bytes(2, "big") + tag
    for part in parts:
        if isinstance(part, int):
            part = part.to_bytes(8, "big", signed=True)
        data += len(part).to_bytes(4, "big") + part
    return hashlib.sha256(data).digest()


def test_the_page_gives_every_vector():
    for name in ("entry.bytes", "entry.signature", "entry.hash", "card.point", "key.commitment",
                 "die.commit0", "roll0.face", "roll1.face", "safety.code"):
        assert name in V


def test_the_entry_decodes_to_what_the_page_says():
    value = msgpack.unpackb(b("entry.bytes"), raw=False)
    assert value == {"v": 1, "game": b"", "seq": 0, "prev": bytes(32), "author": b("entry.public_key"),
                     "kind": "hello", "body": {"name": "Ana", "versions": [1]}, "sig": b("entry.signature")}
    assert list(value) == sorted(value)                           # keys in code-point order
    assert msgpack.packb(value, use_bin_type=True) == b("entry.bytes")   # canonical


def test_the_entry_key_signature_and_hash_check_with_stock_libraries():
    key = Ed25519PrivateKey.from_private_bytes(b("entry.private_key"))
    assert key.public_key().public_bytes_raw() == b("entry.public_key")
    value = msgpack.unpackb(b("entry.bytes"), raw=False)
    unsigned = msgpack.packb({k: v for k, v in value.items() if k != "sig"}, use_bin_type=True)
    assert b("entry.signed_bytes") == b"lanterne/envelope/v1" + unsigned
    assert key.sign(b("entry.signed_bytes")) == b("entry.signature")     # Ed25519 is deterministic
    Ed25519PublicKey.from_public_bytes(b("entry.public_key")).verify(b("entry.signature"), b("entry.signed_bytes"))
    sodium.crypto_sign_open(b("entry.signature") + b("entry.signed_bytes"), b("entry.public_key"))
    assert hashlib.sha256(b("entry.bytes")).hexdigest() == V["entry.hash"]


def test_the_entry_is_what_the_code_writes_and_accepts():
    me = ids.Identity.from_seed(b("entry.private_key"))
    entry = seal(me, game=b"", seq=0, prev=FIRST_PREV, kind="hello", body={"name": "Ana", "versions": [1]})
    assert entry.raw == b("entry.bytes")
    assert entry.hash == b("entry.hash")
    opened = open_entry(b("entry.bytes"))
    assert (opened.sig, opened.hash) == (b("entry.signature"), b("entry.hash"))
    assert me.fingerprint == V["entry.fingerprint"]
    assert hashlib.sha256(b"lanterne/fingerprint/v1" + b("entry.public_key")).hexdigest()[:16] == \
        V["entry.fingerprint"].replace("-", "")


def test_a_flipped_byte_of_the_entry_is_refused():
    raw = bytearray(b("entry.bytes"))
    raw[raw.index(b"Ana")] ^= 0x20          # "ana": the signature no longer holds
    with pytest.raises(Exception, match="signature"):
        open_entry(bytes(raw))


def _signal_part(key: bytes) -> str:
    """A key's 30-digit part, re-derived from the page with hashlib alone."""
    h = b"lanterne/safety/v2" + key
    for _ in range(5200):
        h = hashlib.sha512(h + key).digest()
    return "".join("%05d" % (int.from_bytes(h[i:i + 5], "big") % 100000) for i in range(0, 30, 5))


def test_the_safety_code():
    other = ids.Identity.from_seed(bytes(range(32, 64)))
    assert other.public == b("safety.other_public_key")
    mine = b("entry.public_key")
    assert _signal_part(mine) == V["safety.entry_part"] and _signal_part(other.public) == V["safety.other_part"]
    digits = "".join(sorted([V["safety.entry_part"], V["safety.other_part"]]))
    assert " ".join(digits[i:i + 5] for i in range(0, 60, 5)) == V["safety.code"]
    assert ids.safety_part(mine) == V["safety.entry_part"]
    assert ids.safety_code(other.public, mine) == ids.safety_code(mine, other.public) == V["safety.code"]


def test_the_game_id_of_the_fair_vectors():
    assert hashlib.sha256(b"lanterne test vectors").digest() == b("fair.game_id")


def test_the_card_point_is_libsodium_from_uniform_of_the_card_hash():
    gid, deck, ident = b("fair.game_id"), int(V["card.deck"]), int(V["card.ident"])
    assert H(b"lanterne/card/v1", gid, deck, ident) == b("card.hash")
    assert group.digest(group.CARD_TAG, gid, deck, ident) == b("card.hash")
    assert sodium.crypto_core_ed25519_from_uniform(b("card.hash")) == b("card.point")
    assert group.card_point(gid, deck, ident) == b("card.point")
    assert sodium.crypto_core_ed25519_is_valid_point(b("card.point"))


def test_the_int_parts_of_a_hash_carry_the_four_byte_length():
    without = hashlib.sha256(len(b"lanterne/card/v1").to_bytes(2, "big") + b"lanterne/card/v1" + b("fair.game_id")
                             + int(V["card.deck"]).to_bytes(8, "big") + int(V["card.ident"]).to_bytes(8, "big"))
    assert without.digest() != b("card.hash")     # the page's vector would catch an implementer who skipped it


def test_the_lock_and_the_key_commitment():
    scalar, point = b("lock.scalar"), b("card.point")
    assert int.from_bytes(scalar, "little") == 5
    assert sodium.crypto_scalarmult_ed25519_noclamp(scalar, point) == b("lock.point")
    assert group.lock(scalar, point) == b("lock.point")
    five_times = sodium.crypto_core_ed25519_add(point, point)
    for _ in range(3):
        five_times = sodium.crypto_core_ed25519_add(five_times, point)
    assert five_times == b("lock.point")
    gid, seat, pos = b("fair.game_id"), int(V["key.seat"]), int(V["key.pos"])
    assert H(b"lanterne/key/v1", gid, int(V["card.deck"]), seat, pos, scalar) == b("key.commitment")
    assert group.key_commitment(gid, int(V["card.deck"]), seat, pos, scalar) == b("key.commitment")


def test_the_die_commitments_and_rolls():
    gid = b("fair.game_id")
    n0, n1 = b("die.nonce0"), b("die.nonce1")
    assert n0 == hashlib.sha256(b"nonce of seat 0").digest() and n1 == hashlib.sha256(b"nonce of seat 1").digest()
    for seat, nonce in enumerate((n0, n1)):
        assert H(b"lanterne/die/v1", gid, 0, seat, nonce) == b(f"die.commit{seat}")
        assert group.die_commitment(gid, 0, seat, nonce) == b(f"die.commit{seat}")
    for r in (0, 1):
        faces = int(V[f"roll{r}.faces"])
        x = H(b"lanterne/roll/v1", gid, r, faces, n0, n1, 0)
        assert x == b(f"roll{r}.x")
        bound = 2 ** 256 - 2 ** 256 % faces
        face = next(int.from_bytes(y, "big") % faces for y in
                    (H(b"lanterne/roll/v1", gid, r, faces, n0, n1, i) for i in count())
                    if int.from_bytes(y, "big") < bound)
        assert face == int(V[f"roll{r}.face"])
        assert group.roll_value(gid, r, faces, [n0, n1]) == face


def test_the_limits_on_the_page_are_the_codes():
    from lanterne.protocol import log, wire

    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("**Limits**"):text.index("### Schemas")]
    assert wire.MAX_MESSAGE == log.MAX_ENTRY == 1_048_576 and "1,048,576 bytes" in table
    assert wire.MAX_STR == 4096 and "4096 bytes of UTF-8" in table
    assert wire.MAX_STR_FIELD == 1024 and "1024 characters" in table
    assert wire.MAX_BIN == 65_536 and "65,536 bytes" in table
    assert wire.MAX_ARRAY == 8192 and "8192 items" in table
    assert wire.MAX_MAP == 256 and "256 pairs" in table
    assert wire.MAX_DEPTH == 24 and "24 levels" in table
    wire.check("str", "é" * 1024)                       # 2048 bytes: the character limit holds first
    with pytest.raises(wire.SchemaError):
        wire.check("str", "x" * 1025)
    with pytest.raises(wire.WireError):
        wire.unpack(msgpack.packb("x" * 4097))
    nested = 0
    for _ in range(24):
        nested = [nested]
    wire.check("any", nested)
    with pytest.raises(wire.SchemaError):
        wire.check("any", [nested])
    wire.unpack(b"\x91" * 1024 + b"\x00")
    with pytest.raises(wire.WireError):
        wire.unpack(b"\x91" * 1025 + b"\x00")
