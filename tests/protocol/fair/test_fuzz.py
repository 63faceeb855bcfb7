"""Any change to any fair message is refused as a cheat or harmless, never a crash."""

from hypothesis import given, settings, strategies as st

from lanterne.engines.core import DEAL, REVEAL, ROLL, SHUFFLE, TableOp
from lanterne.protocol.fair import CheatDetected
from lanterne.protocol.fair.driver import LocalTables

GAME = b"\x66" * 32
SCRIPT = [TableOp(ROLL, faces=6), TableOp(SHUFFLE, "draw", tuple(range(6))),
          TableOp(DEAL, "draw", (0, 1), to=0), TableOp(DEAL, "draw", (2,), to=1),
          TableOp(DEAL, "draw", (3,), to=None), TableOp(REVEAL, "hand", (0,)),
          TableOp(SHUFFLE, "pile", (1, 3, 4)), TableOp(DEAL, "pile", (1,), to=None)]
MESSAGES = 4 + 3 + 1 + 1 + 2 + 1 + 5 + 2


def mutate(value, choice: int):
    """One small change to a piece of plain data, picked by ``choice``."""
    if isinstance(value, bool) or value is None:
        return [1, "x", None, True][choice % 4]
    if isinstance(value, int):
        return [value + 1, value - 1, 2 ** 64 - 1, "3", -value - 1][choice % 5]
    if isinstance(value, bytes):
        if not value:
            return b"\x00"
        i = choice % len(value)
        return [value[:i] + bytes([value[i] ^ 1]) + value[i + 1:], value[:-1], value + b"\x00",
                b"\x00" * len(value)][choice // len(value) % 4]
    if isinstance(value, list):
        if not value:
            return [0]
        return [value[:-1], value + value[:1], value[::-1], [value[0]] * len(value), value[1:] + [None]][choice % 5]
    return value


def mutate_body(body: dict, field: int, choice: int, deep: int) -> dict:
    body = dict(body)
    keys = sorted(body)
    if choice % 11 == 0:
        del body[keys[field % len(keys)]]
        return body
    if choice % 11 == 1:
        body["extra"] = 1
        return body
    key = keys[field % len(keys)]
    value = body[key]
    if isinstance(value, list) and value and deep % 2:
        i = deep // 2 % len(value)
        value = value[:i] + [mutate(value[i], choice)] + value[i + 1:]
    else:
        value = mutate(value, choice)
    body[key] = value
    return body


@settings(max_examples=40, deadline=None)
@given(st.integers(0, MESSAGES - 1), st.integers(0, 50), st.integers(0, 10_000), st.integers(0, 200))
def test_a_changed_message_is_a_cheat_or_harmless(target, field, choice, deep):
    local = LocalTables(GAME, 2, range(6), seed="fuzz")
    count = [0]

    def tamper(seat, kind, body):
        count[0] += 1
        return mutate_body(body, field, choice, deep) if count[0] - 1 == target else body

    try:
        for op in SCRIPT:
            local.run(op, tamper=tamper)
        local.finish()
    except CheatDetected as e:
        assert "\n" not in str(e) and (e.seat is None or 0 <= e.seat < 2)
    assert count[0] == MESSAGES or count[0] > target


def _honest_game():
    local = LocalTables(GAME, 2, range(6), seed="fuzz-audit")
    for op in SCRIPT:
        local.run(op)
    local.play(0, [1])
    return local.log, local.finish()


HONEST_LOG, HONEST_FINALS = _honest_game()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, len(HONEST_LOG)), st.integers(0, 50), st.integers(0, 10_000), st.integers(0, 200))
def test_a_changed_log_or_final_gives_problems_never_a_crash(target, field, choice, deep):
    steps = list(HONEST_LOG)
    finals = dict(HONEST_FINALS)
    if target < len(steps):
        seat, kind, body = steps[target]
        steps[target] = (seat, kind, mutate_body(body, field, choice, deep))
    else:
        seat, d = choice % 2, deep % len(finals[0]["decks"])
        decks = list(finals[seat]["decks"])
        decks[d] = mutate_body(decks[d], field, choice, deep // 2)
        finals[seat] = {"decks": decks}
    from lanterne.protocol.fair import audit_transcript
    problems = audit_transcript(GAME, 2, steps, finals)
    assert isinstance(problems, list) and all(isinstance(p, str) and "\n" not in p for p in problems)


def test_every_field_of_every_final_changed_every_way_gives_problems():
    from lanterne.protocol.fair import audit_transcript

    for seat in (0, 1):
        for d, entry in enumerate(HONEST_FINALS[seat]["decks"]):
            for key in entry:
                for choice in range(12):
                    for deep in (0, 3):
                        changed = mutate_body(entry, sorted(entry).index(key), choice, deep)
                        if changed == entry:
                            continue
                        decks = list(HONEST_FINALS[seat]["decks"])
                        decks[d] = changed
                        finals = {**HONEST_FINALS, seat: {"decks": decks}}
                        problems = audit_transcript(GAME, 2, HONEST_LOG, finals)
                        assert problems, (seat, d, key, choice, deep)
