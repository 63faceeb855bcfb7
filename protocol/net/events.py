"""What a peer tells its user about the table and the links: typed events, not text.

The session's own events (``protocol.session``: a move, the table set, the
end) say what happens in the game; these say what happens around it:
seats taken and freed while a table fills, links up and down. The app
reads their fields; a headless peer prints ``str(event)``, one line each.
"""

from __future__ import annotations

from dataclasses import dataclass

from lanterne.protocol.session import Session
from lanterne.protocol.session.events import Aborted, ClaimAsked, ClaimRefused, GameOver, HoldGivenUp, LogRepaired, MarkDamaged, Moved, ShownText, TableSet


@dataclass(frozen=True)
class PeerEvent(ShownText):
    """Base of every peer event; ``str()`` is the line a headless peer prints (its text printable)."""


@dataclass(frozen=True)
class Listening(PeerEvent):
    address: str
    port: int
    name: str
    fingerprint: str

    def __str__(self) -> str:
        return f"listening on {self.address}:{self.port} as {self.name} ({self.fingerprint})"


@dataclass(frozen=True)
class Advertised(PeerEvent):
    def __str__(self) -> str:
        return "advertised on zeroconf"


@dataclass(frozen=True)
class JoinAsked(PeerEvent):
    """The host: somebody proved its key and asks for a seat."""

    name: str
    fingerprint: str
    address: str
    safety_code: str

    def __str__(self) -> str:
        return f"join request from {self.name} ({self.fingerprint}) at {self.address}; safety code {self.safety_code}"


@dataclass(frozen=True)
class SeatTaken(PeerEvent):
    """The host seated a joiner: ``taken`` of ``seats`` seats are held now (the host's included)."""

    name: str
    fingerprint: str
    taken: int
    seats: int

    def __str__(self) -> str:
        return f"accepted {self.name} ({self.taken}/{self.seats} seats)"


@dataclass(frozen=True)
class JoinRefused(PeerEvent):
    """The host said no to a joiner (the person declined, or the table cannot take it)."""

    name: str
    reason: str

    def __str__(self) -> str:
        return f"declined {self.name}: {self.reason}"


@dataclass(frozen=True)
class SeatFreed(PeerEvent):
    """A seated joiner left before the table was full: its seat is free again."""

    name: str
    fingerprint: str
    taken: int
    seats: int

    def __str__(self) -> str:
        return f"left {self.name} ({self.taken}/{self.seats} seats)"


@dataclass(frozen=True)
class JoinPending(PeerEvent):
    """A joiner: the host proved its key and reads our request; both sides show this safety code now."""

    host: str
    fingerprint: str
    safety_code: str

    def __str__(self) -> str:
        return f"asking {self.host} ({self.fingerprint}) for a seat; safety code {self.safety_code}"


@dataclass(frozen=True)
class JoinWithdrawn(PeerEvent):
    """The host: a joiner left while its request was still undecided (nothing was answered)."""

    name: str
    fingerprint: str

    def __str__(self) -> str:
        return f"withdrawn: {self.name} ({self.fingerprint}) left before the host decided"


@dataclass(frozen=True)
class SeatOffered(PeerEvent):
    """A joiner: the host took us; we wait until every seat is taken."""

    host: str
    fingerprint: str
    safety_code: str

    def __str__(self) -> str:
        return (f"joined {self.host} ({self.fingerprint}); safety code {self.safety_code}; "
                f"waiting for the other players")


@dataclass(frozen=True)
class Seated(PeerEvent):
    """Every seat is taken: who sits where (``seat`` is ours, 0-based)."""

    seat: int
    names: tuple[str, ...]

    def __str__(self) -> str:
        return f"seated {self.seat + 1} of {len(self.names)}: {', '.join(self.names)}"


@dataclass(frozen=True)
class LinkAsked(PeerEvent):
    """A member of the table dials us to carry the game (first link or after a cut)."""

    name: str
    fingerprint: str
    have: int

    def __str__(self) -> str:
        return f"link request from {self.name} ({self.fingerprint}) holding {self.have} entries"


@dataclass(frozen=True)
class Linked(PeerEvent):
    key: bytes
    fingerprint: str
    address: str
    port: int

    def __str__(self) -> str:
        return f"linked with {self.fingerprint} at {self.address}:{self.port}"


@dataclass(frozen=True)
class LinkLost(PeerEvent):
    key: bytes
    fingerprint: str
    reason: str

    def __str__(self) -> str:
        return f"link lost with {self.fingerprint}: {self.reason}"


