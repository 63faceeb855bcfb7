"""Table chat over a peer's links (the I/O side of :mod:`.chat`).

A player sends its message on every link it holds, to the other seats and
to the spectators it serves, and forwards each message it accepts, once, on
every link but the one it came on (a seat cut from another still hears it
through the rest); a spectator's message enters the table at its player,
which forwards it to every seat, and a seat that heard it from another seat
forwards it to its own spectators only (so the spectators' chat a seat's link
brings is that seat's own spectators', :data:`.chat.LINK_AUTHORS`). Each message is checked by every peer that gets it
(:meth:`.chat.ChatBook.read`); a dropped one is a note, never a claim nor an
abort, and never closes a link. Our own and accepted messages are kept in
``<table>.chat`` next to the log (:meth:`.files.GameFiles.append_chat`),
which ``lanterne verify`` never reads.
"""

from __future__ import annotations

from typing import Callable, Coroutine, Iterable, Mapping

from lanterne.protocol.identity import Identity
from lanterne.protocol.session import Session
from lanterne.protocol.wire import ProtocolError

from .chat import ChatBook, ChatError, ChatLine, ChatSeen, WatchersNote
from .events import ChatDropped, ChatSaid, PeerEvent, WatchersHeard
from .transport import Link, LinkClosed


class ChatRelay:
    """What a peer says and hears in the table chat, and what it passes on.

    Its context: our identity and name, the table (id and session, known
    once the table is set), the seats' links by key, the spectators' links,
    where lines are kept, and how the user is told.
    """

    def __init__(self, me: Identity, name: str, *, table_id: Callable[[], bytes],
                 session: Callable[[], Session | None], relay_spectators: Callable[[], bool],
                 seat_links: Mapping[bytes, Link], spectator_links: Callable[[], Iterable[Link]],
                 keep: Callable[[dict], None], emit: Callable[[PeerEvent], None],
                 spawn: Callable[[Coroutine], object]):
        self._me, self._name = me, name
        self._table_id, self._session, self._relay_spectators = table_id, session, relay_spectators
        self._seat_links, self._spectator_links = seat_links, spectator_links
        self._keep, self._emit, self._spawn = keep, emit, spawn
        self._book: ChatBook | None = None

    def book(self) -> ChatBook | None:
        """Our chat of this table (None until the table is set: the table id and its seats are known)."""
        session, table = self._session(), self._table_id()
        if session is None or not session.seats or not table:
            return None
        book = self._book
        if book is None or book.table != table:
            book = self._book = ChatBook(self._me, self._name, table)
        book.seats = list(session.seats)    # (a seat given to a computer has a new key)
        book.spectators = bool(session.spectators) and self._relay_spectators()
        return book

    def say(self, text: str) -> ChatLine:
        """Say ``text`` to everyone at the table; :class:`.chat.ChatError` (one line) if it cannot go."""
        book = self.book()
        if book is None:
            raise ChatError("the chat opens once the table is set")
        raw, line = book.write(text)
        self._out(raw, line, None)
        return line

    def heard(self, raw: bytes, link: Link, spectator: bytes | None = None) -> None:
        """A CHAT frame came on ``link`` (from a seat, or from the spectator ``spectator`` we serve)."""
        book = self.book()
        if book is None:
            return
        if spectator is not None and not book.spectators:
            self._emit(ChatDropped("this table does not relay spectators' chat"))
            return
        sender = spectator if spectator is not None else next(
            (key for key, known in self._seat_links.items() if known is link), None)
        try:
            line = book.read(raw, via=id(link), sender=sender)
        except ChatSeen:
            return
        except ProtocolError as e:
            self._emit(ChatDropped(str(e)[:200]))
            return
        if isinstance(line, WatchersNote):      # a seat's own word, straight from it: never relayed
            if spectator is None and link is self._seat_links.get(line.key):
                self._emit(WatchersHeard(line.seat, line.names, line.more))
            else:
                self._emit(ChatDropped("a watchers notice that did not come from its seat's own link"))
            return
        if spectator is not None and line.key != spectator:
            self._emit(ChatDropped("a spectator relayed somebody else's chat"))
            return
        self._out(raw, line, link, to_seats=line.seat is not None or spectator is not None)

    def tell_watchers(self, names: list[str], only: Link | None = None) -> None:
        """Tell the other seats (or the one behind ``only``, a link just up) who watches through us: a
        spectator links to one player, and every player should see who is watching."""
        book = self.book()
        if book is None:
            return
        raw = book.write_watchers(names)
        for link in ([only] if only is not None else list(self._seat_links.values())):
            if not link.closed:
                self._spawn(_send_chat(link, raw))

    def _out(self, raw: bytes, line: ChatLine, came_on: Link | None, to_seats: bool = True) -> None:
        """Keep and show ``line``, and pass it on (to the seats too unless it is another seat's spectator's)."""
        self._keep(line.to_data())
        self._emit(ChatSaid(line))
        for link in [*(self._seat_links.values() if to_seats else ()), *self._spectator_links()]:
            if link is not came_on and not link.closed:
                self._spawn(_send_chat(link, raw))


async def _send_chat(link: Link, raw: bytes) -> None:
    try:
        await link.send_chat(raw)
    except LinkClosed:
        pass     # chat is live only: a link that is down misses it


__all__ = ["ChatRelay"]
