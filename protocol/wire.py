"""Canonical msgpack on the wire: encode, decode untrusted bytes, check schemas.

Every message is one msgpack value in canonical form (maps with sorted string
keys, shortest ints, bin for bytes, no floats: :func:`engines.core.canonical_pack`).
Untrusted bytes go through :func:`unpack`, which bounds every size, refuses
trailing bytes and refuses any encoding that is not the canonical one, so one
value has exactly one byte string. :func:`check` then holds the value against a
schema before anything else reads it.

Schema language (shared with ``protocol/fair``): a schema is a dict
``field -> type``; a field whose name ends in ``?`` is optional; unknown
fields are errors. Types: ``"int"``, ``"uint"``, ``"bool"``, ``"str"``,
``"bytes"``, ``"bytes32"``, ``"bytes64"``, ``"any"`` (plain data: None, bool,
int, str, bytes, lists and string-keyed maps of these), ``["list", elem,
max_len]``, ``["map", key_type, value_type, max_len]``, or a nested dict schema.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Callable, Iterable

import msgpack

from lanterne.engines.core import canonical_pack

MAX_MESSAGE = 1 << 20
"""Largest encoded message (bytes) a peer accepts."""
MAX_STR = 4096
MAX_BIN = 1 << 16
MAX_ARRAY = 8192
MAX_MAP = 256
MAX_DEPTH = 24
"""Deepest nesting of lists and maps an ``any`` field may hold."""
MAX_STR_FIELD = 1024
"""Longest ``str`` a schema field accepts (in characters)."""


class ProtocolError(Exception):
    """A message that breaks the protocol; ``str(e)`` is one line saying why.

    ``seat`` is the seat at fault when it is known (None: unknown or nobody);
    ``entry``, where a log is read, the index of the entry at fault.
    """

    entry: int

    def __init__(self, message: str, seat: int | None = None):
        super().__init__(message)
        self.seat = seat


class WireError(ProtocolError):
    """Bytes that are not one bounded, canonical msgpack value."""


class SchemaError(ProtocolError):
    """A value that does not match the schema of its kind."""


def pack(obj: Any) -> bytes:
    """The canonical encoding of plain data (tuples become lists)."""
    return canonical_pack(obj)


def unpack(data: bytes, max_size: int = MAX_MESSAGE) -> Any:
    """Decode one untrusted message; WireError unless it is bounded and canonical."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise WireError(f"a message must be bytes, not {type(data).__name__}")
    data = bytes(data)
    if len(data) > max_size:
        raise WireError(f"message of {len(data)} bytes is over the {max_size}-byte limit")
    if not data:
        raise WireError("empty message")
    try:
        value = msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True, max_str_len=MAX_STR,
                                max_bin_len=MAX_BIN, max_array_len=MAX_ARRAY, max_map_len=MAX_MAP, max_ext_len=0)
    except Exception:     # the reader below says which way the bytes are bad
        value = _read_one(data)
    if not _plain_sorted(value):
        raise WireError("not plain data in canonical form (floats, or map keys out of order)")
    if msgpack.packb(value, use_bin_type=True) != data:
        raise WireError("not in canonical form (sorted keys, shortest ints, bin for bytes)")
    return value


def _read_one(data: bytes) -> Any:
    """What :func:`unpack`'s one-call decoding refused, read again to say why in one line (or decoded: a value
    it refused for another reason is read here within the same limits)."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True, use_list=True,
                                max_buffer_size=max(len(data), 1), max_str_len=MAX_STR,
                                max_bin_len=MAX_BIN, max_array_len=MAX_ARRAY,
                                max_map_len=MAX_MAP, max_ext_len=0)
    try:
        unpacker.feed(data)
        value = unpacker.unpack()
        end = unpacker.tell()
    except msgpack.OutOfData:
        raise WireError("message cut short") from None
    except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError,
            UnicodeDecodeError, RecursionError) as e:
        raise WireError(f"not valid msgpack: {type(e).__name__}: {_one_line(e)}") from None
    if end != len(data):
        raise WireError(f"{len(data) - end} trailing bytes after the message")
    return value


def unpack_own(data: bytes) -> Any:
    """Decode bytes this peer encoded itself with :func:`pack` (canonical by construction), within the limits
    :func:`unpack` holds a peer to: what a receiver would refuse is refused here, before it is signed."""
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True, max_str_len=MAX_STR,
                               max_bin_len=MAX_BIN, max_array_len=MAX_ARRAY, max_map_len=MAX_MAP, max_ext_len=0)
    except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError,
            UnicodeDecodeError, RecursionError) as e:
        raise WireError(f"not valid msgpack: {type(e).__name__}: {_one_line(e)}") from None


def _plain_sorted(value: Any) -> bool:
    """No floats, and every map's keys in sorted order (msgpack keeps the order it read)."""
    if type(value) is float:
        return False
    stack = [value]
    items: Iterable[Any]
    while stack:
        x = stack.pop()
        if type(x) is dict:
            keys = list(x)
            try:
                if keys != sorted(keys):
                    return False
            except TypeError:          # str and bytes keys mixed: no order
                return False
            items = x.values()
        elif type(x) is list:
            items = x
        else:
            continue
        for item in items:             # only containers go on the stack; a float is refused where it is met
            kind = type(item)
            if kind is dict or kind is list:
                stack.append(item)
            elif kind is float:
                return False
    return True


