"""A network game behind the ordinary game screens: :class:`NetworkGame` adapts a :class:`Peer`.

One controller for every table size (two seats are a table of two). The
game screens talk to a :class:`~client.controller.GameController`; this one
plays the local seat through the peer's signed session and learns the other
seats' moves from the session's events; what happens around the game
(seats taken and freed while the table fills, links up and down) comes as
the peer's typed events (:mod:`protocol.net.events`). Only our seat is human
here; the others are ``REMOTE``. The status line says what we wait for: a
move, a part of a shuffle (a key), a reveal, or a peer that is gone.

The peer runs in its own task (started by :meth:`NetworkGame.start`), so the
lobby can wait for the table to be set before it shows the board, and a
failure (nobody at that address, a declined invitation, a cheat) becomes one
readable line in :attr:`NetworkGame.failure` / ``last_error``, never a
traceback. The log files stay where the peer wrote them.

Computer seats are peers of their own that the host runs
(:meth:`Peer.add_computer`); their names start with ``[computer] `` so every
app shows what they are. A seat gone for good: the table's policy
(``on_gone``) and claim time, signed in the table, are shown everywhere
(:meth:`NetworkGame.policy_text`); while the awaited peer is gone the status
counts up to the claim (:meth:`NetworkGame.gone_text`).
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Awaitable, Callable, Sequence

from lanterne.client.controller import (HUMAN, REMOTE, Change, GameController, LogEntry, Seat, Waiting,
                               describe_table_op, scores_over)
from lanterne.client.i18n import N_, _, ngettext, seat_tag, seconds_text
from lanterne.client.local_play import move_seconds
from lanterne.client.net_undo import NetUndo
from lanterne.client.seat_clocks import clock_text
from lanterne.client.thinking import Thinker
from lanterne.engines.bots import make_bot
from lanterne.engines.core import ROLL, TABLE, Action, Game, IllegalAction, RulesError, State
from lanterne.protocol.identity import Identity, safety_code, safety_lines, safety_part
from lanterne.protocol.net.chat import read_chat
from lanterne.protocol.net.discovery import Discovery, DiscoveryError
from lanterne.protocol.net.events import (ChatSaid, JoinPending, LinkLost, Linked, Listening, PeerEvent, PeerLeft, SeatFreed,
                                 SeatOffered, SeatTaken, Seated, WatcherJoined, WatcherLeft,
                                 WatchersHeard)
from lanterne.protocol.net.files import ResumeError
from lanterne.protocol.net.handshake import HandshakeError
from lanterne.protocol.net.invite import Declined
from lanterne.protocol.net.computers import Think
from lanterne.protocol.net.online.table import join_by_code
from lanterne.protocol.net.peer import Peer, PeerOptions
from lanterne.protocol.session import (CLAIM_REASON, CLAIMED, COMPUTER_MARK, ON_GONE_COMPUTER, ON_GONE_END, Aborted, Cause, ClaimAsked,
                              ClaimRefused, Disputed, GameOver, GameStarted, HoldGivenUp, LogRepaired, MarkDamaged, Moved, Phase, Replaced, ReplaceAsked,
                              SeatReplaced, Session, TableResolved, TableSet, TakenBack)
from lanterne.protocol.net.transport import LinkClosed
from lanterne.protocol.wire import ProtocolError, printable

FAIR_WORDS = {
    "fair_commit": N_("sealed die"),
    "fair_open": N_("die reveal"),
    "fair_relock": N_("shuffle key"),
    "fair_shuffle": N_("shuffle key"),
    "fair_rekey": N_("shuffle key"),
    "fair_keys": N_("key to open cards"),
    "fair_claim": N_("card proof"),
}
"""What a fair-table step is, in a player's words (a key, a reveal...)."""

NOTES_KEPT = 200


def is_computer(name: str) -> bool:
    """A seat a host's computer plays (every peer sees the mark in its name)."""
    return name.startswith(COMPUTER_MARK)


clock = clock_text
"""``m:ss`` for a duration (the gone clock and the claim time)."""


def claim_time(seconds: float) -> str:
    """The claim time in words: ``5 min``, ``90 s``."""
    return _("{minutes:g} min").format(
        minutes=seconds / 60) if seconds >= 60 and seconds % 60 == 0 else seconds_text(seconds)


ON_GONE_WORDS = {ON_GONE_END: N_("the game ends with the scores so far"),
                 ON_GONE_COMPUTER: N_("a computer takes the seat")}
"""What the table does with a seat gone past the claim time, in a player's words."""


def describe_policy(on_gone: str, claim_after: float) -> str:
    """'if a player is gone 5 min: a computer takes the seat'."""
    return _("if a player is gone {time}: {what}").format(
        time=claim_time(claim_after), what=_(ON_GONE_WORDS.get(on_gone, on_gone)))


def thinker_for(bot: str, think: Think | None) -> Think | None:
    """How this app's computers think: a search in its own process (the screen never stalls), others at once."""
    if think is None and bot.startswith("ismcts"):
        return Thinker()
    return think


def replacement_players(bot: str) -> Callable[[int], object]:
    """The player of a computer this app hosts for a seat it replaced (the lobby's computer level)."""
    salt = os.urandom(4).hex()
    return lambda seat: make_bot(bot, f"{salt}-replace-{seat + 1}", max_seconds=move_seconds(bot))


