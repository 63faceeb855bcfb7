"""The end-of-game audit: recompute every shuffle, deal, claim and roll from the log.

Mental poker over SRA-style locks proves fairness after the fact: once every
seat has revealed its locks, permutations and keys (``fair_final``), anyone
holding the log can redo each seat's shuffle and rekey passes and check every
key against its commitment; the decks are then known permutations of their
cards, and every claimed card must be the card at its position. A seat whose
published deck differs from the recomputation is named, with the step where
it happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from . import group as g
from .messages import BodyError, check_body

Problem = tuple[int | None, str]   # (seat at fault or None when unknown, one line)


def _who(seat: int) -> str:
    return f"seat {seat + 1}"


@dataclass
class _Pass:
    step: int
    seat: int
    points: list[bytes]
    commits: list[bytes]                          # empty for a shuffle that carries none


@dataclass
class _Deck:
    number: int
    cards: list[int]                              # the public cards, in pile order
    slots: list[int]
    origin: dict[int, tuple[int, int]]            # hidden pile index -> (older deck, position)
    relocks: list[_Pass] = field(default_factory=list)
    shuffles: list[_Pass] = field(default_factory=list)
    rekeys: list[_Pass] = field(default_factory=list)
    base: list[bytes] | None = None

    @property
    def size(self) -> int:
        return len(self.slots)

    @property
    def final(self) -> list[bytes]:
        return (self.rekeys[-1] if self.rekeys else self.shuffles[-1]).points


class Auditor:
    """Replays fair steps (cheap), then checks secrets against them (the costly part).

    A published point outside the group needs no check of its own here: no
    lock can produce it, so the pass holding it does not match its secrets.
    """

    def __init__(self, game_id: bytes, players: int):
        self.game_id = game_id
        self.players = players
        self.decks: list[_Deck] = []
        self.where: dict[int, tuple[int, int]] = {}
        self.commits: dict[tuple[int, int], tuple[int, bytes]] = {}   # (roll, seat) -> (step, commit)
        self.published: list[tuple[int, int, int, int, bytes]] = []    # step, seat, deck, pos, key
        self.claims: list[tuple[int, int, int, int, int]] = []         # step, seat, deck, pos, identity
        self.problems: list[Problem] = []

    # ------------------------------------------------------------------
    def feed(self, step: int, seat: int, kind: str, body: Any) -> None:
        """Take one step of the log; steps that are not fair steps are skipped."""
        if not isinstance(kind, str) or not kind.startswith("fair_") or kind == "fair_final":
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            self.problems.append((None, f"step {step}: {kind} by an unknown author {seat!r}"))
            return
        where = f"step {step}: {_who(seat)}"
        try:
            check_body(kind, body)
        except BodyError as e:
            self.problems.append((seat, f"{where}: bad {kind}: {e}"))
            return
        problem = self._FEED[kind](self, step, seat, body)
        if problem:
            self.problems.append((seat, f"{where}: {problem}"))

    def _feed_commit(self, step: int, seat: int, body: dict) -> str | None:
        self.commits[(body["roll"], seat)] = (step, body["commit"])
        return None

    def _feed_open(self, step: int, seat: int, body: dict) -> str | None:
        roll = body["roll"]
        if (roll, seat) not in self.commits:
            return f"opened roll {roll} without committing to it"
        if g.die_commitment(self.game_id, roll, seat, body["nonce"]) != self.commits[(roll, seat)][1]:
            return f"its secret for roll {roll} does not match its commitment"
        return None

    def _start_deck(self, number: int, body: dict) -> str | None:
        """A deck's first message (seat 1's) names its pile; check it and start the deck."""
        if "cards" not in body or "slots" not in body:
            return f"deck {number} starts without its cards and slots"
        cards, slots, hidden = list(body["cards"]), list(body["slots"]), list(body.get("hidden", []))
        n = len(slots)
        if (len(set(slots)) != n or len(set(cards)) != len(cards) or sorted(set(hidden)) != hidden
                or any(j >= n for j in hidden) or len(cards) + len(hidden) != n):
            return f"deck {number} names {len(cards)} distinct cards and {len(hidden)} hidden ones for {n} slots"
        if not all(g.is_ident(c) for c in cards):
            return f"deck {number} names a card number out of range"
        origin = {}
        for j in hidden:
            ref = self.where.get(slots[j])
            if ref is None or len(self.decks[ref[0]].rekeys) != self.players - 1:
                return f"deck {number} takes slot {slots[j]} as hidden, but no finished deck holds it"
            origin[j] = ref
        self.decks.append(_Deck(number, cards, slots, origin))
        for pos, slot in enumerate(slots):
            self.where[slot] = (number, pos)
        return None

    def _feed_relock(self, step: int, seat: int, body: dict) -> str | None:
        number = body["deck"]
        if seat == 0 and number == len(self.decks):
            problem = self._start_deck(number, body)
            if problem:
                return problem
            if not self.decks[-1].origin:
                return f"relock of deck {number}, which holds no hidden card"
        elif "cards" in body or "slots" in body or "hidden" in body:
            return f"relock of deck {number} names cards, which only seat 1's first message does"
        if number >= len(self.decks):
            return f"relock of deck {number}, which was never started"
        deck = self.decks[number]
        if not deck.origin or deck.shuffles or seat != len(deck.relocks):
            return f"relock of deck {number} out of order"
        if len(body["points"]) != deck.size:
            return f"relock of deck {number} has {len(body['points'])} cards, not {deck.size}"
        deck.relocks.append(_Pass(step, seat, list(body["points"]), []))
        return self._soundness(deck.relocks[-1], f"relock of deck {number}")

    def _feed_shuffle(self, step: int, seat: int, body: dict) -> str | None:
        number = body["deck"]
        if seat == 0 and number == len(self.decks):
            problem = self._start_deck(number, body)
            if problem:
                return problem
        elif "cards" in body or "slots" in body:
            return f"shuffle of deck {number} names cards, which only seat 1's first message does"
        if number >= len(self.decks):
            return f"shuffle of deck {number}, which was never started"
        deck = self.decks[number]
        if seat != len(deck.shuffles) or (deck.origin and len(deck.relocks) != self.players):
            return f"shuffle of deck {number} out of seat order"
        if len(body["points"]) != deck.size:
            return f"shuffle of deck {number} has {len(body['points'])} cards, not {deck.size}"
        last = seat == self.players - 1
        if last != ("commits" in body) or (last and len(body["commits"]) != deck.size):
            return f"shuffle of deck {number} " + ("lacks its" if last else "must not carry") + " key commitments"
        deck.shuffles.append(_Pass(step, seat, list(body["points"]), list(body.get("commits", []))))
        return self._soundness(deck.shuffles[-1], f"shuffle of deck {number}")

    def _feed_rekey(self, step: int, seat: int, body: dict) -> str | None:
        number = body["deck"]
        if number >= len(self.decks):
            return f"rekey of deck {number}, which was never started"
        deck = self.decks[number]
        if len(deck.shuffles) != self.players or seat != len(deck.rekeys):
            return f"rekey of deck {number} out of order"
        if not len(body["points"]) == len(body["commits"]) == deck.size:
            return f"rekey of deck {number} does not hold {deck.size} points and commitments"
        deck.rekeys.append(_Pass(step, seat, list(body["points"]), list(body["commits"])))
        return self._soundness(deck.rekeys[-1], f"rekey of deck {number}")

    @staticmethod
    def _soundness(done: _Pass, what: str) -> str | None:
        if len(set(done.points)) != len(done.points):
            return f"{what} repeats a card"
        return None

    def _feed_keys(self, step: int, seat: int, body: dict) -> str | None:
        if not len(body["decks"]) == len(body["pos"]) == len(body["keys"]):
            return "keys and positions differ in number"
        for d, pos, key in zip(body["decks"], body["pos"], body["keys"]):
            if d >= len(self.decks) or pos >= self.decks[d].size:
                return f"a key for deck {d} position {pos}, which does not exist"
            self.published.append((step, seat, d, pos, key))
        return None

    def _feed_claim(self, step: int, seat: int, body: dict) -> str | None:
        proof = body["proof"]
        problem = self._feed_keys(step, seat, proof)
        if problem:
            return problem
        if len(body["slots"]) != len(body["ids"]):
            return "claims differ in number from their slots"
        refs = []
        for slot, ident in zip(body["slots"], body["ids"]):
            if slot in self.where:
                refs.append(self.where[slot])
                self.claims.append((step, seat, *self.where[slot], ident))
        if refs != list(zip(proof["decks"], proof["pos"])):
            return "the proof opens other deck positions than the claimed slots"
        return None

    # ------------------------------------------------------------------
    def _base(self, deck: _Deck) -> list[bytes]:
        """The deck before any pass: card points, and hidden cards as their old deck holds them."""
        if deck.base is None:
            public = iter(deck.cards)
            deck.base = []
            for j in range(deck.size):
                if j in deck.origin:
                    d, pos = deck.origin[j]
                    deck.base.append(self.decks[d].final[pos])
                else:
                    deck.base.append(g.card_point(self.game_id, deck.number, next(public)))
        return deck.base

    def check_final(self, seat: int, final: dict) -> list[Problem]:
        """Recompute each of ``seat``'s passes from its secrets; check its keys."""
        out: list[Problem] = []
        entries = final.get("decks", [])
        if [e.get("deck") for e in entries] != [d.number for d in self.decks]:
            return [(seat, f"{_who(seat)}'s final reveal does not cover decks 0..{len(self.decks) - 1} in order")]
        for deck, entry in zip(self.decks, entries):
            problem = self._check_deck_secrets(seat, deck, entry, entries)
            if problem:
                out.append((seat, problem))
        if out:
            return out
        keys = {e["deck"]: e["keys"] for e in entries}
        for step, s, d, pos, key in self.published:
            if s == seat and keys[d][pos] != key:
                out.append((seat, f"step {step}: {_who(seat)} published a key for deck {d} position {pos} "
                                  "that is not its key"))
        return out

    def _check_deck_secrets(self, seat: int, deck: _Deck, entry: dict, entries: list[dict]) -> str | None:
        n, d = deck.size, deck.number
        perm, keys, lock, swap = entry["perm"], entry["keys"], entry.get("lock"), entry.get("swap")
        last = seat == self.players - 1
        if sorted(perm) != list(range(n)) or len(keys) != n:
            return f"{_who(seat)}'s secrets for deck {d} are not a permutation and {n} keys"
        if (not all(g.is_scalar(k) for k in keys) or (lock is None) != last or not (last or g.is_scalar(lock))
                or (swap is None) != (not deck.origin) or not (swap is None or g.is_scalar(swap))):
            return f"{_who(seat)}'s keys, lock or relock for deck {d} are not valid scalars"
        try:
            return self._recompute(seat, deck, perm, keys, lock, swap, entries)
        except ValueError:
            # The pass we started from holds a point outside the group, so it does not
            # match its own author's secrets: that author is named at its own step.
            return None

    def _recompute(self, seat: int, deck: _Deck, perm: list[int], keys: list[bytes], lock: bytes | None,
                   swap: bytes | None, entries: list[dict]) -> str | None:
        d, last = deck.number, seat == self.players - 1
        if swap is not None and seat < len(deck.relocks):
            done = deck.relocks[seat]
            inp = self._base(deck) if seat == 0 else deck.relocks[seat - 1].points
            factors = [swap] * deck.size
            for j, (old, pos) in deck.origin.items():
                old_keys = entries[old]["keys"]
                if pos >= len(old_keys) or not g.is_scalar(old_keys[pos]):
                    return f"{_who(seat)}'s keys for deck {old} are not valid scalars"
                factors[j] = g.scalar_mul(swap, g.scalar_inv(old_keys[pos]))
            if [g.lock(f, p) for f, p in zip(factors, inp)] != done.points:
                return (f"step {done.step}: {_who(seat)}'s relock of deck {d} does not match its relock and "
                        "old keys")
        if seat < len(deck.shuffles):
            done = deck.shuffles[seat]
            if seat > 0:
                inp = deck.shuffles[seat - 1].points
            else:
                inp = deck.relocks[-1].points if deck.origin else self._base(deck)
            if last:
                unlock = g.scalar_inv(swap) if swap is not None else None
                expect = [g.lock(k if unlock is None else g.scalar_mul(k, unlock), inp[p])
                          for k, p in zip(keys, perm)]
            else:
                assert lock is not None     # (checked: every seat but the last reveals one)
                expect = [g.lock(lock, inp[p]) for p in perm]
            if expect != done.points:
                return (f"step {done.step}: {_who(seat)}'s shuffle of deck {d} does not match its lock and "
                        "permutation (a card was replaced, duplicated or dropped)")
        committed = None
        if last and seat < len(deck.shuffles):
            committed = deck.shuffles[seat]
        elif not last and seat < len(deck.rekeys):
            done = deck.rekeys[seat]
            inp = deck.shuffles[-1].points if seat == 0 else deck.rekeys[seat - 1].points
            assert lock is not None         # (checked: every seat but the last reveals one)
            unlock = g.scalar_inv(lock if swap is None else g.scalar_mul(lock, swap))
            expect = [g.lock(g.scalar_mul(k, unlock), p) for k, p in zip(keys, inp)]
            if expect != done.points:
                return f"step {done.step}: {_who(seat)}'s rekey of deck {d} does not match its lock and keys"
            committed = done
        if committed is not None:
            for pos, k in enumerate(keys):
                if g.key_commitment(self.game_id, d, seat, pos, k) != committed.commits[pos]:
                    return (f"step {committed.step}: {_who(seat)}'s key for deck {d} position {pos} "
                            "does not match its commitment")
        return None

    def check_decks(self, finals: dict[int, dict]) -> list[Problem]:
        """The card at every position of every finished deck; check every claim.

        Call it with finals that passed :meth:`check_final`: then every pass
        is the exact function of its seat's secrets, so the final deck is the
        pile under the composed permutations, locked by each position's keys.
        Reading the cards off the permutations needs no group operation.
        """
        opened: dict[tuple[int, int], int] = {}
        for deck in self.decks:
            if len(deck.rekeys) != self.players - 1 or any(s not in finals for s in range(self.players)):
                continue
            public = iter(deck.cards)
            pile = [opened.get(deck.origin[j]) if j in deck.origin else next(public) for j in range(deck.size)]
            order = list(range(deck.size))             # order[j]: the pile index now at position j
            for seat in range(self.players):
                perm = finals[seat]["decks"][deck.number]["perm"]
                order = [order[p] for p in perm]
            for pos, index in enumerate(order):
                card = pile[index]
                if card is not None:
                    opened[(deck.number, pos)] = card
        out: list[Problem] = []
        for step, seat, d, pos, ident in self.claims:
            actual = opened.get((d, pos))
            if actual is not None and actual != ident:
                out.append((seat, f"step {step}: {_who(seat)} claimed card {ident} in deck {d} position {pos}, "
                                  f"which is card {actual}"))
        return out

    _FEED: ClassVar[dict[str, Callable[..., str | None]]] = {
        "fair_commit": _feed_commit, "fair_open": _feed_open, "fair_relock": _feed_relock,
        "fair_shuffle": _feed_shuffle, "fair_rekey": _feed_rekey, "fair_keys": _feed_keys, "fair_claim": _feed_claim}
    """Each fair kind -> the method that records and checks a step of it."""