INVISIBLE = frozenset(
    [0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFEFF, 0xFFA0]
    + list(range(0x180B, 0x1810)) + list(range(0x200B, 0x2010)) + list(range(0x202A, 0x202F))
    + list(range(0x2060, 0x2070)) + list(range(0xFE00, 0xFE10)) + list(range(0xFFF0, 0xFFF9))
    + list(range(0x1BCA0, 0x1BCA4)) + list(range(0x1D173, 0x1D17B)) + list(range(0xE0000, 0xE1000)))
"""Characters that draw nothing or a blank, beyond Unicode's control and format ones: the default-ignorable
code points (Unicode's DerivedCoreProperties: variation selectors, fillers, joiners, tags), the Hangul fillers
and the braille blank. Kept, they pad a line so that "I resign" seems to start a line of its own, or hide
words between visible ones."""

MAX_MARKS = 2
"""Combining marks kept on one character (after NFC): enough for every written language a player types, not
for a pile of marks that spills over the lines above and below."""


def visible(text: str) -> str:
    """``text`` without the characters of ``INVISIBLE``, nor a combining mark on nothing or past ``MAX_MARKS``."""
    kept: list[str] = []
    marks = 0
    for c in text:
        if ord(c) in INVISIBLE:
            continue
        if unicodedata.category(c)[0] == "M":
            marks += 1
            if marks > MAX_MARKS or not kept or kept[-1].isspace():
                continue
        else:
            marks = 0
        kept.append(c)
    return "".join(kept)


def printable(text: str) -> str:
    """``text`` as it may be shown: each character Python would not print (ESC and the other controls,
    format and unassigned characters, line breaks) made a space, and what draws a blank or piles marks
    removed (:func:`visible`).

    For text another peer wrote (a name, a reason, a link's closing words) on its way to a screen or a
    terminal: Textual and a headless print both pass ESC on, so such text could otherwise recolour the
    user's terminal, move its cursor or retitle it, or pad a line to look like another. The log keeps the
    bytes as signed.
    """
    text = visible(text)
    return text if text.isprintable() else "".join(c if c.isprintable() else " " for c in text)


def _one_line(e: BaseException) -> str:
    return str(e).splitlines()[0][:200] if str(e) else type(e).__name__


# --------------------------------------------------------------------------
# Schemas

_SCALARS = {
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "uint": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    "bool": lambda v: isinstance(v, bool),
    "str": lambda v: isinstance(v, str) and len(v) <= MAX_STR_FIELD,
    "bytes": lambda v: isinstance(v, bytes),
    "bytes32": lambda v: isinstance(v, bytes) and len(v) == 32,
    "bytes64": lambda v: isinstance(v, bytes) and len(v) == 64,
    "any": lambda v: _plain(v, 0),
    "none": lambda v: v is None,
}


_LEAVES = frozenset((type(None), bool, int, str, bytes))


def _plain(v: Any, depth: int) -> bool:
    if type(v) in _LEAVES or isinstance(v, (bool, int, str, bytes)):
        return True
    if depth >= MAX_DEPTH:
        return False
    if isinstance(v, (list, tuple)):
        for x in v:
            if type(x) not in _LEAVES and not _plain(x, depth + 1):
                return False
        return True
    if isinstance(v, dict):
        for k, x in v.items():
            if not isinstance(k, str) or (type(x) not in _LEAVES and not _plain(x, depth + 1)):
                return False
        return True
    return False


def check(schema: Any, value: Any, where: str = "body") -> None:
    """Raise SchemaError naming the first field of ``value`` that breaks ``schema``.

    Each schema is compiled once into a checking function, and the field's
    path is only spelled out when something is wrong: a valid entry (the
    verifier checks thousands) builds no strings.
    """
    try:
        _compiled(schema)(value)
    except _Misfit as e:
        raise SchemaError(e.text.format(where=where + "".join(reversed(e.path)))) from None


