"""Undo at a network table: asking the others to take back our last move, and a person's answer to theirs.

A network table takes back a move only by entries appended to the chain (docs/protocol.md, "Takeback"): on a
table whose host signed ``undo: ask``, ``u`` sends our request and the other seats answer in seat order, each
by its person (a computer's session says yes by itself). This object is the network game's side of it: why
``u`` cannot ask now (one line), the question put to the person when their answer is awaited (the screen sets
:attr:`NetUndo.ask` to a dialog), what the status line says while the others answer, and the move log made
shorter once every seat said yes.
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable, Sequence

from lanterne.client.controller import Change, LogEntry, Seat
from lanterne.client.i18n import _, say_refusal
from lanterne.engines.core import IllegalAction
from lanterne.protocol.net.peer import Peer
from lanterne.protocol.session import UNDO_ASK, TakebackAsked, TakebackRefused, TakenBack
from lanterne.protocol.session.phases import Phase


class NetUndo:
    """The takeback side of one :class:`~lanterne.client.net_controller.NetworkGame`."""

    def __init__(self, peer: Peer, seats: Callable[[], Sequence[Seat]], my_seat: Callable[[], int | None]):
        self._peer, self._seats, self._my_seat = peer, seats, my_seat
        self.ask: Callable[[str], Awaitable[bool]] | None = None
        """Set by the game screen: the person's yes or no to another seat's takeback (None: nobody to ask yet;
        the question waits for it)."""
        self._asking: asyncio.Task | None = None
        self._asked_for: bytes | None = None

    @property
    def offered(self) -> bool:
        """Whether this table lets a seat take back its moves (its host signed ``undo: ask``)."""
        s = self._peer.session
        return s is not None and s.terms.undo == UNDO_ASK

    def refusal(self) -> str | None:
        """Why our person cannot ask to take back their last move now, in one line (None: they can)."""
        s = self._peer.session
        if s is None:
            return _("it is not your turn")
        why = s.takeback_refusal()
        return say_refusal(why) if why else None

    def request(self) -> None:
        """Ask the others to take back our last move (IllegalAction, one line, if it cannot be asked)."""
        why = self.refusal()
        if why is not None:
            raise IllegalAction(why)
        self._peer.takeback()

    def answer(self, yes: bool) -> None:
        """Our person's answer to the takeback asked now (nothing if it is no longer awaited)."""
        s = self._peer.session
        asked = s.state.takeback_asked if s is not None else None
        if asked is None or s.phase != Phase.TAKEBACK or asked.writer != s.my_seat:
            self._asked_for = None      # (a claim came in between: asked again once it is settled)
            return
        self._peer.takeback(yes)

    def _label(self, seat: int) -> str:
        seats = self._seats()
        return seats[seat].label if 0 <= seat < len(seats) else str(seat + 1)

    def status(self) -> str:
        """What the status line says while a takeback is answered."""
        s = self._peer.session
        asked = s.state.takeback_asked if s is not None else None
        if asked is None:
            return ""
        if asked.writer == self._my_seat():
            return _("{player} asks to take back their last move: your answer?").format(
                player=self._label(asked.seat))
        who = self._label(asked.writer)
        if asked.seat == self._my_seat():
            return _("You asked to take back your last move: waiting for {who}'s answer").format(who=who)
        return _("{player} asks to take back their last move: waiting for {who}'s answer").format(
            player=self._label(asked.seat), who=who)

    def on_event(self, ev, log: list[LogEntry], change: Change) -> bool:
        """Read a takeback event (True: it was one) into ``change`` (what the screen says of it); the move log
        loses the moves taken back."""
        if isinstance(ev, TakebackAsked):
            self.put_question()
            return True
        if not isinstance(ev, (TakebackRefused, TakenBack)):
            return False
        if self._asking is not None and not self._asking.done():
            self._asking.cancel()       # answered otherwise (another seat's no): the question closes
        if isinstance(ev, TakebackRefused):
            change.error = (_("{by} said no: your move stays").format(by=self._label(ev.by))
                            if ev.seat == self._my_seat() else
                            _("{by} said no: {player}'s move stays").format(by=self._label(ev.by),
                                                                            player=self._label(ev.seat)))
            return True
        taken = []
        while len(taken) < ev.moves and log and log[-1].actor == ev.seat:
            taken.append(log.pop())
        change.undone = taken[-1] if taken else None
        return True

    def put_question(self) -> None:
        """Ask the person, once, if their answer is awaited (a takeback that came, or one a resumed game was
        answering); the session waits for it (its consent says not yet)."""
        s = self._peer.session
        asked = s.state.takeback_asked if s is not None else None
        if asked is None or asked.writer != self._my_seat() or asked.hash == self._asked_for:
            return
        if self.ask is None:
            return
        self._asked_for = asked.hash

        async def question() -> None:
            assert self.ask is not None
            yes = await self.ask(_("{player} asks to take back their last move. Allow it?").format(
                player=self._label(asked.seat)))
            self.answer(bool(yes))

        self._asking = asyncio.get_running_loop().create_task(question())
