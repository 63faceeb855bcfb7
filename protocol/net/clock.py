"""The one clock a peer and its links decide time by: monotonic seconds in the app, a fake one in tests.

Every timing decision of :mod:`protocol.net` (a claim time passed, a move
clock ran out, a link silent too long, a keep-alive due, the linger at the
end) reads ``clock()`` and waits with ``clock.sleep``. A test hands its
parts a clock it advances by hand (``tests/support/clock.py``): advancing
it wakes every wait whose time has come, so a claim time of 300 s is
checked with numbers and no real waiting.
"""

from __future__ import annotations

import asyncio
import time
from typing import AsyncContextManager, Awaitable, Protocol, TypeVar

T = TypeVar("T")


class Clock(Protocol):
    def __call__(self) -> float:
        """Now, in seconds (only differences mean anything)."""

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` have passed on this clock."""

    def timeout(self, seconds: float | None) -> AsyncContextManager[object]:
        """Like ``asyncio.timeout``: the block gets TimeoutError once ``seconds`` passed on this clock."""


class Monotonic:
    """The app's clock: ``time.monotonic``, ``asyncio.sleep`` and ``asyncio.timeout``."""

    def __call__(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    def timeout(self, seconds: float | None) -> AsyncContextManager[object]:
        return asyncio.timeout(seconds)


MONOTONIC = Monotonic()


async def within(awaitable: Awaitable[T], seconds: float | None, clock: Clock = MONOTONIC) -> T:
    """``await awaitable`` with a time limit on ``clock`` (TimeoutError after it).

    Unlike ``asyncio.wait_for`` on Python 3.11, a cancellation that comes
    while the awaitable finishes is never lost (a crash test depends on it).
    """
    async with clock.timeout(seconds):
        return await awaitable


async def nap(clock: Clock, seconds: float, poll: float) -> None:
    """Wait ``seconds`` on ``clock``, or ``poll`` real seconds if that comes first.

    For a loop that both polls a condition (real pacing) and has a deadline
    on the clock: moving the clock past the deadline wakes it at once.
    """
    try:
        await within(asyncio.sleep(poll), seconds, clock)
    except asyncio.TimeoutError:
        pass


__all__ = ["Clock", "MONOTONIC", "Monotonic", "nap", "within"]
