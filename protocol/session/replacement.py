"""A seat gone for good, given to a computer by agreement of the present seats (table policy ``computer``).

After the claim time the claimer writes a signed ``replace`` (the gone
seat, the computer's new key and name, the scores so far); every other
present seat writes an ``agree`` in seat order; then the computer holds the
seat and, since every face-down card was locked with the gone peer's key
too, every hidden card is re-dealt on a new fair table (same hand sizes,
fresh cards, each deck apart: ``engines/redeal.py``).
"""

from __future__ import annotations

import hashlib
from collections import deque

from engines import redeal
from engines.core import RulesError
from protocol import identity as ids
from protocol.log import Entry
from protocol.wire import ProtocolError, check

from .events import ReplaceAsked, Replaced, ReplayMismatch, SeatReplaced
from .kinds import (AGREE, COMPUTER_DOMAIN, COMPUTER_MARK, EPOCH_DOMAIN, FAIR_DOMAIN, ON_GONE_COMPUTER, REPLACE,
                    Drbg)
from .phases import Phase


class Replacement:
    """Replacing a gone seat by a computer, in :class:`~protocol.session.Session`."""

    def computer_key_material(self, seat: int) -> bytes:
        """What the identity of the computer we would host for ``seat`` is made from (``Identity.from_seed``)."""
        return hashlib.sha256(COMPUTER_DOMAIN + self.seed + self.game_id + bytes([seat])).digest() + b"/key"

    def computer_secrets(self, seat: int) -> tuple[ids.Identity, bytes]:
        """The identity and session seed of the computer we would host for ``seat`` (from our seed).

        Derived, so that a claimer restarted from its files hosts the same
        computer; the claimer's seed is revealed at the end, the computer's
        with it (it signed nothing after the game).
        """
        material = self.computer_key_material(seat)
        return ids.Identity.from_seed(material), hashlib.sha256(material[:32] + b"/seed").digest()

    def may_replace(self, seat: int) -> bool:
        """Whether we may give the gone ``seat`` to a computer (else a claim ends the game).

        Only during play, on a table whose policy is ``computer``, and never
        a seat a computer already took over (its host's own business).
        """
        return (self.on_gone == ON_GONE_COMPUTER and self.phase == Phase.PLAY and self.identity is not None
                and seat != self.my_seat and seat not in self.replaced.values())

    def replace(self, seat: int) -> list:
        """Ask the others to give the gone ``seat`` to a computer we host (the claim, table policy ``computer``)."""
        if self.over or not self.may_replace(seat):
            raise RulesError(f"seat {seat + 1} cannot be given to a computer now")
        self._replace(seat)
        return self._flush()

    def _replace(self, seat: int) -> None:
        computer, _ = self.computer_secrets(seat)
        scores = self.scores_so_far() or ()
        body = {"seat": seat, "key": computer.public, "name": f"{COMPUTER_MARK}{self.names[seat]}"[:200],
                "scores": list(scores)}
        entry = self.writer.write(self, REPLACE, body)
        self._take_replace(entry)
        self._advance_safely()

    def _read_replace(self, entry: Entry, blame: int | None) -> None:
        """A replace by a seat, during play: checked, appended, and the agreement begins."""
        self._check_replace(entry, blame)
        self._append(entry)
        self._take_replace(entry)

    def _check_replace(self, entry: Entry, blame: int | None) -> None:
        """A ``replace`` must name the awaited seat, come from another seat, bring a new key and the true scores."""
        body, by = entry.body, self._seat_of(entry.author)
        where = f"entry {entry.seq}: the replace by {self._seat_label(entry.author)}"
        if self.on_gone != ON_GONE_COMPUTER:
            raise ProtocolError(f"{where}: the table ends the game when a seat is gone (on-gone policy "
                                f"{self.on_gone}); no replacement", blame)
        if self.phase != Phase.PLAY or by is None:
            raise ProtocolError(f"{where}: a seat is replaced only during play, by a seat", blame)
        seat = body["seat"]
        if seat >= len(self.seats):
            raise ProtocolError(f"{where}: names seat {seat + 1}, which does not exist", blame)
        if seat == by:
            raise ProtocolError(f"{where}: a seat cannot replace itself", blame)
        waiting = self._expected_seat()
        if seat != waiting:
            raise ProtocolError(f"{where}: names seat {seat + 1}, but the game waits for seat "
                                f"{waiting + 1 if waiting is not None else '?'}, not a gone one", blame)
        if body["key"] in self.seats or body["key"] in self.replaced or body["key"] in self._keys():
            raise ProtocolError(f"{where}: the computer's key {ids.fingerprint(body['key'])} is already a "
                                f"player's key", blame)
        if not body["name"].startswith(COMPUTER_MARK):
            raise ProtocolError(f"{where}: the computer's name must start with {COMPUTER_MARK.strip()!r}", blame)
        ours = self.scores_so_far()
        if ours is None or tuple(body["scores"]) != ours:
            raise ProtocolError(f"{where}: signs scores so far {' '.join(map(str, body['scores']))}; the position "
                                f"reached gives {' '.join(map(str, ours or ()))}", blame)

    def _replaced_while_gone(self, entry: Entry) -> bool:
        """Our seat was given away at a place where our log holds only entries of ours nobody got: we are out.

        (A peer killed mid-game may have written entries that never left it.)
        Our log is kept as it is: identical to the others' before that place.
        """
        seq, body = entry.seq, entry.body
        try:
            check(self._schemas[REPLACE], body, REPLACE)     # its shape first: nothing is read before
        except ProtocolError:
            return False
        if (self.my_seat is None or body["seat"] != self.my_seat or seq < 1 or entry.game != self.game_id
                or entry.prev != self.chain[seq - 1].hash or self._seat_of(entry.author) is None
                or any(e.author != self.public for e in self.chain[seq:])):
            return False
        self._take_replace(entry)
        return True

    def _take_replace(self, entry: Entry) -> None:
        """The replace is in the chain: the gone seat is out; the other present seats agree in seat order."""
        body, by = entry.body, self._seat_of(entry.author)
        seat = body["seat"]
        self.replaced_at = entry.seq
        if seat == self.my_seat:
            self.phase = Phase.REPLACED
            self.result = Replaced(seat, by, f"seat {seat + 1} was given to a computer by seat {by + 1} while this "
                                             f"peer was gone (entry {entry.seq})")
            self._events.append(self.result)
            return
        order = [i for i in range(len(self.seats)) if i not in (seat, by)]
        self.replacing = {"seat": seat, "key": body["key"], "name": body["name"], "by": by,
                          "hash": entry.hash, "order": order, "agreed": []}
        self.phase = Phase.REPLACE
        self._op = None        # a table op under way starts again on the new fair table
        self._events.append(ReplaceAsked(by, seat, body["name"], tuple(body["scores"]), body["key"]))
        if not order:
            self._switch()

    def _on_agree(self, entry: Entry, blame: int | None) -> None:
        seat = self._seat_of(entry.author)
        if seat == self.my_seat:
            raise ReplayMismatch(f"entry {entry.seq}: seat {seat + 1} would not have written this", seat)
        if entry.body["replace"] != self.replacing["hash"]:
            raise ProtocolError(f"entry {entry.seq}: seat {seat + 1} agrees to another replacement", seat)
        self._append(entry)
        self._agreed(seat)

    def _agreed(self, seat: int) -> None:
        self.replacing["agreed"].append(seat)
        if len(self.replacing["agreed"]) == len(self.replacing["order"]):
            self._switch()

    def _switch(self) -> None:
        """Every present seat agreed: the computer holds the seat; every hidden card is re-dealt on a new fair table."""
        r, self.replacing = self.replacing, None
        seat = r["seat"]
        self.replaced[self.seats[seat]] = seat
        self.seats[seat], self.names[seat] = r["key"], r["name"]
        self.my_seat = self._seat_of(self.public)
        self.epoch += 1
        self.old_steps += self.steps
        self.steps = []
        self._redeal = deque(redeal.redeal_ops(self.game, self.view))
        self.view = redeal.lay_fresh(self.game, self.view)
        fair_id = hashlib.sha256(EPOCH_DOMAIN + self.game_id + self.chain[-1].hash).digest()
        entropy = None if self.my_seat is None else Drbg(self.seed, FAIR_DOMAIN + b"/epoch/%d" % self.epoch)
        self.fair = self._fairmod.FairTable(fair_id, self.my_seat, len(self.seats), entropy)
        self._op = None
        self.phase = Phase.PLAY
        self._events.append(SeatReplaced(seat, r["name"], r["key"]))

    def _step_agree(self) -> bool:
        """Our agreement, when our turn in the order has come."""
        seat = self._expected_seat()
        if seat != self.my_seat or not self.writer.may_write(self):
            return False
        self.writer.write(self, AGREE, {"replace": self.replacing["hash"]})
        self._agreed(seat)
        return True
