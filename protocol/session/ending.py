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
"""

from __future__ import annotations

import copy
import hashlib
from collections import deque
from typing import Any

from protocol.log import Entry
from protocol.wire import MAX_BIN, ProtocolError, pack

from .events import Aborted, Disputed, GameOver, ReplayMismatch
from .kinds import ABORT, CLAIM_REASON, END
from .phases import Phase
from .writers import LiveWriter


class Ending:
    """The final, dispute and end phases, and every abort, of :class:`~protocol.session.Session`."""

    def resign(self, reason: str = "resigned") -> list:
        """Give up (also how a peer refuses a reveal): an abort naming ourselves."""
        if not self.over:
            self._abort(reason, self.my_seat, [])
        return self._flush()

    def tick(self, now: float) -> list:
        """Time passes: end the game if the awaited peer is late (``timeout`` seconds)."""
        if self.over or self.timeout is None:
            return []
        seat = self.waiting_for()
        if seat is None or seat == self.my_seat:
            self._waiting_since = None
            return []
        if self._waiting_since is None:
            self._waiting_since = now
        elif now - self._waiting_since > self.timeout:
            if self.may_replace(seat):
                self._replace(seat)
            else:
                self._abort(f"{CLAIM_REASON}seat {seat + 1} sent nothing for {self.timeout:g} s", seat, [])
        return self._flush()

    def watch(self, now: float | None) -> None:
        """Start the claim clock for the awaited seat at ``now`` if it is not running (None: stop it, the
        seat is here). Every present peer runs it, so every screen can show when the claim is due."""
        if now is None:
            self._waiting_since = None
        elif self._waiting_since is None and self.waiting_for() not in (None, self.my_seat):
            self._waiting_since = now

    @property
    def claim_due(self) -> float | None:
        """When the claim against the awaited seat falls due (on the clock :meth:`tick` is given); None: no clock."""
        if self._waiting_since is None or self.timeout is None or self.over:
            return None
        return self._waiting_since + self.timeout

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

    # -- aborts
    def _abort(self, reason: str, culprit: int | None, evidence: list[bytes], audit: bool = False) -> None:
        body: dict[str, Any] = {"reason": reason[:1000], "evidence": [e if len(e) <= MAX_BIN else
                                                                       hashlib.sha256(e).digest() for e in evidence]}
        if culprit is not None:
            body["culprit"] = culprit
        if self.game_id:
            body["seed"] = self.seed
        scores = self.scores_so_far()
        if scores is not None:
            body["scores"] = list(scores)
        audit = audit and culprit is None and self.phase == Phase.PLAY and self.fair is not None
        if audit:
            body["audit"] = True
        self.writer.choose(self, ABORT, body)
        self._ended(self.my_seat, culprit, reason, audit, scores)

    def _read_abort(self, entry: Entry, blame: int | None) -> None:
        """An abort by a member, in any phase: checked, then the game is over (or the dispute begins)."""
        members = self.seats or self._keys()
        if entry.author not in members:
            raise ProtocolError(f"entry {entry.seq}: an abort by {self._seat_label(entry.author)}, who does "
                                f"not play here", blame)
        culprit = entry.body.get("culprit")
        if culprit is not None and culprit >= max(len(self.seats), 1):
            raise ProtocolError(f"entry {entry.seq}: the abort blames seat {culprit + 1}, which does not "
                                f"exist", blame)
        said = entry.body.get("scores")
        ours = self.scores_so_far()
        if said is not None and (ours is None or tuple(said) != ours):   # older logs carry no scores
            theirs = " ".join(str(x) for x in said)
            mine = " ".join(str(x) for x in ours) if ours is not None else "none (no game yet)"
            raise ProtocolError(f"entry {entry.seq}: the abort by {self._seat_label(entry.author)} signs scores so "
                                f"far {theirs}; the position reached gives {mine}", blame)
        body = entry.body
        if self.writer.checks_evidence and body["evidence"] and entry.author == self.public:
            self._confirm_evidence(body["evidence"][0], culprit)
        self._append(entry)
        scores = tuple(body["scores"]) if "scores" in body else None
        self._ended(self._seat_of(entry.author), culprit, body["reason"], bool(body.get("audit")), scores)

    def _ended(self, by: int | None, culprit: int | None, reason: str, audit: bool = False,
               scores: tuple[int, ...] | None = None) -> None:
        """An abort: the game is over, unless it asks for the audit now (the dispute)."""
        if audit and culprit is None and self.phase == Phase.PLAY and self.fair is not None:
            self.phase = Phase.DISPUTE
            self._events.append(Disputed(reason))
            return
        self.phase = Phase.ABORTED
        self.result = Aborted(by, culprit, reason, scores)
        self._events.append(self.result)

    def _confirm_evidence(self, raw: bytes, culprit: int | None) -> None:
        """verify: the evidence of our own abort must be an entry that this position refuses, naming ``culprit``."""
        trial = copy.copy(self)
        trial.chain = list(self.chain)
        trial.view = self.view
        trial.fair = copy.deepcopy(self.fair)
        trial.steps, trial.finals, trial.ends = list(self.steps), dict(self.finals), dict(self.ends)
        trial.seats, trial.names, trial.replaced = list(self.seats), list(self.names), dict(self.replaced)
        trial.replacing, trial._redeal = copy.deepcopy(self.replacing), deque(self._redeal)
        trial._events, trial._outbox, trial.writer = [], [], LiveWriter(None)
        try:
            trial._receive(raw, None)
        except ProtocolError as e:
            if e.seat != culprit:
                raise ProtocolError(f"the evidence of the abort blames seat {e.seat + 1 if e.seat is not None else '?'}"
                                    f", not seat {culprit + 1 if culprit is not None else '?'}", self.my_seat)
            return
        raise ProtocolError("the evidence of the abort is a valid entry: the abort was unfounded", self.my_seat)

    # -- final reveals and results
    def _on_final(self, entry: Entry, blame: int | None) -> None:
        seat = self._seat_of(entry.author)
        if seat == self.my_seat:
            raise ReplayMismatch(f"entry {entry.seq}: seat {seat + 1} would not have written this", seat)
        try:
            self.fair.consume_final(seat, entry.body)
        except self._fairmod.CheatDetected as e:
            raise ProtocolError(f"entry {entry.seq}: {e}", e.seat) from None
        self._append(entry)
        self.finals[seat] = entry.body
        self._after_final()

    def _step_final(self) -> bool:
        seat = len(self.finals)
        if seat >= len(self.seats) or seat != self.my_seat or not self.writer.may_write(self):
            return False
        kind, body = self.fair.final_reveal()
        self.writer.write(self, kind, body)
        self.finals[seat] = body
        self._after_final()
        return True

    def _after_final(self) -> None:
        if len(self.finals) < len(self.seats):
            return
        if self.phase == Phase.DISPUTE:
            self._abort("every seat revealed its secrets and the audit found no cheat", None, [])
            return
        # FairTable.consume_final has audited every seat's secrets against the
        # whole transcript by now; verify runs audit_transcript on the log again.
        self.phase = Phase.END

    def _on_end(self, entry: Entry, blame: int | None) -> None:
        seat = self._seat_of(entry.author)
        mine = self._result_body()
        theirs = dict(entry.body)
        theirs.pop("seed")
        mine.pop("seed")
        if seat == self.my_seat:
            raise ReplayMismatch(f"entry {entry.seq}: seat {seat + 1} would not have written this", seat)
        if pack(mine) != pack(theirs):
            raise ProtocolError(f"entry {entry.seq}: seat {seat + 1} signs a different result "
                                f"({theirs['scores']} against our {mine['scores']})", seat)
        self._append(entry)
        self.ends[seat] = entry.body
        self._after_end()

    def _step_end(self) -> bool:
        seat = len(self.ends)
        if seat >= len(self.seats) or seat != self.my_seat or not self.writer.may_write(self):
            return False
        body = self._result_body()
        self.writer.write(self, END, body)
        self.ends[seat] = body
        self._after_end()
        return True

    def _after_end(self) -> None:
        if len(self.ends) == len(self.seats):
            self.phase = Phase.OVER
            self.result = GameOver(tuple(self.game.scores(self.view)), tuple(self.game.winners(self.view)))
            self._events.append(self.result)

    def _result_body(self) -> dict:
        return {"scores": list(self.game.scores(self.view)), "winners": list(self.game.winners(self.view)),
                "digest": self.game.digest(self.view), "seed": self.seed}
