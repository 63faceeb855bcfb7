"""A claim against the awaited seat, gone past the claim time or the move clock: the present seats answer it.

* The claimer (the lowest present seat, see :class:`protocol.net.peer.Peer`)
  writes ``claim {seat, reason, scores}`` (table policy ``end``, any phase
  with an awaited seat) or, during play on a table whose policy is
  ``computer``, ``replace {seat, key, name, scores}``: the seat must be the
  one the chain waits for, not the claimer's own; the scores are those of
  the position.
* Every other seat but the claimed one answers in seat order, on its own
  clock (:attr:`Session.consent`): ``agree {replace: hash}`` if it too has
  seen that seat gone for the claim time (or awaited past the move clock),
  ``refuse {claim: hash, reason}`` if not (the seat is linked to it and
  thinking). A refusal withdraws the claim: the game goes on where it was.
* At a table of two nobody else can answer: the claimed seat answers
  itself, and a seat that is here refuses. If it does not answer within
  :func:`answer_window` of the claimer's clock, the claimer closes.
* Closing a ``claim``: the claimer's ``abort`` naming the seat (its reason
  the claim's, with its seed and the scores); ``verify`` shows who agreed.
  Closing a ``replace``: at the last agreement (at a table of two, the
  claimer's own ``agree``) the computer holds the seat and, since every
  face-down card was locked with the gone peer's key too, every hidden card
  is re-dealt on a new fair table (same hand sizes, fresh cards, each deck
  apart: ``engines/redeal.py``).
"""

from __future__ import annotations

import hashlib

from lanterne.engines import redeal
from lanterne.engines.core import RulesError
from lanterne.protocol import identity as ids
from lanterne.protocol.log import Entry
from lanterne.protocol.wire import ProtocolError, check

from .claim import Claim, cause_of
from .events import Aborted, ClaimAsked, ClaimRefused, Replaced, ReplaceAsked, SeatReplaced
from .kinds import (ABORT, AGREE, CLAIM, CLAIM_REASON, COMPUTER_DOMAIN, COMPUTER_MARK, EPOCH_DOMAIN, FAIR_DOMAIN,
                    MOVE_CLOCK, ON_GONE_COMPUTER, REFUSE, REPLACE, Drbg)
from .phases import OVER_PHASES, Phase, Trigger
from .state import SessionState, Steps

