"""What a session tells its user (typed events), and the errors it raises inside."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum

from lanterne.engines.core import Action, TableOp
from lanterne.protocol.wire import ProtocolError, printable


class ShownText:
    """Names and reasons in an event may come from another peer's entry: made :func:`~protocol.wire.printable`
    as the event is made, so whatever shows or prints an event shows no control character."""

    def __post_init__(self) -> None:
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if isinstance(value, str):
                object.__setattr__(self, f.name, printable(value))
            elif isinstance(value, tuple) and value and all(isinstance(v, str) for v in value):
                object.__setattr__(self, f.name, tuple(map(printable, value)))


@dataclass(frozen=True)
class Joined(ShownText):
    index: int
    name: str
    key: bytes


@dataclass(frozen=True)
class TableSet(ShownText):
    game: str
    variant: str
    players: int
    names: tuple[str, ...]
    my_seat: int
    safety_code: str


@dataclass(frozen=True)
class GameStarted:
    game_id: bytes


@dataclass(frozen=True)
class TableResolved:
    op: TableOp
    outcome: tuple
    events: tuple = ()


@dataclass(frozen=True)
class Moved:
    seat: int
    action: Action
    text: str
    events: tuple = ()
    entry: int = -1


@dataclass(frozen=True)
class GameOver:
    scores: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class ReplaceAsked(ShownText):
    """A present seat asks to give the gone ``seat`` to a computer; the other present seats now agree in turn."""

    by: int
    seat: int
    name: str
    scores: tuple[int, ...]
    key: bytes = b""


@dataclass(frozen=True)
class ClaimAsked(ShownText):
    """``by`` claims against the awaited ``seat`` (policy end): the other present seats now answer in turn."""

    by: int
    seat: int
    reason: str
    scores: tuple[int, ...]


@dataclass(frozen=True)
class ClaimRefused(ShownText):
    """Seat ``by`` refused the claim against ``seat`` (it sees that seat here): the game goes on where it was."""

    by: int
    seat: int
    reason: str


@dataclass(frozen=True)
class TakebackAsked:
    """``seat`` asks to take back its last ``moves`` moves (from log entry ``first`` on); every other seat answers
    in seat order."""

    seat: int
    moves: int
    first: int


@dataclass(frozen=True)
class TakenBack:
    """Every other seat said yes: ``seat``'s last ``moves`` moves are taken back, the position is the one before
    them (it is ``seat``'s turn again)."""

    seat: int
    moves: int
    agreed: tuple[int, ...] = ()


@dataclass(frozen=True)
class TakebackRefused:
    """Seat ``by`` said no to ``seat``'s takeback: the game goes on where it was."""

    seat: int
    by: int


@dataclass(frozen=True)
class SeatReplaced(ShownText):
    """Every present seat agreed: ``seat`` is played by the computer ``key`` from now on (its hands re-dealt)."""

    seat: int
    name: str
    key: bytes


@dataclass(frozen=True)
class Replaced(ShownText):
    """Our own seat was given to a computer (the others saw us gone): this peer plays no more."""

    seat: int
    by: int
    reason: str


@dataclass(frozen=True)
class Disputed(ShownText):
    """A card opened to no card: every seat now reveals its secrets so the audit names the cheat."""

    reason: str


class Cause(Enum):
    """Why a game ended early, as its signed abort shows it (the reason is the author's words beside it)."""

    GONE = "gone past the claim time"
    """A claim closed: the claimed seat sent nothing for the claim time."""
    SLOW = "out of the move clock"
    """A claim closed: the claimed seat took more than the table's move clock."""
    LEFT = "left for good"
    """A claim closed that came before the claim time (the seat said it left)."""
    RESIGNED = "resigned"
    """The author named itself: a resignation, a refused reveal, a table it will not play on."""
    BREACH = "a breach"
    """The author named another seat, on evidence that shows it from here."""
    NOBODY = "nobody at fault"
    """The abort names nobody (two seats gone at once, a race, an accusation its evidence does not show)."""


CLAIMED = (Cause.GONE, Cause.SLOW, Cause.LEFT)
"""The causes of a claim closed against the awaited seat."""


@dataclass(frozen=True)
class Aborted(ShownText):
    """The game ended early; ``scores`` are the signed scores of the position reached (None: not started)."""

    by: int | None
    culprit: int | None
    reason: str
    scores: tuple[int, ...] | None = None
    agreed: tuple[int, ...] = ()
    """For a claim: the seats that agreed to it (besides the claimer)."""
    cause: Cause = Cause.NOBODY
    waited: float | None = None
    """For a claim: the seconds it waited (the claim time, or the move clock); None: it did not wait."""
    claimed: int | None = None
    """For a claim: the claimed seat (also its culprit)."""


@dataclass(frozen=True)
class LogRepaired:
    """Our log had lost ``count`` entries we may have signed (it was behind its ``.signed`` mark); the others sent
    them back and the log holds them again."""

    count: int

    def __str__(self) -> str:
        return (f"log: repaired, {self.count} entr{'y' if self.count == 1 else 'ies'} this disk had lost came back "
                f"from the other seats")


@dataclass(frozen=True)
class HoldGivenUp:
    """Every other seat was linked for the claim time (``seconds``) and none sent back the ``count`` entries
    our log lost (None: how many was unknown, the mark was damaged, and none sent more): they never left this
    peer, and we write those places again."""

    count: int | None
    seconds: float

    def __str__(self) -> str:
        if self.count is None:
            return (f"log: every seat was linked for {self.seconds:g} s and none sent back more of our entries; "
                    f"the game goes on")
        return (f"log: no seat had the {self.count} entr{'y' if self.count == 1 else 'ies'} this disk lost after "
                f"{self.seconds:g} s; they never left this peer, the game goes on")


@dataclass(frozen=True)
class MarkDamaged:
    """Our ``.signed`` mark was damaged: we may have signed past our log's end, so nothing new is signed until
    the others sent back what they hold and every seat was linked for the claim time with nothing more coming
    (then :class:`HoldGivenUp`)."""

    def __str__(self) -> str:
        return ("log: its .signed mark is damaged, so we may have signed past this log: nothing new is signed "
                "until the other seats send back what they hold")


@dataclass(frozen=True)
class Dropped(ShownText):
    """Bytes that were not the chain's next entry nor evidence against anyone: dropped, nobody blamed.

    ``sender`` is the key of the link they came on (None: unknown). ``hostile``:
    an honest peer never sends such bytes (another game's entry, a stranger's,
    no valid signature), so the link they came on may be closed; otherwise
    they may come from a race or a link catching up, and are only noted.
    """

    reason: str
    sender: bytes | None = None
    hostile: bool = False


class OutOfPlace(ProtocolError):
    """An entry out of context (another game, an old or skipped place, a broken link, a non-member's): it proves
    nothing against its author, so it is dropped (:class:`Dropped`), never blamed."""

    def __init__(self, message: str, hostile: bool = False):
        super().__init__(message, None)
        self.hostile = hostile


class Dispute(ProtocolError):
    """A cheat nobody can be blamed for yet (a tampered shuffle seen at a deal): audit now."""


class ReplayMismatch(ProtocolError):
    """A logged entry differs from what the seat's own session would have written."""


class ReplayEnd(Exception):
    """A replay reached the end of the log where the seat would write next."""
