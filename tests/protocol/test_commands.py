"""The commands on top of the protocol: selfplay --net memory, verify, log show."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re

import pytest

from lanterne.client.cli import main
from lanterne.protocol.log import MAGIC, parse_log, read_log
from lanterne.protocol.verify import verify_entries
from tests.protocol.helpers import games, play_highcard
from tests.support.logs import write_log


@pytest.fixture(scope="module")
def pagode_logs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("logs")
    assert main(["selfplay", "pagode", "--net", "memory", "--games", "1", "--seed", "7",
                 "--log-dir", str(folder), "--json"]) == 0
    return sorted(folder.glob("game0/seat*/*"))


def test_selfplay_memory_writes_identical_logs_named_as_every_log(pagode_logs, capsys):
    """One name scheme everywhere: each seat's folder holds ``<t>.log``, t = 16 hex digits of the table id."""
    assert [p.parent.name for p in pagode_logs] == ["seat1", "seat2"]
    a, b = (p.read_bytes() for p in pagode_logs)
    assert a == b and a.startswith(MAGIC)
    raws, cut = read_log(pagode_logs[0])
    assert not cut and {p.name for p in pagode_logs} == {hashlib.sha256(raws[0]).hexdigest()[:16] + ".log"}


def test_selfplay_same_seed_same_bytes(pagode_logs, tmp_path, capsys):
    assert main(["selfplay", "pagode", "--net", "memory", "--seed", "7", "--log-dir", str(tmp_path)]) == 0
    assert (tmp_path / "game0" / "seat1" / pagode_logs[0].name).read_bytes() == pagode_logs[0].read_bytes()


def test_verify_valid_logs(pagode_logs, capsys):
    assert main(["verify", *map(str, pagode_logs), "--json"]) == 0
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert all(r["ok"] and r["result"] == "over" and r["replayed"] == [1, 2] for r in reports)
    assert reports[0]["scores"] == reports[1]["scores"]