class Claims:
    """Claims and replacements by a computer: writing, reading and answering them, and the held claims."""

    def __init__(self, s: SessionState, steps: Steps):
        self.s = s
        self.steps = steps

    # ------------------------------------------------------------ the computer of a replacement
    def computer_key_material(self, seat: int) -> bytes:
        """What the identity of the computer we would host for ``seat`` is made from (``Identity.from_seed``)."""
        return hashlib.sha256(COMPUTER_DOMAIN + self.s.seed + self.s.game_id + bytes([seat])).digest() + b"/key"

    def computer_secrets(self, seat: int) -> tuple[ids.Identity, bytes]:
        """The identity and session seed of the computer we would host for ``seat`` (from our seed).

        Derived, so that a claimer restarted from its files hosts the same
        computer; the claimer's seed is revealed at the end, the computer's
        with it (it signed nothing after the game).
        """
        material = self.computer_key_material(seat)
        return ids.Identity.from_seed(material), hashlib.sha256(material[:32] + b"/seed").digest()

    def may_replace(self, seat: int) -> bool:
        """Whether a claim against ``seat`` gives it to a computer (else the claim, once agreed, ends the game).

        Only during play, on a table whose policy is ``computer``, and never
        a seat a computer already took over (its host's own business).
        """
        return (self.s.on_gone == ON_GONE_COMPUTER and self.s.phase == Phase.PLAY and self.s.identity is not None
                and seat != self.s.my_seat and seat not in self.s.replaced.values())

    def replace(self, seat: int) -> list:
        """Ask the others to give the gone ``seat`` to a computer we host (the claim, table policy ``computer``)."""
        if self.s.over or not self.may_replace(seat) or seat != self.steps.waiting_for():
            raise RulesError(f"seat {seat + 1} cannot be given to a computer now")
        self.write_claim(seat, "")
        return self.s.flush()

    def claim(self, seat: int, why: str) -> list:
        """Claim against the awaited ``seat`` now, without the claim time (the seat said it left for good); the
        other seats still answer it on their own clocks. RulesError if the game does not wait for that seat."""
        if (self.s.over or self.s.identity is None or seat == self.s.my_seat or seat != self.steps.waiting_for()
                or self.s.phase in (Phase.HELLO, Phase.CLAIM)):
            raise RulesError(f"no claim against seat {seat + 1} now")
        self.write_claim(seat, f"{CLAIM_REASON}{why}")
        return self.s.flush()

    def step(self) -> list:
        """Write what we may write now: an answer to a claim that waited for our own clock."""
        self.steps.advance_safely()
        return self.s.flush()

    # ------------------------------------------------------------ writing a claim
    def write_claim(self, seat: int, reason: str, clock: str | None = None) -> None:
        """Claim against the awaited ``seat`` (``reason`` starts with CLAIM_REASON): a replace or a claim entry;
        ``clock`` MOVE_CLOCK when the seat ran out of the move clock (it may be here)."""
        scores = list(self.s.scores_so_far() or ())
        if self.may_replace(seat):
            computer, _ = self.computer_secrets(seat)
            body = {"seat": seat, "key": computer.public, "name": f"{COMPUTER_MARK}{self.s.names[seat]}"[:200],
                    "scores": scores}
        else:
            body = {"seat": seat, "reason": reason[:1000], "scores": scores}
        if clock is not None:
            body["clock"] = clock
        entry = self.s.writer.choose(self.s, REPLACE if "key" in body else CLAIM, body)
        if entry is not None:
            self._take_claim(entry)
            self.steps.advance_safely()

    def close_unanswered(self) -> None:
        """A table of two: the claimed seat did not refuse within the answer window; the claimer closes."""
        c = self.s.claiming
        assert c is not None
        if c.replaces:
            if self.s.writer.choose(self.s, AGREE, {"replace": c.hash}) is not None:
                self._answered(c.seat, True)
                self.steps.advance_safely()      # the re-deal's first table step, if it is ours
        else:
            self._close_claim()

    def _close_claim(self) -> None:
        c = self.s.claiming
        assert c is not None
        self.steps.abort(c.reason, c.seat, [], False)

    # ------------------------------------------------------------ reading a claim
    def read_claim(self, entry: Entry, blame: int | None) -> None:
        """A claim or replace by a seat: checked, appended, and the answers begin."""
        self._check_claim(entry, blame)
        awaited_since = self.s.clocks.awaited_since      # on our clock, since when the chain waited for that seat
        self.s.append(entry)
        self._take_claim(entry, awaited_since)

    def _check_claim(self, entry: Entry, blame: int | None) -> None:
        """It must name the awaited seat, come from another seat, bring the true scores (and for a replace a new
        key and the computer's mark, during play, on a table whose policy is ``computer``)."""
        body, by = entry.body, self.s.roster.seat_of(entry.author)
        where = f"entry {entry.seq}: the {entry.kind} by {self.s.roster.seat_label(entry.author)}"
        if by is None or self.s.phase in OVER_PHASES or self.s.phase in (Phase.HELLO, Phase.CLAIM):
            raise ProtocolError(f"{where}: a claim comes from a seat, while the game waits for another one", blame)
        seat = body["seat"]
        if seat >= len(self.s.seats):
            raise ProtocolError(f"{where}: names seat {seat + 1}, which does not exist", blame)
        if seat == by:
            raise ProtocolError(f"{where}: a seat cannot claim against itself", blame)
        waiting = self.steps.expected_seat()
        if seat != waiting:
            raise ProtocolError(f"{where}: names seat {seat + 1}, but the game waits for "
                                f"{'seat ' + str(waiting + 1) if waiting is not None else 'nobody'}", blame)
        clock = body.get("clock")
        if clock is not None and (clock != MOVE_CLOCK or self.s.move_clock is None):
            raise ProtocolError(f"{where}: claims a clock ({str(body.get('clock'))[:20]!r}) this table did not "
                                f"sign", blame)
        ours = self.s.scores_so_far()
        if tuple(body["scores"]) != (ours or ()):
            raise ProtocolError(f"{where}: signs scores so far {' '.join(map(str, body['scores']))}; the position "
                                f"reached gives {' '.join(map(str, ours or ())) or 'none'}", blame)
        if entry.kind == CLAIM:
            if self.s.on_gone == ON_GONE_COMPUTER and self.s.phase == Phase.PLAY and seat not in self.s.replaced.values():
                raise ProtocolError(f"{where}: on this table a seat gone during play goes to a computer "
                                    f"(a replace), not a claim", blame)
            if not body["reason"].startswith(CLAIM_REASON):
                raise ProtocolError(f"{where}: its reason must start with {CLAIM_REASON.strip()!r}", blame)
            return
        if self.s.on_gone != ON_GONE_COMPUTER:
            raise ProtocolError(f"{where}: the table ends the game when a seat is gone (on-gone policy "
                                f"{self.s.on_gone}); no replacement", blame)
        if self.s.phase != Phase.PLAY or seat in self.s.replaced.values():
            raise ProtocolError(f"{where}: a seat is given to a computer only during play, and only once", blame)
        if body["key"] in self.s.seats or body["key"] in self.s.replaced or body["key"] in self.s.roster.keys():
            raise ProtocolError(f"{where}: the computer's key {ids.fingerprint(body['key'])} is already a "
                                f"player's key", blame)
        if not body["name"].startswith(COMPUTER_MARK):
            raise ProtocolError(f"{where}: the computer's name must start with {COMPUTER_MARK.strip()!r}", blame)

    def claimed_while_gone(self, entry: Entry) -> bool:
        """A claim or replace against our seat at a place where our log holds only entries of ours: held aside.

        Either we were gone (a peer cut off or killed mid-game may have written
        entries that never left it) and the others answer it without us, or it
        raced our own entry, which the others may hold. We follow the branch
        built on it (:meth:`built_on_held`) and are out only once the others
        took it: every answer agreed to a replace, or the claimer closed the
        claim. Our log is kept as it is: identical to the others' before that
        place.
        """
        seq, body = entry.seq, entry.body
        try:
            check(self.s.schemas[entry.kind], body, entry.kind)     # its shape first: nothing is read before
        except ProtocolError:
            return False
        if (self.s.my_seat is None or body["seat"] != self.s.my_seat or seq < 1 or entry.game != self.s.game_id
                or entry.prev != self.s.chain[seq - 1].hash or self.s.roster.seat_of(entry.author) is None
                or any(e.author != self.s.public for e in self.s.chain[seq:])):
            return False
        self.s.chain.hold(entry, entry, 0)
        return True

    def built_on_held(self, entry: Entry) -> bool:
        """An entry of another seat on the branch of a claim against us that we hold aside (see
        :meth:`claimed_while_gone`). Agrees are followed, each from the seat whose answer it is. We are out once
        the others took the claim for sure:
        the claimer's closing abort of a claim, or, after every agree to a replace, any entry built on the last
        one (the computer holds the seat there). A refusal leaves us where we are: our own entry for the claim's
        place voids the claim wherever it arrives (:meth:`claim_voided`)."""
        held = self.s.chain.held.get(entry.prev)
        if held is None or entry.author == self.s.public or entry.game != self.s.game_id:
            return False
        root, agreed = held
        by = self.s.roster.seat_of(root.author)
        assert by is not None and self.s.my_seat is not None     # (held only when a seat claimed against ours)
        answers = [i for i in range(len(self.s.seats)) if i not in (self.s.my_seat, by)] or [by]
        taken = root.kind == REPLACE and agreed >= len(answers)
        if self.s.roster.seat_of(entry.author) is None and not (taken and entry.author == root.body["key"]):
            return False     # (the computer that holds our seat now signs with the key the replace named)
        if taken:
            self.s.chain.replaced_at = root.seq
            self._out(by, f"seat {self.s.my_seat + 1} was given to a computer by seat {by + 1} while this peer "
                          f"was gone (entry {root.seq})")
            return True
        try:
            check(self.s.schemas[entry.kind], entry.body, entry.kind)
        except (KeyError, ProtocolError):
            return False
        if entry.kind == AGREE and entry.body["replace"] == root.hash and agreed < len(answers) \
                and self.s.roster.seat_of(entry.author) == answers[agreed]:     # each answer from its seat, in seat order
            self.s.chain.hold(root, entry, agreed + 1)
            return True
        if (entry.kind == ABORT and root.kind == CLAIM and entry.author == root.author
                and entry.body.get("culprit") == self.s.my_seat and entry.body["reason"] == root.body["reason"]):
            self.s.phases.fire(Trigger.ABORT)
            scores = tuple(entry.body["scores"]) if "scores" in entry.body else None
            cause, waited = cause_of(root.body["reason"], root.body.get("clock"), self.s.my_seat, self.s.move_clock)
            self.s.outcome.result = Aborted(by, self.s.my_seat, f"{root.body['reason']} (claimed by seat {by + 1} while this "
                                                    f"peer was gone, entry {root.seq})", scores, (), cause, waited,
                                  self.s.my_seat)
            self.s.events.append(self.s.outcome.result)
            return True
        return False

    def _take_claim(self, entry: Entry, awaited_since: float | None = None) -> None:
        """The claim is in the chain: the other seats but the claimed one answer in seat order (at a table of two,
        the claimed seat itself)."""
        body, by = entry.body, self.s.roster.seat_of(entry.author)
        assert by is not None       # (checked: a claim comes from a seat)
        seat = body["seat"]
        order = tuple(i for i in range(len(self.s.seats)) if i not in (seat, by)) or (seat,)
        self.s.claiming = Claim(entry.kind, seat, by, entry.hash, order, reason=body.get("reason", ""),
                              key=body.get("key"), name=body.get("name", ""), awaited_since=awaited_since,
                              clock=body.get("clock"))
        if entry.kind == REPLACE:
            self.s.chain.replaced_at = entry.seq     # (a table op under way starts again on the new fair table: _switch)
            self.s.events.append(ReplaceAsked(by, seat, body["name"], tuple(body["scores"]), body["key"]))
        else:
            self.s.events.append(ClaimAsked(by, seat, body["reason"], tuple(body["scores"])))
        self.s.phases.fire(Trigger.CLAIMED)

    def claim_voided(self, entry: Entry) -> bool:
        """The claimed seat's own entry for the place of a claim against it voids the claim while it is not
        closed (the rule of the race, docs/protocol.md "Claims"): the seat is here. If our chain ends with such a
        claim and only its answers (agrees, or a refusal), we take them back (our log included) and the caller
        goes on with the seat's entry in the claim's place. Every peer applies the same rule whatever the order
        in which the two reached it, so every chain comes out the same."""
        claim = self.s.chain.last_claim()
        if (claim is None or claim.seq == len(self.s.chain) - 1 and self.s.claiming is None or entry.seq != claim.seq
                or entry.prev != claim.prev or entry.game != self.s.game_id
                or entry.author != self.s.seats[claim.body["seat"]]):
            return False
        for e in reversed(self.s.chain.take_back(claim.seq)):
            self.s.writer.retract(self.s, e)
        if self.s.claiming is not None:
            self.s.phases.fire(Trigger.VOIDED)
        self.s.claiming = None
        if claim.kind == REPLACE:
            self.s.chain.replaced_at = 0
        self.s.clocks.reset()
        seat = claim.body["seat"]
        self.s.events.append(ClaimRefused(seat, seat, f"seat {seat + 1} moved at that very moment: the claim is "
                                                     f"void"))
        return True

    # ------------------------------------------------------------ the answers
    def on_answer(self, entry: Entry, blame: int | None) -> None:
        c = self.s.claiming
        assert c is not None
        seat = self.s.roster.seat_of(entry.author)
        assert seat is not None
        field = "replace" if entry.kind == AGREE else "claim"
        if entry.body[field] != c.hash:
            raise ProtocolError(f"entry {entry.seq}: seat {seat + 1} answers another claim", seat)
        if entry.kind == REFUSE and seat == c.seat and c.slow:
            raise ProtocolError(f"entry {entry.seq}: seat {seat + 1} refuses a claim that it ran out of the move "
                                f"clock (being here is no answer to it)", seat)
        self.s.append(entry)
        self._answered(c.writer, entry.kind == AGREE, entry.body.get("reason", ""), seat)

    def step_answer(self) -> bool:
        """Our answer, when our turn in the order has come and our clock has one (a claim: we close it)."""
        c = self.s.claiming
        assert c is not None
        seat = c.writer
        if seat != self.s.my_seat or not self.s.writer.may_write(self.s):
            return False
        if c.answered:      # every answer in: the claimer closes the claim
            self._close_claim()
            return False
        if seat == c.seat and c.slow:
            return False          # out of our move clock: being here is no answer; the claimer closes after the window
        if seat == c.seat:                        # a table of two, and we are the claimed seat: we are here
            agree, why = False, f"seat {seat + 1} is here"
        else:
            consent = self.s.consent(c.seat) if self.s.consent is not None else True
            if consent is None:
                return False
            agree, why = consent, f"seat {seat + 1} sees seat {c.seat + 1} here"
        if agree:
            entry = self.s.writer.choose(self.s, AGREE, {"replace": c.hash})
        else:
            entry = self.s.writer.choose(self.s, REFUSE, {"claim": c.hash, "reason": why})
        if entry is None:
            return False
        self._answered(seat, agree, why, seat)
        return True

    def _answered(self, slot: int, agree: bool, why: str = "", by: int | None = None) -> None:
        c = self.s.claiming
        assert c is not None
        if not agree:
            self.s.claiming = None
            self.s.phases.fire(Trigger.REFUSED)
            if c.replaces:
                self.s.chain.replaced_at = 0
            self.s.events.append(ClaimRefused(by if by is not None else slot, c.seat, why))
            return
        c = self.s.claiming = c.agreed_by(slot)
        if c.replaces and c.answered:
            self._switch()

    def _switch(self) -> None:
        """Every answer agreed: the computer holds the seat; every hidden card is re-dealt on a new fair table."""
        r, self.s.claiming = self.s.claiming, None
        assert r is not None and r.key is not None
        seat = r.seat
        if seat == self.s.my_seat:
            self._out(r.by, f"seat {seat + 1} was given to a computer by seat {r.by + 1}: the others saw this "
                            f"peer gone")
            return
        self.s.roster.replace(seat, r.key, r.name)
        assert self.s.game is not None and self.s.view is not None
        ops = redeal.redeal_ops(self.s.game, self.s.view)
        self.s.view = redeal.lay_fresh(self.s.game, self.s.view)
        fair_id = hashlib.sha256(EPOCH_DOMAIN + self.s.game_id + self.s.chain[-1].hash).digest()
        epoch = self.s.chance.epoch + 1
        entropy = None if self.s.my_seat is None else Drbg(self.s.seed, FAIR_DOMAIN + b"/epoch/%d" % epoch)
        self.s.chance.new_epoch(self.s.fairmod.FairTable(fair_id, self.s.my_seat, len(self.s.seats), entropy), ops)
        self.s.phases.fire(Trigger.SEAT_REPLACED)
        self.s.events.append(SeatReplaced(seat, r.name, r.key))

    def _out(self, by: int, reason: str) -> None:
        """Our seat went to a computer: this peer plays no more."""
        assert self.s.my_seat is not None
        self.s.phases.fire(Trigger.OUT)
        self.s.claiming = None
        self.s.outcome.result = Replaced(self.s.my_seat, by, reason)
        self.s.events.append(self.s.outcome.result)
