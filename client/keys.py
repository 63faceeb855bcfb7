"""Keys in the order they were typed: Escape then a key, typed fast, is Escape then that key.

A terminal sends Escape as the byte ESC, and Alt+X as ESC followed by X: the
two differ only in timing. Textual reads ESC followed within ``ESCDELAY``
(100 ms) by a key as Alt+that key, and for a key with a name (``:`` is
``colon``, Enter is ``enter``) it drops the Alt as well (Textual's issue
6663): Escape, ``:``, ``c1 r``, Enter typed at a person's speed reached the
chat input as ``:c1 r`` and was said at the table. Lanterne binds no Alt key,
so this module reads every Alt+X as what a person most likely typed: Escape,
then X. :func:`keep_alt` gives named keys their Alt back (so nothing is
lost), and :func:`split_alt` turns one Alt+X into the two keys, which the app
handles one after the other (:meth:`client.app.LanterneApp.on_event`).
"""

from __future__ import annotations

from typing import Iterable

from textual import events
from textual._xterm_parser import XTermParser

ALT = "alt+"
_plain = XTermParser._sequence_to_key_events


def _with_alt(self: XTermParser, sequence: str, alt: bool = False) -> Iterable[events.Key]:
    for key in _plain(self, sequence, alt):
        if alt and not key.key.startswith(ALT):
            key = events.Key(ALT + key.key, key.character)
        yield key


def keep_alt() -> None:
    """Make the terminal parser keep the Alt of ESC + a named key (idempotent; every driver uses it)."""
    XTermParser._sequence_to_key_events = _with_alt      # type: ignore[method-assign]


def split_alt(key: events.Key) -> list[events.Key] | None:
    """Alt+X as Escape then X (the keys a person typed), or None for any other key."""
    if not key.key.startswith(ALT) or key.character is None or len(key.character) != 1:
        return None
    plain = list(_plain(XTermParser(debug=False), key.character))
    if len(plain) != 1:
        return None
    return [events.Key("escape", "\x1b"), plain[0]]


__all__ = ["keep_alt", "split_alt"]
