"""How a game ends: the reveals and signed results of a finished game, or an abort (a breach, a claim, a resign).

* ``final``: each seat in order reveals every secret (``fair_final``); every
  peer audits the whole transcript.
* ``end``: each seat in order signs the result (scores, winners, digest) and
  reveals its session seed, so that anyone can replay each seat's fair table.
* ``dispute``: a card opened to no card and nobody can be blamed yet: every
  seat reveals as in ``final``, then the audit names the cheat (or an abort
  says it found none).
* An ``abort`` ends the game at once: it names the seat at fault (if any),
  carries the offending bytes as evidence and the scores so far.

Who an abort may name (every peer checks it, and ``verify`` again):

* itself (a resignation, a refused reveal), or nobody;
* with a claim's reason (``timeout: ...``), only as the claimer closing its
  ``claim`` once every other seat agreed (at a table of two, once the
  claimed seat let the answer window pass, :mod:`.claims`); any other
  such abort is a broken rule that names its author;
* anyone else only on evidence that stands on its own: fed to this
  position, the first evidence entry must fail naming that seat (with no
  evidence, this position's own next step must). A peer that cannot confirm
  it (its view lacks the accuser's secrets) names nobody; ``verify``
  replays the accuser with its revealed seed, and an accusation that does
  not hold there names the accuser;
* a dispute whose audit finds no cheat ends naming the seat that raised it.
"""

from __future__ import annotations

import hashlib
from typing import Any

from lanterne.protocol.log import Entry, open_entry
from lanterne.protocol.wire import MAX_BIN, ProtocolError, pack

from .events import Aborted, Cause, Disputed, GameOver, OutOfPlace, ReplayMismatch
from .claim import cause_of, gone_reason, slow_reason
from .clocks import Awaiting
from .kinds import ABORT, CLAIM_REASON, END, MOVE_CLOCK
from .phases import Phase, Trigger
from .state import SessionState, Steps


