"""A table of real Peers on 127.0.0.1 with no bot (the game waits) and one spectator, for the chat tests;
and a chat message signed by anyone, whatever it says."""

from __future__ import annotations

import asyncio

from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity
from lanterne.protocol.net.chat import DOMAIN
from lanterne.protocol.net.events import ChatDropped, ChatSaid
from lanterne.protocol.net.peer import Peer
from lanterne.protocol.net.watchers import Spectator
from lanterne.protocol.wire import pack

from .net import FAST, IDS, LOCAL, NAMES, seated, wait_port
from .waiting import until

EVE = Identity.from_seed(b"chat-spectator-eve")


class Table:
    """A table of ``players`` people (no bot: the game waits for a move nobody makes) and one spectator."""

    def __init__(self, tmp_path, players: int = 3, options=FAST):
        self.events = [[] for _ in range(players)]
        self.host = Peer.host(IDS[0], NAMES[0], get_game("pueblo"), players, tmp_path / "p0", options=options,
                              say=lambda line: None)
        self.guests = [Peer.guest(IDS[i], NAMES[i], tmp_path / f"p{i}", options=options, say=lambda line: None)
                       for i in range(1, players)]
        for peer, events in zip(self.peers, self.events):
            peer.on_peer_event = events.append
        self.heard: list = []
        self.said: list[str] = []
        self.spectator = Spectator(EVE, "Eve", say=self.said.append, on_chat=self.heard.append)

    @property
    def peers(self) -> list[Peer]:
        return [self.host, *self.guests]

    async def __aenter__(self):
        self.tasks = [asyncio.create_task(self.host.run_host([LOCAL], 0, discover=False))]
        port = await wait_port(self.host)
        for g in self.guests:
            self.tasks.append(asyncio.create_task(g.run_guest((LOCAL, port), [LOCAL], game="pueblo")))
            await until(lambda: seated(self.host) >= len(self.tasks) - 1)
        await until(lambda: all(p.session is not None and p.session.game is not None
                                and len(p.links) == len(self.peers) - 1 for p in self.peers))
        self.watching = asyncio.create_task(self.spectator.watch(LOCAL, port))
        await until(lambda: self.spectator.link is not None and self.spectator.chat_book() is not None
                    and self.host.watchers.links)
        return self

    async def __aexit__(self, *exc):
        for t in [*self.tasks, self.watching]:
            t.cancel()
        await asyncio.gather(*self.tasks, self.watching, return_exceptions=True)

    def chat_of(self, i: int) -> list[str]:
        return [str(e.line) for e in self.events[i] if isinstance(e, ChatSaid)]

    def dropped(self, i: int) -> list[str]:
        return [e.reason for e in self.events[i] if isinstance(e, ChatDropped)]


def signed(me: Identity, table: bytes, text: str, ts: int, **over) -> bytes:
    """A chat message signed by ``me`` whatever it says (what a peer that ignores the limits could send)."""
    body = {"t": "chat", "v": 1, "table": table, "key": me.public, "name": "Bob", "ts": ts, "text": text}
    return pack({**body, "sig": me.sign(DOMAIN, pack(body)), **over})
