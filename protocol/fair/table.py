"""The fair table: the engines' table operations resolved between peers, sans-IO.

One :class:`FairTable` per peer per game. The game is one hash chain with a
total order, so every fair step is authored by one known seat and consumed by
all the others; for N peers the same steps run in seat order. The session
drives it (:func:`protocol.fair.driver.run_op`)::

    table.begin(op, view)                  # every peer, same op, own view
    while (seat := table.expected()) is not None:
        if seat == me: send(*table.produce())
        else:          table.consume(seat, *receive())
    outcome = table.outcome()              # apply to the view like an action

The operations (ROLL by commit-reveal, SHUFFLE, DEAL and REVEAL by the mental-poker deck, a hidden card
played with :meth:`prove`) and every check on what comes in: docs/fair.md. What a pile means for the slots
is :mod:`.plan` (shared with the verifier's :mod:`.reveal`); :mod:`.audit` recomputes every step at the end.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Sequence

from lanterne.engines.core import DEAL, REVEAL, ROLL, SHUFFLE, State, TableOp

from . import group as g
from .audit import Auditor
from .decks import Deck, Roll
from .errors import CheatDetected, FairError
from .messages import BodyError, check_body
from .plan import OpenSlot, Step, check_pile, check_slots, plan_open


def _who(seat: int) -> str:
    return f"seat {seat + 1}"


class FairTable:
    """Commit-reveal dice and a mental-poker deck for one peer. ``seat=None``: a watching table, which authors
    nothing, holds no secret, gives only what every seat may know and consumes every step like a seat."""

    def __init__(self, game_id: bytes, seat: int | None, players: int, entropy: g.Entropy | None):
        if players < 2:
            raise FairError(f"a fair table needs 2 or more players, not {players}")
        if seat is not None and not 0 <= seat < players:
            raise FairError(f"seat {seat + 1} is not one of the {players} seats")
        self.game_id, self.seat, self.players = bytes(game_id), seat, players
        self._entropy = entropy
        self._rolls = 0
        self._decks: list[Deck] = []
        self._where: dict[int, tuple[int, int]] = {}   # slot -> (deck, position)
        self._op: TableOp | None = None
        self._steps: list[Step] = []
        self._roll: Roll | None = None
        self._open: list[OpenSlot] = []
        self._outcome: tuple | None = None
        self._finals: dict[int, dict] = {}
        self._audit = Auditor(self.game_id, players)
        self._step_no = 0

    @property
    def _me(self) -> int:
        """Our seat, for what only a seat does (a watching table authors nothing)."""
        if self.seat is None:
            raise FairError("a watching table authors nothing")
        return self.seat

    @property
    def _draw(self) -> g.Entropy:
        """Where our secrets come from (a table that only consumes may have none)."""
        if self._entropy is None:
            raise FairError("this table has no entropy source to draw its secrets from")
        return self._entropy

    @property
    def _die(self) -> Roll:
        """The roll being resolved."""
        if self._roll is None:
            raise FairError("no roll is being resolved")
        return self._roll

    # ------------------------------------------------------------------ the driving interface

    def begin(self, op: TableOp, view: State) -> None:
        """Start resolving ``op`` (every peer, with its own view). Secrets are drawn now."""
        if self._steps and self._op is not None:
            raise FairError(f"the table is still resolving a {self._op.kind}")
        if len(self._finals):
            raise FairError("the game's secrets are revealed; no more table operations")
        self._op, self._outcome = op, None
        if op.kind == ROLL:
            self._begin_roll(op)
        elif op.kind == SHUFFLE:
            self._begin_shuffle(op, view)
        elif op.kind in (DEAL, REVEAL):
            self._begin_open(op, view)
        else:
            raise FairError(f"unknown table operation {op.kind!r}")
        self._finish_if_done()

    def expected(self) -> int | None:
        """The seat that must author the next fair message; None when the op is done."""
        return self._steps[0][0] if self._steps else None

    def next_kind(self) -> str | None:
        """The kind of the fair message due next (None: the op is done)."""
        return self._steps[0][1] if self._steps else None

    def produce(self) -> tuple[str, dict]:
        """Our next message (kind, body); only when ``expected()`` is our seat."""
        if self.seat is None or not self._steps or self._steps[0][0] != self.seat:
            raise FairError("it is not our fair step")
        _, kind, what = self._steps[0]
        body = self._MAKE[kind](self, what)
        self._record(self.seat, kind, body)
        self._steps.pop(0)
        self._finish_if_done()
        return kind, body

    def consume(self, seat: int, kind: str, body: dict) -> None:
        """Another seat's message (already signature-checked). Raises CheatDetected."""
        if seat == self.seat:
            raise FairError("a table does not consume its own messages")
        if not self._steps:
            raise CheatDetected(seat, f"{_who(seat)} sent {kind} when no fair step was due")
        author, want, what = self._steps[0]
        if seat != author or kind != want:
            raise CheatDetected(seat, f"{_who(seat)} sent {kind} but the next step is {want} by {_who(author)}")
        try:
            check_body(kind, body)
        except BodyError as e:
            raise CheatDetected(seat, f"{_who(seat)}: bad {kind}: {e}") from None
        self._TAKE[kind](self, seat, body, what)
        self._record(seat, kind, body)
        self._steps.pop(0)
        self._finish_if_done()

    def outcome(self) -> tuple:
        """The op's outcome for our view (identities we may not know are None)."""
        if self._steps or self._outcome is None:
            raise FairError("the table operation is not complete")
        return self._outcome

    # ------------------------------------------------------------------
    # Dice

    def _begin_roll(self, op: TableOp) -> None:
        if op.faces < 1:
            raise FairError(f"a die needs at least one face, not {op.faces}")
        self._roll = Roll(self._rolls, op.faces, b"" if self.seat is None else self._draw(32))
        self._rolls += 1
        self._steps = ([(s, "fair_commit", None) for s in range(self.players)]
                       + [(s, "fair_open", None) for s in range(self.players)])

    def _make_commit(self, _: Any) -> dict:
        r, me = self._die, self._me
        r.commits[me] = g.die_commitment(self.game_id, r.number, me, r.nonce)
        return {"roll": r.number, "commit": r.commits[me]}

    def _take_commit(self, seat: int, body: dict, _: Any) -> None:
        r = self._die
        if body["roll"] != r.number:
            raise CheatDetected(seat, f"{_who(seat)} committed to roll {body['roll']}, not roll {r.number}")
        r.commits[seat] = body["commit"]

    def _make_open(self, _: Any) -> dict:
        r = self._die
        r.nonces[self._me] = r.nonce
        return {"roll": r.number, "nonce": r.nonce}

    def _take_open(self, seat: int, body: dict, _: Any) -> None:
        r = self._die
        if body["roll"] != r.number:
            raise CheatDetected(seat, f"{_who(seat)} opened roll {body['roll']}, not roll {r.number}")
        if g.die_commitment(self.game_id, r.number, seat, body["nonce"]) != r.commits[seat]:
            raise CheatDetected(seat, f"{_who(seat)}'s secret for roll {r.number} does not match its commitment")
        r.nonces[seat] = body["nonce"]

    # ------------------------------------------------------------------
    # Shuffles

    def _begin_shuffle(self, op: TableOp, view: State) -> None:
        slots = list(op.slots)
        if not slots:
            check_slots(op, view)
            self._outcome = (SHUFFLE, ())
            return
        hidden, cards = check_pile(op, view, self._where)
        number, n = len(self._decks), len(slots)
        base, card_of, public = [], {}, iter(cards)
        for j, slot in enumerate(slots):
            if j in hidden:                 # the card as its old deck holds it, locked by every seat
                d, pos = self._where[slot]
                base.append(self._decks[d].points[pos])
                card_of.update(self._decks[d].card_of)
            else:
                c = next(public)
                base.append(g.card_point(self.game_id, number, c))
                card_of[base[-1]] = c
        deck = Deck(number, slots, cards, hidden, card_of, base, None, [], [],
                     opened=[{} for _ in range(n)], known=[None] * n)
        if self.seat is not None:           # a watching table holds no secret
            if hidden:
                deck.swap = g.random_scalar(self._draw)
                for j in hidden:
                    d, pos = self._where[slots[j]]
                    deck.old_keys[j] = self._decks[d].keys[pos]
            if self.seat != self.players - 1:
                deck.lock = g.random_scalar(self._draw)
            deck.perm = g.random_permutation(self._draw, n)
            deck.keys = [g.random_scalar(self._draw) for _ in range(n)]
        self._decks.append(deck)
        for pos, slot in enumerate(slots):
            self._where[slot] = (number, pos)
        seats = range(self.players)
        self._steps = ([(s, "fair_relock", deck) for s in seats if hidden]
                       + [(s, "fair_shuffle", deck) for s in seats]
                       + [(s, "fair_rekey", deck) for s in range(self.players - 1)])

    def _names(self, deck: Deck, kind: str) -> dict:
        """The deck's first message names its pile: public cards, slots, hidden indexes."""
        first = "fair_relock" if deck.hidden else "fair_shuffle"
        if self.seat != 0 or kind != first:
            return {}
        body = {"cards": list(deck.cards), "slots": list(deck.slots)}
        if deck.hidden:
            body["hidden"] = list(deck.hidden)
        return body

    def _make_relock(self, deck: Deck) -> dict:
        body = {"deck": deck.number, **self._names(deck, "fair_relock")}
        body["points"] = deck.points = self._our_pass("fair_relock", deck, deck.points)
        return body

    def _take_relock(self, seat: int, body: dict, deck: Deck) -> None:
        self._check_names(seat, body, deck, "fair_relock")
        self._take_points(seat, body, deck, "relock")

    def _make_shuffle(self, deck: Deck) -> dict:
        body: dict[str, Any] = {"deck": deck.number, **self._names(deck, "fair_shuffle")}
        if deck.lock is None:
            body["commits"] = self._commit_keys(deck)
        body["points"] = deck.points = self._our_pass("fair_shuffle", deck, deck.points)
        return body

    def _our_pass(self, kind: str, deck: Deck, inp: list[bytes]) -> list[bytes]:
        """Our relock, shuffle or rekey of ``inp``. Every input point is locked once,
        and a lock refuses (ValueError) any point outside the prime-order group."""
        if deck.ready is not None:
            out, deck.ready = deck.ready, None
            return out
        swap = deck.swap
        if kind == "fair_relock":           # positions stay: our old keys off, one new lock on
            assert swap is not None         # (drawn for every deck that has hidden slots, the only ones relocked)
            unkey = {j: g.scalar_mul(swap, g.scalar_inv(k)) for j, k in deck.old_keys.items()}
            return [g.lock(unkey.get(j, swap), p) for j, p in enumerate(inp)]
        if kind == "fair_rekey":
            assert deck.lock is not None    # (the last seat, which holds no lock, does not rekey)
            unlock = g.scalar_inv(deck.lock if swap is None else g.scalar_mul(deck.lock, swap))
            return [g.lock(g.scalar_mul(k, unlock), p) for k, p in zip(deck.keys, inp)]
        if deck.lock is None:               # the last seat: one key per position right away
            if swap is None:
                return [g.lock(k, inp[p]) for k, p in zip(deck.keys, deck.perm)]
            unlock = g.scalar_inv(swap)
            return [g.lock(g.scalar_mul(k, unlock), inp[p]) for k, p in zip(deck.keys, deck.perm)]
        return [g.lock(deck.lock, inp[p]) for p in deck.perm]

    def _check_names(self, seat: int, body: dict, deck: Deck, kind: str) -> None:
        first = "fair_relock" if deck.hidden else "fair_shuffle"
        named = {k: body[k] for k in ("cards", "slots", "hidden") if k in body}
        if seat == 0 and kind == first:
            want = {"cards": deck.cards, "slots": deck.slots, **({"hidden": deck.hidden} if deck.hidden else {})}
            if named != want:
                raise CheatDetected(seat, f"{_who(seat)} started deck {deck.number} with other cards or slots "
                                          "than the pile being shuffled")
        elif named:
            raise CheatDetected(seat, f"{_who(seat)} named the cards of deck {deck.number} in its {kind[5:]}, "
                                      "which only seat 1's first message does")

    def _take_shuffle(self, seat: int, body: dict, deck: Deck) -> None:
        self._check_names(seat, body, deck, "fair_shuffle")
        last = seat == self.players - 1
        if last != ("commits" in body):
            raise CheatDetected(seat, f"{_who(seat)}'s shuffle of deck {deck.number} "
                                      + ("lacks" if last else "must not carry") + " key commitments")
        self._take_points(seat, body, deck, "shuffle")
        if last:
            self._take_commits(seat, body, deck)

    def _make_rekey(self, deck: Deck) -> dict:
        deck.points = self._our_pass("fair_rekey", deck, deck.points)
        return {"deck": deck.number, "points": deck.points, "commits": self._commit_keys(deck)}

    def _take_rekey(self, seat: int, body: dict, deck: Deck) -> None:
        self._take_points(seat, body, deck, "rekey")
        self._take_commits(seat, body, deck)

    def _commit_keys(self, deck: Deck) -> list[bytes]:
        me = self._me
        commits = [g.key_commitment(self.game_id, deck.number, me, pos, k) for pos, k in enumerate(deck.keys)]
        deck.commits[me] = commits
        return commits

    def _take_points(self, seat: int, body: dict, deck: Deck, what: str) -> None:
        """Check a published deck: its number, its size, distinct points in the group."""
        if body["deck"] != deck.number:
            raise CheatDetected(seat, f"{_who(seat)} sent a {what} of deck {body['deck']}, not deck {deck.number}")
        points = body["points"]
        if len(points) != len(deck.slots):
            raise CheatDetected(seat, f"{_who(seat)}'s {what} of deck {deck.number} has {len(points)} cards, "
                                      f"not {len(deck.slots)}")
        if len(set(points)) != len(points):
            raise CheatDetected(seat, f"{_who(seat)}'s {what} of deck {deck.number} repeats a card")
        points = list(points)
        after = self._steps[1] if len(self._steps) > 1 else None
        try:
            if after is not None and after[0] == self.seat and after[2] is deck:
                # We lock every one of these points next: do it now, the lock validates each.
                deck.ready = self._our_pass(after[1], deck, points)
            elif not all(map(g.is_point, points)):
                raise ValueError
        except ValueError:
            pos = next(i for i, p in enumerate(points) if not g.is_point(p))
            raise CheatDetected(seat, f"{_who(seat)}'s {what} of deck {deck.number}: position {pos} "
                                      "is not a point of the group") from None
        deck.points = points

    def _take_commits(self, seat: int, body: dict, deck: Deck) -> None:
        if len(body["commits"]) != len(deck.slots):
            raise CheatDetected(seat, f"{_who(seat)} sent {len(body['commits'])} key commitments "
                                      f"for the {len(deck.slots)} cards of deck {deck.number}")
        deck.commits[seat] = list(body["commits"])

    # ------------------------------------------------------------------
    # Deals and reveals

    def _begin_open(self, op: TableOp, view: State) -> None:
        self._open, self._steps = plan_open(op, view, self._where, self._decks, self.players)

    def _make_keys(self, refs: list[tuple[int, int]]) -> dict:
        keys, me = [], self._me
        for d, pos in refs:
            deck = self._decks[d]
            deck.opened[pos][me] = deck.keys[pos]
            keys.append(deck.keys[pos])
        return {"decks": [d for d, _ in refs], "pos": [p for _, p in refs], "keys": keys}

    def _take_keys(self, seat: int, body: dict, refs: list[tuple[int, int]]) -> None:
        self._take_proof_keys(seat, body, refs, "keys")

    def _take_proof_keys(self, seat: int, body: dict, refs: list[tuple[int, int]], what: str) -> None:
        if list(zip(body["decks"], body["pos"])) != refs or len(body["decks"]) != len(body["pos"]):
            raise CheatDetected(seat, f"{_who(seat)}'s {what} open other deck positions than the step needs")
        if len(body["keys"]) != len(refs):
            raise CheatDetected(seat, f"{_who(seat)} sent {len(body['keys'])} keys for {len(refs)} positions")
        for (d, pos), key in zip(refs, body["keys"]):
            deck = self._decks[d]
            if not g.is_scalar(key) or g.key_commitment(self.game_id, d, seat, pos, key) != deck.commits[seat][pos]:
                raise CheatDetected(seat, f"{_who(seat)}'s key for deck {d} position {pos} "
                                          "does not match its commitment")
        for (d, pos), key in zip(refs, body["keys"]):
            self._decks[d].opened[pos][seat] = key

    def _identity(self, ref: tuple[int, int]) -> int | None:
        """The card at a deck position if we hold every key, else None."""
        d, pos = ref
        deck = self._decks[d]
        if deck.known[pos] is not None:
            return deck.known[pos]
        keys = []
        for s in range(self.players):
            key = deck.opened[pos].get(s, deck.keys[pos] if s == self.seat else None)
            if key is None:
                return None
            keys.append(key)
        point = g.lock(g.scalar_inv(g.product(keys)), deck.points[pos])
        ident = deck.card_of.get(point)
        if ident is None:
            raise CheatDetected(None, f"deck {d} position {pos} opens to no card: a relock, shuffle or rekey of "
                                       f"deck {d} was tampered (the final audit names the seat)")
        if ident in deck.found:
            raise CheatDetected(None, f"deck {d} holds card {ident} twice (positions {deck.found[ident]} "
                                       f"and {pos}): a shuffle was tampered (the final audit names the seat)")
        deck.known[pos] = ident
        deck.found[ident] = pos
        return ident

    def _finish_if_done(self) -> None:
        if self._steps or self._outcome is not None or self._op is None:
            return
        op = self._op
        if op.kind == ROLL:
            r = self._die
            value = g.roll_value(self.game_id, r.number, r.faces, [r.nonces[s] for s in range(self.players)])
            self._outcome = (ROLL, value)
        elif op.kind == SHUFFLE:
            self._outcome = (SHUFFLE, (None,) * len(op.slots))
        else:
            ids = tuple(public if ref is None else self._identity(ref) for _, ref, public in self._open)
            self._outcome = (op.kind, ids)

    # ------------------------------------------------------------------
    # Cards played from a hidden hand

    def prove(self, slots: Sequence[int]) -> dict:
        """Our keys opening these slots, held by us face down (body schema ``proof``).

        Call it only for a move we send: the keys become public.
        """
        if self.seat is None:
            raise FairError("a watching table holds no card")
        hidden = [s for s in slots if s in self._where]     # public slots need no proof
        ids = []
        for slot in hidden:
            ident = self._identity(self._where[slot])
            if ident is None:
                raise FairError(f"slot {slot} is not a card we know; we cannot prove it")
            ids.append(ident)
        proof = self._make_keys([self._where[s] for s in hidden])
        self._record(self.seat, "fair_claim", {"slots": hidden, "ids": ids, "proof": proof})
        return proof

    def check_claims(self, seat: int, slots: Sequence[int], ids: Sequence[int], proof: dict) -> None:
        """Check the identities ``seat`` claims for slots it plays. Raises CheatDetected."""
        try:
            check_body("proof", proof)
        except BodyError as e:
            raise CheatDetected(seat, f"{_who(seat)}: bad proof: {e}") from None
        if len(slots) != len(ids):
            raise CheatDetected(seat, f"{_who(seat)} claims {len(ids)} cards for {len(slots)} slots")
        refs = [self._where[s] for s in slots if s in self._where]
        self._take_proof_keys(seat, proof, refs, "proof")
        for slot, ident in zip(slots, ids):
            ref = self._where.get(slot)
            if ref is None:
                continue        # a public card: the engine checks it against the view
            actual = self._identity(ref)
            if actual is None:
                raise CheatDetected(seat, f"{_who(seat)} claims slot {slot}, which was not dealt to it")
            if actual != ident:
                raise CheatDetected(seat, f"{_who(seat)} claims card {ident} in slot {slot}, "
                                          f"but its keys open card {actual}")
        self._record(seat, "fair_claim", {"slots": list(slots), "ids": list(ids), "proof": proof})

    # ------------------------------------------------------------------
    # End of game

    def final_reveal(self) -> tuple[str, dict]:
        """All our secrets (locks, permutations, keys), for everyone to audit the game."""
        if self.seat is None:
            raise FairError("a watching table has no secret to reveal")
        decks = []
        for deck in self._decks:
            entry: dict[str, Any] = {"deck": deck.number, "perm": list(deck.perm), "keys": list(deck.keys)}
            if deck.lock is not None:
                entry["lock"] = deck.lock
            if deck.swap is not None:
                entry["swap"] = deck.swap
            decks.append(entry)
        body = {"decks": decks}
        self._finals[self.seat] = body
        self._check_finals()
        return "fair_final", body

    def consume_final(self, seat: int, body: dict) -> None:
        """Another seat's secrets: recompute its every step. Raises CheatDetected."""
        if seat == self.seat or not 0 <= seat < self.players:
            raise FairError(f"seat {seat + 1} is not another seat of this table")
        if seat in self._finals:
            raise CheatDetected(seat, f"{_who(seat)} revealed its secrets twice")
        try:
            check_body("fair_final", body)
        except BodyError as e:
            raise CheatDetected(seat, f"{_who(seat)}: bad fair_final: {e}") from None
        problems = self._audit.check_final(seat, body)
        if problems:
            raise CheatDetected(seat, problems[0][1])
        self._finals[seat] = body
        self._check_finals()

    def _check_finals(self) -> None:
        if len(self._finals) == self.players:
            problems = self._audit.check_decks(self._finals)
            if problems:
                raise CheatDetected(*problems[0])

    def _record(self, seat: int, kind: str, body: dict) -> None:
        self._audit.feed(self._step_no, seat, kind, body)
        self._step_no += 1

    _MAKE: ClassVar[dict[str, Callable[..., dict]]] = {
        "fair_commit": _make_commit, "fair_open": _make_open, "fair_relock": _make_relock,
        "fair_shuffle": _make_shuffle, "fair_rekey": _make_rekey, "fair_keys": _make_keys}
    """Each fair kind -> the method that makes our message of it."""
    _TAKE: ClassVar[dict[str, Callable[..., None]]] = {
        "fair_commit": _take_commit, "fair_open": _take_open, "fair_relock": _take_relock,
        "fair_shuffle": _take_shuffle, "fair_rekey": _take_rekey, "fair_keys": _take_keys}
    """Each fair kind -> the method that takes another seat's message of it."""
