"""log.py: signed hash-chained entries, append-only files that survive a cut."""

import pytest

from lanterne.protocol.identity import Identity
from lanterne.protocol.log import (FIRST_PREV, MAGIC, LogFormatError, LogWriter, open_entry, parse_log,
                          read_log, seal)
from lanterne.protocol.wire import ProtocolError

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