def audit_transcript(game_id: bytes, players: int, steps: list[tuple[int, str, dict]],
                     finals: dict[int, dict]) -> list[str]:
    """Every problem in a finished game's fair steps ([] = fair), each naming a seat.

    ``steps`` are the log's (author seat, kind, body) in chain order; kinds not
    starting with ``fair_`` are skipped, so the whole log may be passed. A move
    that played hidden cards contributes a ``fair_claim`` step (its slots, the
    identities it claimed and its proof) at its place in the chain.
    ``finals`` maps each seat to its ``fair_final`` body.
    """
    auditor = Auditor(bytes(game_id), players)
    for i, (seat, kind, body) in enumerate(steps):
        auditor.feed(i, seat, kind, body)
    problems = list(auditor.problems)
    good: dict[int, dict] = {}
    for seat in range(players):
        final = finals.get(seat)
        if final is None:
            if auditor.decks:
                problems.append((seat, f"{_who(seat)} did not reveal its secrets"))
            continue
        try:
            check_body("fair_final", final)
        except BodyError as e:
            problems.append((seat, f"{_who(seat)}: bad fair_final: {e}"))
            continue
        found = auditor.check_final(seat, final)
        problems.extend(found)
        if not found:
            good[seat] = final
    problems.extend(auditor.check_decks(good))
    return [text for _, text in problems]