def test_verify_names_the_first_bad_entry(pagode_logs, tmp_path, capsys):
    raws, _ = parse_log(pagode_logs[0].read_bytes())
    bad = list(raws)
    entry = bytearray(bad[40])
    entry[len(entry) // 2] ^= 0x10
    bad[40] = bytes(entry)
    path = tmp_path / "bad.lanterne"
    write_log(path, bad)
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "INVALID: entry 40: " in out and "signature" in out
    assert "nobody is blamed" in out and " by seat " not in out     # a damaged entry names nobody


def test_verify_cut_log_is_invalid(pagode_logs, tmp_path, capsys):
    data = pagode_logs[0].read_bytes()
    raws, tail = parse_log(data[: len(data) // 2])
    cut = len(data) // 2 - tail + 3                     # three bytes into the entry the half falls in
    path = tmp_path / "cut.lanterne"
    path.write_bytes(data[:cut])
    assert parse_log(path.read_bytes())[1] == 3         # cut inside an entry
    assert main(["verify", str(path)]) == 1
    assert f"INVALID: entry {len(raws)}" in capsys.readouterr().out


def _first(raws, kind):
    from lanterne.protocol.log import open_entry

    return next(i for i, raw in enumerate(raws) if open_entry(raw).kind == kind)


@pytest.mark.parametrize("upto", ["half", "after the first end"])
def test_verify_tells_an_unfinished_log_from_an_invalid_one(pagode_logs, tmp_path, capsys, upto):
    raws, _ = parse_log(pagode_logs[0].read_bytes())
    n = len(raws) // 2 if upto == "half" else _first(raws, "end") + 1   # no seed revealed / one seat's
    path = tmp_path / "paused.log"
    write_log(path, raws[:n])
    assert main(["verify", str(path)]) == 3
    out = capsys.readouterr().out
    assert "unfinished: pagode (standard), 2 players" in out and f"stops at entry {n - 1}" in out
    assert "INVALID" not in out
    assert main(["verify", str(path), "--json"]) == 3
    report = json.loads(capsys.readouterr().out)
    assert report["result"] == "unfinished" and report["ok"] is False and report["bad_entry"] is None
    # the worst status wins: invalid over unfinished, unfinished over valid
    assert main(["verify", str(path), str(pagode_logs[0])]) == 3
    bad = tmp_path / "bad.log"
    bad.write_bytes(path.read_bytes()[:-3])
    assert main(["verify", str(pagode_logs[0]), str(path), str(bad)]) == 1


def test_an_unfinished_log_with_a_bad_move_is_invalid(tmp_path, capsys):
    """No seat revealed its seed, yet the watcher's replay catches a wrong digest."""
    from tests.protocol.helpers import Tamper, forge, run

    t = Tamper("move", lambda e, s: forge(e, s[1].identity, body={**e.body, "digest": bytes(32)}))
    honest = run(t)[0]
    raws = [e.raw for e in honest.chain[:-1]] + t.sent[:1]      # the log up to the forged move
    report = verify_entries(raws, games=games)
    assert not report.ok and not report.unfinished
    assert report.bad_entry == len(raws) - 1 and "digest" in report.problem
    report = verify_entries(raws[:-1], games=games)
    assert report.unfinished


def test_log_show_names_the_moves_of_an_unfinished_game(pagode_logs, tmp_path, capsys):
    raws, _ = parse_log(pagode_logs[0].read_bytes())
    assert main(["log", "show", str(pagode_logs[0])]) == 0
    whole = capsys.readouterr().out.splitlines()
    n = len(raws) // 2
    path = tmp_path / "paused.log"
    write_log(path, raws[:n])
    assert main(["log", "show", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "    1  table  roll (first player): P1 starts" in out   # numbered as the app's move log numbers
    moves = [line for line in out if line.strip()[:1].isdigit()]
    known = [line for line in whole if line.strip()[:1].isdigit()][:len(moves)]
    assert len(moves) > 5 and [int(m.split()[0]) for m in moves] == list(range(1, len(moves) + 1))
    # the same moves in the game's notation; a watcher, who does not know the hands, may say more
    # where a seat's own view says less ("c6 V@2" for "c6 V") or less ("t6 V" for "t6 V/g")
    assert [m.split()[:3] for m in moves] == [k.split()[:3] for k in known]
    assert out[-1].startswith(f"unfinished: the log stops at entry {n - 1} (")


def test_log_show_of_a_damaged_log_exits_non_zero(pagode_logs, tmp_path, capsys):
    raws, _ = parse_log(pagode_logs[0].read_bytes())
    bad = list(raws)
    entry = bytearray(bad[30])
    entry[len(entry) // 2] ^= 0x10
    bad[30] = bytes(entry)
    path = tmp_path / "bad.log"
    write_log(path, bad)
    assert main(["log", "show", str(path)]) == 1
    assert "entry 30 is damaged" in capsys.readouterr().out
    cut = tmp_path / "cut.log"
    cut.write_bytes(pagode_logs[0].read_bytes()[:-5])
    assert main(["log", "show", str(cut)]) == 1
    assert "the file was cut or damaged" in capsys.readouterr().out


def test_verify_unreadable(tmp_path, capsys):
    path = tmp_path / "junk.lanterne"
    path.write_bytes(b"hello")
    assert main(["verify", str(path)]) == 2
    assert main(["verify", str(tmp_path / "missing.lanterne")]) == 2
    err = capsys.readouterr().err
    assert "not a Lanterne log" in err and "missing.lanterne: no such file" in err


def test_a_pipe_or_a_device_is_not_a_regular_file(tmp_path, capsys):
    """It exists, so "no such file" would be wrong; nothing tries to read it (a pipe would block)."""
    pipe = tmp_path / "pipe.lanterne"
    os.mkfifo(pipe)
    assert main(["verify", str(pipe), "/dev/null"]) == 2
    assert main(["log", "show", str(pipe)]) == 2
    assert main(["replay", str(pipe)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"lanterne: {pipe}: not a regular file", "lanterne: /dev/null: not a regular file",
                   f"lanterne: {pipe}: not a regular file", f"lanterne: {pipe}: not a regular file"]


def test_a_name_the_system_refuses_is_one_line(tmp_path, capsys):
    """A name longer than the system allows made Path.is_file() raise: an internal error once."""
    long = str(tmp_path / ("x" * 300))
    assert main(["verify", long]) == 2
    assert main(["log", "show", long]) == 2
    assert main(["replay", long]) == 2
    assert capsys.readouterr().err.splitlines() == [f"lanterne: {long}: File name too long"] * 3


def test_log_show_prints_the_moves(pagode_logs, capsys):
    assert main(["log", "show", str(pagode_logs[0])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "pagode (standard), 2 players"
    assert any("roll (first player)" in line for line in out)
    assert sum(bool(re.match(r"\s+\d+  P[12]  ", line)) for line in out) > 20   # seats named as the app names them
    assert out[-1].startswith("result: ")


def test_flipping_any_byte_of_a_finished_log_fails_verify():
    raws = [e.raw for e in play_highcard(2, seed="flip")[0].chain]
    data = MAGIC + b"".join(len(r).to_bytes(4, "big") + r for r in raws)
    assert verify_entries(*parse_log(data), games=games).ok
    rng = random.Random(5)
    prefixes, pos = [], len(MAGIC)
    for r in raws:
        prefixes.extend(range(pos, pos + 4))
        pos += 4 + len(r)
    positions = sorted(set(range(len(MAGIC))) | set(prefixes) | set(rng.sample(range(len(data)), 250)))
    for i in positions:
        bad = bytearray(data)
        bad[i] ^= 1 << rng.randrange(8)
        try:
            report = verify_entries(*parse_log(bytes(bad)), games=games)
        except Exception:            # not a log any more (the magic line): verify exits 2
            continue
        assert not report.ok, f"flipping byte {i} went unnoticed"


def test_three_peers_of_pueblo_over_signed_sessions(tmp_path, capsys):
    assert main(["selfplay", "pueblo", "--players", "3", "--net", "memory", "--seed", "3",
                 "--log-dir", str(tmp_path)]) == 0
    logs = sorted(tmp_path.glob("game0/seat*/*.log"))
    assert len(logs) == 3 and len({p.read_bytes() for p in logs}) == 1
    capsys.readouterr()
    assert main(["verify", str(logs[0]), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["replayed"] == [1, 2, 3] and len(report["seats"]) == 3


def test_log_show_of_an_aborted_game(tmp_path, capsys):
    from tests.protocol.helpers import Tamper, forge, run

    t = Tamper("move", lambda e, s: forge(e, s[1].identity, body={**e.body, "digest": bytes(32)}))
    honest = run(t)[0]
    from lanterne.client.commands.log import show_lines

    lines = show_lines([e.raw for e in honest.chain], games=games)
    assert lines[-1].startswith("aborted by P1 (P2 at fault)") and "digest" in lines[-1]


def test_the_replay_screen_says_unfinished_not_unverified(pagode_logs, tmp_path):
    from lanterne.client.replay_model import verify_log

    raws, _ = parse_log(pagode_logs[0].read_bytes())
    path = tmp_path / "paused.log"
    write_log(path, raws[:100])
    ok, line = verify_log(path)
    assert not ok and line == ("Unfinished: 100 entries, every one sound so far; the log stops at entry 99 "
                               f"{line.split('entry 99 ', 1)[1]}")
    assert line.endswith("before the game ended") and "NOT VERIFIED" not in line
    path.write_bytes(path.read_bytes()[:-1])
    assert verify_log(path)[1].startswith("NOT VERIFIED: entry 99")


# -- seats counted from 1 wherever a person reads them; the log keeps 0-based seats


def _ends(path):
    from lanterne.protocol.log import open_entry, read_log

    return [open_entry(r) for r in read_log(path)[0] if open_entry(r).kind == "end"]


def test_verify_names_the_winners_from_1_in_text_and_json(pagode_logs, capsys):
    logged = _ends(pagode_logs[0])[0].body["winners"]          # 0-based inside the log
    shown = [w + 1 for w in logged]
    assert main(["verify", str(pagode_logs[0])]) == 0
    text = capsys.readouterr().out.strip()
    assert text.endswith("winner(s) " + ",".join(f"P{w}" for w in shown)), text
    assert main(["verify", str(pagode_logs[0]), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["winners"] == shown and [s["seat"] for s in report["seats"]] == [1, 2]
    assert report["replayed"] == [1, 2]


def test_verify_names_the_culprit_of_an_abort_from_1_in_text_and_json(tmp_path, capsys):
    from tests.protocol.helpers import Tamper, forge, run

    t = Tamper("move", lambda e, s: forge(e, s[1].identity, body={**e.body, "digest": bytes(32)}))
    honest = run(t)[0]       # seat 1 (index 0) aborts, naming seat 2 (index 1) for a false digest
    abort = honest.chain[-1]
    assert abort.kind == "abort" and abort.body["culprit"] == 1
    path = tmp_path / "aborted.lanterne"
    write_log(path, [e.raw for e in honest.chain])
    from lanterne.protocol.verify import verify_file

    report = verify_file(str(path), games=games)
    from lanterne.client.commands.verify import describe

    assert report.ok and report.culprit == 2
    assert "game aborted (seat 2 at fault)" in describe(report)
    assert json.loads(json.dumps(report.to_json()))["culprit"] == 2


def test_log_show_says_pacals_die_as_printed_and_seats_from_1(tmp_path, capsys):
    from lanterne.engines.pacal.data import ARROWS, DIE_FACES
    assert main(["selfplay", "pacal", "--net", "memory", "--games", "1", "--seed", "3", "--bots", "random,random",
                 "--log-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    [log] = (tmp_path / "game0" / "seat1").glob("*.log")
    assert main(["log", "show", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    faces = {line.rsplit(": ", 1)[1] for line in out if "roll (die)" in line}
    # the faces printed on the die (2 3 3 4 5 arrows), never the index into them (0..5)
    assert faces == {"arrows" if f == ARROWS else str(f) for f in DIE_FACES}, faces
    moves = [line.split() for line in out if line[:5].strip().isdigit() and line.split()[1] != "table"]
    seats = {int(words[1].removeprefix("P")) for words in moves}
    assert seats == {1, 2}
    first = next(line for line in out if "roll (first player)" in line)
    assert first.endswith(f"{moves[0][1]} starts")