class _Misfit(Exception):
    """A mismatch on its way up: ``text`` has a ``{where}`` slot, ``path`` the steps to it (innermost first)."""

    def __init__(self, text: str):
        self.text = text
        self.path: list[str] = []


_COMPILED: dict[int, tuple[Callable[[Any], None], Any]] = {}


def _compiled(schema: Any) -> Callable[[Any], None]:
    hit = _COMPILED.get(id(schema))
    if hit is None or hit[1] is not schema:
        hit = _COMPILED[id(schema)] = (_compile(schema), schema)  # the schema is kept: its id stays its own
    return hit[0]


def _esc(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _fail(text: str) -> Callable[[Any], None]:
    def misfit(value: Any) -> None:
        raise _Misfit(text)
    return misfit


def _compile(schema: Any) -> Callable[[Any], None]:
    if isinstance(schema, dict):
        fields = {name[:-1] if name.endswith("?") else name: _compile(sub) for name, sub in schema.items()}
        tests = {name[:-1] if name.endswith("?") else name: _SCALARS[sub] for name, sub in schema.items()
                 if isinstance(sub, str) and sub in _SCALARS}
        """A scalar field's test, called here: a valid map costs one call a field (the checker only says why)."""
        required = tuple(name for name in schema if not name.endswith("?"))

        def a_map(value: Any) -> None:
            if not isinstance(value, dict):
                raise _Misfit("{where} must be a map, not " + _esc(_kind(value)))
            for key in required:
                if key not in value:
                    raise _Misfit("{where} lacks the field " + _esc(repr(key)))
            for key, item in value.items():
                test = tests.get(key) if type(key) is str else None
                if test is not None and test(item):
                    continue
                sub = fields.get(key) if type(key) is str else None
                if sub is None:
                    raise _Misfit("{where} has an unknown field " + _esc(repr(key)))
                try:
                    sub(item)
                except _Misfit as e:
                    e.path.append(f".{key}")
                    raise
        return a_map
    if isinstance(schema, str):
        test = _SCALARS.get(schema)
        if test is None:
            return _fail("bad schema type " + _esc(repr(schema)) + " at {where}")

        def a_scalar(value: Any) -> None:
            if not test(value):
                raise _Misfit("{where} must be " + _esc(schema) + ", not " + _esc(_kind(value)))
        return a_scalar
    if isinstance(schema, (list, tuple)) and schema:
        if schema[0] == "list" and len(schema) == 3:
            item_check, limit = _compile(schema[1]), schema[2]

            scalar_test = _SCALARS.get(schema[1]) if isinstance(schema[1], str) else None

            def a_list(value: Any) -> None:
                if not isinstance(value, (list, tuple)):
                    raise _Misfit("{where} must be a list, not " + _esc(_kind(value)))
                if len(value) > limit:
                    raise _Misfit("{where} has " + f"{len(value)} items, over the limit of {limit}")
                if scalar_test is not None and all(map(scalar_test, value)):
                    return      # every item a valid scalar: the walk below only names the first that is not
                for i, item in enumerate(value):
                    try:
                        item_check(item)
                    except _Misfit as e:
                        e.path.append(f"[{i}]")
                        raise
            return a_list
        if schema[0] == "map" and len(schema) == 4:
            key_check, value_check, limit = _compile(schema[1]), _compile(schema[2]), schema[3]

            def a_dict(value: Any) -> None:
                if not isinstance(value, dict):
                    raise _Misfit("{where} must be a map, not " + _esc(_kind(value)))
                if len(value) > limit:
                    raise _Misfit("{where} has " + f"{len(value)} entries, over the limit of {limit}")
                for k, item in value.items():
                    try:
                        key_check(k)
                    except _Misfit as e:
                        e.path.append(" key")
                        raise
                    try:
                        value_check(item)
                    except _Misfit as e:
                        e.path.append(f"[{k!r}]")
                        raise
            return a_dict
        if schema[0] == "oneof":
            options = [_compile(option) for option in schema[1:]]

            def one_of(value: Any) -> None:
                for option in options:
                    try:
                        option(value)
                        return
                    except _Misfit:
                        pass
                raise _Misfit("{where} matches none of its allowed forms")
            return one_of
    return _fail("bad schema " + _esc(repr(schema)) + " at {where}")


def _kind(value: Any) -> str:
    if value is None:
        return "nil"
    if isinstance(value, bytes):
        return f"{len(value)} bytes"
    return type(value).__name__
