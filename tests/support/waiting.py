"""Waiting for something to happen, never for a fixed time.

A test that needs "the peer has linked" or "the screen shows the board" polls
that condition until it holds or a generous deadline passes. The deadline only
turns a hang into a failure: it is long enough for the busiest machine, and it
is never the point of the test (speed lives in ``lanterne bench``). A condition
that raises is "not yet": a widget not mounted yet (``NoMatches``), a key not
in a dict yet, a list still empty.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable

DEADLINE = 60.0
"""Seconds before a wait that never ends fails: far above any real wait, on a loaded 2-core machine."""


def _holds(condition: Callable[[], object]) -> tuple[bool, BaseException | None]:
    try:
        return bool(condition()), None
    except (AssertionError, LookupError, AttributeError, TypeError, ValueError) as e:
        return False, e
    except Exception as e:                  # Textual's NoMatches and the like: not there yet
        return False, e


def _describe(condition: Callable[[], object], what: str, last: BaseException | None) -> str:
    text = what or getattr(condition, "__name__", repr(condition))
    if last is not None:
        text += f" (last try raised {type(last).__name__}: {last})"
    return text


async def until(condition: Callable[[], object], *pilots: Any, timeout: float = DEADLINE, what: str = "",
                every: float = 0.01) -> None:
    """Let the event loop (and each Textual pilot given) run until ``condition()`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        ok, last = _holds(condition)
        if ok:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {_describe(condition, what, last)}")
        if pilots:
            for pilot in pilots:
                await pilot.pause(every)
        else:
            await asyncio.sleep(every)


def until_sync(condition: Callable[[], object], timeout: float = DEADLINE, what: str = "",
               every: float = 0.02) -> None:
    """The same outside an event loop (a subprocess, a thread, a file being written)."""
    deadline = time.monotonic() + timeout
    while True:
        ok, last = _holds(condition)
        if ok:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {_describe(condition, what, last)}")
        time.sleep(every)
