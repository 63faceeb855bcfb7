"""The replay model: real signed logs (made by sessions over the in-memory pipe) stepped through."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanterne.client.replay_model import ReplayCursor, ReplayError, load_replay, verify_log
from lanterne.engines.bots import make_bot
from lanterne.engines.core import TABLE
from lanterne.engines.registry import get_game
from lanterne.protocol.log import MAGIC, open_entry, read_log
from lanterne.protocol.memory import make_sessions
from tests.support.logs import make_log, write_log


@pytest.fixture(scope="session")
def logs(tmp_path_factory):
    """One finished Pueblo game (fast) and one Pagode game (hidden hands), with the hosts' final views."""
    folder = tmp_path_factory.mktemp("logs")
    out = {}
    for game_id in ("pueblo", "pagode"):
        path = make_log(folder, game_id)
        host = make_log.sessions[0]
        out[game_id] = (path, host.game.digest(host.view))
    return out


def digest_of(replay, state) -> bytes:
    return replay.game.digest(state)


def test_every_move_position_has_the_digest_its_author_signed(logs):
    path, final_digest = logs["pueblo"]
    replay = load_replay(path)
    raws, _ = read_log(path)
    moves = [s for s in replay.steps if s.actor != TABLE]
    assert moves and replay.problem is None and replay.result == "over"
    for step in moves:
        signed = open_entry(raws[step.entry]).body["digest"]
        assert digest_of(replay, replay.states[step.number]) == signed
    assert digest_of(replay, replay.states[-1]) == final_digest
    assert replay.ending.startswith("Game over: ")
    assert replay.steps[0].text in ("first player: P1", "first player: P2")


