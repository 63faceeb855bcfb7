"""A network game behind the ordinary game screens: :class:`NetworkGame` adapts a :class:`NetPeer`.

The game screens talk to a :class:`~client.controller.GameController`; this
one plays the local seat through the peer's signed session and learns the
other seat's moves from the session's events. Only our seat is human here;
the other seat is ``REMOTE``. The status line says what we wait for: the
other player's move, its part of a shuffle (a key), a reveal, or the link.

The peer runs in its own task (started by :meth:`NetworkGame.start`), so the
lobby can wait for the table to be set before it shows the board, and a
failure (nobody at that address, a declined invitation, a cheat) becomes one
readable line in :attr:`NetworkGame.failure` / ``last_error``, never a
traceback. The log files stay where the peer wrote them.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Awaitable, Callable, Sequence

from client.controller import (HUMAN, REMOTE, Change, GameController, LogEntry, Seat, Waiting,
                               describe_table_op)
from engines.core import ROLL, TABLE, Action, Game, IllegalAction, RulesError, State
from protocol.identity import Identity
from protocol.net.peer import NetPeer, PeerOptions
from protocol.session import Aborted, Disputed, GameOver, GameStarted, Moved, TableResolved, TableSet

FAIR_WORDS = {
    "fair_commit": "sealed die",
    "fair_open": "die reveal",
    "fair_relock": "shuffle key",
    "fair_shuffle": "shuffle key",
    "fair_rekey": "shuffle key",
    "fair_keys": "key to open cards",
    "fair_claim": "card proof",
}
"""What a fair-table step is, in a player's words (a key, a reveal...)."""

_LISTENING = re.compile(r"^listening on (\S+):(\d+) ")
NOTES_KEPT = 200


def failure_text(error: BaseException) -> str:
    """One readable line for whatever stopped the peer."""
    from protocol.net.discovery import DiscoveryError
    from protocol.net.handshake import HandshakeError
    from protocol.net.invite import Declined
    from protocol.net.peer import ResumeError
    from protocol.net.transport import LinkClosed
    from protocol.wire import ProtocolError

    if isinstance(error, Declined):
        return f"Not seated: {error}"
    if isinstance(error, HandshakeError):
        return f"The other side did not prove who it is: {error}"
    if isinstance(error, LinkClosed):
        if error.reason.startswith("cannot connect"):
            return f"Cannot reach the host ({error.reason})"
        return f"The link closed: {error.reason}"
    if isinstance(error, ConnectionRefusedError):
        return "Nobody is listening at that address (connection refused)"
    if isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        return "Nobody answered at that address in time"
    if isinstance(error, OSError):
        return f"Network error: {error.strerror or error}"
    if isinstance(error, (DiscoveryError, ResumeError, RulesError, ProtocolError)):
        return str(error).splitlines()[0] if str(error) else type(error).__name__
    return f"The network game stopped: {type(error).__name__}: {error}"


