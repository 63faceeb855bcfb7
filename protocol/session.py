"""The game session: a sans-IO state machine for one game between N peers.

Feed it what arrives (:meth:`Session.receive`, one envelope per call) and what
the local player wants (:meth:`Session.act`, :meth:`Session.resign`); it
returns events for the UI and queues the bytes to send
(:meth:`Session.data_to_send`, to every other peer). It never reads a socket
or a clock: :meth:`Session.tick` takes ``now`` for timeouts. Every entry it
accepts, its own or a peer's, goes to ``store`` (the log file) before any
byte that depends on it is handed out for sending.

The whole game is ONE hash chain with a total order; at every point exactly
one seat may write the next entry (and any seat may end the game with an
``abort``). Phases:

* ``hello``: the host (entry 0), then each guest: versions and display name.
* ``table``: the host names the game, variant, options and the seats (keys in
  hello order); the safety code of all keys is shown.
* ``genesis``: each seat in order sends a fresh nonce; the game id is
  SHA-256("lanterne/game-id/v1" || hash of the last genesis entry).
* ``play``: the engine runs on this peer's view. Its first table op is the
  ROLL "first player": that is the coin. Table ops are resolved by
  ``protocol.fair.FairTable``; seat moves carry the public-state digest after
  the move and, when they make hidden cards public, the mover's proof.
* ``final``: each seat in order reveals every secret (``fair_final``); every
  peer audits the whole transcript.
* ``end``: each seat in order signs the result (scores, winners, digest) and
  reveals its session seed, so that anyone can replay each seat's fair table.

Every protocol breach ends the game with an ``abort`` entry naming the seat
at fault and carrying the offending bytes as evidence.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import os
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from engines import redeal
from engines.core import TABLE, Action, Game, IllegalAction, RulesError, State, TableOp, as_action
from protocol import identity as ids
from protocol.log import FIRST_PREV, VERSION, Entry, open_entry, seal
from protocol.wire import MAX_BIN, ProtocolError, check, pack

GAME_ID_DOMAIN = b"lanterne/game-id/v1"
NONCE_DOMAIN = b"lanterne/seed/nonce/v1"
TABLE_NONCE_DOMAIN = b"lanterne/seed/table/v1"
"""The host's hello carries sha256(this || seed): every table gets its own id (its first entry's hash)."""
FAIR_DOMAIN = b"lanterne/seed/fair/v1"
MAX_SEATS = 16
MAX_LOCAL_STEPS = 100_000
"""Steps a peer may take on its own between two entries (table outcomes, its own messages)."""

HELLO = "hello"
TABLE_KIND = "table"
GENESIS = "genesis"
MOVE = "move"
END = "end"
ABORT = "abort"
REPLACE = "replace"
AGREE = "agree"

ON_GONE_END = "end"
ON_GONE_COMPUTER = "computer"
ON_GONE = (ON_GONE_END, ON_GONE_COMPUTER)
"""The table's policy for a seat gone past the claim time: end the game, or replace it by a computer."""
COMPUTER_MARK = "[computer] "
"""Starts the name of a seat played by a computer (the table's, or a replacement's)."""
COMPUTER_DOMAIN = b"lanterne/seed/computer/v1"
"""The claimer derives the replacing computer's identity and session seed from its own seed and the seat."""
EPOCH_DOMAIN = b"lanterne/fair-epoch/v1"
"""A replacement starts a new fair table whose id is SHA-256(this || game id || hash of the last agree)."""

CLAIM_REASON = "timeout: "
"""How a claim's reason starts: the abort a present seat writes against a seat gone past the claim time."""

CHOICE_KINDS = (HELLO, TABLE_KIND, MOVE, ABORT, REPLACE)
"""Kinds whose content is the author's free choice (a replay takes them from the log)."""


def _fair():
    import protocol.fair as fair

    return fair


@functools.lru_cache(maxsize=None)
def schemas() -> dict[str, dict]:
    """Every message kind -> the schema of its body (the session's and the fair table's).

    One shared, read-only dict: ``wire.check`` compiles each schema once.
    """
    fair = _fair()
    proof = fair.SCHEMAS["proof"]
    own = {
        HELLO: {"versions": ["list", "uint", 8], "name": "str", "guests?": ["list", "bytes32", MAX_SEATS - 1],
                "table?": "bytes32"},
        TABLE_KIND: {"game": "str", "variant": "str", "players": "uint", "options": ["map", "str", "any", 32],
                     "seats": ["list", "bytes32", MAX_SEATS], "names": ["list", "str", MAX_SEATS],
                     "on_gone?": "str", "claim_ms?": "uint"},
        GENESIS: {"nonce": "bytes32"},
        MOVE: {"action": ["list", "any", 64], "digest": "bytes32", "proof?": proof},
        END: {"scores": ["list", "int", MAX_SEATS], "winners": ["list", "uint", MAX_SEATS],
              "digest": "bytes32", "seed": "bytes32"},
        REPLACE: {"seat": "uint", "key": "bytes32", "name": "str", "scores": ["list", "int", MAX_SEATS]},
        AGREE: {"replace": "bytes32"},
        ABORT: {"reason": "str", "culprit?": "uint", "evidence": ["list", "bytes", 4], "seed?": "bytes32",
                "audit?": "bool", "scores?": ["list", "int", MAX_SEATS]},
    }
    for kind, schema in fair.SCHEMAS.items():
        if kind not in ("proof", "fair_claim"):
            own[kind] = schema
    return own


class Drbg:
    """Deterministic bytes from a secret seed: SHA-256(domain || seed || counter) blocks.

    A session draws all its randomness from one 32-byte seed (os.urandom in
    real play); revealing the seed at the end lets a verifier re-run the
    seat's fair table exactly.
    """

    def __init__(self, seed: bytes, domain: bytes):
        self._key = hashlib.sha256(domain + seed).digest()
        self._counter = 0

    def __call__(self, n: int) -> bytes:
        out = bytearray()
        while len(out) < n:
            out += hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
        return bytes(out[:n])


# --------------------------------------------------------------------------
# Events for the UI


