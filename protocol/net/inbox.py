"""Received DATA a link holds until :meth:`.transport.Link.recv` takes it, bounded in frames and in bytes.

A full inbox makes its reader wait, and so stop reading the socket: the
sender meets TCP back-pressure instead of our memory growing
(docs/network.md, "Budgets").
"""

from __future__ import annotations

import asyncio
from typing import Callable

_CLOSED = object()


class Inbox:
    """At most ``frames`` payloads, and at most ``room`` bytes before one more payload (the largest frame)."""

    def __init__(self, frames: int, room: int):
        self.room = room
        self.bytes = 0
        """Bytes of DATA received and not yet taken."""
        self._queue: asyncio.Queue = asyncio.Queue(frames)
        self._space = asyncio.Event()

    @property
    def frames(self) -> int:
        """Payloads waiting (and the closing mark, once closed)."""
        return self._queue.qsize()

    def empty(self) -> bool:
        return self._queue.empty()

    async def put(self, payload: bytes, closed: Callable[[], bool]) -> bool:
        """Keep ``payload`` once there is room (False: the link closed meanwhile, nothing kept)."""
        while self.bytes >= self.room and not closed():
            self._space.clear()
            await self._space.wait()      # (a get makes room; the socket waits meanwhile)
        if closed():
            return False
        self.bytes += len(payload)
        await self._queue.put(payload)
        return True

    async def get(self) -> bytes | None:
        """The next payload (None: the link closed and every payload before it was taken)."""
        item = await self._queue.get()
        if item is _CLOSED:
            return None
        self.bytes -= len(item)
        self._space.set()
        return item

    def discard(self) -> int:
        """Drop every payload waiting; how many there were."""
        count = 0
        while not self._queue.empty():
            self._queue.get_nowait()
            count += 1
        self.bytes = 0
        return count

    def close(self) -> None:
        """Wake a waiting get (the payloads before come first) and a waiting put."""
        self._space.set()
        if not self._queue.full():
            self._queue.put_nowait(_CLOSED)


__all__ = ["Inbox"]
