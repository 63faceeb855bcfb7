"""Table chat over a peer's links (the I/O side of :mod:`.chat`): a mixin of :class:`~protocol.net.peer.Peer`.

A player sends its message on every link it holds, to the other seats and
to the spectators it serves, and forwards each message it accepts, once, on
every link but the one it came on (a spectator reaches the table only
through its player; a seat cut from another still hears it through the
rest). Each message is checked by every peer that gets it
(:meth:`.chat.ChatBook.read`); a dropped one is a note, never a claim nor an
abort, and never closes a link. Our own and accepted messages are kept in
``<table>.chat`` next to the log (:meth:`.files.GameFiles.append_chat`),
which ``lanterne verify`` never reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanterne.protocol.wire import ProtocolError

from .chat import ChatBook, ChatError, ChatLine, ChatSeen, WatchersNote
from .events import ChatDropped, ChatSaid, WatchersHeard
from .transport import Link, LinkClosed

if TYPE_CHECKING:
    from .peer import Peer


class TableChat:
    """What a :class:`~protocol.net.peer.Peer` says and hears in the table chat."""

    _chat: ChatBook | None = None

    def chat_book(self: "Peer") -> ChatBook | None:
        """Our chat of this table (None until the table is set: the table id and its seats are known)."""
        session = self.session
        if session is None or not session.seats or not self.table_id:
            return None
        book = self._chat
        if book is None or book.table != self.table_id:
            book = self._chat = ChatBook(self.me, self.name, self.table_id)
        book.seats = list(session.seats)    # (a seat given to a computer has a new key)
        book.spectators = bool(session.spectators) and self.options.spectator_chat
        return book

    def chat(self: "Peer", text: str) -> ChatLine:
        """Say ``text`` to everyone at the table; :class:`.chat.ChatError` (one line) if it cannot go."""
        book = self.chat_book()
        if book is None:
            raise ChatError("the chat opens once the table is set")
        raw, line = book.write(text)
        self._chat_out(raw, line, None)
        return line

    def _on_chat(self: "Peer", raw: bytes, link: Link, spectator: bytes | None = None) -> None:
        """A CHAT frame came on ``link`` (from a seat, or from the spectator ``spectator`` we serve)."""
        book = self.chat_book()
        if book is None:
            return
        if spectator is not None and not book.spectators:
            self._emit(ChatDropped("this table does not relay spectators' chat"))
            return
        try:
            line = book.read(raw, via=id(link))
        except ChatSeen:
            return
        except ProtocolError as e:
            self._emit(ChatDropped(str(e)[:200]))
            return
        if isinstance(line, WatchersNote):      # a seat's own word, straight from it: never relayed
            if spectator is None and link is self.links.get(line.key):
                self._emit(WatchersHeard(line.seat, line.names, line.more))
            else:
                self._emit(ChatDropped("a watchers notice that did not come from its seat's own link"))
            return
        if spectator is not None and line.key != spectator:
            self._emit(ChatDropped("a spectator relayed somebody else's chat"))
            return
        self._chat_out(raw, line, link)

    def _tell_watchers(self: "Peer", only: Link | None = None) -> None:
        """Tell the other seats (or the one behind ``only``, a link just up) who watches through us: a
        spectator links to one player, and every player should see who is watching."""
        book = self.chat_book()
        if book is None:
            return
        raw = book.write_watchers(list(self._watch_names.values()))
        for link in ([only] if only is not None else list(self.links.values())):
            if not link.closed:
                self._spawn(_send_chat(link, raw))

    def _chat_out(self: "Peer", raw: bytes, line: ChatLine, came_on: Link | None) -> None:
        self.files.append_chat(line.to_data())
        self._emit(ChatSaid(line))
        for link in [*self.links.values(), *self._watch_links.values()]:
            if link is not came_on and not link.closed:
                self._spawn(_send_chat(link, raw))


async def _send_chat(link: Link, raw: bytes) -> None:
    try:
        await link.send_chat(raw)
    except LinkClosed:
        pass     # chat is live only: a link that is down misses it


__all__ = ["TableChat"]
