"""A local game played through real signed sessions, written as it is played.

:class:`RecordedGame` is a game played here (a
:class:`~client.controller.PlayedHere`, as the open-table
:class:`~client.controller.LocalGame` is) whose every seat has its own
:class:`protocol.session.Session` (its own key, its own secret seed, its own view), the sessions are joined by
``protocol.memory``'s in-memory :class:`~protocol.memory.Pipe`, and seat 1's
session writes the hash chain through ``protocol.net.files.GameFiles``, so a
local game is a game like any other: the same ``<table>.log``, ``.seed`` and
``.json`` files as a LAN game (in ``games/local/`` of the data folder, where
the LAN lobby, which resumes every unfinished game of ``games/``, does not
look), listed by the Replays screen, checked by ``lanterne verify``.

Every seat's key and session seed derive from one 32-byte secret, kept
owner-only in ``<table>.seed``: a resume (after quitting, or a crash) rebuilds
every seat's session from the log (``Session.from_log``) and the game goes on
from the same position with the same hidden cards. The secret is random, or
derived from the seed a person chose (same seed, same moves: the same log,
byte for byte).

Speed (2 seats, random players, ``python -m lanterne.client.local_record``): a move
through the sessions and the pipe takes a few milliseconds; the end of the
game (every seat's audit) a few tens. The log is written and fsynced by one
writer thread per game (:class:`LogQueue`), in order, so the disk never
stalls the screen (docs/benchmarks.md, Notes); ``flush_ms`` is what is
left to write when the last move returns.
"""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import os
import queue
import tempfile
import threading
import time
import weakref
from pathlib import Path
from typing import Callable, Sequence

from lanterne.client.i18n import _
from lanterne.engines.bots import RandomBot, make_bot
from lanterne.engines.core import TABLE, Action, Game, IllegalAction, Player, State
from lanterne.client.controller import (Change, LogEntry, PlayedHere, Think, Waiting,
                                       scores_over)
from lanterne.client.local_games import local_folder
from lanterne.protocol.identity import Identity
from lanterne.protocol.session import Aborted, Moved, Session, TableResolved
from lanterne.protocol.memory import Pipe
from lanterne.protocol.net.files import GameFiles, ResumeError, read_game_files
from lanterne.engines.registry import get_game

SECRET_DOMAIN = b"lanterne/local-game/v1\0"


def secret_of(seed: str | int | None, *parts: object, attempt: int = 0) -> bytes:
    """The game's secret: derived from a seed a person chose (and the game, variant, seats: ``parts``), else random."""
    if seed is None or seed == "":
        return os.urandom(32)
    words = "\0".join(str(p) for p in (seed, *parts, attempt))
    return hashlib.sha256(SECRET_DOMAIN + words.encode()).digest()


def table_stem(secret: bytes, name: str, guests: int) -> str:
    """The file stem a new game with this secret gets (the first 16 hex digits of its hello's hash)."""
    idents = [Identity.from_seed(seat_secrets(secret, i)[0]) for i in range(guests + 1)]
    probe = Session(idents[0], host=True, name=name, seed=seat_secrets(secret, 0)[1],
                    guests=[g.public for g in idents[1:]])
    probe.start()
    return hashlib.sha256(probe.chain[0].raw).hexdigest()[:16]


def fresh_secret(seed: str | int | None, folder: Path | str, parts: Sequence[object], name: str,
                 guests: int) -> bytes:
    """A secret whose game has no files in ``folder`` yet (the same seed played again is a new log)."""
    for attempt in range(1000):
        secret = secret_of(seed, *parts, attempt=attempt)
        if not (Path(folder) / f"{table_stem(secret, name, guests)}.log").exists():
            return secret
    return os.urandom(32)


def seat_secrets(secret: bytes, seat: int) -> tuple[bytes, bytes]:
    """(identity seed, session seed) of ``seat``, from the game's secret."""
    ident = hashlib.sha256(secret + f"/identity/{seat}".encode()).digest()
    sess = hashlib.sha256(secret + f"/seed/{seat}".encode()).digest()
    return ident, sess


