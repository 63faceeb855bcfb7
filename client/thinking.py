"""The computer thinks in another process, so the screen never stalls.

A search (engines/bots/ismcts.py) is pure Python: on a thread it holds the
interpreter lock, and every key press waits for it (F1 took 0.9 s to open
at ``ismcts:hard``). Here the choice is made in a child process started with
the *spawn* method (no copy of the app's threads or sockets), and the app
only waits on a pipe.

``await think(player, game, view, seat) -> action`` has the shape of
``protocol.net.computers.Think``, so a network peer can be given it as well. A
:class:`Thinker` owns one worker process, started on first use (or by
:meth:`Thinker.start`, to have it ready before the first move); the player
travels to it by pickle with each request and comes back with the answer,
so a seeded player's random state moves on exactly as if it had thought
here (same seed, same game). The game is rebuilt in the child from its id.

Nothing is ever left behind: cancelling a ``think`` (leaving the screen,
quitting) kills the worker at once (a search cannot be interrupted
otherwise), :meth:`Thinker.close` stops it, and at exit every live worker
is killed.
"""

from __future__ import annotations

import asyncio
import atexit
import multiprocessing
import os
import sys
import threading
import time
import weakref
from typing import Any

from lanterne.client.i18n import _
from lanterne.engines.core import Action, Game, Player, RulesError, State
from lanterne.engines.registry import get_game

_CONTEXT = multiprocessing.get_context("spawn")
_LIVE: "weakref.WeakSet[Thinker]" = weakref.WeakSet()


class ThinkingError(RulesError):
    """The worker failed or vanished; one line."""


def _worker(conn) -> None:
    """The child: read (player, game id, view, seat), answer ("ok", action, player) or ("error", text)."""
    parent = os.getppid()

    def orphaned() -> None:  # the app died without a word (SIGKILL): do not search on for nobody
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=orphaned, daemon=True).start()

    games: dict[str, Game] = {}
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if request is None:
            return
        player, game_id, view, seat = request
        try:
            game = games.get(game_id) or games.setdefault(game_id, get_game(game_id))
            action = player.choose(game, view, seat)
            answer: tuple = ("ok", action, player)
        except Exception as e:  # noqa: BLE001 - said in one line in the app
            answer = ("error", f"{type(e).__name__}: {e}")
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            return


class Thinker:
    """One worker process that computer players think in; ``await thinker(player, game, view, seat)``."""

    def __init__(self) -> None:
        self._process: Any = None
        self._conn: Any = None
        self._lock = threading.Lock()
        self._async_lock: tuple | None = None
        self.failed: str | None = None
        """Why the last start failed (the choice was then made on a thread), or None."""
        self.searching = False
        """True while a question is with the worker: what a test waits for instead of sleeping."""
        _LIVE.add(self)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def start(self) -> None:
        """Start the worker now (it takes a moment to import the engines), if it is not running."""
        with self._lock:
            if self.alive():
                return
            self._stop_locked()
            parent, child = _CONTEXT.Pipe()
            process = _CONTEXT.Process(target=_worker, args=(child,), name="lanterne-thinking", daemon=True)
            # The app's sys.stderr is Textual's capture, whose fileno() is no file: multiprocessing's
            # resource tracker passes sys.stderr's descriptor to its own process and failed with
            # "bad value(s) in fds_to_keep". The real streams, while the processes start.
            streams = sys.stdout, sys.stderr
            sys.stdout, sys.stderr = sys.__stdout__ or streams[0], sys.__stderr__ or streams[1]
            try:
                process.start()
            finally:
                sys.stdout, sys.stderr = streams
                child.close()
            self._process, self._conn = process, parent

    async def __call__(self, player: Player, game: Game, view: State, seat: int) -> Action:
        """The player's choice, computed in the worker. Cancelled: the worker is killed."""
        async with self._turn():  # one question at a time on the pipe
            return await self._ask(player, game, view, seat)

    def _turn(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._async_lock is None or self._async_lock[0] is not loop:
            self._async_lock = (loop, asyncio.Lock())
        return self._async_lock[1]

    async def _ask(self, player: Player, game: Game, view: State, seat: int) -> Action:
        try:
            self.start()
        except (OSError, ValueError) as e:  # no process here (a locked-down system): think on a thread
            self.failed = f"{type(e).__name__}: {e}"
            return await asyncio.to_thread(player.choose, game, view, seat)
        conn = self._conn
        try:
            conn.send((player, game.id, view, seat))
            self.searching = True
            answer = await asyncio.to_thread(_receive, conn)
        except asyncio.CancelledError:
            self.close()  # the search cannot be stopped midway: its process goes
            raise
        except (EOFError, OSError) as e:
            self.close()
            raise ThinkingError(_("the computer player's process stopped ({error})").format(
                error=type(e).__name__)) from None
        finally:
            self.searching = False
        if answer[0] != "ok":
            raise ThinkingError(answer[1])
        _status, action, thought = answer
        if type(thought) is type(player) and hasattr(player, "__dict__"):
            player.__dict__.update(thought.__dict__)  # its random state moved on, as if it had thought here
        return action

    def close(self) -> None:
        """Stop the worker (killed if it is thinking); a later call starts a new one."""
        with self._lock:
            self._stop_locked()

    def _stop_locked(self) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if process is not None:
            if process.is_alive():
                process.kill()  # a reader waiting on the pipe gets EOF now
            process.join(timeout=5)
        if conn is not None:
            try:
                conn.close()
            except OSError:
                pass


def _receive(conn) -> tuple:
    return conn.recv()


_default: Thinker | None = None


async def think(player: Player, game: Game, view: State, seat: int) -> Action:
    """``protocol.net.computers.Think`` in a process: the app's one shared worker (started on first use)."""
    global _default
    if _default is None:
        _default = Thinker()
    return await _default(player, game, view, seat)


@atexit.register
def _kill_all() -> None:
    for thinker in list(_LIVE):
        thinker.close()
