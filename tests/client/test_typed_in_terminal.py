"""Typed moves reach the game in a real terminal, not only under Pilot (issue 16).

Pilot hands the app ready-made key events; a terminal hands it bytes, which
Textual's driver parses (``:`` is the byte 0x3a, Enter is ``\\r``). Here the
real ``lanterne play GAME`` runs in a pseudo-terminal of 80x24 and is fed
the bytes a person's keyboard sends: ``:`` and a legal move and Enter,
several times in a row, mixed with moves played from the ``?`` list, typed
slowly or in one burst (a paste, a fast typist). The moves are read back from
the game itself: a small wrapper around the CLI writes the log of moves and
the legal moves of P1 to a file whenever the game changes.

A note for whoever tries this by hand in tmux: ``tmux send-keys X 'end'``
does not type e, n, d. tmux reads each argument as a key *name* first, and
``end`` (like ``home``, ``up``, ``left``, ``space``, ``tab``...) names a key, so
the app receives the End key (``ESC [ 4 ~``): the cursor moves to the end of
the line and nothing is typed. That was the "lost" ``end`` of the bug report
(``c2 b`` is no key name and arrived). Type text with ``tmux send-keys -l``.
The app was not at fault; fed ``ESC [ 4 ~`` instead of ``end``, this test
fails at the first ``end`` exactly as the report did.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import struct
import sys
import threading
import time
from pathlib import Path

import pytest

pty = pytest.importorskip("pty")  # a pseudo-terminal: POSIX only
termios = pytest.importorskip("termios")
fcntl = pytest.importorskip("fcntl")

ROOT = Path(__file__).resolve().parents[2]

MOVES = 12
"""Moves P1 plays in each game, the ways below in turn."""
WAYS = ("list", "typed", "typed", "burst", "typed", "list", "burst", "typed")

WRAPPER = r"""
import json, os, sys
from lanterne.client import local_play
from lanterne.client.controller import HUMAN

out = sys.argv[1]
made = local_play.make_local_game

def write(controller):
    w = controller.waiting
    mine = w.kind == HUMAN and w.seat == 0
    data = {"waiting": [w.kind, w.seat], "log": [[e.actor, e.text] for e in controller.log],
            "legal": [controller.format(0, a) for a in controller.legal_actions(0)] if mine else []}
    with open(out + ".tmp", "w") as f:
        json.dump(data, f)
    os.replace(out + ".tmp", out)

def make(*args, **kwargs):
    controller = made(*args, **kwargs)
    controller.subscribe(lambda change: write(controller))
    write(controller)
    return controller

local_play.make_local_game = make
from lanterne.client.cli import main
sys.exit(main(sys.argv[2:]))
"""


class Terminal:
    """``lanterne play`` in a pseudo-terminal of 80x24: bytes in, the game's log out."""

    def __init__(self, tmp: Path, game_id: str, seed: int):
        self.state_file = tmp / "state.json"
        home = tmp / "home"
        home.mkdir()
        env = dict(os.environ, LANTERNE_HOME=str(home), TERM="xterm-256color", COLUMNS="80", LINES="24")
        env.pop("TEXTUAL", None)
        argv = [sys.executable, "-c", WRAPPER, str(self.state_file),
                "play", game_id, "--bot", "random", "--delay", "0", "--seed", str(seed)]
        pid, fd = pty.fork()
        if pid == 0:  # the child: a terminal of 80x24, then the app
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
                os.chdir(ROOT)
                os.execve(sys.executable, argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.output = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.5)
                if not ready:
                    if self.exited():
                        return
                    continue
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                self.output += data

    def exited(self) -> bool:
        try:
            return os.waitpid(self.pid, os.WNOHANG) != (0, 0)
        except ChildProcessError:
            return True

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def mark(self) -> int:
        with self._lock:
            return len(self.output)

    def shown_since(self, mark: int, text: bytes, seconds: float = 15.0) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self._lock:
                if text in self.output[mark:]:
                    return True
            time.sleep(0.02)
        return False

    def state(self) -> dict | None:
        try:
            return json.loads(self.state_file.read_text())
        except (OSError, ValueError):
            return None

    def wait(self, condition, seconds: float = 30.0) -> dict:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            state = self.state()
            if state is not None and condition(state):
                return state
            if self.exited():
                raise AssertionError(f"the app ended: {self.tail()}")
            time.sleep(0.02)
        raise AssertionError(f"waited {seconds} s in vain; last state {self.state()}; screen {self.tail()}")

    def tail(self) -> str:
        with self._lock:
            return bytes(self.output[-1500:]).decode("utf-8", "replace")

    def close(self) -> None:
        if not self.exited():
            try:
                self.send(b"\x11")  # ctrl+q
            except OSError:
                pass
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and not self.exited():
                time.sleep(0.05)
            if not self.exited():
                os.kill(self.pid, signal.SIGKILL)
                try:
                    os.waitpid(self.pid, 0)
                except ChildProcessError:
                    pass
        try:
            os.close(self.fd)
        except OSError:
            pass
        self._reader.join(timeout=2)


def my_moves(state: dict) -> list[str]:
    return [text for actor, text in state["log"] if actor == 0]


def my_turn(state: dict) -> bool:
    return state["waiting"] == ["human", 0] or state["waiting"][0] == "over"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["pagode", "pueblo", "pacal", "pandoria"])
def test_moves_typed_at_the_colon_in_a_real_terminal_are_all_played(tmp_path, game_id):
    rng = random.Random(game_id)
    term = Terminal(tmp_path, game_id, seed=7)
    try:
        played: list[str] = []
        for n in range(MOVES):
            state = term.wait(my_turn)
            if state["waiting"][0] == "over":
                break
            time.sleep(0.3)  # typed once the previous move shows, as a person does
            state = term.wait(my_turn)
            before = len(my_moves(state))
            legal = state["legal"]
            way = WAYS[n % len(WAYS)]
            if way == "list":
                expected = legal[0]  # the list's first move: Enter plays it
                mark = term.mark()
                term.send(b"?")
                assert term.shown_since(mark, b"legal move"), f"no list of moves: {term.tail()}"
                time.sleep(0.2)
                term.send(b"\r")
            else:
                expected = "end" if "end" in legal and rng.random() < 0.5 else rng.choice(legal)
                if way == "burst":
                    term.send(b":" + expected.encode() + b"\r")
                else:
                    term.send(b":")
                    time.sleep(0.15)
                    for ch in expected.encode():
                        term.send(bytes([ch]))
                        time.sleep(0.03)
                    time.sleep(0.15)
                    term.send(b"\r")
            try:
                state = term.wait(lambda s: len(my_moves(s)) > before, seconds=10)
            except AssertionError as e:
                raise AssertionError(f"{game_id}: move {n + 1} ({way}) {expected!r} was lost after "
                                     f"{played}: {e}") from None
            assert my_moves(state)[before] == expected, f"{way}: {expected!r} played as {my_moves(state)[before]!r}"
            played.append(expected)
        assert len(played) >= 6, f"{game_id}: the game ended after {played}"
    finally:
        term.close()