class Ending:
    """The final, dispute and end phases, every abort, and the clocks that lead to a claim."""

    def __init__(self, s: SessionState, steps: Steps):
        self.s = s
        self.steps = steps

    def resign(self, reason: str = "resigned") -> list:
        """Give up (also how a peer refuses a reveal): an abort naming ourselves."""
        if not self.s.over:
            self.abort(reason, self.s.my_seat, [])
        return self.s.flush()

    def tick(self, now: float, here: bool = False) -> list:
        """Time passes: claim against the awaited seat if it is late. ``here``: it is linked and thinking.

        Two clocks, both on ``now``'s clock and both restarted by every entry:
        the claim time (``timeout``) runs while the awaited seat is gone; the
        move clock (``move_clock``, if the table set one) runs from the moment
        the seat was awaited, here or not, so a linked player who stalls can be
        claimed against too.
        """
        if self.s.over or self.s.timeout is None:
            return []
        seat = self.steps.waiting_for()
        clocks = self.s.clocks
        if seat is None or seat == self.s.my_seat:
            clocks.reset()
            return []
        self.watch(now, here)
        if self.s.phase == Phase.CLAIM:      # no claim on a claim
            c = self.s.claiming
            assert c is not None
            if c.by == self.s.my_seat and c.table_of_two and c.seat == seat and not c.agreed and clocks.window_over(now):
                self.steps.close_unanswered()     # a table of two: the claimed seat did not answer
            elif c.by == self.s.my_seat and seat != c.seat and clocks.gone_past(now):
                # the seat whose answer we wait for is gone too: with two seats gone nobody can take one's
                # seat on the others' word; the game ends with the scores so far, naming nobody
                self.abort(f"seats {c.seat + 1} and {seat + 1} are both gone (seat {seat + 1} did not answer "
                            f"the claim against seat {c.seat + 1} for {self.s.timeout:g} s): the game ends with "
                            f"the scores so far", None, [])
            return self.s.flush()
        run_out = clocks.run_out(now)
        if run_out == MOVE_CLOCK:
            assert clocks.move_clock is not None
            self.steps.write_claim(seat, slow_reason(seat, clocks.move_clock), MOVE_CLOCK)
        elif run_out is not None:
            self.steps.write_claim(seat, gone_reason(seat, self.s.timeout), None)
        else:
            return self.s.flush()
        if self.s.phase == Phase.CLAIM:
            clocks.restart(now)     # the answers are awaited from now (a table of two: the answer window)
        return self.s.flush()

    def watch(self, now: float | None, here: bool = False) -> None:
        """Run the clocks for the awaited seat from ``now`` if they are not running (``here``: it is linked and
        thinking, so only the move clock runs; None: stop both). Every present peer runs them, so every screen
        can show when the claim is due (our own seat too: our screen shows what is left of the move clock)."""
        seat = self.steps.waiting_for()
        if now is None or seat is None:
            self.s.clocks.reset()
        else:
            self.s.clocks.watch(now, here or seat == self.s.my_seat)

    @property
    def claim_due(self) -> float | None:
        """When the claim against the awaited seat falls due (on the clock :meth:`tick` is given); None: no clock."""
        return None if self.s.over else self.s.clocks.due()

    def awaiting(self) -> Awaiting | None:
        """The seat the chain waits for and since when its clocks run (None: nobody, or the game is over)."""
        seat = self.steps.waiting_for()
        if seat is None:
            return None
        c = self.s.clocks
        return Awaiting(seat, c.awaited_since, c.gone_since, self.claim_due)

    # -- aborts
    def abort(self, reason: str, culprit: int | None, evidence: list[bytes], audit: bool = False) -> None:
        body: dict[str, Any] = {"reason": reason[:1000], "evidence": [e if len(e) <= MAX_BIN else
                                                                       hashlib.sha256(e).digest() for e in evidence]}
        if culprit is not None:
            body["culprit"] = culprit
        if self.s.game_id:
            body["seed"] = self.s.seed
        scores = self.s.scores_so_far()
        if scores is not None:
            body["scores"] = list(scores)
        audit = audit and culprit is None and self.s.phase == Phase.PLAY and self.s.fair is not None
        if audit:
            body["audit"] = True
        if self.s.writer.holding(self.s):
            return    # we may have signed this place before: no abort of ours goes there (the game waits)
        self.s.writer.choose(self.s, ABORT, body)
        self._ended(self.s.my_seat, culprit, reason, audit, scores)

    def read_abort(self, entry: Entry, blame: int | None) -> None:
        """An abort by a member, in any phase: checked, then the game is over (or the dispute begins)."""
        members = self.s.seats or self.s.roster.keys()
        if entry.author not in members:
            raise ProtocolError(f"entry {entry.seq}: an abort by {self.s.roster.seat_label(entry.author)}, who does "
                                f"not play here", blame)
        culprit = entry.body.get("culprit")
        if culprit is not None and culprit >= max(len(self.s.seats), 1):
            raise ProtocolError(f"entry {entry.seq}: the abort blames seat {culprit + 1}, which does not "
                                f"exist", blame)
        by = self.s.roster.seat_of(entry.author)
        reason = entry.body["reason"]
        if reason.startswith(CLAIM_REASON) and culprit is not None and culprit != by:
            self._check_closing(entry, culprit, by, blame)
        said = entry.body.get("scores")
        ours = self.s.scores_so_far()
        if said is not None and (ours is None or tuple(said) != ours):   # older logs carry no scores
            theirs = " ".join(str(x) for x in said)
            mine = " ".join(str(x) for x in ours) if ours is not None else "none (no game yet)"
            raise ProtocolError(f"entry {entry.seq}: the abort by {self.s.roster.seat_label(entry.author)} signs scores so "
                                f"far {theirs}; the position reached gives {mine}", blame)
        body = entry.body
        accuses = culprit is not None and culprit != by and not reason.startswith(CLAIM_REASON)
        if accuses and entry.author == self.s.public and self.s.writer.checks_evidence:
            self._confirm_evidence(body["evidence"], culprit)
        elif accuses and entry.author != self.s.public and self._names(body["evidence"]) != culprit:
            reason = (f"{reason} (seat {by + 1 if by is not None else '?'} names seat {culprit + 1}; its evidence "
                      f"does not show it from here)")
            culprit = None
        self.s.append(entry)
        scores = tuple(body["scores"]) if "scores" in body else None
        self._ended(by, culprit, reason, bool(body.get("audit")), scores)

    def _check_closing(self, entry: Entry, culprit: int, by: int | None, blame: int | None) -> None:
        """An abort with a claim's reason naming another seat must be the claimer closing its agreed claim."""
        c = self.s.claiming
        closing = (self.s.phase == Phase.CLAIM and c is not None and not c.replaces and by == c.by
                   and culprit == c.seat and (c.answered or c.table_of_two))
        if closing:
            return
        if c is not None and self.s.phase == Phase.CLAIM:
            why = "before every other seat agreed to its claim" if by == c.by else "while another claim is answered"
        else:
            awaited = self.steps.expected_seat()
            why = (f"without a claim the other seats agreed to (the game waits for "
                   f"{'seat ' + str(awaited + 1) if awaited is not None else 'nobody'})")
        raise ProtocolError(f"entry {entry.seq}: {self.s.roster.seat_label(entry.author)} ends the game by a claim against "
                            f"seat {culprit + 1} {why}", blame)

    def _ended(self, by: int | None, culprit: int | None, reason: str, audit: bool = False,
               scores: tuple[int, ...] | None = None) -> None:
        """An abort: the game is over, unless it asks for the audit now (the dispute)."""
        if audit and culprit is None and self.s.phase == Phase.PLAY and self.s.fair is not None:
            self.s.phases.fire(Trigger.AUDIT)
            self.s.outcome.disputed_by = by
            self.s.events.append(Disputed(reason))
            return
        c = self.s.claiming
        closes = c is not None and not c.replaces and culprit == c.seat
        agreed = c.agreed if c is not None and closes else ()
        waited, claimed = None, None
        if culprit is not None and culprit != by and reason.startswith(CLAIM_REASON):
            claimed = culprit
            cause, waited = cause_of(c.reason if c is not None and closes else reason, c.clock if c is not None and closes
                                     else None, culprit, self.s.move_clock)
        else:
            cause = Cause.NOBODY if culprit is None else Cause.RESIGNED if culprit == by else Cause.BREACH
        self.s.phases.fire(Trigger.ABORT)
        self.s.claiming = None
        self.s.outcome.result = Aborted(by, culprit, reason, scores, agreed, cause, waited, claimed)
        self.s.events.append(self.s.outcome.result)

    def _names(self, evidence: list[bytes]) -> int | None:
        """The seat this position blames on the evidence: its first entry fed here (with none, this position's
        own next step) fails naming it. None: it fails naming nobody, or does not fail (it proves nothing)."""
        if not evidence and self.s.phase == Phase.DISPUTE and len(self.s.outcome.finals) == len(self.s.seats):
            return self.s.outcome.disputed_by    # every secret is out and the audit found no cheat
        trial = self.steps.trial()
        try:
            if evidence:
                trial.feed(open_entry(evidence[0]))   # bytes that are no entry prove nothing
            else:
                trial.advance()
        except OutOfPlace:
            return None
        except ProtocolError as e:
            return e.seat       # (None for bytes that are not an entry)
        return None

    def _confirm_evidence(self, evidence: list[bytes], culprit: int | None) -> None:
        """verify: our own abort's evidence must be refused by this position naming ``culprit`` (else the
        accusation was unfounded, and it names us)."""
        assert culprit is not None
        named = self._names(evidence)
        if named == culprit:
            return
        if named is not None:
            raise ProtocolError(f"the evidence of the abort blames seat {named + 1}, not seat {culprit + 1}",
                                self.s.my_seat)
        what = "is a valid entry, or out of place" if evidence else "is missing, and this position blames nobody"
        raise ProtocolError(f"the evidence of the abort {what}: the accusation against seat {culprit + 1} was "
                            f"unfounded", self.s.my_seat)

    # -- final reveals and results
    def on_final(self, entry: Entry, blame: int | None) -> None:
        seat = self.s.roster.seat_of(entry.author)
        assert seat is not None
        if seat == self.s.my_seat:
            raise ReplayMismatch(f"entry {entry.seq}: seat {seat + 1} would not have written this", seat)
        try:
            self.s.fair.consume_final(seat, entry.body)
        except self.s.fairmod.CheatDetected as e:
            raise ProtocolError(f"entry {entry.seq}: {e}", e.seat) from None
        self.s.append(entry)
        self.s.outcome.finals[seat] = entry.body
        self._after_final()

    def step_final(self) -> bool:
        seat = len(self.s.outcome.finals)
        if seat >= len(self.s.seats) or seat != self.s.my_seat or not self.s.writer.may_write(self.s):
            return False
        kind, body = self.s.fair.final_reveal()
        self.s.writer.write(self.s, kind, body)
        self.s.outcome.finals[seat] = body
        self._after_final()
        return True

    def _after_final(self) -> None:
        if len(self.s.outcome.finals) < len(self.s.seats):
            return
        if self.s.phase == Phase.DISPUTE:
            raiser = self.s.outcome.disputed_by
            self.abort(f"every seat revealed its secrets and the audit found no cheat: the dispute raised by seat "
                        f"{raiser + 1 if raiser is not None else '?'} was unfounded", raiser, [])
            return
        # FairTable.consume_final has audited every seat's secrets against the
        # whole transcript by now; verify runs audit_transcript on the log again.
        self.s.phases.fire(Trigger.REVEALED)

    def on_end(self, entry: Entry, blame: int | None) -> None:
        assert self.s.game is not None and self.s.view is not None
        seat = self.s.roster.seat_of(entry.author)
        assert seat is not None
        mine = self._result_body()
        theirs = dict(entry.body)
        theirs.pop("seed")
        mine.pop("seed")
        if seat == self.s.my_seat:
            raise ReplayMismatch(f"entry {entry.seq}: seat {seat + 1} would not have written this", seat)
        if pack(mine) != pack(theirs):
            raise ProtocolError(f"entry {entry.seq}: seat {seat + 1} signs a different result "
                                f"({theirs['scores']} against our {mine['scores']})", seat)
        self.s.append(entry)
        self.s.outcome.ends[seat] = entry.body
        self._after_end()

    def step_end(self) -> bool:
        assert self.s.game is not None and self.s.view is not None
        seat = len(self.s.outcome.ends)
        if seat >= len(self.s.seats) or seat != self.s.my_seat or not self.s.writer.may_write(self.s):
            return False
        body = self._result_body()
        self.s.writer.write(self.s, END, body)
        self.s.outcome.ends[seat] = body
        self._after_end()
        return True

    def _after_end(self) -> None:
        assert self.s.game is not None and self.s.view is not None
        if len(self.s.outcome.ends) == len(self.s.seats):
            self.s.phases.fire(Trigger.SIGNED)
            self.s.outcome.result = GameOver(tuple(self.s.game.scores(self.s.view)), tuple(self.s.game.winners(self.s.view)))
            self.s.events.append(self.s.outcome.result)

    def _result_body(self) -> dict:
        assert self.s.game is not None and self.s.view is not None
        return {"scores": list(self.s.game.scores(self.s.view)), "winners": list(self.s.game.winners(self.s.view)),
                "digest": self.s.game.digest(self.s.view), "seed": self.s.seed}