@dataclass(frozen=True)
class WatcherJoined(PeerEvent):
    """A spectator started watching the table through us (it sees only what is public)."""

    name: str
    fingerprint: str

    def __str__(self) -> str:
        return f"{self.name} ({self.fingerprint}) is watching"


@dataclass(frozen=True)
class WatcherLeft(PeerEvent):
    """A spectator stopped watching through us."""

    name: str
    fingerprint: str

    def __str__(self) -> str:
        return f"{self.name} ({self.fingerprint}) stopped watching"


@dataclass(frozen=True)
class PeerLeft(PeerEvent):
    """A member said it leaves on purpose: a pause (it will be back), or for good (it resigned on a table whose
    policy gives a gone seat to a computer). Not a crash, not a cut cable."""

    key: bytes
    fingerprint: str
    for_good: bool = False

    def __str__(self) -> str:
        if self.for_good:
            return f"left for good (resigned): {self.fingerprint}; a computer may take the seat at once"
        return f"left on purpose (paused): {self.fingerprint}"


@dataclass(frozen=True)
class Resumed(PeerEvent):
    """A restarted peer rebuilt its game from its files."""

    table: str
    entries: int

    def __str__(self) -> str:
        return f"resuming table {self.table[:16]} from {self.entries} logged entries"


@dataclass(frozen=True)
class Note(PeerEvent):
    """A line for the person only (the log's path, a port that was busy...): nothing reads its text."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class ChatSaid(PeerEvent):
    """Somebody at the table (or we) said something in the table chat (``line``: a :class:`.chat.ChatLine`)."""

    line: object

    def __str__(self) -> str:
        return str(self.line)


@dataclass(frozen=True)
class WatchersHeard(PeerEvent):
    """Another seat told us who watches the table through it (its whole list, signed by it)."""

    seat: int
    names: tuple[str, ...]
    more: int = 0

    def __str__(self) -> str:
        who = ", ".join(self.names) + (f" and {self.more} more" if self.more else "")
        return f"watching through seat {self.seat + 1}: {who or 'nobody'}"


@dataclass(frozen=True)
class ChatDropped(PeerEvent):
    """A chat message from a peer was dropped (malformed, too long, too many...): nobody is named for it."""

    reason: str

    def __str__(self) -> str:
        return f"dropped a chat message: {self.reason}"




def event_line(ev: object, session: Session) -> str | None:
    """The line a headless peer prints for a session event (None: nothing to say)."""
    if isinstance(ev, Moved):
        try:      # the engine's own words for what happened (public: the session's view is ours or the table's)
            words = "; ".join(w for w in (session.game.describe_event(e) for e in ev.events) if w) \
                if session.game is not None else ""
        except Exception:  # noqa: BLE001 - words are a courtesy; the notation is always there
            words = ""
        return f"move {ev.entry + 1}: seat {ev.seat + 1} {ev.text}" + (f" ({words})" if words else "")
    if isinstance(ev, TableSet):
        return f"table: {ev.game} {ev.variant}, seats {', '.join(ev.names)}; safety code {ev.safety_code}"
    if isinstance(ev, GameOver):
        return f"game over: scores {list(ev.scores)} winners {', '.join(f'seat {w + 1}' for w in ev.winners)}"
    if isinstance(ev, ClaimAsked):
        return f"claim: seat {ev.by + 1} claims against seat {ev.seat + 1} ({ev.reason}); the other seats answer"
    if isinstance(ev, ClaimRefused):
        return f"claim refused by seat {ev.by + 1}: {ev.reason}; the game goes on"
    if isinstance(ev, (LogRepaired, HoldGivenUp, MarkDamaged)):
        return str(ev)
    if isinstance(ev, Aborted):
        agreed = f" (agreed by {', '.join(f'seat {s + 1}' for s in ev.agreed)})" if ev.agreed else ""
        if ev.by == session.my_seat and ev.culprit is not None and ev.culprit != ev.by:
            return f"claimed: {ev.reason}{agreed}"
        return f"game ended: {ev.reason}{agreed}"
    return None


__all__ = ["event_line", "Advertised", "ChatDropped", "ChatSaid", "JoinAsked", "JoinPending", "JoinRefused", "JoinWithdrawn", "LinkAsked", "LinkLost", "Linked", "Listening", "Note",
           "PeerEvent", "PeerLeft", "Resumed", "SeatFreed", "SeatOffered", "SeatTaken", "Seated", "WatcherJoined",
           "WatcherLeft", "WatchersHeard"]
