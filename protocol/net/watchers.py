"""Spectators: a peer on the LAN watches a running table, checking every entry as a player does, seeing only what is public.

A table lets spectators watch if its host said so (``PeerOptions.spectators``,
signed in the table as ``watch``). A spectator asks any player of the table
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
from typing import TYPE_CHECKING, Callable

from engines.core import Game
from protocol.identity import Identity
from protocol.session import Session

from .events import WatcherJoined, WatcherLeft
from .handshake import HandshakeError
from .invite import Answer, Declined, Request, ask, watch_request
from .transport import Link, LinkClosed, LinkOptions

if TYPE_CHECKING:
    from .peer import Peer

SPECTATOR_SENT = "a spectator sends nothing"
"""The CLOSE reason of a player whose spectator sent bytes (a spectator only receives)."""


class Watchers:
    """The spectators a :class:`~protocol.net.peer.Peer` serves (a mixin of it)."""

    def _decide_watch(self, req: Request) -> Answer:
        session = self.session
        if session is None or session.game is None:
            return Answer(False, "no game under way here yet")
        if not session.spectators:
            return Answer(False, "this table does not let spectators watch")
        if req.peer.key in session.seats:
            return Answer(False, "you hold a seat in this game: resume it instead")
        return Answer(True, "watching", len(session.chain))

    async def _serve_watcher(self: "Peer", req: Request, link: Link) -> None:
        """Send the chain from what the spectator holds, then every new entry; read nothing from it."""
        key, session = req.peer.key, self.session
        wake = self._watch_wake[key] = asyncio.Event()
        wake.set()
        self._emit(WatcherJoined(req.peer.name, req.peer.fingerprint))
        listen = asyncio.ensure_future(link.recv())
        sent = min(req.have, len(session.chain))
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
                while sent < len(session.chain):
                    await link.send(session.chain[sent].raw)
                    sent += 1
                if session.over:
                    from .peer import GOODBYE

                    await link.close(GOODBYE)
                    return
        except LinkClosed:
            pass
        finally:
            listen.cancel()
            if self._watch_wake.get(key) is wake:      # (not a newer link of the same spectator's)
                del self._watch_wake[key]
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
                 options: LinkOptions = LinkOptions(read_timeout=20.0, keepalive=1.0, connect_timeout=3.0),
                 reconnect_every: float = 0.5, patience: float = 30.0):
        self.me, self.name, self.say, self.on_events = me, name, say, on_events
        self.options, self.reconnect_every, self.patience = options, reconnect_every, patience
        """``patience``: seconds without a link to the table before we give up (:class:`Declined`, one line)."""
        self.session = Session(None, host=False, public=me.public, auto_join=False, games=games)
        self.host_key: bytes | None = None

    async def watch(self, host: str, port: int, *, expect_fingerprint: str | None = None) -> Session:
        """Watch until the game is over (or a player declines: :class:`Declined`, one line)."""
        from .peer import event_line

        session = self.session
        loop = asyncio.get_running_loop()
        alone_since, said = loop.time(), False
        while not session.over:
            try:
                link, hs, _ = await ask(host, port, self.me, self.name, watch_request(len(session.chain)),
                                        expect=self.host_key, expect_fingerprint=expect_fingerprint,
                                        options=self.options, timeout=10.0)
            except Declined:
                raise
            except (HandshakeError, LinkClosed, OSError, asyncio.TimeoutError) as e:
                reason = f"cannot reach the table at {host}:{port}: {e}"[:200]
                if loop.time() - alone_since > self.patience:
                    raise Declined(f"{reason} (for {self.patience:g} s)") from None
                if not said:
                    self.say(f"{reason}; trying again")
                    said = True
                await asyncio.sleep(self.reconnect_every)
                continue
            said = False
            if self.host_key is None:
                self.host_key = hs.peer.key
                self.say(f"watching {hs.peer.name} ({hs.peer.fingerprint})'s table")
            try:
                while not session.over:
                    raw = await link.recv()
                    events = session.receive(raw, sender=hs.peer.key)
                    session.data_to_send()      # a spectator writes nothing; its session only checks
                    if events and self.on_events is not None:
                        self.on_events(list(events))
                    for ev in events:
                        line = event_line(ev, session)
                        if line is not None:
                            self.say(line)
            except LinkClosed as e:
                if not session.over:
                    self.say(f"link lost ({e.reason}); catching up again")
                    alone_since = loop.time()
                    await asyncio.sleep(self.reconnect_every)
            finally:
                await link.close("done watching")
        return session


__all__ = ["Declined", "SPECTATOR_SENT", "Spectator", "Watchers"]
