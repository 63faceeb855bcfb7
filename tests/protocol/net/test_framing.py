"""The sans-IO frame decoder: every split, every lie about a length, garbage."""

import struct

import pytest
from hypothesis import given, settings, strategies as st

from lanterne.protocol.net.framing import (CLOSE, CONTROL_MAX, DATA, MORE, NOISE_MAX, PING, PONG, PREFACE, RECORD_CHUNK,
                                  SEALED, Frame, FrameDecoder, FrameError, Opener, Sealer, close_payload,
                                  encode_close, encode_frame)
from lanterne.protocol.identity import Identity
from lanterne.protocol.net.handshake import Handshake


def stream(*frames: bytes) -> bytes:
    return PREFACE + b"".join(frames)


def test_frames_round_trip_in_order():
    raw = stream(encode_frame(DATA, b"hello"), encode_frame(PING, b"t"), encode_frame(DATA, b""))
    assert FrameDecoder().feed(raw) == [Frame(DATA, b"hello"), Frame(PING, b"t"), Frame(DATA, b"")]


def test_frame_header_is_length_then_kind():
    assert encode_frame(DATA, b"ab") == b"\x00\x00\x00\x03\x00ab"
    assert encode_frame(PONG, b"") == b"\x00\x00\x00\x01\x02"


@settings(max_examples=60, deadline=None)
@given(payloads=st.lists(st.binary(max_size=300), max_size=8), cuts=st.lists(st.integers(0, 3000), max_size=10))
def test_any_split_of_the_stream_gives_the_same_frames(payloads, cuts):
    raw = stream(*(encode_frame(DATA, p) for p in payloads))
    dec = FrameDecoder()
    got = []
    last = 0
    for cut in sorted(c % (len(raw) + 1) for c in cuts) + [len(raw)]:
        got += dec.feed(raw[last:cut])
        last = cut
    assert [f.payload for f in got] == payloads
    assert dec.buffered == 0


def test_byte_by_byte():
    raw = stream(encode_frame(DATA, b"x" * 40), encode_frame(CLOSE, b"bye"))
    dec = FrameDecoder()
    got = [f for i in range(len(raw)) for f in dec.feed(raw[i:i + 1])]
    assert got == [Frame(DATA, b"x" * 40), Frame(CLOSE, b"bye")]


def test_oversize_length_is_refused_before_its_bytes_arrive():
    dec = FrameDecoder(max_frame=100)
    with pytest.raises(FrameError, match="101 bytes exceeds the maximum of 100"):
        dec.feed(PREFACE + struct.pack(">IB", 101, DATA))
    assert dec.buffered == 0


def test_a_frame_of_exactly_the_maximum_passes():
    dec = FrameDecoder(max_frame=100)
    assert dec.feed(PREFACE + encode_frame(DATA, b"y" * 99, max_frame=100)) == [Frame(DATA, b"y" * 99)]


def test_encoder_refuses_what_the_decoder_would():
    with pytest.raises(FrameError, match="exceeds the maximum"):
        encode_frame(DATA, b"z" * 100, max_frame=100)
    with pytest.raises(FrameError, match="ping payload"):
        encode_frame(PING, b"p" * (CONTROL_MAX + 1))
    with pytest.raises(FrameError, match="unknown frame kind 9"):
        encode_frame(9, b"")


def test_zero_length_frame_is_an_error():
    with pytest.raises(FrameError, match="length 0"):
        FrameDecoder().feed(PREFACE + b"\x00\x00\x00\x00")


def test_unknown_kind_is_an_error():
    with pytest.raises(FrameError, match="unknown frame kind 7"):  # (4 is SEALED, a record)
        FrameDecoder().feed(PREFACE + b"\x00\x00\x00\x01\x07")


def test_oversize_control_frame_is_an_error():
    with pytest.raises(FrameError, match="ping frame of 126 bytes"):
        FrameDecoder().feed(PREFACE + struct.pack(">IB", 127, PING))


