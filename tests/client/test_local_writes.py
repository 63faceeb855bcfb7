"""Issue 16: a local move's write to its signed log never stalls the screen, and nothing is lost on quit.

The entries go to one writer thread per game (client/local_record.py, LogQueue), in order; closing
the game, reading its log path, or the interpreter's exit waits for them. No timing here (the
figures are in docs/benchmarks.md, `python -m bench.tui saving`): a disk that does not answer
is a write held on an Event.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

import pytest

from lanterne.client.local_play import make_local_game
from lanterne.client.local_record import RecordedGame
from lanterne.engines.bots import RandomBot
from lanterne.engines.core import IllegalAction
from lanterne.engines.registry import get_game
from lanterne.protocol import log as plog
from lanterne.protocol.log import read_log
from lanterne.protocol.verify import verify_file

GAME = get_game("pagode")


def play(c: RecordedGame, moves: int, bot=None) -> None:
    bot = bot or RandomBot("w")
    for _ in range(moves):
        w = c.waiting
        if w.kind == "over":
            return
        c.submit(w.seat, bot.choose(GAME, c.view(w.seat), w.seat))


def entries_on_disk(path) -> int:
    return len(read_log(path)[0])


def test_a_move_returns_while_the_disk_holds_its_write_and_every_entry_lands_in_order(tmp_path, monkeypatch):
    c = make_local_game(GAME, mode="hot-seat", seed="w1", save_to=tmp_path)
    written = entries_on_disk(c.log_path)
    assert written == len(c.sessions[0].chain)       # the setup is on disk when the game is handed over
    disk = threading.Event()
    append = plog.LogWriter.append

    def held(self, raw):
        assert disk.wait(10), "the disk was never released: the write ran on the caller's thread"
        append(self, raw)

    monkeypatch.setattr(plog.LogWriter, "append", held)
    play(c, 6)        # would wait 10 s per entry, then fail, if the writes were on this thread
    assert c.moves == 6 and c._writes.pending > 0
    assert entries_on_disk(c.files.log_path) == written    # nothing written while the disk holds
    disk.set()
    play(c, 300)
    assert c.waiting.kind == "over"
    c.close()
    raws, cut = read_log(c.files.log_path)
    assert cut == 0 and raws == [e.raw for e in c.sessions[0].chain]     # every entry, in order
    assert verify_file(str(c.files.log_path)).ok
    assert c.files.log_path.with_suffix(".json").read_text().count('"over": true') == 1


def test_the_log_path_gives_a_file_holding_every_move_played(tmp_path, monkeypatch):
    c = make_local_game(GAME, mode="hot-seat", seed="w2", save_to=tmp_path)
    append = plog.LogWriter.append
    slow = threading.Event()
    monkeypatch.setattr(plog.LogWriter, "append", lambda self, raw: (slow.wait(0.01), append(self, raw)))
    play(c, 10)
    assert entries_on_disk(c.log_path) == len(c.sessions[0].chain)
    assert verify_file(str(c.log_path)).unfinished
    c.close()


def test_quitting_without_closing_the_game_still_writes_every_entry(tmp_path):
    """The interpreter's exit flushes the writer (atexit): a quit never loses an entry."""
    script = textwrap.dedent(f"""
        import threading
        from lanterne.protocol import log as plog
        from lanterne.client.local_play import make_local_game
        from lanterne.engines.bots import RandomBot
        from lanterne.engines.registry import get_game

        game = get_game("pagode")
        c = make_local_game(game, mode="hot-seat", seed="w3", save_to={str(tmp_path)!r})
        append = plog.LogWriter.append
        pause = threading.Event()
        plog.LogWriter.append = lambda self, raw: (pause.wait(0.02), append(self, raw))
        bot = RandomBot("w")
        for _ in range(12):
            w = c.waiting
            c.submit(w.seat, bot.choose(game, c.view(w.seat), w.seat))
        print(len(c.sessions[0].chain), c._writes.pending, c.files.log_path)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    chain, pending, path = out.stdout.split()
    assert int(pending) > 0                       # the exit came with entries still queued
    assert entries_on_disk(path) == int(chain)
    assert verify_file(path).unfinished


def test_a_log_that_cannot_be_written_refuses_the_next_move_and_keeps_a_sound_chain(tmp_path, monkeypatch):
    c = make_local_game(GAME, mode="hot-seat", seed="w4", save_to=tmp_path)
    play(c, 4)
    c.flush()
    append = plog.LogWriter.append
    calls = []

    def full(self, raw):
        calls.append(raw)
        if len(calls) > 2:
            raise OSError(28, "No space left on device")
        append(self, raw)

    monkeypatch.setattr(plog.LogWriter, "append", full)
    try:
        play(c, 6)               # the third entry fails on the writer thread, whenever it gets there
    except IllegalAction:        # the failure was seen before the last of these moves
        pass
    with pytest.raises(OSError, match="No space"):
        c.flush()
    w = c.waiting
    with pytest.raises(IllegalAction, match="cannot be written"):
        c.submit(w.seat, RandomBot("x").choose(GAME, c.view(w.seat), w.seat))
    c.close()
    monkeypatch.setattr(plog.LogWriter, "append", append)
    raws, cut = read_log(c.files.log_path)
    assert cut == 0 and raws == [e.raw for e in c.sessions[0].chain][:len(raws)]   # a prefix: no hole
    assert verify_file(str(c.files.log_path)).unfinished


def test_a_kill_with_entries_still_queued_leaves_a_chain_that_resumes_and_ends_verified(lanterne_home):
    """SIGKILL while the writer holds entries: the log is a whole chain up to the last entry written
    (no hole, no half entry); the game resumes from there and ends with a log that verifies."""
    import os
    import signal
    from pathlib import Path

    from lanterne.client.local_games import unfinished_local
    from lanterne.client.local_record import resume_local

    script = textwrap.dedent("""
        import os, signal, threading
        from lanterne.protocol import log as plog
        from lanterne.client.local_play import make_local_game
        from lanterne.client.local_games import local_folder
        from lanterne.engines.bots import RandomBot
        from lanterne.engines.registry import get_game
        game = get_game("pagode")
        c = make_local_game(game, mode="hot-seat", seed="kq", you="Ann", save_to=local_folder())
        append = plog.LogWriter.append
        pause = threading.Event()
        plog.LogWriter.append = lambda self, raw: (pause.wait(0.05), append(self, raw))
        bot = RandomBot("kill")
        for _ in range(12):
            w = c.waiting
            c.submit(w.seat, bot.choose(game, c.view(w.seat), w.seat))
        print(c.moves, c._writes.pending, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    env = dict(os.environ, LANTERNE_HOME=str(lanterne_home))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr
    played, pending = map(int, done.stdout.split())
    assert pending > 0
    [meta] = unfinished_local()
    c = resume_local(meta)
    assert c.moves < played                     # what was still queued is lost, nothing else
    play(c, 400)
    assert c.waiting.kind == "over"
    c.close()
    report = verify_file(str(c.log_path))
    assert report.ok and report.result == "over", report.problem
