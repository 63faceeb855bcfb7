"""The turn, told: the terminal's bell when a network game's turn comes to you after someone else's.

A person who looked away (another window, the chat) hears it; the settings turn it off
(``Settings.turn_bell``). Local games stay quiet: the computer answers in a moment, and a hot-seat's
hand-over dialog already says whose turn it is.
"""

from __future__ import annotations


class TurnBell:
    """Rings once per turn that comes back to you: never at the start, never twice for one turn."""

    def __init__(self) -> None:
        self.yours = True
        """Whether the last turn seen was yours (True at the start: a game that opens on your turn is no news)."""

    def passes(self, yours: bool) -> bool:
        """The turn seen now; True when it should ring (it is yours, and the one before was not)."""
        ring = yours and not self.yours
        self.yours = yours
        return ring