def test_http_request_is_not_a_peer():
    with pytest.raises(FrameError, match="not a Lanterne peer"):
        FrameDecoder().feed(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")


def test_partial_preface_waits_then_checks():
    dec = FrameDecoder()
    assert dec.feed(PREFACE[:3]) == []
    with pytest.raises(FrameError, match="preface"):
        dec.feed(b"X")


def test_decoder_stays_broken_after_an_error():
    dec = FrameDecoder()
    with pytest.raises(FrameError):
        dec.feed(b"garbage!")
    with pytest.raises(FrameError, match="preface"):
        dec.feed(PREFACE + encode_frame(DATA, b"ok"))


def test_close_reason_is_cut_to_fit_on_a_character_boundary():
    frame = FrameDecoder(expect_preface=False).feed(encode_close("é" * 200))[0]
    assert frame.kind == CLOSE and len(frame.payload) <= CONTROL_MAX
    assert frame.payload.decode("utf-8") == "é" * (CONTROL_MAX // 2)


@settings(max_examples=300, deadline=None)
@given(garbage=st.binary(max_size=200), after_preface=st.booleans())
def test_garbage_gives_frames_or_a_frame_error_never_anything_else(garbage, after_preface):
    dec = FrameDecoder(max_frame=64)
    try:
        frames = dec.feed((PREFACE if after_preface else b"") + garbage)
    except FrameError as e:
        assert "\n" not in str(e)
        return
    for f in frames:
        assert f.kind in (DATA, PING, PONG, CLOSE, SEALED)
        assert len(f.payload) < 64
    assert dec.buffered < 64 + 4


def test_a_peer_of_another_framing_version_is_told_so():
    with pytest.raises(FrameError, match="the peer speaks framing version 1, we speak 2"):
        FrameDecoder().feed(b"\x89LNT\r\n1\n" + encode_frame(DATA, b"hello"))
    dec = FrameDecoder()
    assert dec.feed(b"\x89LNT\r\n3") == []            # the version byte alone: wait for the whole preface
    with pytest.raises(FrameError, match="framing version 3"):
        dec.feed(b"\n")


# ---------------------------------------------------------------- records


def cipher_pair():
    """The two cipher states of one direction of a real Noise handshake (sender's, receiver's)."""
    a = Handshake(Identity.from_seed(b"framing/a"), "A")
    b = Handshake(Identity.from_seed(b"framing/b"), "B", initiator=False)
    b.receive(a.receive(b.receive(a.opening())))
    return a.send_cipher, b.recv_cipher


def records(wire: bytes) -> list[bytes]:
    frames = FrameDecoder(expect_preface=False).feed(wire)
    assert all(f.kind == SEALED and len(f.payload) <= NOISE_MAX for f in frames)
    return [f.payload for f in frames]


def test_frames_of_every_kind_round_trip_through_records():
    send, recv = cipher_pair()
    sealer, opener = Sealer(send), Opener(recv)
    sent = [(DATA, b"move"), (PING, b"t"), (PONG, b""), (DATA, b""), (CLOSE, b"bye")]
    got = [opener.open(r) for kind, payload in sent for r in records(sealer.seal(kind, payload))]
    assert got == [Frame(k, p) for k, p in sent]
    assert opener.opened == 5


def test_a_1_mib_payload_is_split_into_records_with_more_and_joined_back():
    send, recv = cipher_pair()
    payload = bytes(range(256)) * 4096
    rs = records(Sealer(send).seal(DATA, payload))
    assert len(rs) == -(-len(payload) // RECORD_CHUNK) == 17
    assert all(len(r) == NOISE_MAX for r in rs[:-1])
    opener = Opener(recv)
    assert [opener.open(r) for r in rs[:-1]] == [None] * 16 and opener.pending
    assert opener.open(rs[-1]) == Frame(DATA, payload) and not opener.pending
    with pytest.raises(FrameError, match="exceeds the maximum"):
        Sealer(send).seal(DATA, payload + bytes(2))


@pytest.mark.parametrize("how", ["flip", "replay", "reorder", "drop", "cut", "inject"])
def test_a_record_that_does_not_open_breaks_the_opener_and_delivers_nothing(how):
    send, recv = cipher_pair()
    sealer = Sealer(send)
    rs = [r for i in range(4) for r in records(sealer.seal(DATA, b"entry %d" % i))]
    if how == "flip":
        rs[2] = rs[2][:5] + bytes([rs[2][5] ^ 1]) + rs[2][6:]
    elif how == "replay":
        rs[2] = rs[1]
    elif how == "reorder":
        rs[2], rs[3] = rs[3], rs[2]
    elif how == "drop":
        del rs[2]
    elif how == "cut":
        rs[2] = rs[2][:-1]
    else:
        rs.insert(2, bytes(30))
    opener = Opener(recv)
    assert [opener.open(r).payload for r in rs[:2]] == [b"entry 0", b"entry 1"]
    with pytest.raises(FrameError, match="record 3 does not decrypt") as e:
        opener.open(rs[2])
    assert "\n" not in str(e.value)
    with pytest.raises(FrameError, match="record 3"):       # stays broken, even for the honest next record
        opener.open(rs[-1])


def test_bad_plaintext_inside_a_record_is_refused():
    for plain, reason in ((b"", "no kind byte"), (b"\x09x", "unknown frame kind 9"),
                          (bytes([PING | MORE]) + b"x", "ping frame cannot be split"),
                          (bytes([CLOSE]) + b"x" * 126, "close frame of 126 bytes")):
        send, recv = cipher_pair()
        with pytest.raises(FrameError, match=reason):
            Opener(recv).open(send.encrypt_with_ad(None, plain))
    send, recv = cipher_pair()          # a control frame in the middle of a split DATA frame
    opener = Opener(recv)
    assert opener.open(send.encrypt_with_ad(None, bytes([DATA | MORE]) + b"part")) is None
    with pytest.raises(FrameError, match="a ping frame inside a split data frame"):
        opener.open(send.encrypt_with_ad(None, bytes([PING])))
    send, recv = cipher_pair()          # a split DATA frame over the opener's maximum, refused as it grows
    opener = Opener(recv, max_frame=10)
    opener.open(send.encrypt_with_ad(None, bytes([DATA | MORE]) + b"x" * 8))
    with pytest.raises(FrameError, match="exceeds the maximum of 10"):
        opener.open(send.encrypt_with_ad(None, bytes([DATA | MORE]) + b"x" * 8))


def test_a_record_is_at_most_one_noise_message():
    with pytest.raises(FrameError, match="record of 65536 bytes exceeds 65535"):
        FrameDecoder(max_frame=1 << 20).feed(PREFACE + struct.pack(">IB", NOISE_MAX + 2, SEALED))
    assert close_payload("é" * 200).decode() == "é" * (CONTROL_MAX // 2)
