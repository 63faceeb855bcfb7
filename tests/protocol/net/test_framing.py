"""The sans-IO frame decoder: every split, every lie about a length, garbage."""

import struct

import pytest
from hypothesis import given, settings, strategies as st

from protocol.net.framing import (CLOSE, CONTROL_MAX, DATA, PING, PONG, PREFACE, Frame, FrameDecoder,
                                  FrameError, encode_close, encode_frame)


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
    with pytest.raises(FrameError, match="unknown frame kind 7"):
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
        assert f.kind in (DATA, PING, PONG, CLOSE)
        assert len(f.payload) < 64
    assert dec.buffered < 64 + 4
