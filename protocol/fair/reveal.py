"""The fair table with every secret revealed: every seat's messages checked in one pass.

Once a game is over every seat has revealed its session seed, so each seat's
fair secrets (die nonces, relocks, locks, permutations, keys) can be drawn
again from its seed, in the order the spec fixes (docs/protocol.md section
7: at each op's start a roll draws a 32-byte nonce; a shuffle draws the relock
when the pile holds hidden cards, the lock unless the seat is the last, the
permutation, then one key per position). :class:`RevealedTable` does that for
all seats at once and requires every logged fair message to be byte for byte
what its author's secrets give on the logged input, so:

* each relock, shuffle and rekey pass is recomputed ONCE (not once per seat);
* every commitment is the hash of the derived key or nonce, every published
  key and proof is the derived key, and every ``fair_final`` is the derived
  secrets, so the audit's checks hold;
* since every pass is then the exact function of the secrets, every deck
  position holds the card its composed permutations say (:meth:`identity`):
  no card needs to be opened with a group operation.

It drives like :class:`protocol.fair.FairTable` (``begin``, ``expected``,
``consume``, ``outcome``, ``check_claims``, ``consume_final``) and its
outcomes are the union of every seat's: every dealt card's identity.
Any difference raises :class:`CheatDetected` naming the author.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Sequence

from lanterne.engines.core import DEAL, REVEAL, ROLL, SHUFFLE, State, TableOp

from . import group as g
from .errors import CheatDetected, FairError
from .plan import check_pile, check_slots, plan_open


def _who(seat: int) -> str:
    return f"seat {seat + 1}"


def _same(body: Any, expected: Any) -> bool:
    """Whether a logged body is the expected one, as bytes on the wire would be.

    Python's equality on plain data, except that it takes True for 1: a
    bool where the expected body holds an int (or the reverse) differs.
    """
    if type(body) is not type(expected):
        return False
    if type(body) is dict:
        return body.keys() == expected.keys() and all(_same(body[k], expected[k]) for k in body)
    if type(body) is list:
        if len(body) != len(expected):
            return False
        if expected and type(expected[0]) is bytes:   # points, keys, commitments: bytes equal bytes only
            return body == expected
        return all(_same(a, b) for a, b in zip(body, expected))
    return body == expected


@dataclass
class _Deck:
    number: int
    slots: list[int]
    cards: list[int]                              # identities of the public slots, in pile order
    hidden: list[int]                             # pile indexes of the hidden slots
    origin: dict[int, tuple[int, int]]            # hidden pile index -> (older deck, position)
    points: list[bytes]                           # the deck as last published (before any pass: the base)
    swaps: list[bytes | None]                     # per seat
    locks: list[bytes | None]                     # per seat (None for the last seat)
    perms: list[list[int]]                        # per seat: out[j] = in[perm[j]]
    keys: list[list[bytes]]                       # per seat: one key per position
    idents: list[int] = field(default_factory=list)       # the card at each position
    opened: list[set[int]] = field(default_factory=list)  # per position: seats whose key is out


class RevealedTable:
    """Every seat's fair table at once, from every seat's revealed entropy (see module doc)."""

    def __init__(self, game_id: bytes, players: int, entropies: Sequence[g.Entropy]):
        if players < 2 or len(entropies) != players:
            raise FairError(f"a revealed table needs the entropy of each of its {players} seats")
        self.game_id = bytes(game_id)
        self.players = players
        self._entropy = list(entropies)
        self._rolls = 0
        self._nonces: list[bytes] = []
        self._decks: list[_Deck] = []
        self._where: dict[int, tuple[int, int]] = {}
        self._op: TableOp | None = None
        self._steps: list[tuple[int, str, Any]] = []
        self._open: list[tuple[int, tuple[int, int] | None, int | None]] = []
        self._outcome: tuple | None = None
        self._finals: set[int] = set()

    # ------------------------------------------------------------------
    # What the game's cards are

    def identity(self, deck: int, pos: int) -> int:
        """The card at a deck position (every pass checked exact, so no key is needed)."""
        return self._decks[deck].idents[pos]

    def cards(self) -> dict[tuple[int, int], int]:
        """Every deck position -> its card."""
        return {(d.number, pos): ident for d in self._decks for pos, ident in enumerate(d.idents)}

    # ------------------------------------------------------------------
    # The driving interface (as FairTable's)

    def begin(self, op: TableOp, view: State) -> None:
        if self._steps and self._op is not None:
            raise FairError(f"the table is still resolving a {self._op.kind}")
        if self._finals:
            raise FairError("the game's secrets are revealed; no more table operations")
        self._op, self._outcome = op, None
        if op.kind == ROLL:
            if op.faces < 1:
                raise FairError(f"a die needs at least one face, not {op.faces}")
            self._nonces = [entropy(32) for entropy in self._entropy]
            self._steps = ([(s, "fair_commit", self._rolls) for s in range(self.players)]
                           + [(s, "fair_open", self._rolls) for s in range(self.players)])
            self._rolls += 1
        elif op.kind == SHUFFLE:
            self._begin_shuffle(op, view)
        elif op.kind in (DEAL, REVEAL):
            self._begin_open(op, view)
        else:
            raise FairError(f"unknown table operation {op.kind!r}")
        self._finish_if_done()

    def expected(self) -> int | None:
        return self._steps[0][0] if self._steps else None

    def next_kind(self) -> str | None:
        return self._steps[0][1] if self._steps else None

    def consume(self, seat: int, kind: str, body: dict) -> None:
        """A logged fair message: it must be what its author's secrets give here."""
        if not self._steps:
            raise CheatDetected(seat, f"{_who(seat)} sent {kind} when no fair step was due")
        author, want, what = self._steps[0]
        if seat != author or kind != want:
            raise CheatDetected(seat, f"{_who(seat)} sent {kind} but the next step is {want} by {_who(author)}")
        expected = self._MAKE[kind](self, seat, what)
        if not _same(body, expected):
            raise CheatDetected(seat, f"{_who(seat)}'s {kind} is not what its revealed seed gives")
        if kind in ("fair_relock", "fair_shuffle", "fair_rekey"):
            what.points = expected["points"]
        self._steps.pop(0)
        self._finish_if_done()

    def outcome(self) -> tuple:
        if self._steps or self._outcome is None:
            raise FairError("the table operation is not complete")
        return self._outcome

    def _finish_if_done(self) -> None:
        if self._steps or self._outcome is not None or self._op is None:
            return
        op = self._op
        if op.kind == ROLL:
            self._outcome = (ROLL, g.roll_value(self.game_id, self._rolls - 1, op.faces, self._nonces))
        elif op.kind == SHUFFLE:
            self._outcome = (SHUFFLE, (None,) * len(op.slots))
        else:
            self._outcome = (op.kind, tuple(public if ref is None else self._decks[ref[0]].idents[ref[1]]
                                            for _, ref, public in self._open))

    # ------------------------------------------------------------------
    # Dice

    def _make_commit(self, seat: int, roll: int) -> dict:
        return {"roll": roll, "commit": g.die_commitment(self.game_id, roll, seat, self._nonces[seat])}

    def _make_open(self, seat: int, roll: int) -> dict:
        return {"roll": roll, "nonce": self._nonces[seat]}

    # ------------------------------------------------------------------
    # Shuffles

    def _begin_shuffle(self, op: TableOp, view: State) -> None:
        slots = list(op.slots)
        if not slots:
            check_slots(op, view)
            self._outcome = (SHUFFLE, ())
            return
        hidden, cards = check_pile(op, view, self._where)
        number, n, last = len(self._decks), len(slots), self.players - 1
        base, pile, public = [], [], iter(cards)
        origin = {j: self._where[slots[j]] for j in hidden}
        for j in range(n):
            if j in origin:
                d, pos = origin[j]
                base.append(self._decks[d].points[pos])
                pile.append(self._decks[d].idents[pos])
            else:
                pile.append(next(public))
                base.append(g.card_point(self.game_id, number, pile[-1]))
        swaps, locks, perms, keys = [], [], [], []
        for seat, entropy in enumerate(self._entropy):       # each seat's draws, in the spec's order
            swaps.append(g.random_scalar(entropy) if hidden else None)
            locks.append(g.random_scalar(entropy) if seat != last else None)
            perms.append(g.random_permutation(entropy, n))
            keys.append([g.random_scalar(entropy) for _ in range(n)])
        order = list(range(n))                                # order[j]: the pile index now at position j
        for perm in perms:
            order = [order[p] for p in perm]
        deck = _Deck(number, slots, cards, hidden, origin, base, swaps, locks, perms, keys,
                     idents=[pile[i] for i in order], opened=[set() for _ in range(n)])
        self._decks.append(deck)
        for pos, slot in enumerate(slots):
            self._where[slot] = (number, pos)
        seats = range(self.players)
        self._steps = ([(s, "fair_relock", deck) for s in seats if hidden]
                       + [(s, "fair_shuffle", deck) for s in seats]
                       + [(s, "fair_rekey", deck) for s in range(last)])

    def _names(self, seat: int, deck: _Deck, kind: str) -> dict:
        first = "fair_relock" if deck.hidden else "fair_shuffle"
        if seat != 0 or kind != first:
            return {}
        body = {"cards": list(deck.cards), "slots": list(deck.slots)}
        if deck.hidden:
            body["hidden"] = list(deck.hidden)
        return body

    def _commits(self, seat: int, deck: _Deck) -> list[bytes]:
        return [g.key_commitment(self.game_id, deck.number, seat, pos, k) for pos, k in enumerate(deck.keys[seat])]

    def _make_relock(self, seat: int, deck: _Deck) -> dict:
        swap = deck.swaps[seat]
        assert swap is not None     # (every seat draws one when the pile has hidden slots, the only piles relocked)
        factors = [swap] * len(deck.slots)
        for j, (d, pos) in deck.origin.items():
            factors[j] = g.scalar_mul(swap, g.scalar_inv(self._decks[d].keys[seat][pos]))
        return {"deck": deck.number, **self._names(seat, deck, "fair_relock"),
                "points": [g.lock(f, p) for f, p in zip(factors, deck.points)]}

    def _make_shuffle(self, seat: int, deck: _Deck) -> dict:
        body: dict[str, Any] = {"deck": deck.number, **self._names(seat, deck, "fair_shuffle")}
        inp, perm = deck.points, deck.perms[seat]
        if seat == self.players - 1:
            body["commits"] = self._commits(seat, deck)
            swap = deck.swaps[seat]
            unlock = g.scalar_inv(swap) if swap is not None else None
            body["points"] = [g.lock(k if unlock is None else g.scalar_mul(k, unlock), inp[p])
                              for k, p in zip(deck.keys[seat], perm)]
        else:
            lock = deck.locks[seat]
            assert lock is not None     # (every seat but the last draws one)
            body["points"] = [g.lock(lock, inp[p]) for p in perm]
        return body

    def _make_rekey(self, seat: int, deck: _Deck) -> dict:
        lock, swap = deck.locks[seat], deck.swaps[seat]
        assert lock is not None         # (the last seat, which draws none, does not rekey)
        unlock = g.scalar_inv(lock if swap is None else g.scalar_mul(lock, swap))
        return {"deck": deck.number, "commits": self._commits(seat, deck),
                "points": [g.lock(g.scalar_mul(k, unlock), p) for k, p in zip(deck.keys[seat], deck.points)]}

    # ------------------------------------------------------------------
    # Deals, reveals and claims

    def _begin_open(self, op: TableOp, view: State) -> None:
        self._open, self._steps = plan_open(op, view, self._where, self._decks, self.players)

    def _make_keys(self, seat: int, refs: list[tuple[int, int]]) -> dict:
        for d, pos in refs:
            self._decks[d].opened[pos].add(seat)
        return {"decks": [d for d, _ in refs], "pos": [p for _, p in refs],
                "keys": [self._decks[d].keys[seat][pos] for d, pos in refs]}

    def check_claims(self, seat: int, slots: Sequence[int], ids: Sequence[int], proof: dict) -> None:
        """A move playing hidden cards: its proof must be the mover's keys, its claims the cards there.

        Every seat's table must be able to open the card (FairTable checks it
        at each seat): every other seat's key for it is out, so it was dealt
        to the mover.
        """
        if len(slots) != len(ids):
            raise CheatDetected(seat, f"{_who(seat)} claims {len(ids)} cards for {len(slots)} slots")
        refs = [self._where[s] for s in slots if s in self._where]
        for slot, (d, pos) in zip([s for s in slots if s in self._where], refs):
            if any(s != seat and s not in self._decks[d].opened[pos] for s in range(self.players)):
                raise CheatDetected(seat, f"{_who(seat)} claims slot {slot}, which was not dealt to it")
        expected = {"decks": [d for d, _ in refs], "pos": [p for _, p in refs],
                    "keys": [self._decks[d].keys[seat][pos] for d, pos in refs]}
        if not _same(proof, expected):
            raise CheatDetected(seat, f"{_who(seat)}'s proof is not its keys for the slots it plays")
        for slot, ident in zip(slots, ids):
            ref = self._where.get(slot)
            if ref is not None and self._decks[ref[0]].idents[ref[1]] != ident:
                raise CheatDetected(seat, f"{_who(seat)} claims card {ident} in slot {slot}, but its keys open "
                                          f"card {self._decks[ref[0]].idents[ref[1]]}")
        for d, pos in refs:
            self._decks[d].opened[pos].add(seat)

    # ------------------------------------------------------------------
    # End of game

    def final_body(self, seat: int) -> dict:
        """What ``seat``'s ``fair_final`` must be: all its secrets."""
        decks = []
        for deck in self._decks:
            entry: dict[str, Any] = {"deck": deck.number, "perm": list(deck.perms[seat]),
                                     "keys": list(deck.keys[seat])}
            if deck.locks[seat] is not None:
                entry["lock"] = deck.locks[seat]
            if deck.swaps[seat] is not None:
                entry["swap"] = deck.swaps[seat]
            decks.append(entry)
        return {"decks": decks}

    def consume_final(self, seat: int, body: dict) -> None:
        if not 0 <= seat < self.players:
            raise FairError(f"seat {seat + 1} is not a seat of this table")   # seats counted from 1, as everywhere a person reads
        if seat in self._finals:
            raise CheatDetected(seat, f"{_who(seat)} revealed its secrets twice")
        if not _same(body, self.final_body(seat)):
            raise CheatDetected(seat, f"{_who(seat)}'s final reveal is not the secrets its revealed seed gives")
        self._finals.add(seat)

    _MAKE: ClassVar[dict[str, Callable[..., dict]]] = {
        "fair_commit": _make_commit, "fair_open": _make_open, "fair_relock": _make_relock,
        "fair_shuffle": _make_shuffle, "fair_rekey": _make_rekey, "fair_keys": _make_keys}
    """Each fair kind -> the method that gives the message its author's revealed seed makes."""
