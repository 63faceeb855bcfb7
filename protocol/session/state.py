"""The state a session's phase groups share: its parts and the views of them, and the steps a group asks for.

:class:`SessionState` holds each piece of a session's state (most of it in
small parts: the chain, the phase, the claim under way, the clocks, the
roster, the terms, the fair table, the outcome, the takeback) and the read-only views
the phase groups and the callers use. The phase groups (:mod:`.seating`,
:mod:`.play`, :mod:`.ending`, :mod:`.claims`) are objects the
:class:`~.session.Session` owns; each is handed this state and the
:class:`Steps` it asks of the others, never the session itself, as h11's
``Connection`` owns a ``ConnectionState``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from operator import attrgetter
from types import ModuleType
from typing import Any, Callable, Generic, Protocol, TypeVar, overload

from lanterne.engines.core import TABLE, Game, State, TableOp
from lanterne.protocol import identity as ids
from lanterne.protocol.log import Entry

from .chain import Chain
from .chance import Chance, Step
from .claim import Claim
from .clocks import Clocks
from .kinds import MOVE, fair, schemas
from .outcome import Outcome, Result
from .phases import OVER_PHASES, Phase, PhaseState
from .roster import Member, Roster
from .takeback_state import Ask, Undo
from .terms import Terms
from .writers import LiveWriter, ReplayWriter


class Trial(Protocol):
    """A copy of the session at one position, fed an abort's evidence (or stepped) without changing it."""

    def feed(self, entry: Entry) -> None: ...

    def advance(self) -> None: ...


@dataclass(frozen=True)
class Steps:
    """What a phase group asks of the others and of the session's driver, handed to each group as callables (so
    that no group imports the table of :mod:`.rules`, which names them all)."""

    expected_seat: Callable[[], int | None]
    """The seat whose entry comes next by the rules of this phase (None: nobody known)."""
    waiting_for: Callable[[], int | None]
    """The same, None before the seats are set or when the game is over."""
    advance_safely: Callable[[], None]
    """Every step that needs nobody else (an abort if one breaks a rule)."""
    abort: Callable[[str, int | None, list[bytes], bool], None]
    """End the game: reason, the seat at fault, evidence, whether it asks for the audit (:mod:`.ending`)."""
    write_claim: Callable[[int, str, str | None], None]
    """Claim against the awaited seat: seat, reason, clock (:mod:`.claims`)."""
    close_unanswered: Callable[[], None]
    """A table of two whose claimed seat let the answer window pass: the claimer closes (:mod:`.claims`)."""
    trial: Callable[[], Trial]
    """A trial copy of the session at this position."""