class NetworkGame(GameController):
    """One network game as a controller. Make it with :meth:`open_table` or :meth:`join`, then :meth:`start`."""

    mode = "LAN game"

    def __init__(self, peer: NetPeer, runner: Callable[[], Awaitable[object]], game: Game | None = None):
        super().__init__()
        self.peer = peer
        self._runner = runner
        self.game = game  # type: ignore[assignment]  # a guest learns it from the table
        self.seats: tuple[Seat, ...] = ()
        self.my_seat: int | None = None
        self.safety_code: str = ""
        self.failure: str | None = None
        self.listening: tuple[str, int] | None = None
        self.notes: list[str] = []
        """The peer's own lines (listening, linked, link lost...), newest last."""
        self.last_remote: LogEntry | None = None
        """The other seat's last move: the screen highlights it."""
        self.ready = asyncio.Event()
        """Set once the board can be shown (play started) or the peer failed."""
        self._was_linked = False
        self._last_linked = False
        self._task: asyncio.Task | None = None
        self._closed = False
        peer.on_events = self._on_events
        peer.say = self._say

    # -- making one
    @classmethod
    def open_table(cls, me: Identity, name: str, game: Game, folder: Path | str, *, variant: str = "standard",
                   interfaces: Sequence[str], port: int = 0, discover: bool = True,
                   accept: Callable | None = None, options: PeerOptions = PeerOptions()) -> "NetworkGame":
        """Host a table for ``game`` on ``interfaces``; ``accept`` decides on each join request (may be async)."""
        game.check_options(2, variant)
        peer = NetPeer.host(me, name, game, folder, variant=variant, options=options, say=lambda _: None)
        return cls(peer, lambda: peer.run_host(list(interfaces), port, discover=discover, accept=accept), game)

    @classmethod
    def join(cls, me: Identity, name: str, folder: Path | str, address: tuple[str, int], *,
             expect_fingerprint: str | None = None, game: str = "", variant: str = "standard",
             rediscover_on: Sequence[str] = (), games: Callable[[str], Game] | None = None,
             options: PeerOptions = PeerOptions()) -> "NetworkGame":
        """Join the table at ``address``; ``rediscover_on`` (interfaces) finds a restarted host again."""
        peer = NetPeer.guest(me, name, folder, options=options, say=lambda _: None)
        if games is not None:
            peer.session._games = games  # a game the registry does not know (tests); see the report

        async def run():
            discovery = None
            if rediscover_on:
                from protocol.net.discovery import Discovery

                discovery = Discovery(list(rediscover_on))
            return await peer.run_guest(address, expect_fingerprint=expect_fingerprint, discovery=discovery,
                                        game=game, variant=variant or "standard")

        return cls(peer, run)

    @classmethod
    def resume(cls, me: Identity, meta_path: Path | str, *, interfaces: Sequence[str], discover: bool = True,
               options: PeerOptions = PeerOptions()) -> "NetworkGame":
        """Go on with an unfinished game from its files (after the app was closed or crashed).

        Raises ``protocol.net.peer.ResumeError`` (one line) if the files cannot be resumed.
        """
        peer = NetPeer.from_files(me, meta_path, options=options, say=lambda _: None)
        if peer.role == "host":
            port = int(peer.files.meta.get("port", 0) or 0)
            runner = lambda: peer.run_host(list(interfaces), port, discover=discover)  # noqa: E731
        else:
            async def runner():
                discovery = None
                if discover and interfaces:
                    from protocol.net.discovery import Discovery

                    discovery = Discovery(list(interfaces))
                return await peer.run_guest(None, discovery=discovery)
        controller = cls(peer, runner, peer.session.game)
        controller._adopt()
        controller._replay_log()
        controller._was_linked = True  # until the other player is back, the banner says the link is down
        controller.notes.append(f"resumed from {len(peer.session.chain)} logged entries")
        return controller

    # -- what the lobby reads until the board shows
    players = 2

    @property
    def variant(self) -> str:
        return self.peer.session.variant

    @property
    def board_ready(self) -> bool:
        """The table is set and play started: the board can be shown."""
        return self.failure is None and self.game is not None and self.peer.session.view is not None

    def table_lines(self) -> list[str]:
        """Seat by seat, for the lobby: who sits there, or that it is free."""
        if self.seats:
            return [f"{s.index + 1}. {s.name}{' (you)' if s.index == self.my_seat else ''}" for s in self.seats]
        if self.peer.role == "host":
            return [f"1. {self.peer.name} (host, you)", "2. (free)"]
        return []

    def forget_if_unjoined(self) -> None:
        """A host closing a table nobody joined: not an unfinished game to resume."""
        peer = self.peer
        if peer.role == "host" and peer.peer_key is None and not peer.session.over:
            peer.files.update(over=True, closed="nobody joined")

    def _adopt(self) -> None:
        """Take the table from a session rebuilt from its log (no TableSet event comes then)."""
        from protocol.identity import safety_code

        s = self.peer.session
        if not s.seats:
            return
        self.game = s.game
        self.my_seat = s.my_seat
        self.safety_code = safety_code(*s.seats)
        self.seats = tuple(Seat(i, name, HUMAN if i == s.my_seat else REMOTE) for i, name in enumerate(s.names))
        if s.view is not None:
            self.ready.set()

    def _replay_log(self) -> None:
        """Rebuild the move log (and the other player's last move) from the chain of a resumed game."""
        from protocol.session import Session
        from protocol.wire import ProtocolError

        s = self.peer.session
        game = s.game
        try:
            replayed = Session.replay([e.raw for e in s.chain], s.public, s.seed, keep_events=True,
                                      games=(lambda gid: game) if game is not None else None)
        except (ProtocolError, RulesError):
            return  # the session itself replayed this log; a log without words is no reason to stop
        self._on_events([ev for ev in replayed.replayed_events if isinstance(ev, (Moved, TableResolved))])

    def start(self) -> "NetworkGame":
        """Run the peer in the background (on the running event loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._guarded())
        return self

    async def _guarded(self) -> None:
        try:
            await self._runner()
        except asyncio.CancelledError:
            raise
        except Exception as e:  # every failure is one line in the app
            self.failure = failure_text(e)
            self.last_error = self.failure
            self.ready.set()
            self._notify(Change(error=self.failure))
        finally:
            self.ready.set()  # whoever waits for the board learns that it will not come

    # -- what the peer tells us
    def _say(self, line: str) -> None:
        self.notes.append(line)
        del self.notes[:-NOTES_KEPT]
        found = _LISTENING.match(line)
        if found and self.listening is None:
            self.listening = (found.group(1), int(found.group(2)))
        if line.startswith(("listening on", "linked with", "link lost", "join request", "accepted", "declined")):
            self._check_link()
            self._notify(Change())

    def _on_events(self, events: list) -> None:
        for ev in events:
            change = Change()
            if isinstance(ev, TableSet):
                self._set_table(ev)
            elif isinstance(ev, GameStarted):
                self.ready.set()
            elif isinstance(ev, Moved):
                change.entry = self._record(ev.seat, ev.text, ev.events)
                if ev.seat != self.my_seat:
                    self.last_remote = change.entry
            elif isinstance(ev, TableResolved):
                public = ev.outcome if ev.op.kind == ROLL else None
                change.entry = self._record(TABLE, describe_table_op(ev.op, public), ev.events)
            elif isinstance(ev, Disputed):
                self.notes.append(f"dispute: {ev.reason}")
            elif isinstance(ev, Aborted):
                self.last_error = self.ended_text(ev)
                change.error = self.last_error
                self.ready.set()
            elif isinstance(ev, GameOver):
                self.ready.set()
            self._notify(change)

    def _set_table(self, ev: TableSet) -> None:
        if self.game is None or self.game.id != ev.game:
            self.game = self.peer.session.game
        self.my_seat = ev.my_seat
        self.safety_code = ev.safety_code
        self.seats = tuple(Seat(i, name, HUMAN if i == ev.my_seat else REMOTE) for i, name in enumerate(ev.names))

    def _record(self, actor: int, text: str, events) -> LogEntry:
        entry = LogEntry(len(self.log) + 1, actor, text, tuple(events))
        self.log.append(entry)
        return entry

    def early_end(self) -> str:
        """The one line of a game that stopped without a result (an abort, a failure); '' otherwise.

        Board screens that word their own result (penalties...) show this instead when it is set.
        """
        s = self.peer.session
        if self.failure is not None:
            return self.failure
        if s is not None and isinstance(s.result, Aborted):
            return self.ended_text(s.result)
        return ""

    def ended_text(self, ev: Aborted) -> str:
        if ev.culprit is not None and 0 <= ev.culprit < len(self.seats):
            who = "you" if ev.culprit == self.my_seat else self.seats[ev.culprit].label
            return f"Game ended, fault of {who}: {ev.reason}"
        return f"Game ended: {ev.reason}"

    # -- the link
    @property
    def linked(self) -> bool:
        link = self.peer.link
        return link is not None and not link.closed

    @property
    def link_down(self) -> bool:
        """True while a link we had is gone and the game is not over (the peer reconnects by itself)."""
        return self._was_linked and not self.linked and not self.peer.session.over and self.failure is None

    def _check_link(self) -> bool:
        """Note a link that came up or went down; True if it changed since the last look."""
        linked = self.linked
        if linked == self._last_linked:
            return False
        self._last_linked = linked
        self._was_linked = self._was_linked or linked
        return True

    # -- GameController
    def view(self, seat: int | None) -> State:
        mine = self.peer.session.view
        if seat is not None and seat == self.my_seat:
            return mine
        return self.game.view(mine, seat)

    @property
    def waiting(self) -> Waiting:
        s = self.peer.session
        if s.over or self.failure is not None:
            return Waiting("over")
        if s.phase == "play" and s.view is not None and not self.game.is_over(s.view):
            actor = s.next_actor()
            if actor == TABLE:
                return Waiting("table")
            return Waiting(HUMAN if actor == self.my_seat else REMOTE, actor)
        return Waiting("table")

    def is_over(self) -> bool:
        return self.peer.session.over or self.failure is not None

    def scores(self) -> list[int]:
        return self.game.scores(self.view(None)) if self.peer.session.view is not None else []

    def winners(self) -> list[int]:
        return self.game.winners(self.view(None)) if self.peer.session.view is not None else []

    def status(self) -> str:
        """Whose turn it is and what we wait for (a move, a key, a reveal, the link)."""
        s = self.peer.session
        if self.failure is not None:
            return self.failure
        if isinstance(s.result, Aborted):
            return self.ended_text(s.result)
        if s.over:
            return super().status()
        text = self._waiting_text()
        if self.link_down:
            return f"Link down, reconnecting by itself... ({text})"
        return text

    def _waiting_text(self) -> str:
        s = self.peer.session
        expected = s.waiting_for()
        if expected is None:
            return "Waiting for the other player to join..."
        other = expected != self.my_seat
        who = self.seats[expected].label if 0 <= expected < len(self.seats) else f"P{expected + 1}"
        if s.phase == "genesis":
            return f"Setting the table: waiting for {who}'s nonce" if other else "Setting the table..."
        if s.phase in ("final", "dispute"):
            return f"Game done: waiting for {who}'s final reveal" if other else "Game done: revealing our secrets..."
        if s.phase == "end":
            return f"Game done: waiting for {who}'s signed result" if other else "Game done: signing the result..."
        if s.next_actor() == TABLE:
            step = ""
            try:
                step = s.fair._steps[0][1]
            except (AttributeError, IndexError, TypeError):
                pass
            what = FAIR_WORDS.get(step, "table step")
            op = s._op.kind if getattr(s, "_op", None) is not None else "table"
            return f"Waiting for {who}'s {what} ({op})" if other else f"The table is working ({op})..."
        if other:
            return f"Waiting for {who}'s move"
        return f"{who} to play"

    def submit(self, seat: int, action: Action) -> LogEntry:
        if self.is_over():
            raise IllegalAction("the game is over")
        if seat != self.my_seat:
            raise IllegalAction(f"{self.seats[seat].label} is not played from this keyboard")
        if not self.peer.session.my_turn:
            raise IllegalAction(f"it is not your turn ({self._waiting_text()})")
        count = len(self.log)
        # NetPeer.act is async; the session's act is not: the move is logged now, sent just after.
        self.peer._report(self.peer.session.act(action))
        task = asyncio.get_running_loop().create_task(self._send())
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
        mine = [e for e in self.log[count:] if e.actor == seat]
        return mine[0] if mine else self.log[-1]

    async def _send(self) -> None:
        from protocol.net.transport import LinkClosed

        link = self.peer.link
        if link is not None and not link.closed:
            try:
                await self.peer._send_out(link)
            except (LinkClosed, OSError):
                pass  # the resume sends it

    async def run(self) -> None:
        """Watch the peer until it stops: link changes are announced (the banner), failures become one line."""
        self.start()
        task = self._task
        while not task.done() and not self._closed:
            await asyncio.wait({task}, timeout=0.25)
            if self._check_link():
                self._notify(Change())
        if self._check_link():
            self._notify(Change())

    def close(self) -> None:
        """Leave: stop the peer (its files stay; the game can be resumed from them)."""
        self._closed = True
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def aclose(self) -> None:
        """Stop the peer and wait until its sockets and zeroconf are closed."""
        self.close()
        if self._task is not None:
            try:
                await self._task
            except BaseException:
                pass