def test_steps_forward_back_and_jumps_give_the_positions_of_a_replay_from_the_start(logs):
    path, _ = logs["pagode"]
    replay = load_replay(path)
    cursor = ReplayCursor(replay)
    walked = [digest_of(replay, cursor.state())]
    while cursor.forward():
        walked.append(digest_of(replay, cursor.state()))
    assert cursor.position == cursor.last == len(replay.steps) == len(walked) - 1
    assert not cursor.forward()
    backwards = []
    while True:
        backwards.append(digest_of(replay, cursor.state()))
        if not cursor.back():
            break
    assert backwards[::-1] == walked and cursor.position == 0
    for k in (0, 7, cursor.last // 2, cursor.last):
        cursor.jump(k)
        assert digest_of(replay, cursor.state()) == walked[k]
    # and a fresh replay of the same bytes gives the same positions
    again = load_replay(path)
    assert [digest_of(again, s) for s in again.states] == walked


@settings(max_examples=25, deadline=None)
@given(ops=st.lists(st.one_of(st.sampled_from(["forward", "back", "first", "end"]),
                              st.integers(min_value=-3, max_value=80)), max_size=30))
def test_any_sequence_of_steps_and_jumps_lands_where_a_counter_would(pueblo_replay, ops):
    replay = pueblo_replay
    cursor = ReplayCursor(replay)
    expected = 0
    for op in ops:
        if op == "forward":
            expected = min(expected + 1, cursor.last)
            cursor.forward()
        elif op == "back":
            expected = max(expected - 1, 0)
            cursor.back()
        elif op == "first":
            expected = 0
            cursor.first()
        elif op == "end":
            expected = cursor.last
            cursor.end()
        elif 0 <= op <= cursor.last:
            expected = op
            cursor.jump(op)
        else:
            with pytest.raises(ValueError, match=r"^no step -?\d+: this replay has steps 0 to \d+$"):
                cursor.jump(op)
        assert cursor.position == expected
        assert cursor.state() is replay.states[expected]
        assert cursor.step == (replay.steps[expected - 1] if expected else None)


@pytest.fixture(scope="module")
def pueblo_replay(logs):
    return load_replay(logs["pueblo"][0])


def test_a_file_cut_mid_game_replays_up_to_the_cut(logs, tmp_path):
    path, _ = logs["pagode"]
    full = load_replay(path)
    data = path.read_bytes()
    cut = tmp_path / "cut.lanterne"
    cut.write_bytes(data[: len(data) // 2])
    replay = load_replay(cut)
    assert replay.cut > 0 and replay.result == "incomplete"
    assert 0 < len(replay.steps) < len(full.steps)
    prefix = full.states[:len(replay.states)]
    assert [digest_of(replay, s) for s in replay.states] == [digest_of(full, s) for s in prefix]
    assert replay.ending == "The log stops before the end of the game"
    assert replay.summary().endswith(f"; the file is cut ({replay.cut} bytes after the last complete entry)")
    assert not replay.hands_available
    with pytest.raises(ReplayError, match="finished game"):
        replay.full_states()


@pytest.mark.parametrize("content, message", [
    (b"", "not a Lanterne log (bad magic line)"),
    (b"hello world\n", "not a Lanterne log (bad magic line)"),
    (MAGIC, "the log holds no entry"),
    (MAGIC + b"\x00\x00\x01\x00abc", "the log holds 7 bytes that are not a complete entry (a cut file)"),
])
def test_files_that_are_no_replay_give_one_line(tmp_path, content, message):
    path = tmp_path / "bad.lanterne"
    path.write_bytes(content)
    with pytest.raises(ReplayError) as e:
        load_replay(path)
    assert str(e.value) == f"{path}: {message}"


def test_a_missing_file_gives_one_line(tmp_path):
    with pytest.raises(ReplayError) as e:
        load_replay(tmp_path / "nope.lanterne")
    assert "cannot read" in str(e.value) and "\n" not in str(e.value)


def test_a_tampered_entry_stops_the_replay_there_with_a_one_line_reason(logs, tmp_path):
    path, _ = logs["pueblo"]
    raws, _ = read_log(path)
    full = load_replay(path)
    bad_step = full.steps[len(full.steps) // 2]
    index = bad_step.entry
    raw = bytearray(raws[index])
    raw[-10] ^= 0x01          # inside the signature (the map ends: sig, then v): the entry no longer verifies
    tampered = tmp_path / "tampered.lanterne"
    write_log(tampered, raws[:index] + [bytes(raw)] + raws[index + 1:])
    replay = load_replay(tampered)
    assert replay.problem is not None and "\n" not in replay.problem
    assert f"entry {index}" in replay.problem
    assert "signature" in replay.problem
    assert len(replay.steps) == bad_step.number - 1
    assert replay.result == "incomplete"
    ok, line = verify_log(tampered)
    assert not ok and line.startswith(f"NOT VERIFIED: entry {index}") and "\n" not in line


def test_a_game_whose_engine_is_missing_lists_the_logged_moves(tmp_path):
    pueblo = get_game("pueblo")
    ghost = type("Ghost", (type(pueblo),), {"id": "ghost", "name": "Ghost"})()
    path = make_log(tmp_path, game=ghost, seed="ghost", games=lambda _: ghost)
    replay = load_replay(path)
    assert replay.game is None and not replay.has_board
    assert replay.problem.startswith("this Lanterne cannot replay 'ghost': no game 'ghost'")
    assert replay.steps and all(s.entry is not None for s in replay.steps)
    assert ReplayCursor(replay, 3).state() is None
    ok, line = verify_log(path)
    assert not ok and "ghost" in line
    # the same log replays when the engine is there
    assert load_replay(path, games=lambda _: ghost).result == "over"


def test_every_hand_after_the_audit(logs):
    path, _ = logs["pagode"]
    replay = load_replay(path)
    assert replay.hands_available
    full = replay.full_states()
    assert len(full) == len(replay.states)
    dealt = next(i for i, s in enumerate(replay.states) if s.hands[0] and s.hands[1])
    public, known = replay.states[dealt], full[dealt]
    for seat in (0, 1):
        assert all(public.cards.ids[slot] is None for slot in public.hands[seat])
        assert all(known.cards.ids[slot] is not None for slot in known.hands[seat])
    # what each seat saw of its own hand is what the full state shows
    assert all(replay.game.digest(a) == replay.game.digest(b) for a, b in zip(full, replay.states))


def test_reading_and_verifying_never_change_the_file(logs):
    path, _ = logs["pueblo"]
    before = (hashlib.sha256(path.read_bytes()).hexdigest(), os.stat(path).st_mtime_ns)
    load_replay(path).full_states()
    ok, line = verify_log(path)
    assert ok and line.startswith("Verified: ")
    assert (hashlib.sha256(path.read_bytes()).hexdigest(), os.stat(path).st_mtime_ns) == before


def make_aborted_log(folder: Path, seed: str = "abort", moves: int = 6) -> Path:
    """A Pueblo game that seat 2 resigns after ``moves`` moves."""
    from lanterne.protocol.memory import Pipe

    sessions = make_sessions(get_game("pueblo"), 2, seed)
    bots = [make_bot("random", f"{seed}/bot{i}") for i in range(2)]
    pipe = Pipe(sessions)
    pipe.collect(0, sessions[0].start())
    for _ in range(moves):
        pipe.deliver()
        i = next(i for i, s in enumerate(sessions) if s.my_turn)
        s = sessions[i]
        pipe.collect(i, s.act(bots[i].choose(s.game, s.view, s.my_seat)))
    pipe.deliver()
    pipe.collect(1, sessions[1].resign("I give up"))
    pipe.deliver()
    path = folder / "aborted.lanterne"
    write_log(path, [e.raw for e in sessions[0].chain])
    return path


def test_an_aborted_game_replays_to_the_abort_and_says_who_and_why(tmp_path):
    replay = load_replay(make_aborted_log(tmp_path))
    assert replay.result == "aborted" and replay.problem is None
    assert replay.ending == "Aborted by P2 (P2 at fault): I give up"
    assert sum(1 for s in replay.steps if s.actor != TABLE) == 6
    assert not replay.hands_available      # only the seat that resigned revealed its seed
    ok, line = verify_log(replay.path)
    assert ok and line == "Verified: an aborted game (P2 at fault): I give up"


def test_a_step_says_what_it_did_in_the_engines_words(pueblo_replay):
    move = next(s for s in pueblo_replay.steps if s.actor != TABLE)
    words = pueblo_replay.describe(move)
    assert words == [pueblo_replay.game.describe_event(e) for e in move.events] and words


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_any_damaged_or_cut_file_gives_a_replay_or_one_line_never_a_crash(logs, tmp_path_factory, data):
    path, _ = logs["pueblo"]
    raw = bytearray(path.read_bytes())
    cut = data.draw(st.integers(min_value=0, max_value=len(raw)), label="cut")
    flips = data.draw(st.lists(st.integers(min_value=0, max_value=len(raw) - 1), max_size=3), label="flips")
    for at in flips:
        raw[at] ^= data.draw(st.integers(min_value=1, max_value=255), label="xor")
    damaged = tmp_path_factory.mktemp("fuzz") / "damaged.lanterne"
    damaged.write_bytes(bytes(raw[:cut]))
    try:
        replay = load_replay(damaged)
    except ReplayError as e:
        assert "\n" not in str(e) and str(e)
        return
    assert len(replay.states) == len(replay.steps) + 1
    for line in (replay.problem or "", replay.ending, replay.summary()):
        assert "\n" not in line
    cursor = ReplayCursor(replay)
    cursor.end()
    assert cursor.state() is replay.states[-1]


def test_a_move_signed_with_a_false_state_digest_stops_the_replay_at_that_move(logs, tmp_path):
    """A seat that lies about the position (validly signed): the replay names the entry and the seat."""
    from lanterne.protocol.identity import Identity
    from lanterne.protocol.log import seal

    path, _ = logs["pueblo"]
    raws, _ = read_log(path)
    full = load_replay(path)
    step = [s for s in full.steps if s.actor != TABLE][5]
    entry = open_entry(raws[step.entry])
    liar = Identity.from_seed(f"r1/identity/{step.actor}".encode())
    assert liar.public == entry.author
    forged = seal(liar, game=entry.game, seq=entry.seq, prev=entry.prev, kind=entry.kind,
                  body={**entry.body, "digest": bytes(32)})
    lying = tmp_path / "lying.lanterne"
    write_log(lying, raws[:step.entry] + [forged.raw])
    replay = load_replay(lying)
    assert replay.problem.startswith(f"entry {step.entry}: seat {step.actor + 1}'s state digest differs from ours")
    assert len(replay.steps) == step.number - 1
    ok, line = verify_log(lying)
    assert not ok and line.startswith(f"NOT VERIFIED: entry {step.entry}")


def test_a_three_player_game_replays_with_every_signed_digest(tmp_path):
    path = make_log(tmp_path, "pueblo", seed="three", players=3)
    replay = load_replay(path)
    raws, _ = read_log(path)
    assert replay.players == 3 and replay.result == "over" and replay.problem is None
    for step in replay.steps:
        if step.entry is not None:
            assert replay.game.digest(replay.states[step.number]) == open_entry(raws[step.entry]).body["digest"]
    assert {s.actor for s in replay.steps} >= {0, 1, 2}
    assert len(replay.full_states()) == len(replay.states)


def test_the_replay_counts_seats_from_1_and_says_the_die_as_printed(logs, tmp_path):
    """Issue 16, point 8: the first player, each step's seat, the winners and Pacal's die as a person reads them."""
    from lanterne.client.widgets.replay_steps import step_line
    from lanterne.engines.pacal.data import ARROWS, DIE_FACES

    path, _ = logs["pagode"]
    replay = load_replay(path)
    first_mover = next(s for s in replay.steps if s.actor != TABLE).actor      # 0-based inside
    assert replay.steps[0].text == f"first player: P{first_mover + 1}"
    winners = [w + 1 for w in replay.game.winners(replay.states[-1])]
    assert replay.ending.startswith(f"Game over: {' and '.join(f'P{w}' for w in winners)} ")
    step = next(s for s in replay.steps if s.actor != TABLE)
    assert step_line(step).plain.startswith(f"{step.number:>4}. P{step.actor + 1}: ")
    pacal = load_replay(make_log(tmp_path, "pacal", seed="d3"))
    faces = {s.text.rsplit(": ", 1)[1] for s in pacal.steps if s.actor == TABLE and s.text.startswith("roll (die)")}
    assert faces and faces <= {"arrows" if f == ARROWS else str(f) for f in DIE_FACES}, faces