@dataclass(frozen=True)
class Joined:
    index: int
    name: str
    key: bytes


@dataclass(frozen=True)
class TableSet:
    game: str
    variant: str
    players: int
    names: tuple[str, ...]
    my_seat: int
    safety_code: str


@dataclass(frozen=True)
class GameStarted:
    game_id: bytes


@dataclass(frozen=True)
class TableResolved:
    op: TableOp
    outcome: tuple
    events: tuple = ()


@dataclass(frozen=True)
class Moved:
    seat: int
    action: Action
    text: str
    events: tuple = ()
    entry: int = -1


@dataclass(frozen=True)
class GameOver:
    scores: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class ReplaceAsked:
    """A present seat asks to give the gone ``seat`` to a computer; the other present seats now agree in turn."""

    by: int
    seat: int
    name: str
    scores: tuple[int, ...]
    key: bytes = b""


@dataclass(frozen=True)
class SeatReplaced:
    """Every present seat agreed: ``seat`` is played by the computer ``key`` from now on (its hands re-dealt)."""

    seat: int
    name: str
    key: bytes


@dataclass(frozen=True)
class Replaced:
    """Our own seat was given to a computer while we were gone: this peer plays no more."""

    seat: int
    by: int
    reason: str


@dataclass(frozen=True)
class Disputed:
    """A card opened to no card: every seat now reveals its secrets so the audit names the cheat."""

    reason: str


@dataclass(frozen=True)
class Aborted:
    """The game ended early; ``scores`` are the signed scores of the position reached (None: not started)."""

    by: int | None
    culprit: int | None
    reason: str
    scores: tuple[int, ...] | None = None


class _Dispute(ProtocolError):
    """A cheat nobody can be blamed for yet (a tampered shuffle seen at a deal): audit now."""


class ReplayMismatch(ProtocolError):
    """A logged entry differs from what the seat's own session would have written."""


# --------------------------------------------------------------------------


@dataclass
class _Peer:
    key: bytes
    name: str


