"""Our seat's turns and our claim clock: what a peer does while the game runs, between arrivals.

At our turn a computer player chooses off the event loop (its ``Think``:
a thread, or the app's process), so that links and heartbeats stay live.
Otherwise the clock runs for the seat the game awaits: at every change
(who is awaited: its clocks start then), once a second even while links
come and go, and when the claim falls due, one tick lets time pass
(:func:`.presence.claim_step`). Every time is read from the clock the peer
is given, so a test moves a fake clock instead of sleeping.
"""

from __future__ import annotations

import asyncio
from typing import Callable, Collection, Sequence

from lanterne.engines.core import Action, Player
from lanterne.protocol.session import Session

from .clock import Clock, within
from .computers import Think
from .options import PeerOptions
from .presence import Presence, claim_step


class Turns:
    """The loop that plays our turns and ticks our claim clock, and our clock's answer to a claim.

    Its context: our player and its thinker (either may change while the
    game runs), our options and clock, who is here (:class:`.presence.Presence`),
    the seats and which of them we are linked to, which keys are computers we
    run, and where the session's events go.
    """

    def __init__(self, *, player: Callable[[], Player | None], think: Callable[[], Think],
                 options: Callable[[], PeerOptions], clock: Clock, presence: Presence,
                 seats: Callable[[], Sequence[bytes]], linked: Callable[[], Collection[bytes]],
                 runs_here: Callable[[bytes], bool], report: Callable[[list], None]):
        self._player, self._think, self._options, self._clock, self._presence = player, think, options, clock, presence
        self._seats, self._linked, self._runs_here, self._report = seats, linked, runs_here, report
        self._changed = asyncio.Event()
        self.ticked_at = 0.0
        """When our claim clock last let time pass (on our clock): a test that moves the clock waits for it."""

    def wake(self) -> None:
        """Something changed (an entry, a link, our player): look again now."""
        self._changed.set()

    async def run(self, session: Session) -> None:
        """Until the end: our moves at our turn, the claim clock otherwise."""
        while not session.over:
            player = self._player()
            if session.my_turn and player is not None:
                delay = self._options().move_delay
                if delay:
                    await asyncio.sleep(delay)
                    if session.over or not session.my_turn:
                        continue
                action = await self._choose(session, player)
                if action is not None:
                    self._report(session.act(action))
                await asyncio.sleep(0)  # let the senders run
                continue
            self.tick(session)
            self._changed.clear()
            try:
                await within(self._changed.wait(), self._next_tick(session), self._clock)
            except asyncio.TimeoutError:
                pass

    async def _choose(self, session: Session, player: Player) -> Action | None:
        """Our computer's choice, computed off the event loop; None when the position moved on meanwhile (an
        abort, a replacement): the caller looks again instead of playing a move chosen for a stale view."""
        view, game, seat = session.view, session.game, session.my_seat
        assert view is not None and game is not None and seat is not None   # (it is our turn)
        action = await self._think()(player, game, view, seat)
        if session.over or not session.my_turn or session.view is not view:
            return None
        return action

    def _next_tick(self, session: Session) -> float:
        """Seconds until our next tick: a second at most, less if the claim falls due sooner."""
        due = session.claim_due
        left = due - self._clock() if due is not None else 0.0
        return min(left, 1.0) if left > 0 else 1.0

    def tick(self, session: Session) -> None:
        """Let time pass on our clock: for a log that lost our entries (:meth:`Session.hold`: every other seat
        linked), then for the claim (:func:`.presence.claim_step`)."""
        now = self.ticked_at = self._clock()
        seats, linked = self._seats(), self._linked()
        before = self._mark(session)
        events = session.hold(now, set(linked) >= set(seats) - {self._presence.me})
        events += claim_step(session, self._presence, now, seats, linked, runs_here=self._runs_here)
        if events or self._mark(session) != before:
            self._report(events)     # most ticks let time pass and change nothing: no sender is woken for them

    @staticmethod
    def _mark(session: Session) -> tuple[int, bytes | None, bool]:
        """What a report would tell the senders and the screen of: the chain's length and end, the end of the game."""
        chain = session.chain
        return len(chain), chain[-1].hash if chain else None, session.over

    def takeback_consent(self, asked) -> bool | None:
        """Our answer to another seat's takeback: a computer player says yes; a person answers (None: not yet)."""
        return True if self._player() is not None else None

    def consent(self, session: Session, seat: int) -> bool | None:
        """Our own clock's answer to a claim against ``seat`` (:meth:`.presence.Presence.consent`)."""
        key = session.seats[seat]
        claim = session.claiming
        return self._presence.consent(key, self._clock(), linked=key in self._linked(), claim_time=session.timeout,
                                      move_clock=session.move_clock,
                                      awaited_since=claim.awaited_since if claim is not None else None)


__all__ = ["Turns"]