def failure_text(error: BaseException) -> str:
    """One readable line for whatever stopped the peer, printable (it may quote another peer's words)."""
    return printable(_failure_text(error))


def _failure_text(error: BaseException) -> str:
    if isinstance(error, Declined):
        return _("Not seated: {error}").format(error=error)
    if isinstance(error, HandshakeError):
        return _("The other side did not prove who it is: {error}").format(error=error)
    if isinstance(error, LinkClosed):
        if error.reason.startswith("cannot connect"):
            return _("Cannot reach the host ({reason})").format(reason=error.reason)
        return _("The link closed: {reason}").format(reason=error.reason)
    if isinstance(error, ConnectionRefusedError):
        return _("Nobody is listening at that address (connection refused)")
    if isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        return _("Nobody answered at that address in time")
    if isinstance(error, OSError):
        return _("Network error: {error}").format(error=error.strerror or error)
    if isinstance(error, (DiscoveryError, ResumeError, RulesError, ProtocolError)):
        return str(error).splitlines()[0] if str(error) else type(error).__name__
    return _("The network game stopped: {name}: {error}").format(name=type(error).__name__, error=error)


class NetworkGame(GameController):
    """One network game of any size as a controller. Make it with :meth:`open_table`, :meth:`join` or
    :meth:`resume`, then :meth:`start`."""

    mode = "LAN game"

    def __init__(self, peer: Peer, runner: Callable[[], Awaitable[object]] | None, game: Game | None = None, *,
                 players: int = 0):
        super().__init__()
        self.peer = peer
        self._runner = runner
        self.game = game  # type: ignore[assignment]  # a guest learns it from the table
        self.players = players
        """Seats at the table (the host knows it at once; a guest from the advert, then the roster)."""
        self.seats: tuple[Seat, ...] = ()
        self.my_seat: int | None = None
        self.safety_code: str = ""
        self.failure: str | None = None
        self.listening: tuple[str, int] | None = None
        self.notes: list[str] = []
        """What happened around the game (listening, linked, link lost...), newest last."""
        self.taken: list[str] = [peer.name] if peer.is_host else []
        """Names seated so far, in seat order, until the roster is known (the host's view)."""
        self.host_name = ""
        self.joined = False
        """A guest: the host took us (we wait for the others, then the roster)."""
        self.host_code = ""
        """A guest: the safety code of the host's key and ours, as the host's join dialog showed it."""
        self.known = None
        """The players met before (a :class:`client.known_peers.KnownPeersFile`), if the lobby keeps them: a guest
        says whether it met the host before and remembers it once seated."""
        self.host_known = None
        """A guest: what :attr:`known` says of the host's name and key (a :class:`client.known_peers.Check`)."""
        self.last_remote: LogEntry | None = None
        """The last move of another seat: the screen highlights it."""
        self.last_moves: dict[int, LogEntry] = {}
        """Every other seat's last move (the banner shows them all)."""
        self.last_turns: dict[int, list[LogEntry]] = {}
        """Every other seat's last turn, whole: its moves since another seat moved (the banner says them)."""
        self.notice = ""
        """The last replacement, in one line (the banner shows it)."""
        self.ready = asyncio.Event()
        """Set once the board can be shown (play started) or the peer failed."""
        self._was_linked = False
        self._last_linked = False
        self._link_state: tuple[bool, ...] = ()
        self._gone_since: dict[bytes, float] = {}
        """Key of a peer whose link with us is down -> when we saw it go (time.monotonic)."""
        self._gone_shown = ""
        self.paused: set[bytes] = set()
        self.watchers: dict[str, str] = {}
        """Spectators watching through us: fingerprint -> name (protocol/net/watchers.py)."""
        self.watching_via: dict[int, tuple[str, ...]] = {}
        """Spectators watching through another seat: seat -> names (that seat's signed notice, protocol/net/chat.py)."""
        self.chat: list = []
        """The table chat so far (:class:`protocol.net.chat.ChatLine`, ours too), oldest first."""
        self.chat_history = 0
        """How many of ``chat`` were read back from the game's file on resume (shown without a pop-up)."""
        self.resigned: set[bytes] = set()
        """Keys that left for good on a table whose policy gives their seat to a computer (claimed at once)."""
        """Keys of players who left on purpose and will be back (their link closed saying so)."""
        self.companions: list = []
        """What lives as long as the peer runs (a table's codes, :mod:`client.screens.online`): each one's
        ``close()`` is awaited when the peer stops."""
        self._task: asyncio.Task | None = None
        self._closed = False
        self._finishing = False
        self.takebacks = NetUndo(peer, lambda: self.seats, lambda: self.my_seat)
        """Undo at this table, if its host allows it (client/net_undo.py)."""
        peer.on_events = self._on_events
        peer.on_peer_event = self._on_peer_event
        peer.say = lambda line: None
        peer.watchers.known = lambda key: self.known is not None and self.known.knows(key)
        peer.watchers.ask = self._ask_watch
        self.ask_watch: Callable[[str, str], Awaitable[bool]] | None = None
        """Set by the game screen: the player's answer to a stranger who asks to watch (None: nobody to ask)."""

    # -- making one
    @classmethod
    def open_table(cls, me: Identity, name: str, game: Game, folder: Path | str, *, variant: str = "standard",
                   players: int = 2, computers: int = 0, bot: str = "greedy", interfaces: Sequence[str],
                   port: int = 0, discover: bool = True, accept: Callable | None = None,
                   options: PeerOptions = PeerOptions(), on_gone: str = ON_GONE_END,
                   think: Think | None = None) -> "NetworkGame":
        """Host a table of ``players`` seats, ``computers`` of them played by ``bot`` players this app runs.

        ``accept`` decides on each join request (may be async: a dialog). ``on_gone`` (signed in the
        table): a seat gone past ``options.claim_after`` ends the game with the scores so far (``end``)
        or is given to a ``bot`` player this app hosts, if this app is the one that claims (``computer``).
        """
        game.check_options(players, variant)
        if not 0 <= computers < players:
            raise RulesError(f"a table of {players} takes 0 to {players - 1} computer players, not {computers}")
        make_bot(bot)  # an unknown kind fails here, in one line
        if on_gone not in ON_GONE_WORDS:
            raise RulesError(f"on-gone policy {on_gone!r} is not one of {', '.join(ON_GONE_WORDS)}")
        peer = Peer.host(me, name, game, players, folder, variant=variant, options=options, say=lambda _: None,
                         on_gone=on_gone)
        think = thinker_for(bot, think)
        if think is not None:
            peer.think = think
        peer.computer_player = replacement_players(bot)
        salt = os.urandom(4).hex()
        for n in range(computers):
            peer.add_computer(make_bot(bot, f"{salt}-computer-{n + 1}", max_seconds=move_seconds(bot)))
        return cls(peer, lambda: peer.run_host(list(interfaces), port, discover=discover, accept=accept), game,
                   players=players)

    @classmethod
    def join(cls, me: Identity, name: str, folder: Path | str, address: tuple[str, int] | None, *,
             interfaces: Sequence[str], players: int = 0, expect_fingerprint: str | None = None, game: str = "",
             variant: str = "standard", discover: bool = True, games: Callable[[str], Game] | None = None,
             options: PeerOptions = PeerOptions(), bot: str = "greedy", think: Think | None = None,
             code: str = "", servers=None, direct: bool = True) -> "NetworkGame":
        """Ask the host at ``address`` for a seat; listen on ``interfaces`` for the peers seated after us.

        ``bot``: the kind of the computer this app hosts if it gives a gone seat to one. ``code``: join a
        friend's table by its code instead (``address`` None), through ``servers``
        (:class:`protocol.net.online.servers.Servers`; ``direct``: Dilation may offer our addresses). On the
        LAN, ``servers`` (if given) links us with the guests of a mixed table that came by a code.
        """
        peer = Peer.guest(me, name, folder, options=options, say=lambda _: None)
        think = thinker_for(bot, think)
        if think is not None:
            peer.think = think
        peer.computer_player = replacement_players(bot)
        if games is not None:
            peer.session.games = games  # a game the registry does not know (tests)

        async def run():
            if code:
                return await join_by_code(peer, code, servers, list(interfaces), direct=direct, players=players)
            discovery = Discovery(list(interfaces)) if discover else None
            playing = peer.run_guest(address, list(interfaces), expect_fingerprint=expect_fingerprint,
                                     discovery=discovery, game=game, variant=variant or "standard", players=players)
            if servers is None:
                return await playing
            from lanterne.protocol.net.online.table import guest_with_pairs

            return await guest_with_pairs(peer, servers, playing, direct=direct)   # a mixed table's code guests

        return cls(peer, run, players=players)

    @classmethod
    def resume(cls, me: Identity, meta_path: Path | str, *, interfaces: Sequence[str], discover: bool = True,
               options: PeerOptions = PeerOptions(), bot: str = "greedy", think: Think | None = None) -> "NetworkGame":
        """Go on with an unfinished table from its files; a host brings its computer seats back too.

        Raises :class:`protocol.net.files.ResumeError` (one line) if the files cannot be resumed.
        """
        peer = Peer.from_files(me, meta_path, options=options, say=lambda _: None)
        think = thinker_for(bot, think)
        if think is not None:
            peer.think = think
        peer.computer_player = replacement_players(bot)
        salt = os.urandom(4).hex()
        peer.resume_computers(lambda n: make_bot(bot, f"{salt}-computer-{n}", max_seconds=move_seconds(bot)))
        if peer.is_host:
            port = int(peer.files.meta.get("port", 0) or 0)
            runner = lambda: peer.run_host(list(interfaces), port, discover=discover)  # noqa: E731
        else:
            async def runner():
                discovery = Discovery(list(interfaces)) if discover and interfaces else None
                return await peer.run_guest(None, list(interfaces), discovery=discovery)
        from lanterne.protocol.net.online.rendezvous import resume_by_code

        playing = runner      # the seats that came by a code meet again by its rendezvous (none: the runner alone)
        controller = cls(peer, lambda: resume_by_code(peer, playing()), peer.session.game, players=len(peer.seats))
        controller._adopt()
        controller._replay_log()
        controller.chat = read_chat(peer.files.chat_path, me.public)    # the table's chat so far, from its file
        controller.chat_history = len(controller.chat)
        controller._was_linked = True  # until the others are back, the banner says which links are down
        controller.notes.append(ngettext("resumed from {n} logged entry", "resumed from {n} logged entries",
                                         len(peer.session.chain)).format(n=len(peer.session.chain)))
        lost = getattr(peer.session.writer, "lost", 0)
        if lost:
            controller.notes.append(ngettext(
                "this disk lost {n} entry we had signed: we sign nothing more until the others send it back",
                "this disk lost {n} entries we had signed: we sign nothing more until the others send them back",
                lost).format(n=lost))
        return controller

    # -- facts the lobby shows
    @property
    def variant(self) -> str:
        s = self.peer.session
        return s.variant if s is not None and s.game is not None else self.peer.files.meta.get("variant", "standard")

    @property
    def board_ready(self) -> bool:
        """The table is set and play started: the board can be shown."""
        s = self.peer.session
        return self.failure is None and self.game is not None and s is not None and s.view is not None

    def table_lines(self) -> list[str]:
        """Seat by seat, for the lobby: who sits there (you, the host, a computer) or that it is free."""
        if self.seats:
            names = [s.name for s in self.seats]
        elif self.peer.seats:
            names = [s.name for s in self.peer.seats]
        else:
            names = list(self.taken)
        if not self.peer.is_host and not names:
            return self.seating_lines()
        me = self.peer.name
        lines = []
        for i in range(max(self.players, len(names))):
            if i < len(names):
                notes = []
                if i == 0:
                    notes.append(_("host"))
                if names[i] == me and (self.my_seat is None or self.my_seat == i) and (i == 0) == self.peer.is_host:
                    notes.append(_("you"))
                extra = f" ({', '.join(notes)})" if notes else ""
                lines.append(f"{i + 1}. {names[i]}{extra}")
            else:
                lines.append(f"{i + 1}. " + _("(free)"))
        return lines

    def seating_lines(self) -> list[str]:
        """A joiner before the table is full: where its request stands, and the safety code to compare."""
        host = self.host_name or _("the host")
        size = self.players or _("several")
        if not self.host_code:
            return [_("Asking {host} for a seat at a table of {size}...").format(host=host, size=size)]
        mine = safety_part(self.peer.me.public)
        code = [f"    {line}" + ("  " + _("(you)") if line.replace(" ", "") == mine else "")   # one line per key
                for line in safety_lines(self.host_code)]
        known = [self.host_known.text] if self.host_known is not None else []
        if self.peer.mesh.came_by_code:      # (a joiner's only such key is the host's: it came by the host's code)
            state = _("Seated at {host}'s table of {size}: waiting for the other players...") if self.joined else \
                _("Asking {host} for a seat at a table of {size}...")
            return [state.format(host=host, size=size), *known,
                    _("Safety code with {host} (checked by the code: nothing to compare):").format(host=host), *code]
        if not self.joined:
            return [_("Asking {host} for a seat at a table of {size}: {host} reads your request.").format(
                        host=host, size=size), *known,
                    _("Safety code with {host} (compare it aloud with {host}'s join dialog before {host} "
                      "accepts):").format(
                        
                        host=host), *code]
        return [_("Seated at {host}'s table of {size}: waiting for the other players...").format(host=host, size=size),
                *known, _("Safety code with {host}:").format(host=host), *code]

    def forget_if_unjoined(self) -> None:
        """A host closing a table that never filled: not an unfinished game to resume."""
        if self.peer.is_host and self.peer.session is None:
            self.peer.files.update(over=True, closed="the table never filled")

    def _adopt(self) -> None:
        """Take the table from a session rebuilt from its log (no TableSet event comes then)."""
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
        """Rebuild the move log (and the others' last moves) from the chain of a resumed game."""
        s = self.peer.session
        game = s.game
        try:
            replayed = Session.replay([e.raw for e in s.chain], s.public, s.seed, keep_events=True,
                                      games=(lambda gid: game) if game is not None else None)
        except (ProtocolError, RulesError):
            return  # the session itself replayed this log; a log without words is no reason to stop
        steps = [ev for ev in replayed.replayed_events if isinstance(ev, (Moved, TableResolved, TakenBack))]
        if game is not None:
            self.score_history = scores_over(game, s.chain, steps)
        self._on_events(steps)

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
            for companion in self.companions:
                await companion.close()

    # -- what the peer tells us
    def _on_peer_event(self, ev: PeerEvent) -> None:
        self.notes.append(str(ev))
        del self.notes[:-NOTES_KEPT]
        if isinstance(ev, Listening):
            if self.listening is None:
                self.listening = (ev.address, ev.port)
        elif isinstance(ev, SeatTaken):
            self.taken.append(ev.name)
            self.players = ev.seats
        elif isinstance(ev, SeatFreed):  # a joiner gone before the table was full: its seat is free again
            for i in range(len(self.taken) - 1, 0, -1):  # never seat 1: that is the host
                if self.taken[i] == ev.name:
                    del self.taken[i]
                    break
        elif isinstance(ev, JoinPending):
            self.host_name, self.host_code = ev.host, ev.safety_code
            self._check_host()
        elif isinstance(ev, SeatOffered):
            self.host_name, self.joined, self.host_code = ev.host, True, ev.safety_code
            self._check_host()
        elif isinstance(ev, Seated):
            self.players = len(ev.names)
            self._remember_host()
        elif isinstance(ev, PeerLeft):
            (self.resigned if ev.for_good else self.paused).add(ev.key)
            self._check_link()
        elif isinstance(ev, WatcherJoined):
            self.watchers[ev.fingerprint] = ev.name
            self._notify(Change())
        elif isinstance(ev, WatcherLeft):
            self.watchers.pop(ev.fingerprint, None)
            self._notify(Change())
        elif isinstance(ev, WatchersHeard):      # who watches through another seat: its whole list
            self.watching_via[ev.seat] = (*ev.names, *([f"{ev.more} more"] if ev.more else []))
            self._notify(Change())
        elif isinstance(ev, ChatSaid):
            self.chat.append(ev.line)
        elif isinstance(ev, (Linked, LinkLost)):
            if isinstance(ev, Linked):
                self.paused.discard(ev.key)
            self._check_link()
        self._notify(Change())

    def send_chat(self, text: str) -> None:
        """Say ``text`` to the table (``protocol.net.chat.ChatError``, one line, if it cannot go)."""
        self.peer.chat(text)

    def _check_host(self) -> None:
        """A guest: is the host a player met before (its key only known from the safety code so far)?"""
        if self.known is not None and self.host_code:
            self.host_known = self.known.check_code(self.host_name, self.peer.me.public, self.host_code)

    def _remember_host(self) -> None:
        """A guest seated: the host accepted us after comparing the code; remember its name and key."""
        if self.known is None or self.peer.is_host or not self.peer.seats or not self.joined:
            return
        host = self.peer.seats[0]
        if not self.known.remember(host.name, host.key):
            self.notes.append(self.known.warning or "")

    async def _ask_watch(self, request) -> bool:
        """A stranger asks to watch a table that asks: the player answers on the game screen, if one is up."""
        if self.ask_watch is None:
            return False
        return await self.ask_watch(request.peer.name, request.peer.fingerprint)

    def _on_events(self, events: list) -> None:
        for ev in events:
            change = Change()
            if self.takebacks.on_event(ev, self.log, change):
                if change.undone is not None:      # the banner forgets the moves taken back
                    self.last_moves.pop(change.undone.actor, None)
                    self.last_turns.pop(change.undone.actor, None)
            elif isinstance(ev, TableSet):
                self._set_table(ev)
            elif isinstance(ev, GameStarted):
                self.ready.set()
            elif isinstance(ev, Moved):
                same_turn = next((e.actor for e in reversed(self.log) if e.actor != TABLE), None) == ev.seat
                change.entry = self._record(ev.seat, ev.text, ev.events)
                if ev.seat != self.my_seat:
                    self.last_remote = change.entry
                    self.last_moves[ev.seat] = change.entry
                    turn = self.last_turns.get(ev.seat, []) if same_turn else []
                    self.last_turns[ev.seat] = turn + [change.entry]
            elif isinstance(ev, TableResolved):
                public = ev.outcome if ev.op.kind == ROLL else None
                change.entry = self._record(TABLE, describe_table_op(ev.op, public, self.game.id if self.game else None),
                                            ev.events)
            elif isinstance(ev, LogRepaired):
                self.notes.append(ngettext("log repaired: the {n} entry this disk lost came back from the others",
                                           "log repaired: the {n} entries this disk lost came back from the others",
                                           ev.count).format(n=ev.count))
            elif isinstance(ev, HoldGivenUp) and ev.count is None:
                self.notes.append(_("every seat was linked for the claim time and none sent back more of our "
                                    "entries: the game goes on"))
            elif isinstance(ev, HoldGivenUp):
                self.notes.append(ngettext("no seat had the {n} entry this disk lost: it never left us, the game "
                                           "goes on", "no seat had the {n} entries this disk lost: they never left "
                                           "us, the game goes on", ev.count).format(n=ev.count))
            elif isinstance(ev, MarkDamaged):
                self.notes.append(_("this game's .signed mark is damaged: we may have signed past the log, so "
                                    "nothing new is signed until the others send back what they hold"))
            elif isinstance(ev, Disputed):
                self.notes.append(_("dispute: {reason}").format(reason=ev.reason))
            elif isinstance(ev, ReplaceAsked) and ev.seat < len(self.seats):
                self.notes.append(_("{by} asks to give the seat of {seat} to {name}").format(
                    by=self.seats[ev.by].label, seat=self.seats[ev.seat].label, name=ev.name))
            elif isinstance(ev, ClaimAsked) and max(ev.seat, ev.by) < len(self.seats):
                self.notes.append(_("{by} claims against {seat} ({reason}); the others answer").format(
                    by=self.seats[ev.by].label, seat=self.seats[ev.seat].label,
                    reason=ev.reason.removeprefix(CLAIM_REASON)))
            elif isinstance(ev, ClaimRefused) and max(ev.seat, ev.by) < len(self.seats):
                self.notes.append(_("{by} refused the claim against {seat} ({reason}): the game goes on").format(
                    by=self.seats[ev.by].label, seat=self.seats[ev.seat].label, reason=ev.reason))
            elif isinstance(ev, SeatReplaced):
                self._seat_replaced(ev)
            elif isinstance(ev, Replaced):
                self.last_error = self.replaced_text(ev)
                change.error = self.last_error
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
        self.players = len(self.seats)

    def _record(self, actor: int, text: str, events) -> LogEntry:
        entry = LogEntry(len(self.log) + 1, actor, text, tuple(events))
        self.log.append(entry)
        return entry

    def _seat_replaced(self, ev: SeatReplaced) -> None:
        """The computer holds the seat now: its name (``[computer] Bob``) everywhere, and one line of notice."""
        s = self.peer.session
        old = self.seats[ev.seat].label if ev.seat < len(self.seats) else seat_tag(ev.seat)
        self.my_seat = s.my_seat
        self.seats = tuple(Seat(i, name, HUMAN if i == s.my_seat else REMOTE) for i, name in enumerate(s.names))
        self.notice = _("{old} was gone {time}: {label} plays that seat from now on (every present player signed it; "
                        "hidden cards re-dealt)").format(old=old, time=claim_time(self.claim_after),
                                                         label=self.seats[ev.seat].label)
        self.notes.append(self.notice)

    # -- how a game ended early
    @property
    def watching(self) -> list[str]:
        """Everyone watching the table, through us or through another seat (the banner's list)."""
        return sorted([*self.watchers.values(), *(n for names in self.watching_via.values() for n in names)])

    def early_end(self) -> str:
        """The one line of a game that stopped without a result (an abort, a failure); '' otherwise.

        Board screens that word their own result (penalties...) show this instead when it is set.
        """
        s = self.peer.session
        if self.failure is not None:
            return self.failure
        if s is not None and isinstance(s.result, Replaced):
            return self.replaced_text(s.result)
        if s is not None and isinstance(s.result, Aborted):
            return self.ended_text(s.result)
        return ""

    def replaced_text(self, ev: Replaced) -> str:
        """We are the one who was gone: our seat is a computer's now; the board stays as we left it."""
        by = self.seats[ev.by].label if 0 <= ev.by < len(self.seats) else seat_tag(ev.by)
        return _("Game over for you: while you were gone, {by} gave your seat (P{seat}) to a computer, which plays on; "
                 "the board shows the game as you left it").format(by=by, seat=ev.seat + 1)

    def ended_text(self, ev: Aborted) -> str:
        """A claim says who was gone and the scores so far; another early end names the seat at fault."""
        if ev.cause in CLAIMED and ev.claimed is not None and 0 <= ev.claimed < len(self.seats):
            who = self.seats[ev.claimed].label + (" " + _("(you)") if ev.claimed == self.my_seat else "")
            took = f" {claim_time(ev.waited)}" if ev.waited is not None else ""
            if ev.cause == Cause.SLOW:
                text = _("Game ended: {who} took more than the move clock of{took}").format(who=who, took=took)
            elif ev.cause == Cause.LEFT:
                text = _("Game ended: {who} left the table for good").format(who=who)
            else:
                text = _("Game ended: {who} was gone{took}").format(who=who, took=took)
            if ev.agreed:
                text += " " + _("(agreed by {players})").format(
                    players=", ".join(self.seats[a].label for a in ev.agreed if a < len(self.seats)))
            scores = list(ev.scores) if ev.scores is not None else self.peer.scores_so_far()
            if scores:
                text += "; " + _("scores so far: {scores}").format(
                    scores=", ".join(f"{seat.label} {score}" for seat, score in zip(self.seats, scores)))
            return text
        if ev.cause == Cause.RESIGNED and ev.culprit is not None and 0 <= ev.culprit < len(self.seats):
            who = _("you") if ev.culprit == self.my_seat else self.seats[ev.culprit].label
            text = _("Game ended: {who} resigned").format(who=who)
            scores = list(ev.scores) if ev.scores is not None else self.peer.scores_so_far()
            if scores:
                text += "; " + _("scores so far: {scores}").format(
                    scores=", ".join(f"{seat.label} {score}" for seat, score in zip(self.seats, scores)))
            if len(self.seats) == 2:
                winners = [1 - ev.culprit]
            else:       # the leaders of the others by the game's own rule (fewest penalties in Pueblo)
                try:
                    winners = [i for i in self.winners() if i != ev.culprit]
                except (RulesError, ValueError, IndexError, TypeError):
                    winners = []
            if len(winners) == 1:
                other = self.seats[winners[0]]
                text += "; " + (_("you win") if other.index == self.my_seat else _("{who} wins").format(who=other.label))
            elif winners:
                text += "; " + _("{players} share the win").format(
                    players=_(" and ").join(self.seats[i].label for i in winners))
            return text
        if ev.culprit is not None and 0 <= ev.culprit < len(self.seats):
            who = _("you") if ev.culprit == self.my_seat else self.seats[ev.culprit].label
            return _("Game ended, fault of {who}: {reason}").format(who=who, reason=ev.reason)
        return _("Game ended: {reason}").format(reason=ev.reason)

    # -- a seat gone for good: the table's policy and the clock
    @property
    def on_gone(self) -> str | None:
        """The table's policy for a seat gone past the claim time (None: a guest before the table is known)."""
        s = self.peer.session
        if s is not None and s.game is not None:
            return s.on_gone
        return self.peer.on_gone if self.peer.is_host else None

    @property
    def claim_after(self) -> float:
        """Seconds a gone player has before the claim: the host's, signed in the table, once it is known."""
        s = self.peer.session
        if s is not None and s.timeout is not None and s.game is not None:
            return s.timeout
        return self.peer.options.claim_after

    def policy_text(self) -> str:
        """'if a player is gone 5 min: a computer takes the seat' ('' until the table is known), and the table's
        move clock if it signed one."""
        on_gone = self.on_gone
        if on_gone is None:
            return ""
        s = self.peer.session
        move_clock = s.move_clock if s is not None else None
        text = describe_policy(on_gone, self.claim_after)
        return text + ("; " + _("a move takes at most {time}").format(
            time=claim_time(move_clock)) if move_clock else "")

    def gone_text(self, now: float | None = None) -> str:
        """While the awaited peer's link with us is down: who, for how long, and what happens at the claim time."""
        s = self.peer.session
        if s is None or s.over or self.failure is not None or s.game is None:
            return ""
        seat = s.waiting_for()
        if seat is None or seat == s.my_seat or seat >= len(s.seats):
            return ""
        key = s.seats[seat]
        since = self._gone_since.get(key)
        if since is None or self.peer.linked(key):
            return ""
        now = time.monotonic() if now is None else now
        due = s.claim_due        # the session's own claim clock: the countdown is the one that fires
        if due is not None:
            since = due - self.claim_after
        then = _(ON_GONE_WORDS[ON_GONE_COMPUTER] if s.may_replace(seat) else ON_GONE_WORDS[ON_GONE_END])
        who = self.seats[seat].label if seat < len(self.seats) else seat_tag(seat)
        if key in self.resigned:
            return _("{who} resigned: {then}, once the others agree").format(who=who, then=then)
        if key in self.paused:
            return _("Waiting for {who}, who left on purpose {gone} ago; at {claim} {then}").format(
                who=who, gone=clock(now - since), claim=clock(self.claim_after), then=then)
        if self.peer.cut_off(seat):
            return _("Waiting for {who} (gone {gone}); cut off from the others too: no claim from here").format(
                who=who, gone=clock(now - since))
        return _("Waiting for {who} (gone {gone}; at {claim} {then})").format(
            who=who, gone=clock(now - since), claim=clock(self.claim_after), then=then)

    def _claim_text(self) -> str:
        s = self.peer.session
        c = s.claiming
        seat = c.seat if c is not None else 0
        who = self.seats[seat].label if seat < len(self.seats) else seat_tag(seat)
        what = (_("Giving {who}'s seat to a computer") if c is not None and c.replaces
                else _("Claim against {who}")).format(who=who)
        expected = s.waiting_for()
        if expected is None or expected == s.my_seat:
            return _("{what}: answering...").format(what=what)
        if expected == seat:
            return _("{what}: {who} may still say it is here").format(what=what, who=who)
        return _("{what}: waiting for {label} to answer").format(what=what, label=self.seats[expected].label)

    # -- the links: one per other peer
    def peer_links(self) -> list[tuple[str, bool]]:
        """(seat label, linked) for every other seat, in seat order (empty until the roster is known)."""
        out = []
        for i, seat in enumerate(self.peer.seats):
            if seat.key == self.peer.me.public:
                continue
            label = self.seats[i].label if i < len(self.seats) else f"{seat_tag(i)} {seat.name}"
            if seat.key in self.paused and not self.peer.linked(seat.key):
                label += " (left on purpose)"
            elif seat.key in self.peer.mesh.came_by_code and not self.checked_by_code:
                label += " " + _("(by code)")       # a mixed table: which seats the code checked
            out.append((label, self.peer.linked(seat.key)))
        return out

    @property
    def checked_by_code(self) -> bool:
        """Every other seat's key was proven by a code: the safety code needs no comparing."""
        others = [s.key for s in self.peer.seats if s.key != self.peer.me.public]
        return bool(others) and all(key in self.peer.mesh.came_by_code for key in others)

    @property
    def my_safety_part(self) -> str:
        """Our own key's part of the safety code: the line this player reads aloud."""
        return safety_part(self.peer.me.public)

    @property
    def linked(self) -> bool:
        """Linked with every other peer."""
        links = self.peer_links()
        return bool(links) and all(up for _, up in links)

    @property
    def link_down(self) -> bool:
        """True while a link we had is gone and the game is not over (the peer reconnects by itself); a
        player who left on purpose is not a broken link."""
        s = self.peer.session
        over = s is None or s.over
        me = self.peer.me.public
        lost = [seat for seat in self.peer.seats
                if seat.key != me and seat.key not in self.paused and not self.peer.linked(seat.key)]
        return self._was_linked and bool(lost) and not over and self.failure is None

    def _check_link(self) -> bool:
        """Note links that came up or went down (and when); True if what the screen shows changed."""
        changed = False
        state = tuple(up for _, up in self.peer_links())
        if state != self._link_state:
            self._link_state = state
            self._last_linked = self.linked
            self._was_linked = self._was_linked or self._last_linked
            changed = True
        now = time.monotonic()
        me = self.peer.me.public
        for seat in self.peer.seats:
            if seat.key == me or self.peer.linked(seat.key):
                self._gone_since.pop(seat.key, None)
            elif self._was_linked:
                self._gone_since.setdefault(seat.key, now)
        gone = self.gone_text(now)
        if gone != self._gone_shown:   # the clock ticks on the screen once a second
            self._gone_shown = gone
            changed = True
        return changed

    # -- GameController
    def view(self, seat: int | None) -> State:
        mine = self.peer.session.view
        if seat is not None and seat == self.my_seat:
            return mine
        return self.game.view(mine, seat)

    @property
    def waiting(self) -> Waiting:
        s = self.peer.session
        if s is None:
            return Waiting("over") if self.failure is not None else Waiting("table")
        if s.over or self.failure is not None:
            return Waiting("over")
        if s.phase == Phase.PLAY and s.view is not None and not self.game.is_over(s.view):
            actor = s.next_actor()
            if actor == TABLE:
                return Waiting("table")
            return Waiting(HUMAN if actor == self.my_seat else REMOTE, actor)
        return Waiting("table")

    def is_over(self) -> bool:
        s = self.peer.session
        return self.failure is not None or (s is not None and s.over)

    def scores(self) -> list[int]:
        s = self.peer.session
        return self.game.scores(self.view(None)) if s is not None and s.view is not None else []

    def winners(self) -> list[int]:
        s = self.peer.session
        return self.game.winners(self.view(None)) if s is not None and s.view is not None else []

    def status(self) -> str:
        """Whose turn it is and what we wait for (a move, a key, a reveal, a gone peer, the links)."""
        s = self.peer.session
        if self.failure is not None:
            return self.failure
        if s is None:
            return _("Waiting for players: {taken} of {players} seats taken").format(
                taken=len(self.taken), players=self.players)
        if isinstance(s.result, Replaced):
            return self.replaced_text(s.result)
        if isinstance(s.result, Aborted):
            return self.ended_text(s.result)
        if s.over:
            return super().status()
        gone = self.gone_text()
        if gone:
            return gone
        if s.phase == Phase.CLAIM:
            return self._claim_text()
        if s.phase == Phase.TAKEBACK:
            return self.takebacks.status()
        text = self._waiting_text()
        if self.link_down:
            return _("Link down, reconnecting by itself... ({text})").format(text=text)
        return text

    def _waiting_text(self) -> str:
        s = self.peer.session
        expected = s.waiting_for()
        if expected is None:
            return _("Waiting for the other players to join...")
        other = expected != self.my_seat
        who = self.seats[expected].label if 0 <= expected < len(self.seats) else seat_tag(expected)
        if s.phase == Phase.GENESIS:
            return _("Setting the table: waiting for {who}'s nonce").format(
                who=who) if other else _("Setting the table...")
        if s.phase in (Phase.FINAL, Phase.DISPUTE):
            return _("Game done: waiting for {who}'s final reveal").format(
                who=who) if other else _("Game done: revealing our secrets...")
        if s.phase == Phase.END:
            return _("Game done: waiting for {who}'s signed result").format(
                who=who) if other else _("Game done: signing the result...")
        if s.next_actor() == TABLE:
            step = s.fair.next_kind() if s.fair is not None else None
            what = _(FAIR_WORDS.get(step or "", N_("table step")))
            op = s.table_op.kind if s.table_op is not None else "table"
            return (_("Waiting for {who}'s {what} ({op})").format(who=who, what=what, op=op) if other
                    else _("The table is working ({op})...").format(op=op))
        if other:        # (the move clock counts down in the board's clock panel, client/widgets/clocks.py)
            return _("Waiting for {who}'s move").format(who=who)
        return _("{who} to play").format(who=who)

    @property
    def has_move_clock(self) -> bool:  # type: ignore[override]
        s = self.peer.session
        return s is not None and s.move_clock is not None

    def move_clock_left(self, now: float | None = None) -> float | None:
        """Seconds left on the table's signed move clock for the seat awaited (None: no clock runs)."""
        s = self.peer.session
        if s is None or s.move_clock is None or s.over or s.game is None:
            return None
        awaiting = s.awaiting()
        started = awaiting.since if awaiting is not None else None
        if started is None:
            return None
        now = self.peer.clock() if now is None else now      # the session's clocks run on the peer's
        return max(0.0, started + s.move_clock - now)

    def submit(self, seat: int, action: Action) -> LogEntry:
        if self.is_over():
            raise IllegalAction("the game is over")
        if seat != self.my_seat:
            raise IllegalAction(f"{self.seats[seat].label} is not played from this keyboard")
        if not self.peer.session.my_turn:
            raise IllegalAction(f"it is not your turn ({self._waiting_text()})")
        count = len(self.log)
        self.peer.play(action)   # logged now; every link's sender sends it in its turn
        mine = [e for e in self.log[count:] if e.actor == seat]
        return mine[0] if mine else self.log[-1]

    @property
    def offers_undo(self) -> bool:
        """Whether ``u`` asks the others to take back our last move (the table's host allows it)."""
        return self.takebacks.offered

    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` cannot ask to take back its last move now, in one line (None: it can)."""
        return self.takebacks.refusal() if seat == self.my_seat else _("it is not your turn")

    def undo(self, seat: int) -> None:
        """Ask the others to take back our last move: every other seat answers (IllegalAction: why not)."""
        if seat != self.my_seat:
            raise IllegalAction(_("it is not your turn"))
        self.takebacks.request()
        self._notify(Change())

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

    def leave(self, resign: bool) -> None:
        """The player leaves on purpose: a pause (the links say so as they close; r in the lobby resumes the
        game) or a resignation (a signed abort naming our seat ends the game with the scores so far; on a table
        whose policy gives a gone seat to a computer, the others give ours to one at once and play on)."""
        if resign:
            self.peer.resign()
            self._finishing = True
        else:
            self.peer.pause()

    def close(self) -> None:
        """Leave: stop the peer (its files stay; the game can be resumed from them) and its computers' process.

        After a resignation the peer first sends it (up to 5 s), then stops."""
        self._closed = True
        if self._task is not None and not self._task.done():
            if self._finishing:
                asyncio.get_running_loop().call_later(5.0, self._task.cancel)
            else:
                self._task.cancel()
        if isinstance(self.peer.think, Thinker):
            self.peer.think.close()

    async def aclose(self) -> None:
        """Stop the peer and wait until its sockets and zeroconf are closed."""
        self.close()
        if self._task is not None:
            try:
                await self._task
            except BaseException:
                pass


__all__ = ["NetworkGame", "claim_time", "clock", "describe_policy", "failure_text", "is_computer"]