class SessionState:
    """A session's state (see :class:`~.session.Session` for its arguments)."""

    def __init__(self, identity: ids.Identity | None, public: bytes, *, host: bool, name: str, seed: bytes,
                 games: Callable[[str], Game] | None, writer: LiveWriter | ReplayWriter, auto_join: bool,
                 guests: list[bytes] | None, terms: Terms, clocks: Clocks,
                 proposal: tuple[Game | None, int, str, dict]):
        self.identity = identity
        self.public = public
        self.host = host
        self.name = name
        self.seed = seed
        self.games = games
        """Resolves a table's game id (None: the registry, or the host's own proposal)."""
        self.writer = writer
        self.auto_join = auto_join
        self.guests = guests
        """The host's list of guest keys in join order (a guest's: None)."""
        self.terms = terms
        """The game and its rules for this table (the host's proposal until the table is signed)."""
        self.clocks = clocks
        """The claim time and the move clock (the host's, signed in the table as ``claim_ms`` and ``move_ms``)."""
        self.proposal = proposal
        """The host's game, players, variant and options, until the table is written."""
        self.require_on_gone: str | None = None
        """A guest's condition: at its genesis turn it leaves (an abort naming itself) a table with another policy."""
        self.consent: Callable[[int], bool | None] | None = None
        """Our clock's answer to a claim against a seat: True agree, False refuse, None not yet (we answer later);
        None: we agree (a session with no clock of its own, as in tests)."""
        self.schemas = schemas()
        self.fairmod: ModuleType = fair
        """The fair-table module (a test swaps in a cheating one)."""
        self.chain = Chain()
        """The entries, the game id, the claims against our seat held aside (:class:`.chain.Chain`)."""
        self.phases = PhaseState()
        self.roster = Roster(public)
        self.view: State | None = None
        self.chance = Chance()
        self.undo = Undo()
        """The positions before the moves a seat may take back, and the takeback asked now (:mod:`.takeback`)."""
        self.outcome = Outcome()
        self.events: list = []
        self.claiming: Claim | None = None
        """The claim (or replace) the seats answer now (:mod:`.claims`)."""

    @property
    def store(self) -> Callable[[bytes], None] | None:
        """Where every accepted entry is written (the log file), while live."""
        return getattr(self.writer, "store", None)

    @property
    def head(self) -> tuple[int, bytes]:
        """(number of entries, hash of the last one): what peers compare to resume."""
        return len(self.chain), self.chain.last_hash

    @property
    def game_id(self) -> bytes:
        """The game's id (empty before every genesis nonce is in)."""
        return self.chain.game_id

    @property
    def replaced_at(self) -> int:
        """The place of the replace under way or done (from there on, the replaced key's entries are dropped)."""
        return self.chain.replaced_at

    @property
    def peers(self) -> list[Member]:
        """The members that said hello, in hello order."""
        return self.roster.peers

    @property
    def seats(self) -> list[bytes]:
        """The seats' keys (a seat a computer took over: the computer's)."""
        return self.roster.seats

    @property
    def names(self) -> list[str]:
        return self.roster.names

    @property
    def my_seat(self) -> int | None:
        """Our seat (None: a watcher, or before the table)."""
        return self.roster.my_seat

    @property
    def replaced(self) -> dict[bytes, int]:
        """Keys that held a seat before a computer took it over -> that seat."""
        return self.roster.replaced

    @property
    def game(self) -> Game | None:
        """The table's game (None before the table)."""
        return self.terms.game

    @property
    def variant(self) -> str:
        return self.terms.variant

    @property
    def options(self) -> dict:
        return self.terms.options

    @property
    def on_gone(self) -> str:
        """What the table does with a seat gone past the claim time (the host's choice, signed in the table)."""
        return self.terms.on_gone

    @property
    def spectators(self) -> bool:
        """Whether the table lets spectators watch (the host's choice, signed in the table as ``watch``)."""
        return self.terms.spectators

    @property
    def watch_mode(self) -> str:
        """Who may watch: one of :data:`.kinds.WATCH_MODES` (each player lets in its own spectators by it)."""
        return self.terms.watch_mode

    @property
    def result(self) -> Result | None:
        """How the game ended (None: not over)."""
        return self.outcome.result

    @property
    def finals(self) -> dict[int, dict]:
        """Each seat's final reveal so far."""
        return self.outcome.finals

    @property
    def ends(self) -> dict[int, dict]:
        """Each seat's signed result so far."""
        return self.outcome.ends

    @property
    def fair(self) -> Any:
        """The fair table of this epoch (None before play)."""
        return self.chance.fair

    @fair.setter
    def fair(self, table: Any) -> None:
        self.chance.fair = table

    @property
    def steps(self) -> list[Step]:
        """This epoch's fair steps, as the audit reads them."""
        return self.chance.steps

    @property
    def old_steps(self) -> list[Step]:
        """The fair steps of the epochs before this one."""
        return self.chance.old_steps

    @property
    def epoch(self) -> int:
        return self.chance.epoch

    @property
    def table_op(self) -> TableOp | None:
        """The table op the fair table is resolving now (None: none)."""
        return self.chance.op

    @property
    def timeout(self) -> float | None:
        """Seconds a gone seat has before the claim (the table's once it signed one; None: no claim)."""
        return self.clocks.timeout

    @timeout.setter
    def timeout(self, seconds: float | None) -> None:
        self.clocks.timeout = seconds

    @property
    def move_clock(self) -> float | None:
        """Seconds a seat may take for one step even while linked (None: no move clock, a linked player may
        think as long as it likes)."""
        return self.clocks.move_clock

    @move_clock.setter
    def move_clock(self, seconds: float | None) -> None:
        self.clocks.move_clock = seconds

    @property
    def claim_signed(self) -> bool:
        """The claim time is the host's, signed in the table: no peer's own setting replaces it."""
        return self.clocks.signed

    @property
    def min_claim(self) -> float | None:
        """A guest's condition: at its genesis turn it leaves a table whose claim time or move clock is shorter."""
        return self.clocks.min_claim

    @min_claim.setter
    def min_claim(self, seconds: float | None) -> None:
        self.clocks.min_claim = seconds

    @property
    def takeback_asked(self) -> Ask | None:
        """The takeback the seats are answering now (None: none)."""
        return self.undo.asked

    @property
    def takeback_consent(self) -> Callable[[Ask], bool | None] | None:
        """Our answer to another seat's takeback (None, or a callable returning None: not yet, a person answers
        by :meth:`.session.Session.answer_takeback`; a computer's returns True)."""
        return self.undo.consent

    @takeback_consent.setter
    def takeback_consent(self, answer: Callable[[Ask], bool | None] | None) -> None:
        self.undo.consent = answer

    @property
    def phase(self) -> Phase:
        """Where the game is (:mod:`.phases`; only :meth:`.phases.PhaseState.fire` changes it)."""
        return self.phases.phase

    @property
    def over(self) -> bool:
        return self.phase in OVER_PHASES

    @property
    def my_turn(self) -> bool:
        """Whether we may move now (not while our own move at this place may be one our log lost)."""
        return (self.phase == Phase.PLAY and self.game is not None and self.view is not None
                and not self.game.is_over(self.view) and self.next_actor() == self.my_seat
                and not self.writer.holding(self))

    def next_actor(self) -> int:
        """The engine's next actor, or TABLE while a re-deal is being resolved."""
        assert self.game is not None and self.view is not None
        return TABLE if self.chance.redeal else self.game.next_actor(self.view)

    def scores_so_far(self) -> tuple[int, ...] | None:
        """The public scores of the position reached (what a game ended early is worth); None before play.

        Every seat's view gives the same scores (they are public), so each
        peer and the verifier check the ones an abort signs against their own.
        """
        if self.game is None or self.view is None:
            return None
        try:
            return tuple(int(x) for x in self.game.scores(self.view))
        except Exception:  # an engine that scores only finished games: no scores so far
            return None

    def flush(self) -> list:
        """The events so far (and forget them)."""
        out, self.events = self.events, []
        return out

    def append(self, entry: Entry) -> None:
        """An entry accepted into the chain (the log file has it first): a new position, the clocks restart."""
        self.chain.append(entry)
        if entry.kind != MOVE:
            self.undo.clear()      # only a run of moves at the chain's end may be taken back
        self.clocks.reset()
        self.writer.keep(self, entry)

    def copy(self) -> "SessionState":
        """A copy at this position with its own parts, writing nothing (a trial)."""
        twin = copy.copy(self)
        twin.chain = self.chain.copy()
        twin.phases = copy.copy(self.phases)
        twin.clocks = self.clocks.copy()
        twin.chance = self.chance.copy()
        twin.outcome = self.outcome.copy()
        twin.roster = self.roster.copy()
        twin.undo = self.undo.copy()
        twin.events, twin.writer = [], LiveWriter(None)
        return twin


class _Front(Protocol):
    """What a :class:`Shared` attribute is read on: a front door holding its state."""

    state: SessionState


T = TypeVar("T")


class Shared(Generic[T]):
    """A piece of the session's state, read (and, where a caller sets it, written) through the front door."""

    def __set_name__(self, owner: type, name: str) -> None:
        """The class gets, in this descriptor's place, a property whose getter is C (``attrgetter``): the front
        door is read on every step of a peer's loop, and a Python ``__get__`` cost a frame each time."""
        self.name = name

        def write(obj: "_Front", value: T) -> None:
            setattr(obj.state, name, value)

        setattr(owner, name, property(attrgetter(f"state.{name}"), write, doc=self.__doc__))

    @overload
    def __get__(self, obj: None, _owner: type | None = None) -> "Shared[T]": ...

    @overload
    def __get__(self, obj: "_Front", _owner: type | None = None) -> T: ...

    def __get__(self, obj: "_Front | None", _owner: type | None = None) -> "T | Shared[T]":
        return self if obj is None else getattr(obj.state, self.name)

    def __set__(self, obj: "_Front", value: T) -> None:
        setattr(obj.state, self.name, value)
