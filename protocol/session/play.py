"""The play phase: the engine runs on this peer's view; seats move, the fair table resolves chance.

Its first table op is the ROLL "first player": that is the coin. Table ops
are resolved by ``protocol.fair.FairTable``; seat moves carry the
public-state digest after the move and, when they make hidden cards
public, the mover's proof.
"""

from __future__ import annotations

from typing import Any, Sequence

from lanterne.engines import redeal
from lanterne.engines.core import REVEAL, TABLE, Action, IllegalAction, RulesError, State, TableOp, as_action
from lanterne.protocol.log import Entry
from lanterne.protocol.wire import ProtocolError, pack

from .events import Dispute, Moved, ReplayMismatch, TableResolved
from .kinds import MOVE
from .phases import Trigger
from .state import SessionState, Steps


class Play:
    """The play phase: our moves and fair steps, and the reading of others'."""

    def __init__(self, s: SessionState, steps: Steps):
        self.s = s
        self.steps = steps

    def legal_actions(self) -> list[Action]:
        if not self.s.my_turn:
            return []
        assert self.s.game is not None and self.s.view is not None and self.s.my_seat is not None
        return self.s.game.legal_actions(self.s.view, self.s.my_seat)

    def act(self, action: Action) -> list:
        """Play ``action`` for our seat; IllegalAction (not a protocol error) if it cannot be played."""
        if self.s.writer.holding(self.s):
            raise IllegalAction("our log lost this move: waiting for the other seats to send it back")
        if not self.s.my_turn:
            raise IllegalAction("it is not our turn")
        assert self.s.game is not None and self.s.view is not None and self.s.my_seat is not None
        action = as_action(action)
        before = self.s.view
        after, events = self.s.game.apply(before, action)
        slots = self._made_public(before, after)
        body: dict[str, Any] = {"action": list(action), "digest": self.s.game.digest(after)}
        if slots:
            body["proof"] = self.s.fair.prove(slots)
            self.s.steps.append((self.s.my_seat, "fair_claim",
                               {"slots": slots, "ids": [after.cards.ids[s] for s in slots], "proof": body["proof"]}))
        text = self._text(before, action)
        self.s.writer.write(self.s, MOVE, body)
        self.s.undo.moved(len(self.s.chain) - 1, self.s.my_seat, before, bool(slots))
        self.s.view = after
        self.s.events.append(Moved(self.s.my_seat, action, text, tuple(events), len(self.s.chain) - 1))
        self.steps.advance_safely()
        return self.s.flush()

    def on_play(self, entry: Entry, blame: int | None) -> None:
        seat = self.s.roster.seat_of(entry.author)
        assert seat is not None     # (the chain lets only seats write during play)
        if self.s.next_actor() != TABLE:
            self._on_move(entry, seat)
            return
        if seat == self.s.my_seat:
            raise ReplayMismatch(f"entry {entry.seq}: seat {seat + 1} would not have written this", seat)
        try:
            self.s.fair.consume(seat, entry.kind, entry.body)
        except self.s.fairmod.CheatDetected as e:
            if e.seat is not None:
                raise ProtocolError(f"entry {entry.seq}: {e}", e.seat) from None
            self.s.append(entry)      # a sound message that opened a tampered deck
            self.s.steps.append((seat, entry.kind, entry.body))
            raise Dispute(f"entry {entry.seq}: {e}", None) from None
        self.s.append(entry)
        self.s.steps.append((seat, entry.kind, entry.body))

    def _on_move(self, entry: Entry, seat: int) -> None:
        assert self.s.game is not None and self.s.view is not None
        body = entry.body
        action = as_action(body["action"])
        if not action or not isinstance(action[0], str):
            raise ProtocolError(f"entry {entry.seq}: an action is a list whose first item names its kind", seat)
        before = self.s.view
        try:
            after, events = self.s.game.apply(before, action)
        except IllegalAction as e:
            raise ProtocolError(f"entry {entry.seq}: illegal move by seat {seat + 1}: {e}", seat) from None
        except (RulesError, KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
            raise ProtocolError(f"entry {entry.seq}: illegal move by seat {seat + 1}: {type(e).__name__} "
                                f"{str(e)[:200]}", seat) from None
        slots = self._made_public(before, after)
        proof = body.get("proof")
        if slots:
            if proof is None:
                raise ProtocolError(f"entry {entry.seq}: seat {seat + 1} plays hidden cards without a proof", seat)
            claimed = [after.cards.ids[s] for s in slots]
            if seat == self.s.my_seat:
                if pack(self.s.fair.prove(slots)) != pack(proof):
                    raise ReplayMismatch(f"entry {entry.seq}: seat {seat + 1}'s proof is not its keys", seat)
            else:
                try:
                    self.s.fair.check_claims(seat, slots, claimed, proof)
                except self.s.fairmod.CheatDetected as e:
                    if e.seat is not None:
                        raise ProtocolError(f"entry {entry.seq}: {e}", e.seat) from None
                    self.s.append(entry)      # sound keys that open a tampered deck: the audit must decide
                    raise Dispute(f"entry {entry.seq}: {e}", None) from None
            step = {"slots": slots, "ids": claimed, "proof": proof}
        elif proof is not None:
            raise ProtocolError(f"entry {entry.seq}: seat {seat + 1} sends a proof but plays no hidden card", seat)
        digest = self.s.game.digest(after)
        if digest != body["digest"]:
            raise ProtocolError(f"entry {entry.seq}: seat {seat + 1}'s state digest differs from ours after "
                                f"{self._text(before, action)}", seat)
        self.s.append(entry)
        if slots:
            self.s.steps.append((seat, "fair_claim", step))
        self.s.undo.moved(entry.seq, seat, before, bool(slots))
        self.s.view = after
        self.s.events.append(Moved(seat, action, self._text(before, action), tuple(events), entry.seq))

    def step_play(self) -> bool:
        """What needs nobody else during play: the end of the game, a table outcome, our fair step."""
        assert self.s.game is not None and self.s.view is not None
        if not self.s.chance.redeal and self.s.game.is_over(self.s.view):
            if self.s.chance.op is not None:
                raise ProtocolError("the game ended while the table was busy", None)
            self.s.phases.fire(Trigger.GAME_OVER)
            return True
        if self.s.next_actor() != TABLE:
            return False
        if self.s.chance.op is None:
            self.s.chance.op = self.s.chance.redeal[0] if self.s.chance.redeal else self.s.game.table_op(self.s.view)
            self.s.fair.begin(self.s.chance.op, self.s.view)
        expected = self.s.fair.expected()
        if expected is None:
            op, outcome = self.s.chance.op, self.s.fair.outcome()
            assert op is not None
            events: Sequence[Any]
            try:
                if self.s.chance.redeal:
                    self.s.view, events = redeal.apply_redeal(self.s.view, op, outcome), []
                    self.s.chance.redeal.popleft()
                else:
                    self.s.view, events = self.s.game.apply(self.s.view, outcome)
            except (IllegalAction, RulesError) as e:
                raise ProtocolError(f"the table's outcome does not apply: {e}", None) from None
            self.s.chance.op = None
            self.s.undo.clear()     # what the table did stays done, and so do the moves before it
            self.s.events.append(TableResolved(op, outcome, tuple(events)))
            if op.face_down and op.to in self.s.replaced.values():
                # A computer's cards are public, like the dummy's in bridge: its host (the claimer) sees them
                # anyway, so every other seat must too (docs/protocol.md, "Claims").
                self.s.chance.redeal.append(TableOp(REVEAL, redeal.REDEAL_PILE, op.slots, why="a computer's cards are public"))
            return True
        if expected != self.s.my_seat or not self.s.writer.may_write(self.s):
            return False
        kind, body = self.s.fair.produce()
        self.s.writer.write(self.s, kind, body)
        self.s.steps.append((expected, kind, body))
        return True

    def _made_public(self, before: State, after: State) -> list[int]:
        """Slots a move makes public that were not: the cards it plays from a hidden hand."""
        everyone = after.cards.everyone
        b, a = before.cards.seen, after.cards.seen
        if a is b or a == b:
            return []       # most moves show nothing (C compares the lists)
        return ([s for s, (now, was) in enumerate(zip(a, b)) if now == everyone != was]
                + [s for s in range(len(b), len(a)) if a[s] == everyone])

    def _text(self, state: State, action: Action) -> str:
        assert self.s.game is not None
        try:
            return self.s.game.format_action(state, action)
        except Exception:  # notation is for people; never let it break the protocol
            return " ".join(str(x) for x in action)