class Session:
    """One peer's side of one game. See the module docstring for the phases."""

    def __init__(self, identity: ids.Identity | None, *, host: bool, name: str = "",
                 game: Game | None = None, players: int = 2, variant: str = "standard",
                 options: dict | None = None, seed: bytes | None = None,
                 games: Callable[[str], Game] | None = None, store: Callable[[bytes], None] | None = None,
                 timeout: float | None = None, auto_join: bool = True, public: bytes | None = None,
                 guests: Sequence[bytes] | None = None, on_gone: str = ON_GONE_END):
        self.identity = identity
        self.public: bytes = identity.public if identity is not None else public
        if self.public is None:
            raise ValueError("a session needs an identity (or a public key to replay)")
        self.host = host
        self.name = name
        if host and game is not None:
            game.check_options(len(guests) + 1 if guests else players, variant)   # a local mistake: RulesError
        self._proposal = (game, players, variant, dict(options or {}))
        if on_gone not in ON_GONE:
            raise RulesError(f"on-gone policy {on_gone!r} is not one of {', '.join(ON_GONE)}")
        self.on_gone = on_gone
        """What the table does with a seat gone past the claim time (the host's choice, signed in the table)."""
        self.require_on_gone: str | None = None
        """A guest's condition: at its genesis turn it leaves (an abort naming itself) a table with another policy."""
        self.seed = seed if seed is not None else os.urandom(32)
        self._games = games
        self.store = store
        self.timeout = timeout
        self.auto_join = auto_join
        self.guests = list(guests) if guests else None
        """The host's list of guest keys in join order (known from the lobby); None: first come."""
        self._schemas = schemas()
        self._fairmod = _fair()

        self.chain: list[Entry] = []
        self.phase = HELLO
        self.peers: list[_Peer] = []
        self.seats: list[bytes] = []
        self.names: list[str] = []
        self.my_seat: int | None = None
        self.game: Game | None = None
        self.variant = variant
        self.options: dict = {}
        self.game_id: bytes = b""
        self.view: State | None = None
        self.fair = None
        self._op: TableOp | None = None
        self.steps: list[tuple[int, str, dict]] = []
        self.finals: dict[int, dict] = {}
        self.ends: dict[int, dict] = {}
        self.result: GameOver | Aborted | None = None
        self._outbox: list[bytes] = []
        self._events: list = []
        self._waiting_since: float | None = None
        self._replay: deque[Entry] | None = None
        self._check_evidence = False
        self.replacing: dict | None = None
        """While present seats agree to a replacement: seat, key, name, by, hash, order, agreed."""
        self.replaced: dict[bytes, int] = {}
        """Keys that held a seat before a computer took it over -> that seat."""
        self._redeal: deque[TableOp] = deque()
        self.epoch = 0
        """Fair tables so far after the first: one more per replacement."""
        self.old_steps: list[tuple[int, str, dict]] = []
        self.replaced_at = 0
        """Index of the last replace entry (entries by a replaced key from there on are dropped)."""

    # ------------------------------------------------------------------ API

    @property
    def head(self) -> tuple[int, bytes]:
        """(number of entries, hash of the last one): what peers compare to resume."""
        return len(self.chain), self.chain[-1].hash if self.chain else FIRST_PREV

    @property
    def over(self) -> bool:
        return self.phase in ("over", "aborted", "replaced")

    def entries_after(self, count: int) -> list[bytes]:
        """The entries a peer with ``count`` entries lacks (resume after a dropped link)."""
        return [e.raw for e in self.chain[count:]]

    def data_to_send(self) -> list[bytes]:
        """The entries to send to every other peer, in order (and forget them)."""
        out, self._outbox = self._outbox, []
        return out

    def start(self) -> list:
        """The host writes its hello."""
        if self.host and not self.chain:
            body: dict[str, Any] = {"versions": [VERSION], "name": self.name,
                                    "table": hashlib.sha256(TABLE_NONCE_DOMAIN + self.seed).digest()}
            if self.guests:
                body["guests"] = self.guests
            self._author(HELLO, body)
            self._after_hello_entry(self.chain[-1])
        return self._flush()

    def join(self) -> list:
        """A guest writes its hello (automatic with ``auto_join`` once the host's is in)."""
        if not self.host and self.phase == HELLO and self.chain and self.public not in self._keys():
            self._author(HELLO, {"versions": [VERSION], "name": self.name})
            self._after_hello_entry(self.chain[-1])
            self._after_hello()
        return self._flush()

    def waiting_for(self) -> int | None:
        """The seat whose entry comes next (None before the seats are set or when over)."""
        if self.over or not self.seats:
            return None
        return self._expected_seat()

    @property
    def my_turn(self) -> bool:
        return (self.phase == "play" and self.game is not None and not self.game.is_over(self.view)
                and self.next_actor() == self.my_seat)

    def next_actor(self) -> int:
        """The engine's next actor, or TABLE while a re-deal is being resolved."""
        return TABLE if self._redeal else self.game.next_actor(self.view)

    def legal_actions(self) -> list[Action]:
        return self.game.legal_actions(self.view, self.my_seat) if self.my_turn else []

    def act(self, action: Action) -> list:
        """Play ``action`` for our seat; IllegalAction (not a protocol error) if it cannot be played."""
        if not self.my_turn:
            raise IllegalAction("it is not our turn")
        action = as_action(action)
        before = self.view
        after, events = self.game.apply(before, action)
        slots = self._made_public(before, after)
        body: dict[str, Any] = {"action": list(action), "digest": self.game.digest(after)}
        if slots:
            body["proof"] = self.fair.prove(slots)
            self.steps.append((self.my_seat, "fair_claim",
                               {"slots": slots, "ids": [after.cards.ids[s] for s in slots], "proof": body["proof"]}))
        text = self._text(before, action)
        self._author(MOVE, body)
        self.view = after
        self._events.append(Moved(self.my_seat, action, text, tuple(events), len(self.chain) - 1))
        self._advance_safely()
        return self._flush()

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
        return (self.on_gone == ON_GONE_COMPUTER and self.phase == "play" and self.identity is not None
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
        entry = self._author(REPLACE, body)
        self._take_replace(entry)
        self._advance_safely()

    def receive(self, raw: bytes, sender: bytes | None = None, on_error: str = "abort") -> list:
        """One entry from a peer. Returns events; queues what to send.

        A protocol breach ends the game with an abort naming the culprit
        (``on_error="abort"``); with ``on_error="raise"`` the ProtocolError is
        raised instead and a malformed entry leaves the session unchanged.
        ``sender`` is the key of the link the bytes came on, when known: it
        names the culprit of bytes that carry no valid signature.
        """
        if self.over:
            if on_error == "raise":
                raise ProtocolError("the game is over")
            return []
        try:
            self._receive(raw, sender)
        except _Dispute as e:
            self._abort(str(e), None, [], audit=True)
        except ProtocolError as e:
            if on_error == "raise":
                raise
            self._abort(str(e), e.seat, [raw])
        self._advance_safely()
        return self._flush()

    # ------------------------------------------------------------ replay

    @classmethod
    def replay(cls, raws: Sequence[bytes | Entry], public: bytes, seed: bytes, *,
               games: Callable[[str], Game] | None = None, identity: ids.Identity | None = None,
               check_evidence: bool = False, upto: int | None = None, keep_events: bool = False) -> "Session":
        """The session of seat ``public`` rebuilt from a log: every entry is checked.

        Our own fair entries are re-derived from ``seed`` and must equal the
        log's; others' are received as live. Raises ProtocolError (``.seat``
        the culprit, ``.entry`` the index of the first bad entry).
        """
        entries = []
        for i, raw in enumerate(raws[:upto] if upto is not None else raws):
            try:
                entries.append(raw if isinstance(raw, Entry) else open_entry(raw))
            except ProtocolError as e:
                e.entry = i
                raise
        if not entries:
            raise ProtocolError("the log holds no entry")
        s = cls(identity, host=entries[0].author == public, seed=seed, games=games, auto_join=False, public=public)
        s._check_evidence = check_evidence
        s._replay = deque(entries)
        s._run_replay()
        s._replay = None
        if keep_events:
            s.replayed_events = s._events
        s._events = []
        return s

    @classmethod
    def from_log(cls, raws: Sequence[bytes], identity: ids.Identity, seed: bytes, *,
                 games: Callable[[str], Game] | None = None, store: Callable[[bytes], None] | None = None,
                 timeout: float | None = None, name: str = "", game: Game | None = None, players: int = 2,
                 variant: str = "standard", options: dict | None = None,
                 guests: Sequence[bytes] | None = None) -> "Session":
        """Restart after a crash: replay our own log, then go on live (with ``seed`` kept aside).

        A host restarted before its table was written needs its proposal again
        (``game``, ``players``, ``variant``, ``options``).
        """
        s = cls.replay(raws, identity.public, seed, games=games, identity=identity)
        s.store, s.timeout, s.auto_join, s.name = store, timeout, True, name
        s._proposal = (game, players, variant, dict(options or {}))
        s.guests = list(guests) if guests else s._listed_guests() if s.host else None
        if not s.host and s.phase == HELLO and s.chain:
            s._maybe_join()
            s._after_hello()
        s._advance_safely()      # what we would have written next; its events come with the next call
        return s

    def _run_replay(self) -> None:
        while self._replay:
            entry = self._replay[0]
            index = len(self.chain)
            try:
                if self.over:
                    raise ProtocolError(f"entry {index} ({entry.kind}) comes after the end of the game",
                                        self._seat_of(entry.author))
                if entry.author == self.public and entry.kind not in CHOICE_KINDS:
                    raise ReplayMismatch(f"{entry.kind} is not what seat {self._seat_name(entry.author)} would "
                                         f"write here", self._seat_of(entry.author))
                self._replay.popleft()
                self._accept(entry, sender=None)
                try:
                    self._advance()
                except ProtocolError as e:
                    # Live, this session would have aborted here: the log's next
                    # entry must be that abort, naming the same seat.
                    head = self._replay[0] if self._replay else None
                    if (head is None or head.kind != ABORT or head.author != self.public
                            or head.body.get("culprit") != e.seat):
                        raise
            except (_ReplayEnd, _Dispute):
                continue
            except ProtocolError as e:
                if not hasattr(e, "entry"):
                    e.entry = index
                raise

    # ------------------------------------------------------------ internals

    def _flush(self) -> list:
        out, self._events = self._events, []
        return out

    def _keys(self) -> list[bytes]:
        return [p.key for p in self.peers]

    def _seat_of(self, key: bytes | None) -> int | None:
        if key is not None and key in self.seats:
            return self.seats.index(key)
        return None

    def _seat_name(self, key: bytes) -> str:
        seat = self._seat_of(key)
        return str(seat + 1) if seat is not None else ids.fingerprint(key)

    def _other_seat(self) -> int | None:
        others = [i for i, k in enumerate(self.seats) if k != self.public]
        return others[0] if len(others) == 1 else None

    def _receive(self, raw: bytes, sender: bytes | None) -> None:
        blame = self._seat_of(sender) if sender is not None else self._other_seat()
        try:
            entry = open_entry(raw)
        except ProtocolError as e:
            e.seat = blame
            raise
        if entry.seq < len(self.chain) and self.chain[entry.seq].raw == entry.raw:
            return  # a resent entry we already hold: harmless
        leaving = self.seats[self.replacing["seat"]] if self.replacing else None
        if (entry.author in self.replaced or entry.author == leaving) and entry.seq >= self.replaced_at:
            return  # a replaced peer that came back late: it learns of its replacement from our entries
        self._accept(entry, sender)

    def _accept(self, entry: Entry, sender: bytes | None) -> None:
        """Check an entry's place in the chain and its meaning, then append it."""
        author_seat = self._seat_of(entry.author)
        blame = author_seat if author_seat is not None else (
            self._seat_of(sender) if sender is not None else self._other_seat())
        index = len(self.chain)
        if entry.game != self.game_id:
            if not self.game_id:
                raise ProtocolError(f"entry {entry.seq} ({entry.kind}) by {self._seat_label(entry.author)} "
                                    f"carries a game id before the game has one", blame)
            raise ProtocolError(f"entry {entry.seq} ({entry.kind}) by {self._seat_label(entry.author)} belongs to "
                                f"another game", blame)
        if entry.seq != index:
            if entry.seq < index and entry.kind == REPLACE and self._replaced_while_gone(entry):
                return
            if entry.seq < index and entry.kind == ABORT and entry.author in (self.seats or self._keys()):
                self._conflicting_abort(entry)
            if entry.seq < index:
                old = self.chain[entry.seq]
                if old.author == entry.author:
                    raise ProtocolError(f"seat {self._seat_name(entry.author)} signed two different entries for "
                                        f"sequence number {entry.seq}", blame)
                raise ProtocolError(f"sequence number {entry.seq} by {self._seat_label(entry.author)} is already "
                                    f"taken (next is {index})", blame)
            raise ProtocolError(f"sequence number {entry.seq} by {self._seat_label(entry.author)} skips "
                                f"{index} (missing or reordered entries)", blame)
        expected_prev = self.chain[-1].hash if self.chain else FIRST_PREV
        if entry.prev != expected_prev:
            raise ProtocolError(f"entry {entry.seq} by {self._seat_label(entry.author)} does not link to the "
                                f"previous entry (broken previous-hash)", blame)
        schema = self._schemas.get(entry.kind)
        if schema is None:
            raise ProtocolError(f"entry {entry.seq}: unknown message kind {entry.kind!r}", blame)
        try:
            check(schema, entry.body, entry.kind)
        except ProtocolError as e:
            raise ProtocolError(f"entry {entry.seq} by {self._seat_label(entry.author)}: {e}", blame) from None
        if entry.kind == ABORT:
            members = self.seats or self._keys()
            if entry.author not in members:
                raise ProtocolError(f"entry {entry.seq}: an abort by {self._seat_label(entry.author)}, who does "
                                    f"not play here", blame)
            culprit = entry.body.get("culprit")
            if culprit is not None and culprit >= max(len(self.seats), 1):
                raise ProtocolError(f"entry {entry.seq}: the abort blames seat {culprit + 1}, which does not "
                                    f"exist", blame)
            self._check_abort_scores(entry, blame)
            self._on_abort(entry)
            return
        if entry.kind == REPLACE:
            self._check_replace(entry, blame)
            self._append(entry)
            self._take_replace(entry)
            return
        expected = self._expected_author()
        if expected is not None and entry.author != expected:
            raise ProtocolError(f"entry {entry.seq} ({entry.kind}) is {self._seat_label(expected)}'s to write, not "
                                f"{self._seat_label(entry.author)}'s (wrong author)", blame)
        handler = getattr(self, f"_on_{self.phase}")
        handler(entry, blame)

    def _conflicting_abort(self, entry: Entry) -> None:
        """Another player ended the game at a place our log already fills (N >= 3).

        If its evidence holds an entry signed by the same author as ours at
        the same number but different, that author forked the chain: blame it.
        Otherwise nobody can be blamed from here.
        """
        for raw in entry.body.get("evidence", []) if isinstance(entry.body, dict) else []:
            try:
                shown = open_entry(raw)
            except ProtocolError:
                continue
            if shown.seq < len(self.chain):
                ours = self.chain[shown.seq]
                if ours.author == shown.author and ours.raw != shown.raw and shown.game == ours.game:
                    raise ProtocolError(f"seat {self._seat_name(shown.author)} signed two different entries for "
                                        f"sequence number {shown.seq} (one shown by {self._seat_label(entry.author)}"
                                        f"'s abort)", self._seat_of(shown.author))
        reason = entry.body.get("reason", "") if isinstance(entry.body, dict) else ""
        raise ProtocolError(f"{self._seat_label(entry.author)} ended the game at entry {entry.seq}, which our log "
                            f"fills otherwise ({str(reason)[:200]})", None)

    def _seat_label(self, key: bytes) -> str:
        seat = self._seat_of(key)
        if seat is not None:
            return f"seat {seat + 1}"
        if key in self._keys():
            return f"peer {ids.fingerprint(key)}"
        return f"unknown key {ids.fingerprint(key)}"

    def _append(self, entry: Entry) -> None:
        self.chain.append(entry)
        self._waiting_since = None
        if self._replay is None:
            if self.store is not None:
                self.store(entry.raw)
            if entry.author != self.public and len(self.peers) >= 3:
                # Echo what we accept: a seat that sends different entries to
                # different peers is then caught by both of its signatures,
                # before anyone builds on either.
                self._outbox.append(entry.raw)

    def _author(self, kind: str, body: dict) -> Entry:
        """Write our next entry (in a replay: take it from the log and compare)."""
        if self._replay is not None:
            if not self._replay:
                raise _ReplayEnd()
            logged = self._replay[0]
            seat = self._seat_of(self.public)
            if logged.author != self.public and logged.kind != ABORT:
                err = ProtocolError(f"entry {len(self.chain)} ({logged.kind}) is {self._seat_label(self.public)}'s "
                                    f"to write, not {self._seat_label(logged.author)}'s (wrong author)",
                                    self._seat_of(logged.author))
                err.entry = len(self.chain)
                raise err
            if logged.kind == ABORT:
                raise _ReplayEnd()
            if logged.author != self.public or logged.kind != kind or pack(logged.body) != pack(body):
                err = ReplayMismatch(f"seat {seat + 1 if seat is not None else '?'} should have written {kind} "
                                     f"here, and its log entry {len(self.chain)} differs", seat)
                err.entry = len(self.chain)
                raise err
            self._replay.popleft()
            self._check_place(logged)
            self._append(logged)
            return logged
        if self.identity is None:
            raise _ReplayEnd()
        prev = self.chain[-1].hash if self.chain else FIRST_PREV
        entry = seal(self.identity, game=self.game_id, seq=len(self.chain), prev=prev, kind=kind, body=body)
        self._append(entry)
        self._outbox.append(entry.raw)
        return entry

    def _may_write(self) -> bool:
        """False in a replay whose log ends here (the seat had not written this yet)."""
        if self._replay is not None:
            return bool(self._replay)
        return self.identity is not None

    def _check_place(self, entry: Entry) -> None:
        prev = self.chain[-1].hash if self.chain else FIRST_PREV
        if entry.seq != len(self.chain) or entry.prev != prev or entry.game != self.game_id:
            raise ReplayMismatch(f"entry {len(self.chain)} is out of place in the chain", self._seat_of(entry.author))

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
        audit = audit and culprit is None and self.phase == "play" and self.fair is not None
        if audit:
            body["audit"] = True
        if self.identity is not None and self._replay is None:
            self._author(ABORT, body)
        self._ended(self.my_seat, culprit, reason, audit, scores)

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

    def _check_abort_scores(self, entry: Entry, blame: int | None) -> None:
        said = entry.body.get("scores")
        ours = self.scores_so_far()
        if said is None:
            return   # older logs and aborts before play carry none
        if ours is None or tuple(said) != ours:
            theirs = " ".join(str(x) for x in said)
            mine = " ".join(str(x) for x in ours) if ours is not None else "none (no game yet)"
            raise ProtocolError(f"entry {entry.seq}: the abort by {self._seat_label(entry.author)} signs scores so "
                                f"far {theirs}; the position reached gives {mine}", blame)

    def _ended(self, by: int | None, culprit: int | None, reason: str, audit: bool = False,
               scores: tuple[int, ...] | None = None) -> None:
        """An abort: the game is over, unless it asks for the audit now (the dispute)."""
        if audit and culprit is None and self.phase == "play" and self.fair is not None:
            self.phase = "dispute"
            self._events.append(Disputed(reason))
            return
        self.phase = "aborted"
        self.result = Aborted(by, culprit, reason, scores)
        self._events.append(self.result)

    def _on_abort(self, entry: Entry) -> None:
        body = entry.body
        culprit = body.get("culprit")
        if self._check_evidence and self._replay is not None and body["evidence"] and entry.author == self.public:
            self._confirm_evidence(body["evidence"][0], culprit)
        self._append(entry)
        scores = tuple(body["scores"]) if "scores" in body else None
        self._ended(self._seat_of(entry.author), culprit, body["reason"], bool(body.get("audit")), scores)

    def _confirm_evidence(self, raw: bytes, culprit: int | None) -> None:
        trial = copy.copy(self)
        trial.chain = list(self.chain)
        trial.view = self.view
        trial.fair = copy.deepcopy(self.fair)
        trial.steps, trial.finals, trial.ends = list(self.steps), dict(self.finals), dict(self.ends)
        trial.seats, trial.names, trial.replaced = list(self.seats), list(self.names), dict(self.replaced)
        trial.replacing, trial._redeal = copy.deepcopy(self.replacing), deque(self._redeal)
        trial._events, trial._outbox, trial._replay, trial.store = [], [], None, None
        try:
            trial._receive(raw, None)
        except ProtocolError as e:
            if e.seat != culprit:
                raise ProtocolError(f"the evidence of the abort blames seat {e.seat + 1 if e.seat is not None else '?'}"
                                    f", not seat {culprit + 1 if culprit is not None else '?'}", self.my_seat)
            return
        raise ProtocolError("the evidence of the abort is a valid entry: the abort was unfounded", self.my_seat)

    # ---------------------------------------------------------- who writes

    def _expected_author(self) -> bytes | None:
        """The key that must write the next entry (None: any newcomer, in the hello phase)."""
        if self.phase == HELLO:
            return None  # hellos come from newcomers; the table from the host (checked in _on_hello)
        seat = self._expected_seat()
        return self.seats[seat] if seat is not None else None

    def _expected_seat(self) -> int | None:
        if self.phase == GENESIS:
            return len(self.chain) - self._genesis_start
        if self.phase == "play":
            actor = self.next_actor()
            if actor == TABLE:
                return self.fair.expected() if self._op is not None else None
            return actor
        if self.phase in ("final", "dispute"):
            return len(self.finals)
        if self.phase == END:
            return len(self.ends)
        if self.phase == REPLACE:
            r = self.replacing
            return r["order"][len(r["agreed"])]
        return None

    # ---------------------------------------------------------- phases

    def _on_hello(self, entry: Entry, blame: int | None) -> None:
        if entry.kind == TABLE_KIND:
            if not self.peers or entry.author != self.peers[0].key:
                raise ProtocolError(f"entry {entry.seq}: only the host sets the table", blame)
            game = self._check_table(entry.body, blame)
            self._append(entry)
            self._set_table(entry.body, game)
            return
        if entry.kind != HELLO:
            raise ProtocolError(f"entry {entry.seq}: expected a hello or the table, got {entry.kind}", blame)
        if entry.author in self._keys():
            raise ProtocolError(f"entry {entry.seq}: {ids.fingerprint(entry.author)} said hello twice", blame)
        if len(self.peers) >= MAX_SEATS:
            raise ProtocolError(f"entry {entry.seq}: the table is full", blame)
        if VERSION not in entry.body["versions"]:
            raise ProtocolError(f"peer {ids.fingerprint(entry.author)} speaks protocol versions "
                                f"{entry.body['versions']}, not {VERSION}", blame)
        if self.peers and "guests" in entry.body:
            raise ProtocolError(f"entry {entry.seq}: only the host lists the guests", blame)
        listed = self._listed_guests()
        if listed is not None and self.peers:
            k = len(self.peers) - 1
            if k >= len(listed) or entry.author != listed[k]:
                raise ProtocolError(f"entry {entry.seq}: {ids.fingerprint(entry.author)} is not the guest the "
                                    f"host expects next", blame)
        self._append(entry)
        self._after_hello_entry(entry)
        self._maybe_join()
        self._after_hello()

    def _listed_guests(self) -> list[bytes] | None:
        """The guests named in the host's hello, in join order (None: first come, first seated)."""
        if not self.chain:
            return None
        return self.chain[0].body.get("guests")

    def _maybe_join(self) -> None:
        """A guest writes its hello once the host's is in (and, with a guest list, its turn has come)."""
        if self.host or not self.auto_join or self._replay is not None or self.public in self._keys():
            return
        listed = self._listed_guests()
        if listed is not None and (self.public not in listed or listed.index(self.public) != len(self.peers) - 1):
            return
        self._author(HELLO, {"versions": [VERSION], "name": self.name})
        self._after_hello_entry(self.chain[-1])

    def _after_hello_entry(self, entry: Entry) -> None:
        self.peers.append(_Peer(entry.author, entry.body["name"]))
        self._events.append(Joined(len(self.peers) - 1, entry.body["name"], entry.author))

    def _after_hello(self) -> None:
        game, players, variant, options = self._proposal
        if self.guests:
            players = len(self.guests) + 1
        if (self.host and self._replay is None and game is not None and len(self.peers) == players
                and self.phase == HELLO):
            keys = self._keys()
            body = {"game": game.id, "variant": variant, "players": players, "options": options,
                    "seats": keys, "names": [p.name for p in self.peers]}
            if self.on_gone != ON_GONE_END:     # the default is left out: older tables keep their bytes
                body["on_gone"] = self.on_gone
            if self.guests and self.timeout is not None:  # N peers: one claim time for the whole table
                body["claim_ms"] = round(self.timeout * 1000)
            checked = self._check_table(pack_roundtrip(body), None)
            self._author(TABLE_KIND, body)
            self._set_table(self.chain[-1].body, checked)

    def _check_table(self, body: dict, blame: int | None) -> Game:
        """The table's game, if the table can be played by exactly the peers that said hello."""
        try:
            game = self._resolve(body["game"])
            game.check_options(body["players"], body["variant"])
            game.setup(players=body["players"], variant=body["variant"], **body["options"])
        except (RulesError, TypeError, ValueError, KeyError) as e:
            raise ProtocolError(f"the table cannot be played: {str(e)[:200]}", blame) from None
        if body["seats"] != self._keys() or len(body["names"]) != len(body["seats"]) \
                or body["players"] != len(body["seats"]):
            raise ProtocolError("the table's seats are not the peers that said hello, in order", blame)
        if [p.name for p in self.peers] != body["names"]:
            raise ProtocolError("the table's names are not the names the peers gave", blame)
        if body.get("on_gone", ON_GONE_END) not in ON_GONE:
            raise ProtocolError(f"the table's on-gone policy {str(body['on_gone'])[:40]!r} is not one of "
                                f"{', '.join(ON_GONE)}", blame)
        return game

    def _set_table(self, body: dict, game: Game) -> None:
        self.game, self.variant, self.options = game, body["variant"], dict(body["options"])
        self.seats, self.names = list(body["seats"]), list(body["names"])
        self.on_gone = body.get("on_gone", ON_GONE_END)
        if "claim_ms" in body:  # the host's claim time, signed in the table, is everybody's
            self.timeout = body["claim_ms"] / 1000
        self.my_seat = self._seat_of(self.public)
        self.phase = GENESIS
        self._genesis_start = len(self.chain)
        self._events.append(TableSet(game.id, self.variant, len(self.seats), tuple(self.names),
                                     self.my_seat if self.my_seat is not None else -1, ids.safety_code(*self.seats)))
        self._maybe_genesis()

    def _resolve(self, game_id: str) -> Game:
        if self._games is not None:
            return self._games(game_id)
        game = self._proposal[0]
        if game is not None and game.id == game_id:
            return game
        from engines.registry import get_game

        return get_game(game_id)

    def _maybe_genesis(self) -> None:
        if self.phase == GENESIS and self._expected_seat() == self.my_seat and self._may_write():
            if self.require_on_gone and self.require_on_gone != self.on_gone and self._replay is None:
                self._abort(f"seat {self.my_seat + 1} plays only with on-gone policy {self.require_on_gone}, "
                            f"not {self.on_gone}", self.my_seat, [])
                return
            nonce = hashlib.sha256(NONCE_DOMAIN + self.seed).digest()
            self._author(GENESIS, {"nonce": nonce})
            self._after_genesis_entry()

    def _after_genesis_entry(self) -> None:
        if len(self.chain) - self._genesis_start == len(self.seats):
            self.game_id = hashlib.sha256(GAME_ID_DOMAIN + self.chain[-1].hash).digest()
            self._start_play()
        else:
            self._maybe_genesis()

    def _on_genesis(self, entry: Entry, blame: int | None) -> None:
        if entry.kind != GENESIS:
            raise ProtocolError(f"entry {entry.seq}: expected a genesis nonce, got {entry.kind}", blame)
        self._append(entry)
        self._after_genesis_entry()

    def _start_play(self) -> None:
        game = self.game
        state = game.setup(players=len(self.seats), variant=self.variant, **self.options)
        self.view = game.view(state, self.my_seat)
        if self.my_seat is None:     # a watcher (replay): checks every fair message, authors none
            self.fair = self._fairmod.FairTable(self.game_id, None, len(self.seats), None)
        else:
            self.fair = self._fairmod.FairTable(self.game_id, self.my_seat, len(self.seats),
                                                Drbg(self.seed, FAIR_DOMAIN))
        self.phase = "play"
        self._events.append(GameStarted(self.game_id))

    def _on_play(self, entry: Entry, blame: int | None) -> None:
        seat = self._seat_of(entry.author)
        actor = self.next_actor()
        if actor == TABLE:
            if not entry.kind.startswith("fair_") or entry.kind == "fair_final":
                raise ProtocolError(f"entry {entry.seq}: the table is resolving {self._op.kind}; "
                                    f"{entry.kind} is not a table message", seat)
            if seat == self.my_seat:
                raise ReplayMismatch(f"entry {entry.seq}: seat {seat + 1} would not have written this", seat)
            try:
                self.fair.consume(seat, entry.kind, entry.body)
            except self._fairmod.CheatDetected as e:
                if e.seat is not None:
                    raise ProtocolError(f"entry {entry.seq}: {e}", e.seat) from None
                self._append(entry)      # a sound message that opened a tampered deck
                self.steps.append((seat, entry.kind, entry.body))
                raise _Dispute(f"entry {entry.seq}: {e}", None) from None
            self._append(entry)
            self.steps.append((seat, entry.kind, entry.body))
            return
        if entry.kind != MOVE:
            raise ProtocolError(f"entry {entry.seq}: seat {actor + 1} must move, not send {entry.kind}", seat)
        self._on_move(entry, seat)

    def _on_move(self, entry: Entry, seat: int) -> None:
        body = entry.body
        action = as_action(body["action"])
        if not action or not isinstance(action[0], str):
            raise ProtocolError(f"entry {entry.seq}: an action is a list whose first item names its kind", seat)
        before = self.view
        try:
            after, events = self.game.apply(before, action)
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
            if seat == self.my_seat:
                if pack(self.fair.prove(slots)) != pack(proof):
                    raise ReplayMismatch(f"entry {entry.seq}: seat {seat + 1}'s proof is not its keys", seat)
            else:
                try:
                    self.fair.check_claims(seat, slots, claimed, proof)
                except self._fairmod.CheatDetected as e:
                    if e.seat is not None:
                        raise ProtocolError(f"entry {entry.seq}: {e}", e.seat) from None
                    self._append(entry)      # sound keys that open a tampered deck: the audit must decide
                    raise _Dispute(f"entry {entry.seq}: {e}", None) from None
            step = {"slots": slots, "ids": claimed, "proof": proof}
        elif proof is not None:
            raise ProtocolError(f"entry {entry.seq}: seat {seat + 1} sends a proof but plays no hidden card", seat)
        digest = self.game.digest(after)
        if digest != body["digest"]:
            raise ProtocolError(f"entry {entry.seq}: seat {seat + 1}'s state digest differs from ours after "
                                f"{self._text(before, action)}", seat)
        self._append(entry)
        if slots:
            self.steps.append((seat, "fair_claim", step))
        self.view = after
        self._events.append(Moved(seat, action, self._text(before, action), tuple(events), entry.seq))

    def _on_final(self, entry: Entry, blame: int | None) -> None:
        seat = self._seat_of(entry.author)
        if entry.kind != "fair_final":
            raise ProtocolError(f"entry {entry.seq}: the game is over; seat {seat + 1} must reveal its secrets, not "
                                f"send {entry.kind}", seat)
        if seat == self.my_seat:
            raise ReplayMismatch(f"entry {entry.seq}: seat {seat + 1} would not have written this", seat)
        try:
            self.fair.consume_final(seat, entry.body)
        except self._fairmod.CheatDetected as e:
            raise ProtocolError(f"entry {entry.seq}: {e}", e.seat) from None
        self._append(entry)
        self.finals[seat] = entry.body
        self._after_final()

    # ---------------------------------------------------------- replacement

    def _check_replace(self, entry: Entry, blame: int | None) -> None:
        """A ``replace`` must name the awaited seat, come from another seat, bring a new key and the true scores."""
        body, by = entry.body, self._seat_of(entry.author)
        where = f"entry {entry.seq}: the replace by {self._seat_label(entry.author)}"
        if self.on_gone != ON_GONE_COMPUTER:
            raise ProtocolError(f"{where}: the table ends the game when a seat is gone (on-gone policy "
                                f"{self.on_gone}); no replacement", blame)
        if self.phase != "play" or by is None:
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
        if (self.my_seat is None or body.get("seat") != self.my_seat or seq < 1 or entry.game != self.game_id
                or entry.prev != self.chain[seq - 1].hash or self._seat_of(entry.author) is None
                or any(e.author != self.public for e in self.chain[seq:])):
            return False
        try:
            check(self._schemas[REPLACE], body, REPLACE)
        except ProtocolError:
            return False
        self._take_replace(entry)
        return True

    def _take_replace(self, entry: Entry) -> None:
        """The replace is in the chain: the gone seat is out; the other present seats agree in seat order."""
        body, by = entry.body, self._seat_of(entry.author)
        seat = body["seat"]
        self.replaced_at = entry.seq
        if seat == self.my_seat:
            self.phase = "replaced"
            self.result = Replaced(seat, by, f"seat {seat + 1} was given to a computer by seat {by + 1} while this "
                                             f"peer was gone (entry {entry.seq})")
            self._events.append(self.result)
            return
        order = [i for i in range(len(self.seats)) if i not in (seat, by)]
        self.replacing = {"seat": seat, "key": body["key"], "name": body["name"], "by": by,
                          "hash": entry.hash, "order": order, "agreed": []}
        self.phase = REPLACE
        self._op = None        # a table op under way starts again on the new fair table
        self._events.append(ReplaceAsked(by, seat, body["name"], tuple(body["scores"]), body["key"]))
        if not order:
            self._switch()

    def _on_replace(self, entry: Entry, blame: int | None) -> None:
        seat = self._seat_of(entry.author)
        if entry.kind != AGREE:
            raise ProtocolError(f"entry {entry.seq}: seat {seat + 1} must agree to the replacement of seat "
                                f"{self.replacing['seat'] + 1} (or abort), not send {entry.kind}", seat)
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
        self.phase = "play"
        self._events.append(SeatReplaced(seat, r["name"], r["key"]))

    def _on_dispute(self, entry: Entry, blame: int | None) -> None:
        self._on_final(entry, blame)

    def _after_final(self) -> None:
        if len(self.finals) < len(self.seats):
            return
        if self.phase == "dispute":
            if self._replay is None:
                self._abort("every seat revealed its secrets and the audit found no cheat", None, [])
            return
        # FairTable.consume_final has audited every seat's secrets against the
        # whole transcript by now; verify runs audit_transcript on the log again.
        self.phase = END

    def _on_end(self, entry: Entry, blame: int | None) -> None:
        seat = self._seat_of(entry.author)
        if entry.kind != END:
            raise ProtocolError(f"entry {entry.seq}: seat {seat + 1} must sign the result, not send {entry.kind}",
                                seat)
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

    def _after_end(self) -> None:
        if len(self.ends) == len(self.seats):
            self.phase = "over"
            self.result = GameOver(tuple(self.game.scores(self.view)), tuple(self.game.winners(self.view)))
            self._events.append(self.result)

    def _result_body(self) -> dict:
        return {"scores": list(self.game.scores(self.view)), "winners": list(self.game.winners(self.view)),
                "digest": self.game.digest(self.view), "seed": self.seed}

    # ---------------------------------------------------------- driving

    def _advance_safely(self) -> None:
        try:
            self._advance()
        except ProtocolError as e:
            if not self.over:
                self._abort(str(e), e.seat, [])

    def _advance(self) -> None:
        """Do every step that needs nobody else: table outcomes, our table messages, finals, ends."""
        fair = _fair()
        try:
            self._advance_inner()
        except _ReplayEnd:
            return
        except fair.CheatDetected as e:
            raise ProtocolError(str(e), e.seat) from None
        except fair.FairError as e:
            raise ProtocolError(f"the fair table failed: {e}", None) from None

    def _advance_inner(self) -> None:
        for _ in range(MAX_LOCAL_STEPS):
            if self.over:
                return
            if self.phase == GENESIS:
                self._maybe_genesis()
                return
            if self.phase == REPLACE:
                seat = self._expected_seat()
                if seat != self.my_seat or not self._may_write():
                    return
                self._author(AGREE, {"replace": self.replacing["hash"]})
                self._agreed(seat)
                continue
            if self.phase == "play":
                if not self._redeal and self.game.is_over(self.view):
                    if self._op is not None:
                        raise ProtocolError("the game ended while the table was busy", None)
                    self.phase = "final"
                    continue
                if self.next_actor() != TABLE:
                    return
                if self._op is None:
                    self._op = self._redeal[0] if self._redeal else self.game.table_op(self.view)
                    self.fair.begin(self._op, self.view)
                expected = self.fair.expected()
                if expected is None:
                    op, outcome = self._op, self.fair.outcome()
                    try:
                        if self._redeal:
                            self.view, events = redeal.apply_redeal(self.view, op, outcome), []
                            self._redeal.popleft()
                        else:
                            self.view, events = self.game.apply(self.view, outcome)
                    except (IllegalAction, RulesError) as e:
                        raise ProtocolError(f"the table's outcome does not apply: {e}", None) from None
                    self._op = None
                    self._events.append(TableResolved(op, outcome, tuple(events)))
                    continue
                if expected != self.my_seat or not self._may_write():
                    return
                kind, body = self.fair.produce()
                self._author(kind, body)
                self.steps.append((self.my_seat, kind, body))
                continue
            if self.phase in ("final", "dispute"):
                seat = len(self.finals)
                if seat >= len(self.seats) or seat != self.my_seat or not self._may_write():
                    return
                kind, body = self.fair.final_reveal()
                self._author(kind, body)
                self.finals[seat] = body
                self._after_final()
                continue
            if self.phase == END:
                seat = len(self.ends)
                if seat >= len(self.seats) or seat != self.my_seat or not self._may_write():
                    return
                body = self._result_body()
                self._author(END, body)
                self.ends[seat] = body
                self._after_end()
                continue
            return
        raise ProtocolError(f"no one is asked to write after {MAX_LOCAL_STEPS} table steps: the engine loops", None)

    # ---------------------------------------------------------- helpers

    def _made_public(self, before: State, after: State) -> list[int]:
        """Slots a move makes public that were not: the cards it plays from a hidden hand."""
        everyone = after.cards.everyone
        b, a = before.cards.seen, after.cards.seen
        return [s for s in range(len(a)) if a[s] == everyone and (s >= len(b) or b[s] != everyone)]

    def _text(self, state: State, action: Action) -> str:
        try:
            return self.game.format_action(state, action)
        except Exception:  # notation is for people; never let it break the protocol
            return " ".join(str(x) for x in action)


def pack_roundtrip(value: Any) -> Any:
    """``value`` as a peer receives it (lists for tuples)."""
    from protocol.wire import unpack

    return unpack(pack(value))


class _ReplayEnd(Exception):
    """A replay reached the end of the log where the seat would write next."""
