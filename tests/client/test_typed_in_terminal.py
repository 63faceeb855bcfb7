"""Typed moves reach the game in a real terminal, not only under Pilot.

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
import sys
from pathlib import Path

import pytest

from tests.support.terminal import Terminal
from tests.support.waiting import Hopeless, until_sync

MOVES = 12
"""Moves P1 plays in each game, the ways below in turn."""
WAYS = ("list", "typed", "typed", "burst", "typed", "list", "burst", "typed")

WRAPPER = r"""
import json, os, sys
from lanterne.client import local_play
from lanterne.client.controller import HUMAN
from lanterne.client.screens.game import GameScreen

out = sys.argv[1]
made = local_play.make_local_game
shown = {"log": 0}

def write(controller):
    w = controller.waiting
    mine = w.kind == HUMAN and w.seat == 0
    data = {"waiting": [w.kind, w.seat], "log": [[e.actor, e.text] for e in controller.log],
            "legal": [controller.format(0, a) for a in controller.legal_actions(0)] if mine else [],
            "shown": shown["log"]}
    with open(out + ".tmp", "w") as f:
        json.dump(data, f)
    os.replace(out + ".tmp", out)

def make(*args, **kwargs):
    controller = made(*args, **kwargs)
    controller.subscribe(lambda change: write(controller))
    write(controller)
    return controller

mount, redraw = GameScreen.on_mount, GameScreen.on_game_changed

def drawn(screen):  # once the screen is on the terminal: what a person sees
    def record():
        shown["log"] = len(screen.controller.log)
        write(screen.controller)
    screen.app.call_after_refresh(record)

def on_mount(screen):
    mount(screen)
    drawn(screen)

def on_game_changed(screen, message):
    redraw(screen, message)
    drawn(screen)

GameScreen.on_mount, GameScreen.on_game_changed = on_mount, on_game_changed
local_play.make_local_game = make
from lanterne.client.cli import main
sys.exit(main(sys.argv[2:]))
"""


class Game:
    """``lanterne play`` in a terminal of 80x24: bytes in, the game's log out (and how much of it the
    screen has drawn)."""

    def __init__(self, tmp: Path, game_id: str, seed: int):
        self.state_file = tmp / "state.json"
        home = tmp / "home"
        home.mkdir()
        env = dict(os.environ, LANTERNE_HOME=str(home), COLUMNS="80", LINES="24")
        env.pop("TEXTUAL", None)
        self.term = Terminal([sys.executable, "-c", WRAPPER, str(self.state_file), "play", game_id, "--bot",
                              "random", "--delay", "0", "--seed", str(seed)], env=env)

    def state(self) -> dict | None:
        try:
            return json.loads(self.state_file.read_text())
        except (OSError, ValueError):
            return None

    def wait(self, condition) -> dict:
        """Until the game's state meets ``condition`` (the app ending first is a failure at once)."""
        seen: list[dict] = []

        def met():
            if self.term.exited():
                raise Hopeless(f"the app ended: {self.term.tail()}")
            state = self.state()
            seen[:] = [state]
            return state is not None and condition(state)

        until_sync(met, what=lambda: f"the game's state; last {seen}; screen {self.term.tail()}")
        return seen[0]

    def close(self) -> None:
        self.term.close()


def my_moves(state: dict) -> list[str]:
    return [text for actor, text in state["log"] if actor == 0]


def my_turn(state: dict) -> bool:
    return state["waiting"] == ["human", 0] or state["waiting"][0] == "over"


def on_screen(condition):
    """``condition``, once the screen has drawn the whole log (a person types what they see)."""
    return lambda state: condition(state) and state["shown"] == len(state["log"])


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["pagode", "pueblo", "pacal", "pandoria"])
def test_moves_typed_at_the_colon_in_a_real_terminal_are_all_played(tmp_path, game_id):
    rng = random.Random(game_id)
    game = Game(tmp_path, game_id, seed=7)
    term = game.term
    try:
        played: list[str] = []
        for n in range(MOVES):
            state = game.wait(on_screen(my_turn))  # typed once the previous move shows, as a person does
            if state["waiting"][0] == "over":
                break
            before = len(my_moves(state))
            legal = state["legal"]
            way = WAYS[n % len(WAYS)]
            if way == "list":
                expected = legal[0]  # the list's first move: Enter plays it
                mark = term.mark()
                term.send(b"?")
                term.wait_for(b"legal move", since=mark)
                term.wait_for(expected.encode(), since=mark)  # the list is drawn, its first move with it
                term.send(b"\r")
            else:
                expected = "end" if "end" in legal and rng.random() < 0.5 else rng.choice(legal)
                if way == "burst":
                    term.send(b":" + expected.encode() + b"\r")
                else:  # one key at a time, each once the screen has answered the one before
                    for key in [b":", *(bytes([ch]) for ch in expected.encode()), b"\r"]:
                        mark = term.mark()
                        term.send(key)
                        if key != b"\r":
                            term.wait_for_output(since=mark)
            try:
                state = game.wait(lambda s: len(my_moves(s)) > before)
            except AssertionError as e:
                raise AssertionError(f"{game_id}: move {n + 1} ({way}) {expected!r} was lost after "
                                     f"{played}: {e}") from None
            assert my_moves(state)[before] == expected, f"{way}: {expected!r} played as {my_moves(state)[before]!r}"
            played.append(expected)
        assert len(played) >= 6, f"{game_id}: the game ended after {played}"
    finally:
        game.close()
