"""A clock the test advances by hand: timing decisions are checked with numbers, never by waiting."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from typing import AsyncIterator, Callable


class _Timer:
    def __init__(self, due: float, order: int, fire: Callable[[], None]):
        self.due, self.order, self.fire, self.cancelled = due, order, fire, False

    def __lt__(self, other: "_Timer") -> bool:
        return (self.due, self.order) < (other.due, other.order)


class FakeClock:
    """Seconds that pass only when :meth:`advance` says so; each wait whose time came ends then.

    It is a ``protocol.net.clock.Clock``: hand it to Peers, Links or the
    Presence part, move it forward, and they decide as if that much time went
    by, at once (a sleep returns, a timeout raises).
    """

    def __init__(self, start: float = 1000.0):
        self.now = start
        self._timers: list[_Timer] = []
        self._order = itertools.count()

    def __call__(self) -> float:
        return self.now

    def _at(self, seconds: float, fire: Callable[[], None]) -> _Timer:
        timer = _Timer(self.now + seconds, next(self._order), fire)
        heapq.heappush(self._timers, timer)
        return timer

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        wake = asyncio.get_running_loop().create_future()
        timer = self._at(seconds, lambda: wake.done() or wake.set_result(None))
        try:
            await wake
        finally:
            timer.cancelled = True

    @contextlib.asynccontextmanager
    async def timeout(self, seconds: float | None) -> AsyncIterator[None]:
        async with asyncio.timeout(None) as limit:
            loop = asyncio.get_running_loop()
            expire = lambda: limit.reschedule(loop.time())    # noqa: E731 - the block gets TimeoutError
            timer = None
            if seconds is not None and seconds <= 0:
                expire()
            elif seconds is not None:
                timer = self._at(seconds, expire)
            try:
                yield
            finally:
                if timer is not None:
                    timer.cancelled = True

    def advance(self, seconds: float) -> None:
        """Move time forward: every wait due by then ends (in the order of their deadlines)."""
        self.now += seconds
        while self._timers and self._timers[0].due <= self.now:
            timer = heapq.heappop(self._timers)
            if not timer.cancelled:
                timer.fire()
        if len(self._timers) > 1000:       # waits given up (a loop woken otherwise) are dropped now and then
            self._timers = [t for t in self._timers if not t.cancelled]
            heapq.heapify(self._timers)

    async def run(self, done: Callable[[], object], step: float = 1.0, limit: float = 3600.0) -> None:
        """Run on by ``step`` each time the event loop had a turn, until ``done()``: links come and go at their
        own pace while every decision reads this clock (at most ``limit`` seconds on it, else AssertionError)."""
        moved = 0.0
        while not done():
            if moved > limit:
                raise AssertionError(f"not done after {limit:g} s on the clock")
            self.advance(step)
            moved += step
            await asyncio.sleep(0.005)
