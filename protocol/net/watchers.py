"""Spectators: a peer on the LAN watches a running table, checking every entry as a player does, seeing only what is public.

Who may watch is the table's (``PeerOptions.spectators``, signed in the table
as ``watch`` and ``watch_by``): nobody, whom a player lets in when asked, the
peers a player knows, or anyone (:data:`protocol.session.WATCH_MODES`; by
default a game with hidden hands asks, an open one lets known peers watch).
Each player lets in its own spectators by that rule, at most
:data:`MAX_PER_PLAYER` at once and :data:`REQUESTS` watch requests per
:data:`REQUEST_WINDOW` seconds (a key at most :data:`REQUESTS_PER_KEY` of
them, and :data:`ASKING` questions open at once); the players see who
watches (each tells the others, :mod:`.chat`). A spectator asks any player of the table
with a ``watch`` request (how many entries it holds already); the player
sends it the chain from there and every entry after, as it sends them to the
other players, and never reads anything from it: a spectator is never a seat
and cannot change the game (any byte it sends closes its link). The
spectator's own session has no seat and no key of the table
(``Session(None)``): it checks every entry, every move on the public view and
every fair step as a watcher, so it learns a card only when the rules make it
public. A dropped link is dialled again and the spectator catches up from
what it holds; when the game is over the player says goodbye.
"""

from __future__ import annotations

import asyncio
import inspect
from collections import deque
from typing import Awaitable, Callable

from lanterne.engines.core import Game
from lanterne.protocol.identity import Identity
from lanterne.protocol.session import WATCH_ASK, WATCH_KNOWN, WATCH_OFF, Session, receive_frame
from lanterne.protocol.wire import ProtocolError

from .clock import MONOTONIC, Clock
from .chat import ChatBook, ChatError, ChatLine, ChatSeen, WatchersNote
from .discovery import Discovery, RunningHint
from .events import PeerEvent, WatcherJoined, WatcherLeft, event_line
from .handshake import HandshakeError
from .invite import Answer, Declined, Request, ask, proven, watch_request
from .linkset import GOODBYE
from .transport import Link, LinkClosed, LinkOptions

SPECTATOR_SENT = "a spectator sends nothing"
"""The CLOSE reason of a player whose spectator sent bytes (a spectator only receives)."""


MAX_PER_PLAYER = 8
"""Most spectators one player serves at once."""
REQUESTS, REQUESTS_PER_KEY, REQUEST_WINDOW = 20, 3, 60.0
"""At most REQUESTS watch requests per REQUEST_WINDOW seconds reach a player's decision, REQUESTS_PER_KEY of one key."""
ASKING = 2
"""Most watch questions a player is asked at once (the rest are refused: the player is busy)."""

ANSWER_WAIT = 60.0
"""Seconds a spectator waits for a player's answer (a table that asks: a person reads the question)."""

Known = Callable[[bytes], bool]
"""Whether the player knows this key (the app's known peers)."""
Ask = Callable[[Request], "bool | Awaitable[bool]"]
"""The player's answer to a stranger who asks to watch (a question on its screen)."""


class RequestRate:
    """Watch requests in the last window, in total and per key, on the injected clock."""

    def __init__(self, clock: Clock, total: int = REQUESTS, per_key: int = REQUESTS_PER_KEY,
                 window: float = REQUEST_WINDOW):
        self.clock, self.total, self.per_key, self.window = clock, total, per_key, window
        self._times: deque[tuple[float, bytes]] = deque()

    def allow(self, key: bytes) -> bool:
        """Count a request by ``key`` if the budget has room (the window's requests are at most ``total``)."""
        now = self.clock()
        while self._times and now - self._times[0][0] >= self.window:
            self._times.popleft()
        if len(self._times) >= self.total or sum(k == key for _, k in self._times) >= self.per_key:
            return False
        self._times.append((now, key))
        return True


