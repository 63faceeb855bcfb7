"""wire.py: canonical encoding, bounded decoding, schema checks."""

import msgpack
import pytest

from lanterne.protocol.wire import SchemaError, WireError, check, pack, unpack


def test_round_trip_is_canonical():
    value = {"b": [1, -1, 2**40, "x", b"\x00" * 3, None, True], "a": {"z": 1, "y": 2}}
    raw = pack(value)
    assert unpack(raw) == value
    assert raw == pack(unpack(raw))


@pytest.mark.parametrize("raw, why", [
    (b"", "empty"),
    (pack({"a": 1}) + b"\x00", "trailing"),
    (pack({"a": 1})[:-1], "cut short"),
    (msgpack.packb({"b": 1, "a": 2}), "canonical"),          # unsorted keys
    (b"\xcd\x00\x01", "canonical"),                           # 1 as uint16: not the shortest int
    (msgpack.packb(1.5), "plain data"),                       # floats have no canonical form
    (msgpack.packb({1: 2}), "valid msgpack"),                 # int keys
    (b"\xc1", "valid msgpack"),                               # the never-used byte
    (b"\xd6\xff\x00\x00\x00\x00", "valid msgpack"),           # ext (timestamp)
    (b"\xa2\xff\xfe", "valid msgpack"),                       # bad UTF-8
    (b"\xdd\xff\xff\xff\xff", "valid msgpack"),               # a 4-billion-item array announced
])
def test_bad_bytes_are_refused_with_a_reason(raw, why):
    with pytest.raises(WireError, match=why):
        unpack(raw)


def test_size_limit():
    with pytest.raises(WireError, match="over the"):
        unpack(pack(b"x" * 100), max_size=50)


def test_deep_nesting_is_refused_not_crashing():
    raw = b"\x91" * 5000 + b"\x00"
    with pytest.raises(WireError):
        unpack(raw)


SCHEMA = {"n": "uint", "name": "str", "key": "bytes32", "opt?": "bool",
          "xs": ["list", "int", 3], "m": ["map", "str", "uint", 2], "sub": {"a": "bytes64"}, "data": "any"}
GOOD = {"n": 1, "name": "x", "key": b"k" * 32, "xs": [1, -2], "m": {"a": 1}, "sub": {"a": b"s" * 64},
        "data": [None, {"q": [b"", 3]}]}


def test_schema_accepts_good_value():
    check(SCHEMA, GOOD)
    check(SCHEMA, {**GOOD, "opt": True})


@pytest.mark.parametrize("change, why", [
    ({"n": -1}, "body.n must be uint"),
    ({"n": True}, "body.n must be uint"),
    ({"key": b"short"}, "body.key must be bytes32"),
    ({"xs": [1, 2, 3, 4]}, "over the limit of 3"),
    ({"xs": [1, "2"]}, r"body.xs\[1\] must be int"),
    ({"m": {"a": 1, "b": 2, "c": 3}}, "over the limit"),
    ({"sub": {"a": b"x"}}, "body.sub.a must be bytes64"),
    ({"extra": 1}, "unknown field 'extra'"),
    ({"opt": 1}, "body.opt must be bool"),
    ({"data": 1.5}, "body.data must be any"),
])
def test_schema_names_the_bad_field(change, why):
    with pytest.raises(SchemaError, match=why):
        check(SCHEMA, {**GOOD, **change})


def test_schema_missing_field():
    value = dict(GOOD)
    del value["name"]
    with pytest.raises(SchemaError, match="lacks the field 'name'"):
        check(SCHEMA, value)


def test_mixed_key_types_and_nested_disorder_are_refused():
    with pytest.raises(WireError):
        unpack(msgpack.packb({"a": 1, b"b": 2}, use_bin_type=True))
    with pytest.raises(WireError, match="out of order"):
        unpack(msgpack.packb({"a": [{"z": 1, "y": 2}]}, use_bin_type=True))
