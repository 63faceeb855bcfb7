"""What every phase group of the session reads: its parts and the views of them, declared once.

:class:`SessionState` names each piece of a session's state with its type
(the parts are built by :class:`~.session.Session`), the read-only views
the phase groups and the callers use, and the steps one phase group asks
of another; the phase groups (:mod:`.seating`, :mod:`.play`,
:mod:`.ending`, :mod:`.claims`) extend it, so a type checker sees every
name they use.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

from lanterne.engines.core import Game, State, TableOp
from lanterne.protocol import identity as ids
from lanterne.protocol.log import Entry

from .chain import Chain
from .chance import Chance, Step
from .claim import Claim
from .clocks import Clocks
from .outcome import Outcome, Result
from .phases import OVER_PHASES, Phase, PhaseState
from .roster import Member, Roster
from .terms import Terms
from .writers import LiveWriter, ReplayWriter


class SessionState:
    """A session's state (see :class:`~.session.Session` for what each piece means)."""

    identity: ids.Identity | None
    public: bytes
    host: bool
    name: str
    seed: bytes
    games: Callable[[str], Game] | None
    writer: LiveWriter | ReplayWriter
    auto_join: bool
    guests: list[bytes] | None
    require_on_gone: str | None
    consent: Callable[[int], bool | None] | None
    chain: Chain
    view: State | None
    claiming: Claim | None
    terms: Terms
    clocks: Clocks
    roster: Roster
    chance: Chance
    outcome: Outcome
    _phases: PhaseState
    _proposal: tuple[Game | None, int, str, dict]
    schemas: dict[str, dict]
    _fairmod: ModuleType
    _events: list
    _genesis_start: int

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
    def phase(self) -> Phase:
        """Where the game is (:mod:`.phases`; only :meth:`.phases.PhaseState.fire` changes it)."""
        return self._phases.phase

    @property
    def over(self) -> bool:
        return self.phase in OVER_PHASES

    # -- what every phase group does to the state
    def _flush(self) -> list:
        """The events so far (and forget them)."""
        out, self._events = self._events, []
        return out

    def _append(self, entry: Entry) -> None:
        """An entry accepted into the chain (the log file has it first): a new position, the clocks restart."""
        self.chain.append(entry)
        self.clocks.reset()
        self.writer.keep(self, entry)

    # -- the steps one phase group asks of another (each is defined in one of them, or in the Session)
    def waiting_for(self) -> int | None:
        raise NotImplementedError

    def _expected_seat(self) -> int | None:
        raise NotImplementedError

    def _advance_safely(self) -> None:
        raise NotImplementedError

    def next_actor(self) -> int:
        raise NotImplementedError

    def scores_so_far(self) -> tuple[int, ...] | None:
        raise NotImplementedError

    def _abort(self, reason: str, culprit: int | None, evidence: list[bytes], audit: bool = False) -> None:
        raise NotImplementedError

    def _claim(self, seat: int, reason: str, clock: str | None = None) -> None:
        raise NotImplementedError

    def _close_unanswered(self) -> None:
        raise NotImplementedError