RUNNING_EVERY = 1.0
"""Seconds between two looks at what our advert says of the table under way (moves made): one update at most."""


def running_hint(session: Session | None, table_id: bytes) -> RunningHint | None:
    """What a player advertises of its table under way, if spectators may watch it (None: nothing)."""
    if session is None or session.game is None or not session.spectators or session.over or not table_id:
        return None
    moves = sum(1 for e in session.chain if e.kind == "move")
    return RunningHint(session.game.id, session.variant, len(session.seats), tuple(session.names), moves,
                       table_id.hex()[:16])


async def advertise_running(session: Callable[[], Session | None], table_id: Callable[[], bytes],
                            discovery: Callable[[], Discovery | None]) -> None:
    """Say on the LAN that our table is under way and may be watched (game, seats, moves), while it is."""
    said = None
    while True:
        hint = running_hint(session(), table_id())
        lan = discovery()
        if hint != said and lan is not None and lan.advert is not None:
            try:
                await lan.update(running=hint)
                said = hint
            except Exception:      # a hint only: the next look tries again
                pass
        await asyncio.sleep(RUNNING_EVERY)


class SpectatorServer:
    """The spectators a player serves: each gets the chain from what it holds, then every new entry.

    Its context: the table's session (None until the table is set), how the
    user is told, where a spectator's chat goes, and whom to tell when the
    list of watchers changes.
    """

    def __init__(self, session: Callable[[], Session | None], emit: Callable[[PeerEvent], None],
                 on_chat: Callable[[bytes, Link, bytes], None], on_change: Callable[[list[str]], None],
                 clock: Clock = MONOTONIC, most: int = MAX_PER_PLAYER):
        self._session, self._emit, self._on_chat, self._on_change = session, emit, on_chat, on_change
        self._wake: dict[bytes, asyncio.Event] = {}
        self._links: dict[bytes, Link] = {}
        self._names: dict[bytes, str] = {}
        self.most = most
        self.rate = RequestRate(clock)
        self.known: Known | None = None
        """Set by the app: the peers it knows (a table of ``known`` lets only them in; none known without it)."""
        self.ask: Ask | None = None
        """Set by the app: a question to the player (a table of ``ask`` refuses everyone without it)."""
        self._asking = 0
        self._admitted: dict[bytes, None] = {}
        """Keys we let in at this table, newest last (a spectator whose link dropped comes back without asking)."""

    @property
    def links(self) -> list[Link]:
        """The links of the spectators we serve (the table chat reaches them there)."""
        return list(self._links.values())

    @property
    def names(self) -> list[str]:
        """Who watches through us."""
        return list(self._names.values())

    @property
    def idle(self) -> bool:
        """Nobody is being served (every spectator left, or had the end)."""
        return not self._wake

    def wake_all(self) -> None:
        for event in self._wake.values():
            event.set()

    async def decide(self, req: Request) -> Answer:
        """Whether ``req``'s key may watch through us: the table's rule, our room, the rate, maybe the player."""
        session = self._session()
        if session is None or session.game is None:
            return Answer(False, "no game under way here yet")
        if session.watch_mode == WATCH_OFF:
            return Answer(False, "this table does not let spectators watch")
        if req.peer.key in session.seats:
            return Answer(False, "you hold a seat in this game: resume it instead")
        if req.peer.key in self._admitted:
            return self._full(req.peer.key) or Answer(True, "watching", len(session.chain))
        if not self.rate.allow(req.peer.key):
            return Answer(False, "too many watch requests: try again in a minute")
        full = self._full(req.peer.key)
        if full:
            return full
        if session.watch_mode == WATCH_KNOWN and not (self.known is not None and self.known(req.peer.key)):
            return Answer(False, "this table lets only peers its players know watch")
        if session.watch_mode == WATCH_ASK:
            if self.ask is None:
                return Answer(False, "this table lets spectators watch when a player says yes; nobody is here to ask")
            if self._asking >= ASKING:
                return Answer(False, "the player is answering other watch requests: try again in a minute")
            self._asking += 1
            try:
                verdict = self.ask(req)
                if inspect.isawaitable(verdict):
                    verdict = await verdict
            finally:
                self._asking -= 1
            if not verdict:
                return Answer(False, "the player said no")
            full = self._full(req.peer.key)
            if full:
                return full
        self._admitted[req.peer.key] = None
        if len(self._admitted) > 4 * self.most:
            del self._admitted[next(iter(self._admitted))]
        return Answer(True, "watching", len(session.chain))

    def _full(self, key: bytes) -> Answer | None:
        """The refusal when we serve as many spectators as we may (a spectator linking again has its place)."""
        if key not in self._links and len(self._links) >= self.most:
            return Answer(False, f"{self.most} spectators already watch through this player")
        return None

    async def serve(self, req: Request, link: Link) -> None:
        """Send the chain from what the spectator holds, then every new entry; read nothing from it."""
        key, session = req.peer.key, self._session()
        assert session is not None      # (decide accepted it)
        wake = self._wake[key] = asyncio.Event()
        wake.set()
        self._links[key] = link
        link.on_chat = lambda raw: self._on_chat(raw, link, key)
        self._emit(WatcherJoined(req.peer.name, req.peer.fingerprint))
        self._names[key] = req.peer.name
        self._on_change(self.names)
        listen = asyncio.ensure_future(link.recv())
        # what the spectator holds, by hash: the chain may be cut back and grow again (a claim taken back for
        # the claimed seat's own entry at its place), and then the spectator needs the new end
        sent = [entry.hash for entry in session.chain[:req.have]]
        try:
            while not link.closed:
                waiting = asyncio.ensure_future(wake.wait())
                await asyncio.wait([listen, waiting], return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
                if listen.done():
                    if listen.exception() is None:
                        await link.close(SPECTATOR_SENT)
                    return
                wake.clear()
                chain = session.chain
                while sent and (len(sent) > len(chain) or chain[len(sent) - 1].hash != sent[-1]):
                    sent.pop()
                while len(sent) < len(chain):
                    entry = chain[len(sent)]
                    await link.send(entry.raw)
                    sent.append(entry.hash)
                if session.over:
                    await link.close(GOODBYE)
                    return
        except LinkClosed:
            pass
        finally:
            listen.cancel()
            if self._wake.get(key) is wake:      # (not a newer link of the same spectator's)
                del self._wake[key]
            if self._links.get(key) is link:
                del self._links[key]
                self._names.pop(key, None)
                self._on_change(self.names)
            self._emit(WatcherLeft(req.peer.name, req.peer.fingerprint))


class Spectator:
    """Watch a table headless (``lanterne watch``): dial a player, check every entry, say what happens.

    ``say`` gets one line per move and at the end (as a headless peer
    prints them); ``on_events`` gets the session's events (for a UI). The
    keep-alive is short (1 s): we do not know how soon the player's side
    calls a silent link dead (``lanterne host --read-timeout``).
    """

    def __init__(self, me: Identity, name: str, *, games: Callable[[str], Game] | None = None,
                 say: Callable[[str], None] = print, on_events: Callable[[list], None] | None = None,
                 on_chat: Callable[[ChatLine], None] | None = None,
                 options: LinkOptions = LinkOptions(read_timeout=20.0, keepalive=1.0, connect_timeout=3.0),
                 reconnect_every: float = 0.5, patience: float = 30.0, clock: Clock = MONOTONIC):
        self.me, self.name, self.say, self.on_events, self.on_chat = me, name, say, on_events, on_chat
        """``on_chat``: gets every chat line of the table (ours too), for a UI; ``say`` gets it as a line too."""
        self.options, self.reconnect_every, self.patience = options, reconnect_every, patience
        """``patience``: seconds without a link to the table before we give up (:class:`Declined`, one line)."""
        self.clock = clock
        self.session = Session(None, host=False, public=me.public, auto_join=False, games=games)
        self.host_key: bytes | None = None
        self.link: Link | None = None
        """Our link to the player we watch through, while it is up."""
        self._chat: ChatBook | None = None

    # -- the table chat (:mod:`.chat`): we hear it through our player, and may speak if the table lets us
    def chat_book(self) -> ChatBook | None:
        session = self.session
        if not session.chain or not session.seats:
            return None
        table = session.chain[0].hash
        if self._chat is None or self._chat.table != table:
            self._chat = ChatBook(self.me, self.name, table)
        self._chat.seats = list(session.seats)
        self._chat.spectators = bool(session.spectators)
        return self._chat

    async def chat(self, text: str) -> ChatLine:
        """Say ``text`` to the table through our player (ChatError, one line, if it cannot go)."""
        book, link = self.chat_book(), self.link
        if book is None:
            raise ChatError("the chat opens once the table is known")
        if link is None or link.closed:
            raise ChatError("not linked to the table right now: try again in a moment")
        raw, line = book.write(text)
        try:
            await link.send_chat(raw)
        except LinkClosed as e:
            raise ChatError(f"not sent: the link closed ({e.reason})"[:200]) from None
        self._heard(line)
        return line

    def _on_chat(self, raw: bytes) -> None:
        book = self.chat_book()
        if book is None:
            return
        try:
            line = book.read(raw)
        except ChatSeen:
            return
        except ProtocolError as e:
            self.say(f"dropped a chat message: {e}"[:200])
            return
        if isinstance(line, WatchersNote):      # a seat's word to the other seats: not a spectator's to read
            return
        self._heard(line)

    def _heard(self, line: ChatLine) -> None:
        if self.on_chat is not None:
            self.on_chat(line)
        self.say(str(line))

    async def watch(self, host: str, port: int, *, expect_fingerprint: str | None = None) -> Session:
        """Watch until the game is over (or a player declines: :class:`Declined`, one line)."""
        session = self.session
        clock = self.clock
        alone_since, said = clock(), False
        while not session.over:
            try:
                link, hs, _ = await ask(host, port, self.me, self.name, watch_request(len(session.chain)),
                                        expect=self.host_key, expect_fingerprint=expect_fingerprint,
                                        options=self.options, timeout=ANSWER_WAIT, clock=clock)
            except Declined:
                raise
            except (HandshakeError, LinkClosed, OSError, asyncio.TimeoutError) as e:
                reason = f"cannot reach the table at {host}:{port}: {e}"[:200]
                if clock() - alone_since > self.patience:
                    raise Declined(f"{reason} (for {self.patience:g} s)") from None
                if not said:
                    self.say(f"{reason}; trying again")
                    said = True
                await asyncio.sleep(self.reconnect_every)
                continue
            said = False
            self.link = link
            link.on_chat = self._on_chat
            player = proven(hs)
            if self.host_key is None:
                self.host_key = player.key
                self.say(f"watching {player.name} ({player.fingerprint})'s table")
            try:
                while not session.over:
                    raw = await link.recv()
                    events = receive_frame(session, raw, player.key)   # a spectator writes nothing: it only checks
                    if events and self.on_events is not None:
                        self.on_events(list(events))
                    for ev in events:
                        line = event_line(ev, session)
                        if line is not None:
                            self.say(line)
            except LinkClosed as e:
                if not session.over:
                    self.say(f"link lost ({e.reason}); catching up again")
                    alone_since = clock()
                    await asyncio.sleep(self.reconnect_every)
            finally:
                self.link = None
                await link.close("done watching")
        return session


__all__ = ["ASKING", "Declined", "MAX_PER_PLAYER", "REQUESTS", "REQUESTS_PER_KEY", "REQUEST_WINDOW", "RequestRate",
           "SPECTATOR_SENT", "Spectator", "SpectatorServer", "advertise_running", "running_hint"]
