"""The session's state machine as data: its phases, what moves it from one to the next, and the one function
that applies a move.

Everything that changes a session's phase is a row of :data:`TRANSITIONS`
(phase, trigger) -> next phase, applied by :meth:`PhaseState.fire`; nothing
else assigns a phase. A claim interrupts the phase it is written in and a
refused or voided claim goes back to it (:data:`BACK`). What each phase reads
and writes (who writes next, which kinds it accepts, the function that reads
an accepted entry, the one that writes ours) is the table of
:mod:`.rules`. docs/protocol.md draws this table from :func:`render`
(a test compares them).
"""

from __future__ import annotations

from enum import Enum


class Phase(Enum):
    """A session's phase."""

    HELLO = "hello"
    GENESIS = "genesis"
    PLAY = "play"
    CLAIM = "claim"
    TAKEBACK = "takeback"
    FINAL = "final"
    DISPUTE = "dispute"
    END = "end"
    OVER = "over"
    ABORTED = "aborted"
    REPLACED = "replaced"

    def __str__(self) -> str:
        return self.value


class Trigger(Enum):
    """What moves a session on: an entry that arrived or was written, or a condition reached after one."""

    TABLE_SET = "the host's table"
    NONCES_IN = "every genesis nonce"
    GAME_OVER = "the engine says the game is over"
    AUDIT = "an abort that asks for the audit"
    REVEALED = "every seat revealed its secrets"
    SIGNED = "every seat signed the result"
    CLAIMED = "a claim or replace"
    REFUSED = "a refusal"
    VOIDED = "the claimed seat's own entry in the claim's place"
    SEAT_REPLACED = "every agree to a replace"
    TAKEBACK_ASKED = "a takeback request"
    TAKEN_BACK = "every yes to a takeback"
    DENIED = "a no to a takeback"
    OUT = "our seat given to a computer"
    ABORT = "an abort"


class _Back:
    """The target of a row that returns to the phase a claim interrupted."""

    def __repr__(self) -> str:
        return "BACK"


BACK = _Back()
"""The phase the claim under way interrupted (kept by :class:`PhaseState` when the claim came)."""

OVER_PHASES = frozenset({Phase.OVER, Phase.ABORTED, Phase.REPLACED})
LIVE_PHASES = tuple(p for p in Phase if p not in OVER_PHASES)
CLAIMABLE = (Phase.GENESIS, Phase.PLAY, Phase.TAKEBACK, Phase.FINAL, Phase.DISPUTE, Phase.END)
"""Phases with an awaited seat that a claim may interrupt (a replace: only play, :mod:`.claims`)."""

TRANSITIONS: dict[tuple[Phase, Trigger], Phase | _Back] = {
    (Phase.HELLO, Trigger.TABLE_SET): Phase.GENESIS,
    (Phase.GENESIS, Trigger.NONCES_IN): Phase.PLAY,
    (Phase.PLAY, Trigger.GAME_OVER): Phase.FINAL,
    (Phase.PLAY, Trigger.AUDIT): Phase.DISPUTE,
    (Phase.PLAY, Trigger.TAKEBACK_ASKED): Phase.TAKEBACK,
    (Phase.TAKEBACK, Trigger.TAKEN_BACK): Phase.PLAY,
    (Phase.TAKEBACK, Trigger.DENIED): Phase.PLAY,
    (Phase.FINAL, Trigger.REVEALED): Phase.END,
    (Phase.END, Trigger.SIGNED): Phase.OVER,
    **{(p, Trigger.CLAIMED): Phase.CLAIM for p in CLAIMABLE},
    (Phase.CLAIM, Trigger.REFUSED): BACK,
    (Phase.CLAIM, Trigger.VOIDED): BACK,
    (Phase.CLAIM, Trigger.SEAT_REPLACED): Phase.PLAY,
    **{(p, Trigger.OUT): Phase.REPLACED for p in LIVE_PHASES},
    **{(p, Trigger.ABORT): Phase.ABORTED for p in LIVE_PHASES},
}
"""(phase, trigger) -> next phase. A dispute ends by an abort (its audit blames someone, or its raiser). A takeback
goes back to play either way: the last yes with the position before the moves taken back (:mod:`.takeback`)."""


class PhaseError(Exception):
    """A trigger that has no row for the current phase: a bug in the session, never a peer's fault."""


class PhaseState:
    """The current phase, and the phase a claim under way interrupted."""

    def __init__(self) -> None:
        self.phase = Phase.HELLO
        self.back: Phase | None = None

    def fire(self, trigger: Trigger) -> Phase:
        """Apply the row (phase, trigger); PhaseError if there is none."""
        target = TRANSITIONS.get((self.phase, trigger))
        if target is None:
            raise PhaseError(f"no transition from {self.phase} on {trigger.name}")
        if target is BACK:
            assert self.back is not None
            target, self.back = self.back, None
        elif target == Phase.CLAIM:
            self.back = self.phase
        else:
            self.back = None
        assert isinstance(target, Phase)
        self.phase = target
        return target


def render() -> str:
    """The transitions as the Markdown table docs/protocol.md shows: one row per trigger and target, with
    every phase it leaves from."""
    groups: dict[tuple[Trigger, Phase | _Back], list[Phase]] = {}
    for (phase, trigger), target in TRANSITIONS.items():
        groups.setdefault((trigger, target), []).append(phase)
    lines = ["| from | on | to |", "|---|---|---|"]
    for (trigger, target), phases in groups.items():
        source = "every live phase" if tuple(phases) == LIVE_PHASES else ", ".join(p.value for p in phases)
        lines.append(f"| {source} | {trigger.value} | {'the phase it interrupted' if target is BACK else target} |")
    return "\n".join(lines)
