"""Sessions joined by an in-memory pipe: the network, minus the network.

What each session sends is its chain, as over the network: the entries it
has not sent yet (per session, a count checked against the hashes sent, so
that a claim taken back is sent again from its place), in order, to every
other session (a FIFO of frames, so the run is deterministic). Each frame is
opened and its signature checked once, here, before a session reads it. Computer players move for
their seat whenever their session says it is their turn. This drives
``lanterne selfplay --net memory`` and the protocol tests; ``protocol/net``
drives the very same sessions over TCP.
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Sequence

from lanterne.engines.core import Game, Player, RulesError
from lanterne.protocol.identity import Identity
from lanterne.protocol.log import Entry
from lanterne.protocol.session import Session, receive_frame


class Pipe:
    """Delivers frames between sessions; ``tap`` sees every frame on the wire."""

    def __init__(self, sessions: Sequence[Session], tap: Callable[[int, bytes], None] | None = None):
        self.sessions = list(sessions)
        self.frames: deque[tuple[int, Entry]] = deque()
        self.tap = tap
        self.events: list[list] = [[] for _ in sessions]
        self.sent: list[list[bytes]] = [[] for _ in sessions]
        """Per session, the hashes of the chain entries it sent (its chain's prefix, unless one was taken back)."""

    def collect(self, index: int, events: list) -> None:
        """Note a session's events and send what its chain holds that it has not sent."""
        if index == len(self.sent):
            self.sent.append([])
        self.events[index].extend(events)
        chain, sent = self.sessions[index].chain, self.sent[index]
        have = min(len(sent), len(chain))
        while have and chain[have - 1].hash != sent[have - 1]:
            have -= 1           # taken back (a claim that lost its race): send again from there
        del sent[have:]
        for entry in chain[have:]:
            sent.append(entry.hash)
            if self.tap is not None:
                self.tap(index, entry.raw)
            self.frames.append((index, entry))

    def deliver(self, filter: Callable[[int, int, bytes], bytes | None] | None = None) -> int:
        """Deliver every frame in flight (and those they cause); returns how many.

        A frame goes to every session but its sender and the entry's author
        (an echo of another seat's entry goes to the others, as on the LAN).
        """
        count = 0
        while self.frames:
            src, sent = self.frames.popleft()
            count += 1
            raw = sent.raw
            for dst, session in enumerate(self.sessions):
                if dst == src or session.public == sent.author:
                    continue
                data = raw if filter is None else filter(src, dst, raw)
                if data is None:
                    continue
                self.collect(dst, receive_frame(session, data, self.sessions[src].public))
        return count



def choice_of(player: Player, s: Session):
    """The move of the seat whose turn it is (its session has its game, view and seat by then)."""
    assert s.game is not None and s.view is not None and s.my_seat is not None
    return player.choose(s.game, s.view, s.my_seat)


def play(sessions: Sequence[Session], players: Sequence[Player], *, max_steps: int = 100_000,
         tap: Callable[[int, bytes], None] | None = None) -> Pipe:
    """Run sessions (index 0 the host) to the end of the game with a player per session."""
    pipe = Pipe(sessions, tap)
    pipe.collect(0, sessions[0].start())
    pipe.deliver()
    for i, s in enumerate(sessions[1:], 1):
        if not s.auto_join:
            pipe.collect(i, s.join())
            pipe.deliver()
    for _ in range(max_steps):
        pipe.deliver()
        if all(s.over for s in sessions):
            return pipe
        movers = [i for i, s in enumerate(sessions) if s.my_turn]
        if not movers:
            stuck = [i for i, s in enumerate(sessions) if not s.over]
            raise RulesError(f"the sessions are stuck: nobody can write the next entry (open: {stuck})")
        i = movers[0]
        s = sessions[i]
        pipe.collect(i, s.act(choice_of(players[i], s)))
    raise RulesError(f"no end after {max_steps} moves")


def make_sessions(game: Game, players: int, seed: str, *, variant: str = "standard",
                  stores: Sequence[Callable[[bytes], None] | None] | None = None,
                  games: Callable[[str], Game] | None = None, on_gone: str = "end", undo: str = "off") -> list[Session]:
    """Deterministic sessions for ``players`` peers (identities and seeds from ``seed``)."""
    idents = [Identity.from_seed(f"{seed}/identity/{i}".encode()) for i in range(players)]
    out = []
    for i, ident in enumerate(idents):
        sess_seed = Identity.from_seed(f"{seed}/seed/{i}".encode()).public  # 32 bytes, deterministic
        out.append(Session(ident, host=i == 0, name=f"bot{i + 1}", game=game if i == 0 else None,
                           variant=variant, seed=sess_seed, store=stores[i] if stores else None, games=games,
                           guests=[g.public for g in idents[1:]] if i == 0 else None, on_gone=on_gone,
                           undo=undo))
        out[-1].takeback_consent = lambda asked: True     # a computer player lets another take back its move
    return out