class LogQueue:
    """One writer thread for a game's files: the screen's loop hands it each entry and goes on.

    A log entry is fsynced before the next one is written, as before, but on this thread, so a slow
    disk (another program writing, a laptop's disk waking) never stalls the screen. Jobs run in the
    order given (one thread, one FIFO); after a failed write nothing more is written (a log with a
    hole would not verify) and :meth:`flush` raises the error. :meth:`flush` waits until everything
    given is on disk: closing the game does it, and so does the interpreter's exit (``atexit``), so a
    quit never loses an entry. A SIGKILL may lose the entries of the last few milliseconds (the
    moves then resume from the last one written: the log is a whole chain either way).
    """

    def __init__(self, name: str = "lanterne-log-writer"):
        self._jobs: queue.Queue = queue.Queue()
        self.error: BaseException | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()
        _OPEN_QUEUES.add(self)

    def put(self, job: Callable[[], object]) -> None:
        if self._closed:
            raise RuntimeError("the game's log is closed")
        self._jobs.put(job)

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                if job is None:
                    return
                if self.error is None:
                    job()
            except BaseException as e:  # noqa: BLE001 - kept, and raised by flush on the loop
                self.error = e
            finally:
                self._jobs.task_done()

    @property
    def pending(self) -> int:
        return self._jobs.unfinished_tasks

    def flush(self) -> None:
        """Wait until every job given so far ran; OSError (or what the write raised) if one failed."""
        if self._thread.is_alive():
            self._jobs.join()
        if self.error is not None:
            raise self.error

    def close(self) -> None:
        """Flush, then stop the thread (closing twice is harmless)."""
        if not self._closed:
            self._closed = True
            self._jobs.put(None)
            self._thread.join()
        _OPEN_QUEUES.discard(self)
        if self.error is not None:
            raise self.error


_OPEN_QUEUES: "weakref.WeakSet[LogQueue]" = weakref.WeakSet()


@atexit.register
def _flush_every_log() -> None:
    """At the interpreter's exit (daemon threads are still running then): nothing given is lost."""
    for q in list(_OPEN_QUEUES):
        try:
            q.close()
        except BaseException:  # noqa: BLE001 - already said in the game; exit quietly
            pass


