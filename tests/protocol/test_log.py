"""log.py: signed hash-chained entries, append-only files that survive a cut."""

import pytest

from lanterne.protocol.identity import Identity
from lanterne.protocol.log import (ENVELOPE_DOMAIN, FIRST_PREV, MAGIC, MAX_ENTRY, LogFormatError, LogWriter, open_entry,
                                   parse_log, read_log, seal)
from lanterne.protocol.wire import ProtocolError, WireError, pack

A = Identity.from_seed(b"a")


def chain(n):
    out, prev = [], FIRST_PREV
    for i in range(n):
        e = seal(A, game=b"g" * 32, seq=i, prev=prev, kind="move", body={"i": i})
        out.append(e)
        prev = e.hash
    return out


def test_entry_round_trip_and_signature():
    e = chain(1)[0]
    back = open_entry(e.raw)
    assert (back.seq, back.kind, back.body, back.author, back.hash) == (0, "move", {"i": 0}, A.public, e.hash)


@pytest.mark.parametrize("seq, kind, body", [
    (0, "hello", {"name": "Ann", "key": b"k" * 32}), (255, "move", {"action": ["play", 3, True], "digest": bytes(32)}),
    (70_000, "a" * 40, [None, -1, 2**40, "é", b"", {"z": 1, "a": [1, {"b": 2}]}]), (2**33, "deal", {})])
def test_a_sealed_entry_is_the_canonical_packing_of_its_fields_signed_over_the_same_without_sig(seq, kind, body):
    """seal lays the envelope out around the body's bytes: byte for byte what packing the whole map gives, and what
    open_entry cuts back out to check the signature."""
    prev = bytes(range(32))
    e = seal(A, game=b"g" * 32, seq=seq, prev=prev, kind=kind, body=body)
    fields = {"v": 1, "game": b"g" * 32, "seq": seq, "prev": prev, "author": A.public, "kind": kind, "body": body}
    assert e.raw == pack({**fields, "sig": e.sig})
    assert e.sig == A.sign(ENVELOPE_DOMAIN, pack(fields))            # Ed25519 signs the same bytes the same way
    back = open_entry(e.raw)
    assert (back.body, back.hash, back.seq, back.kind) == (e.body, e.hash, seq, kind)
    assert e.body == back.body and type(e.body) is type(back.body)     # the author keeps what a receiver reads


def test_an_entry_over_the_size_limit_is_not_signed():
    with pytest.raises(WireError, match="over the 1048576-byte limit"):
        seal(A, game=b"g" * 32, seq=0, prev=FIRST_PREV, kind="move", body=[b"x" * 60_000] * (MAX_ENTRY // 60_000 + 1))


def test_every_flipped_byte_is_caught():
    raw = chain(1)[0].raw
    for i in range(len(raw)):
        bad = bytearray(raw)
        bad[i] ^= 0x01
        with pytest.raises(ProtocolError):
            open_entry(bytes(bad))


def test_log_file_append_and_cut(tmp_path):
    entries = chain(5)
    path = tmp_path / "game.lanterne"
    with LogWriter(path) as w:
        for e in entries:
            w.append(e.raw)
    raws, tail = read_log(path)
    assert raws == [e.raw for e in entries] and tail == 0
    data = path.read_bytes()
    cut = data[:-7]                       # a crash in the middle of the last entry
    raws, tail = parse_log(cut)
    assert raws == [e.raw for e in entries[:4]] and tail > 0
    raws, tail = parse_log(data[:len(MAGIC) + 2])
    assert raws == [] and tail == 2
    with pytest.raises(LogFormatError):
        parse_log(b"garbage" + data)


def test_writer_reopens_and_appends(tmp_path):
    entries = chain(3)
    path = tmp_path / "g.lanterne"
    with LogWriter(path) as w:
        w.append(entries[0].raw)
    with LogWriter(path) as w:
        w.append(entries[1].raw)
    assert read_log(path)[0] == [entries[0].raw, entries[1].raw]
