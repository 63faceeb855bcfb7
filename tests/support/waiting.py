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


class Hopeless(Exception):
    """Raised by a condition that can no longer hold (the process it waits on has ended): the wait fails
    at once, with this message, instead of at its deadline."""


def _holds(condition: Callable[[], object]) -> tuple[object, BaseException | None]:
    try:
        return condition(), None
    except Hopeless as e:
        raise AssertionError(str(e)) from None
    except (AssertionError, LookupError, AttributeError, TypeError, ValueError) as e:
        return False, e
    except Exception as e:                  # Textual's NoMatches and the like: not there yet
        return False, e


def _describe(condition: Callable[[], object], what: str | Callable[[], str], last: BaseException | None,
              pilots=()) -> str:
    text = (what() if callable(what) else what) or getattr(condition, "__name__", repr(condition))
    if last is not None:
        text += f" (last try raised {type(last).__name__}: {last})"
    if pilots:
        text += ": " + " | ".join(_screen_of(p) for p in pilots)
    return text


def _screen_of(pilot: Any) -> str:
    """Where an app stood when a wait failed: its screen and the screen's status line."""
    screen = pilot.app.screen
    status = getattr(screen, "status_text", "")
    try:
        status = status() if callable(status) else status
    except Exception as e:  # noqa: BLE001 - the description must not hide the timeout
        status = f"({type(e).__name__})"
    return f"{type(screen).__name__}: {status}"


async def until(condition: Callable[[], object], *pilots: Any, timeout: float = DEADLINE,
                what: str | Callable[[], str] = "", every: float = 0.01) -> Any:
    """Let the event loop (and each Textual pilot given) run until ``condition()`` holds, and return what
    it returned then; ``what`` says what was awaited when it fails (a function: asked then, to describe
    how things stood at the end)."""
    deadline = time.monotonic() + timeout
    while True:
        value, last = _holds(condition)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {_describe(condition, what, last, pilots)}")
        if pilots:
            for pilot in pilots:
                await pilot.pause(every)
        else:
            await asyncio.sleep(every)


def until_sync(condition: Callable[[], object], timeout: float = DEADLINE, what: str | Callable[[], str] = "",
               every: float = 0.02) -> Any:
    """The same outside an event loop (a subprocess, a thread, a file being written)."""
    deadline = time.monotonic() + timeout
    while True:
        value, last = _holds(condition)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {_describe(condition, what, last)}")
        time.sleep(every)