class RecordedGame(PlayedHere):
    """A local game (hot-seat or against computers) through one signed session per seat, logged to disk."""

    saved = True
    WRITE_ON_LOOP = False
    """True: every entry written and fsynced on the caller's thread, the screen's loop (the old way;
    ``bench/tui.py``'s ``pause_while_saving_ms`` measures both)."""

    def __init__(self, game: Game, players: Sequence[Player | None], names: Sequence[str], *,
                 seed: int | str, secret: bytes, folder: Path | str, variant: str = "standard",
                 computer_delay: float = 0.0, think: Think | None = None, bots: Sequence[str | None] = (),
                 resume: tuple[dict, bytes, list[bytes]] | None = None):
        super().__init__(game, players, names, seed, variant, computer_delay, think)
        self.secret = secret
        n = len(self.players)
        idents = [Identity.from_seed(seat_secrets(secret, i)[0]) for i in range(n)]
        seeds = [seat_secrets(secret, i)[1] for i in range(n)]
        self.files = GameFiles(folder)
        self._writes = LogQueue()
        if resume is None:
            meta = {"local": True, "role": "local", "game": game.id, "variant": variant, "players": n,
                    "seed": str(seed), "mode": ("hot-seat" if len(self.local_seats) > 1 else "vs" if self.local_seats else "watch"),
                    "seats": [{"key": idents[i].public.hex(), "name": names[i], "address": None,
                               "bot": (list(bots)[i] if i < len(bots) else None)} for i in range(n)],
                    "moves": 0, "over": False}
            self._store = self.files.store(secret, meta)
            store = self._queued(self._store)
            guests = [g.public for g in idents[1:]]
            self.sessions = [Session(idents[i], host=i == 0, name=names[i], game=game if i == 0 else None,
                                     variant=variant, seed=seeds[i], store=store if i == 0 else None,
                                     guests=guests if i == 0 else None)
                             for i in range(n)]
            self.pipe = Pipe(self.sessions)
            self.pipe.collect(0, self.sessions[0].start())
        else:
            meta, table, raws = resume
            self._store = self.files.attach(table, meta)
            store = self._queued(self._store)
            self.sessions = [Session.from_log(raws, idents[i], seeds[i], store=store if i == 0 else None,
                                              name=names[i]) for i in range(n)]
            self.pipe = Pipe(self.sessions)
            for i in range(n):
                self.pipe.collect(i, [])
        self._seen = [0] * n
        self._moves = 0
        self._over_saved = bool(meta.get("over")) if resume is not None else False
        if resume is not None:
            self._moves = sum(1 for e in self.sessions[0].chain if e.kind == "move")
            self._log_from_chain()
            self.takeback.resumed_at = len(self.log)
        self._deliver()
        self.flush()  # the files exist (and the table id is known) when the game is handed over

    def _queued(self, store: Callable[[bytes], None]) -> Callable[[bytes], None]:
        """The session's store: each entry handed to the game's writer thread, in order."""
        if self.WRITE_ON_LOOP:
            return store

        def put(raw: bytes) -> None:
            self._writes.put(lambda: store(raw))

        return put

    def flush(self) -> None:
        """Wait until every entry played so far is on disk (OSError: the log could not be written)."""
        self._writes.flush()

    # -- the sessions
    def _deliver(self) -> LogEntry | None:
        """Run the pipe until nobody has anything to send; turn the sessions' events into log lines."""
        self.pipe.deliver()
        last = None
        own: dict[int, object] = {}
        for i in range(1, len(self.sessions)):  # a seat's move in its own words (a claimed card is public once played)
            for ev in self.pipe.events[i][self._seen[i]:]:
                if isinstance(ev, Moved) and ev.seat == i:
                    own[ev.entry] = ev
            self._seen[i] = len(self.pipe.events[i])
        for ev in self.pipe.events[0][self._seen[0]:]:
            if isinstance(ev, Moved):
                ev = own.get(ev.entry, ev)
                last = self._record(ev.seat, ev.text, list(ev.events))
                self._moves += 1
            elif isinstance(ev, TableResolved):
                self._record_table(ev.op, ev.outcome, list(ev.events))
            elif isinstance(ev, Aborted):
                self.last_error = _("The game was aborted: {reason}").format(reason=ev.reason)
        self._seen[0] = len(self.pipe.events[0])
        over = self.sessions[0].over
        if over and not self._over_saved:  # after the last entries, on the writer thread too
            self._over_saved = True
            moves = self._moves
            self._writes.put(lambda: self.files.update(moves=moves, over=True))  # not after every move: a meta
        return last                                                               # write costs as much as one

    def _log_from_chain(self) -> None:
        """After a resume: the move log rebuilt from the log, each seat's move in its own words as played."""
        chain = self.sessions[0].chain
        try:
            seen = [Session.replay(chain, s.public, seat_secrets(self.secret, i)[1], keep_events=True,
                                   games=lambda _id: self.game).replayed_events
                    for i, s in enumerate(self.sessions)]
        except Exception:  # noqa: BLE001 - the log lines are a courtesy; the game goes on without them
            return
        own = {ev.entry: ev for i, evs in enumerate(seen) for ev in evs if isinstance(ev, Moved) and ev.seat == i}
        self.score_history = scores_over(self.game, self.sessions[0].chain, seen[0])
        for ev in seen[0]:
            if isinstance(ev, Moved):
                ev = own.get(ev.entry, ev)
                self._record(ev.seat, ev.text, list(ev.events))
            elif isinstance(ev, TableResolved):
                self._record_table(ev.op, ev.outcome, list(ev.events))
        self._seen = [len(e) for e in self.pipe.events]

    # -- reading
    @property
    def state(self) -> State:
        """The public position (no seat's hidden cards)."""
        return self.game.view(self.sessions[0].view, None)

    def view(self, seat: int | None) -> State:
        if seat is None:
            return self.game.view(self.sessions[0].view, None)
        return self.sessions[seat].view

    @property
    def waiting(self) -> Waiting:
        s0 = self.sessions[0]
        if s0.over or s0.view is None or self.game.is_over(s0.view):
            return Waiting("over") if s0.view is not None else Waiting("table")
        actor = s0.next_actor()
        if actor == TABLE:
            return Waiting("table")
        return Waiting(self.seats[actor].kind, actor)

    @property
    def moves(self) -> int:
        return self._moves

    @property
    def log_path(self) -> Path:
        """The log file, every entry played so far written to it (a reader gets the whole chain)."""
        try:
            self.flush()
        except Exception:  # noqa: BLE001 - the path is still the path; the write error is said in the game
            pass
        return self.files.log_path

    # -- playing
    def _play(self, seat: int, action: Action) -> LogEntry:
        session = self.sessions[seat]
        if not session.my_turn:
            raise IllegalAction(_("it is not {seat}'s turn").format(seat=self.seats[seat].label))
        if self._writes.error is not None:  # a log that cannot be written: no move it would not hold
            raise IllegalAction(_("the game's log cannot be written ({error}); it is saved up to the last move "
                                  "written").format(error=self._writes.error))
        self.pipe.collect(seat, session.act(action))  # IllegalAction: nothing written
        entry = self._deliver()  # the entries go to the writer thread: the screen does not wait for the disk
        self._wake.set()
        self._notify(Change(entry, error=self.last_error))
        return entry

    def _checkpoint(self) -> tuple[int, list[Session]]:
        """Every seat's session copied as it is now (a few milliseconds: each fair table is copied too)."""
        return len(self.sessions[0].chain), [s.copy() for s in self.sessions]

    def _restore(self, point: object) -> None:
        """Every session back to its copy, and the entries since taken out of the log file (the writer thread
        cuts them off its end, in order after the entries it was given): the log is then the chain a resume
        reads, and ``lanterne verify`` checks, as if they had never been played. Sound because every seat is
        this machine's: no other peer ever held them."""
        length, sessions = point  # type: ignore[misc]
        gone = self.sessions[0].chain[length:]
        for entry in reversed(gone):
            self._writes.put(lambda raw=entry.raw: self._store.retract(raw))
        try:
            self.flush()
        except OSError as e:
            raise IllegalAction(_("the game's log cannot be written ({error}); it is saved up to the last move "
                                  "written").format(error=e)) from None
        self.sessions = sessions
        self.pipe.sessions = list(sessions)
        for sent, session in zip(self.pipe.sent, sessions):
            del sent[len(session.chain):]
        self._seen = [len(events) for events in self.pipe.events]
        self._moves -= sum(1 for entry in gone if entry.kind == "move")

    def save_position(self) -> str:
        return self.game.save_position(self.state)

    def close(self) -> None:
        """Stop the game: every entry given to the writer is on disk before the files close."""
        super().close()
        try:
            self._writes.close()
        except Exception:  # noqa: BLE001 - already refused in the game; the files close anyway
            pass
        if self.files.table_id and not self._over_saved:
            self.files.update(moves=self._moves)  # a crash leaves it behind: local_games.moves_in_log() counts again
        self.files.close()


