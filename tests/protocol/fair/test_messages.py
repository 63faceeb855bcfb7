"""Every fair message fits its schema; check_body is wire.check with the kind named."""

import pytest

from lanterne.engines.core import DEAL, REVEAL, ROLL, SHUFFLE, TableOp
from lanterne.protocol.fair import SCHEMAS
from lanterne.protocol.fair.driver import LocalTables
from lanterne.protocol.fair.messages import BodyError, check_body

GAME = b"\x10" * 32


def sample_messages() -> list[tuple[int, str, dict]]:
    local = LocalTables(GAME, 3, range(10), seed="schemas")
    local.run(TableOp(ROLL, faces=6))
    local.run(TableOp(SHUFFLE, "draw", tuple(range(10))))
    local.run(TableOp(DEAL, "draw", (0, 1), to=2))
    local.run(TableOp(REVEAL, "draw", (5,)))
    local.play(2, [0])
    local.run(TableOp(SHUFFLE, "pile", (1, 6, 7)))      # slot 1 is seat 3's, 6 and 7 nobody's: a relock
    finals = local.finish()
    return local.log + [(s, "fair_final", body) for s, body in finals.items()]


def test_every_kind_produced_is_in_the_schemas_and_fits():
    messages = sample_messages()
    kinds = {kind for _, kind, _ in messages}
    assert kinds == set(SCHEMAS) - {"proof"}
    for _, kind, body in messages:
        check_body(kind, body)
        if kind == "fair_claim":
            check_body("proof", body["proof"])


def test_the_schemas_agree_with_wire_check():
    wire = pytest.importorskip("lanterne.protocol.wire")
    for _, kind, body in sample_messages():
        wire.check(SCHEMAS[kind], body)
    with pytest.raises(wire.SchemaError):
        wire.check(SCHEMAS["fair_open"], {"roll": 0, "nonce": b"x"})


@pytest.mark.parametrize("kind,body,reason", [
    ("fair_open", {"roll": 0}, "lacks the field 'nonce'"),
    ("fair_open", {"roll": -1, "nonce": bytes(32)}, "roll must be uint"),
    ("fair_open", {"roll": 0, "nonce": bytes(32), "x": 1}, "unknown field 'x'"),
    ("fair_keys", {"decks": [0], "pos": [0], "keys": [b"short"]}, r"keys\[0\] must be bytes32"),
    ("fair_shuffle", {"deck": 0, "points": [bytes(32)] * 1025}, "over the limit of 1024"),
    ("fair_final", {"decks": [{"deck": 0, "perm": [0], "keys": []}, 5]}, r"decks\[1\] must be a map"),
    ("nonsense", {}, "unknown fair message kind"),
])
def test_bad_bodies_are_refused_with_a_reason(kind, body, reason):
    with pytest.raises(BodyError, match=reason):
        check_body(kind, body)


def test_a_seat_out_of_range_is_named_from_1_as_everywhere_a_person_reads():
    from lanterne.protocol.fair.table import FairError, FairTable

    with pytest.raises(FairError, match=r"^seat 3 is not one of the 2 seats$"):
        FairTable(bytes(32), 2, 2, None)
    table = FairTable(bytes(32), 0, 2, None)
    with pytest.raises(FairError, match=r"^seat 1 is not another seat of this table$"):
        table.consume_final(0, {})