def resume_local(meta_path: Path | str, *, computer_delay: float = 0.0,
                 make_player: Callable[[str, str], Player] | None = None) -> RecordedGame:
    """The unfinished local game of ``meta_path``, rebuilt from its files (ResumeError: one line)."""
    meta_path = Path(meta_path)
    meta, secret, table, raws = read_game_files(meta_path, lambda line: None)
    try:
        game = get_game(str(meta["game"]))
        seats = list(meta["seats"])
        bots = [s.get("bot") for s in seats]
        names = [str(s.get("name", f"Player {i + 1}")) for i, s in enumerate(seats)]
    except Exception as e:  # noqa: BLE001
        raise ResumeError(_("cannot resume {game}: {error}").format(game=meta_path.stem,
                                                                    error=f"{type(e).__name__}: {e}")) from None
    seed = str(meta.get("seed", ""))
    from lanterne.client.local_play import move_seconds  # a cycle: local_play makes its games through this module

    make = make_player or (lambda kind, bot_seed: make_bot(kind, bot_seed, max_seconds=move_seconds(kind)))
    players = [None if b is None else make(str(b), f"{seed}/bot{i}/resumed{len(raws)}") for i, b in enumerate(bots)]
    think = None
    if any(b and str(b).startswith("ismcts") for b in bots):
        from lanterne.client.thinking import Thinker  # multiprocessing loads with the first computer player

        think = Thinker()
    try:
        return RecordedGame(game, players, names, seed=seed, secret=secret, folder=meta_path.parent,
                            variant=str(meta.get("variant", "standard")), computer_delay=computer_delay,
                            think=think, bots=bots, resume=(meta, table, raws))
    except Exception as e:  # noqa: BLE001 - a log that does not replay is one line
        raise ResumeError(_("cannot resume {game}: {error}").format(
            game=meta_path.stem, error=f"{type(e).__name__}: {str(e)[:200]}")) from None


def measure(game_id: str, seed: str = "m", folder: Path | str | None = None) -> dict:
    """Milliseconds per move of a hot-seat game played by random choices through the sessions and the log
    (``python -m lanterne.client.local_record GAME [SEED]``): median, 95th percentile, the longest and where it was."""
    from lanterne.client.local_play import make_local_game  # a cycle: local_play makes its games through this module

    game = get_game(game_id)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        c = make_local_game(game, mode="hot-seat", seed=seed, save_to=folder or tmp)
        setup = (time.perf_counter() - started) * 1000
        bot = RandomBot(seed)
        times = []
        while c.waiting.kind != "over":
            w = c.waiting
            action = bot.choose(game, c.view(w.seat), w.seat)
            t = time.perf_counter()
            c.submit(w.seat, action)
            times.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        c.flush()
        flush = (time.perf_counter() - t) * 1000
        c.close()
        entries = len(c.sessions[0].chain)
    longest = max(range(len(times)), key=times.__getitem__)
    ordered = sorted(times)
    return {"game": game_id, "setup_ms": round(setup, 1), "moves": len(times), "entries": entries,
            "median_ms": round(ordered[len(times) // 2], 1), "p95_ms": round(ordered[int(len(times) * 0.95)], 1),
            "max_ms": round(times[longest], 1), "max_at_move": longest + 1,
            "last_move_ms": round(times[-1], 1), "flush_ms": round(flush, 1)}


if __name__ == "__main__":
    import json
    import sys

    from lanterne.engines.registry import GAMES

    for gid in sys.argv[1:] or GAMES:
        print(json.dumps(measure(gid)))
