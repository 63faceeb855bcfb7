"""The game session: a sans-IO state machine for one game between N peers.

Feed it what arrives (:meth:`Session.receive`, one entry per call, opened and
its signature checked by :func:`protocol.log.open_entry` where it came in) and
what the local player wants (:meth:`Session.act`, :meth:`Session.resign`); it
returns events for the UI. What to send is the chain itself: a link sends
each peer the entries of :attr:`Session.chain` it lacks (but an entry's
author). It never reads a socket or a clock: :meth:`Session.tick` takes
``now`` for timeouts. Every entry it accepts, its own or a peer's, goes to
``store`` (the log file) before it is in the chain, so before any link can
send it.

The whole game is ONE hash chain with a total order; at every point exactly
one seat may write the next entry (and any member may end the game with an
``abort``). The phases are the table of :mod:`.phases`, who writes in each the
table of :mod:`.rules`; the state is in small parts the session owns
(docs/architecture.md, "The session's parts").

Every protocol breach ends the game with an ``abort`` entry naming the seat
at fault and carrying the offending bytes as evidence, and only on evidence
that stands on its own: an entry that extends the chain and breaks a rule
names its author; two different entries of one author for one place (a
fork) name it. Bytes out of context (another game's entry, an old or
skipped place, a broken previous-hash, no valid signature, a key with no
seat) prove nothing against anyone: they are dropped with a
:class:`~.events.Dropped` event, never blamed on their signer (:mod:`.chain`).
"""

from __future__ import annotations

import copy
import hashlib
import os
from collections import deque
from typing import Any, Callable, Sequence

from lanterne.engines.core import Action, Game, State, TableOp
from lanterne.protocol import identity as ids
from lanterne.protocol.log import VERSION, Entry, open_entry
from lanterne.protocol.wire import ProtocolError, check

from . import chain
from .chain import Chain
from .chance import Chance, Step
from .claim import Claim
from .claims import Claims
from .clocks import Awaiting, Clocks
from .ending import Ending
from .events import Dispute, Dropped, MarkDamaged, OutOfPlace, ReplayEnd, ReplayMismatch
from .kinds import (ABORT, CHOICE_KINDS, CLAIM, HELLO, MAX_LOCAL_STEPS, ON_GONE_END, REFUSE, REPLACE,
                    TABLE_NONCE_DOMAIN, UNDO_OFF)
from .outcome import Outcome, Result
from .phases import Phase
from .play import Play
from .roster import Member, Roster
from .rules import RULES
from .seating import Seating
from .state import SessionState, Shared, Steps
from .takeback import Ask, Takebacks
from .terms import Terms
from .writers import LiveWriter, ReplayWriter

class Session:
    """One peer's side of one game. See the module docstring and :mod:`.phases`."""

    seating_type: type[Seating] = Seating
    play_type: type[Play] = Play
    """The group classes (a verifier that knows every seat's seed reads genesis and play its own way)."""

    def __init__(self, identity: ids.Identity | None, *, host: bool, name: str = "",
                 game: Game | None = None, variant: str = "standard",
                 options: dict | None = None, seed: bytes | None = None,
                 games: Callable[[str], Game] | None = None, store: Callable[[bytes], None] | None = None,
                 timeout: float | None = None, auto_join: bool = True, public: bytes | None = None,
                 guests: Sequence[bytes] | None = None, on_gone: str = ON_GONE_END,
                 move_clock: float | None = None, spectators: bool | str | None = False, undo: str = UNDO_OFF):
        key = identity.public if identity is not None else public
        if key is None:
            raise ValueError("a session needs an identity (or a public key to replay)")
        if host and game is not None:
            if not guests:
                raise ValueError("a host names its guests (their keys, in seat order)")
            game.check_options(len(guests) + 1, variant)   # a local mistake: RulesError
        self._wire(SessionState(identity, key, host=host, name=name,
                                seed=seed if seed is not None else os.urandom(32), games=games,
                                writer=LiveWriter(store), auto_join=auto_join,
                                guests=list(guests) if guests else None,
                                terms=Terms.asked(game, variant, on_gone, spectators, undo), clocks=Clocks(timeout, move_clock),
                                proposal=(game, len(guests) + 1 if guests else 0, variant, dict(options or {}))))
        self.replayed_events: list = []
        """What a replay with ``keep_events`` said, in order."""

    def _wire(self, state: SessionState) -> None:
        """Own ``state`` and the phase groups over it, each handed the steps it asks of the others."""
        self.state = state
        steps = Steps(expected_seat=self._expected_seat, waiting_for=self.waiting_for,
                      advance_safely=self._advance_safely,
                      abort=lambda reason, culprit, evidence, audit: self.ending.abort(reason, culprit, evidence, audit),
                      write_claim=lambda seat, reason, clock: self.claims.write_claim(seat, reason, clock),
                      close_unanswered=lambda: self.claims.close_unanswered(), trial=self._trial)
        self.seating = self.seating_type(state, steps)
        self.play = self.play_type(state, steps)
        self.ending = Ending(state, steps)
        self.claims = Claims(state, steps)
        self.takebacks = Takebacks(state, steps)

    # ------------------------------------------------------------------ the state, as callers read it
    identity: Shared[ids.Identity | None] = Shared()
    public: Shared[bytes] = Shared()
    host: Shared[bool] = Shared()
    name: Shared[str] = Shared()
    seed: Shared[bytes] = Shared()
    games: Shared[Callable[[str], Game] | None] = Shared()
    writer: Shared[LiveWriter | ReplayWriter] = Shared()
    auto_join: Shared[bool] = Shared()
    guests: Shared[list[bytes] | None] = Shared()
    require_on_gone: Shared[str | None] = Shared()
    consent: Shared[Callable[[int], bool | None] | None] = Shared()
    chain: Shared[Chain] = Shared()
    view: Shared[State | None] = Shared()
    claiming: Shared[Claim | None] = Shared()
    roster: Shared[Roster] = Shared()
    terms: Shared[Terms] = Shared()
    chance: Shared[Chance] = Shared()
    clocks: Shared[Clocks] = Shared()
    outcome: Shared[Outcome] = Shared()
    store: Shared[Callable[[bytes], None] | None] = Shared()
    head: Shared[tuple[int, bytes]] = Shared()
    game_id: Shared[bytes] = Shared()
    replaced_at: Shared[int] = Shared()
    peers: Shared[list[Member]] = Shared()
    seats: Shared[list[bytes]] = Shared()
    names: Shared[list[str]] = Shared()
    my_seat: Shared[int | None] = Shared()
    replaced: Shared[dict[bytes, int]] = Shared()
    game: Shared[Game | None] = Shared()
    variant: Shared[str] = Shared()
    options: Shared[dict] = Shared()
    on_gone: Shared[str] = Shared()
    spectators: Shared[bool] = Shared()
    watch_mode: Shared[str] = Shared()
    result: Shared[Result | None] = Shared()
    finals: Shared[dict[int, dict]] = Shared()
    fair: Shared[Any] = Shared()
    steps: Shared[list[Step]] = Shared()
    epoch: Shared[int] = Shared()
    table_op: Shared[TableOp | None] = Shared()
    timeout: Shared[float | None] = Shared()
    move_clock: Shared[float | None] = Shared()
    claim_signed: Shared[bool] = Shared()
    min_claim: Shared[float | None] = Shared()
    phase: Shared[Phase] = Shared()
    over: Shared[bool] = Shared()
    my_turn: Shared[bool] = Shared()
    takeback_consent: Shared[Callable[[Ask], bool | None] | None] = Shared()

    def next_actor(self) -> int:
        """The engine's next actor, or TABLE while a re-deal is being resolved."""
        return self.state.next_actor()

    def scores_so_far(self) -> tuple[int, ...] | None:
        """The public scores of the position reached (None before play)."""
        return self.state.scores_so_far()

    # ------------------------------------------------------------------ what the groups do, asked at the door
    def join(self) -> list:
        """A guest writes its hello (automatic with ``auto_join`` once the host's is in)."""
        return self.seating.join()

    def legal_actions(self) -> list[Action]:
        return self.play.legal_actions()

    def act(self, action: Action) -> list:
        """Play ``action`` for our seat; IllegalAction (not a protocol error) if it cannot be played."""
        return self.play.act(action)

    def resign(self, reason: str = "resigned") -> list:
        """Give up (also how a peer refuses a reveal): an abort naming ourselves."""
        return self.ending.resign(reason)

    def tick(self, now: float, here: bool = False) -> list:
        """Time passes: claim against the awaited seat if it is late (:meth:`.ending.Ending.tick`)."""
        return self.ending.tick(now, here)

    def watch(self, now: float | None, here: bool = False) -> None:
        """Run the clocks for the awaited seat from ``now`` (:meth:`.ending.Ending.watch`)."""
        self.ending.watch(now, here)

    def hold(self, now: float, linked: bool) -> list:
        """Time passes while our log lacks entries we may have signed; ``linked``: every other seat is linked
        to us (:meth:`.writers.LiveWriter.wait`: after the claim time with nothing back, we write again)."""
        if isinstance(self.writer, LiveWriter) and self.writer.wait(self.state, now, linked, self.timeout):
            self._advance_safely()
        return self.state.flush()

    @property
    def claim_due(self) -> float | None:
        """When the claim against the awaited seat falls due (None: no clock)."""
        return self.ending.claim_due

    def awaiting(self) -> Awaiting | None:
        """The seat the chain waits for and since when its clocks run (None: nobody, or the game is over)."""
        return self.ending.awaiting()

    def computer_key_material(self, seat: int) -> bytes:
        return self.claims.computer_key_material(seat)

    def computer_secrets(self, seat: int) -> tuple[ids.Identity, bytes]:
        """The identity and session seed of the computer we would host for ``seat`` (from our seed)."""
        return self.claims.computer_secrets(seat)

    def may_replace(self, seat: int) -> bool:
        """Whether a claim against ``seat`` gives it to a computer (else the claim, once agreed, ends the game)."""
        return self.claims.may_replace(seat)

    def replace(self, seat: int) -> list:
        """Ask the others to give the gone ``seat`` to a computer we host."""
        return self.claims.replace(seat)

    def claim(self, seat: int, why: str) -> list:
        """Claim against the awaited ``seat`` now, without the claim time (the seat said it left for good)."""
        return self.claims.claim(seat, why)

    def step(self) -> list:
        """Write what we may write now: an answer to a claim that waited for our own clock."""
        return self.claims.step()

    def ask_takeback(self, moves: int = 1) -> list:
        """Ask the others to take back our last ``moves`` moves (:mod:`.takeback`; IllegalAction if we may not)."""
        return self.takebacks.ask(moves)

    def answer_takeback(self, yes: bool) -> list:
        """Our person's answer to another seat's takeback, when ours is awaited (IllegalAction if not)."""
        return self.takebacks.answer(yes)

    def takeback_refusal(self, moves: int = 1) -> str:
        """Why we may not ask to take back our last ``moves`` moves now ('': we may), one line."""
        return self.takebacks.why_not(moves)

    def replacing_us(self, key: bytes) -> bool:
        """Whether ``key`` is the computer named by a replace against our seat that we hold aside."""
        return self.state.chain.replacing(key)

    # ------------------------------------------------------------------ API

    def start(self) -> list:
        """The host writes its hello."""
        if self.host and not self.chain:
            body: dict = {"versions": [VERSION], "name": self.name,
                          "table": hashlib.sha256(TABLE_NONCE_DOMAIN + self.seed).digest()}
            if self.guests:
                body["guests"] = self.guests
            self.writer.write(self.state, HELLO, body)
            self.seating.after_hello_entry(self.chain[-1])
        return self.state.flush()

    def waiting_for(self) -> int | None:
        """The seat whose entry comes next (None before the seats are set or when over)."""
        if self.over or not self.seats:
            return None
        return self._expected_seat()

    def receive(self, entry: Entry, sender: bytes | None = None, on_error: str = "abort") -> list:
        """One entry from a peer (opened: its bytes and signature checked once, where they came in). Returns
        events.

        A protocol breach ends the game with an abort naming the culprit
        (``on_error="abort"``); with ``on_error="raise"`` the ProtocolError is
        raised instead and a malformed entry leaves the session unchanged.
        Bytes out of context leave it unchanged too: a :class:`Dropped` event
        (or, with ``on_error="raise"``, :class:`OutOfPlace`). ``sender`` is
        the key of the link the bytes came on, when known: a Dropped event
        names it (its bytes are never blamed on their signer).
        """
        if self.over:
            if on_error == "raise":
                raise ProtocolError("the game is over")
            return []
        try:
            self._receive(entry, sender)
        except OutOfPlace as e:
            if on_error == "raise":
                raise
            self.state.events.append(Dropped(str(e), sender, e.hostile))
        except Dispute as e:
            self.ending.abort(str(e), None, [], audit=True)
        except ProtocolError as e:
            if on_error == "raise":
                raise
            self.ending.abort(str(e), e.seat, [entry.raw])
        self._advance_safely()
        return self.state.flush()

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
        s.replay_entries(entries, check_evidence)
        if keep_events:
            s.replayed_events = s.state.events
        s.state.events = []
        return s

    @classmethod
    def from_log(cls, raws: Sequence[bytes], identity: ids.Identity, seed: bytes, *,
                 games: Callable[[str], Game] | None = None, store: Callable[[bytes], None] | None = None,
                 timeout: float | None = None, name: str = "", game: Game | None = None, players: int = 2,
                 variant: str = "standard", options: dict | None = None,
                 guests: Sequence[bytes] | None = None, signed: int | None = 0) -> "Session":
        """Restart after a crash: replay our own log, then go on live (with ``seed`` kept aside).

        A host restarted before its table was written needs its proposal again
        (``game``, ``variant``, ``options``; the seats are its hello's guests and itself, or
        ``players`` for a log from before every host listed its guests). ``signed``: how many
        places we may have signed (the ``.signed`` mark); a log that stops short of it signs
        nothing more until the others sent our lost entries back (:class:`.writers.LiveWriter`); None: a
        damaged mark, which holds as if we had signed past the log (:class:`MarkDamaged`, with the next call).
        """
        s = cls.replay(raws, identity.public, seed, games=games, identity=identity)
        s.writer, s.auto_join, s.name = LiveWriter(store, signed, len(raws)), True, name
        if not s.claim_signed:      # a restart keeps the table's signed claim time, not its own setting
            s.timeout = timeout
        s.guests = list(guests) if guests else s.seating.listed_guests() if s.host else None
        s.state.proposal = (game, len(s.guests) + 1 if s.guests else players, variant, dict(options or {}))
        if not s.host and s.phase == Phase.HELLO and s.chain:
            s.seating.maybe_join()
            s.seating.after_hello()
        s._advance_safely()      # what we would have written next; its events come with the next call
        if signed is None:
            s.state.events.append(MarkDamaged())
        return s

    def replay_entries(self, entries: Sequence[Entry], check_evidence: bool = False) -> None:
        """Read a log's entries as they came, our own through a :class:`ReplayWriter`; then write live again
        (with no store: :meth:`from_log` gives it the log file)."""
        log = self.writer = ReplayWriter(deque(entries), check_evidence)
        try:
            while log.entries:
                entry = log.entries[0]
                index = len(self.chain)
                try:
                    if self.over:
                        raise ProtocolError(f"entry {index} ({entry.kind}) comes after the end of the game",
                                            self.roster.seat_of(entry.author))
                    if entry.author == self.public and entry.kind not in CHOICE_KINDS:
                        raise ReplayMismatch(f"{entry.kind} is not what seat {self.roster.seat_name(entry.author)} would "
                                             f"write here", self.roster.seat_of(entry.author))
                    log.entries.popleft()
                    self._accept(entry, sender=None)
                    try:
                        self._advance()
                    except ProtocolError as e:
                        # Live, this session would have aborted here: the log's next
                        # entry must be that abort, naming the same seat.
                        head = log.entries[0] if log.entries else None
                        if (head is None or head.kind != ABORT or head.author != self.public
                                or not isinstance(head.body, dict) or head.body.get("culprit") != e.seat):
                            raise
                except (ReplayEnd, Dispute):
                    continue
                except ProtocolError as e:
                    if not hasattr(e, "entry"):
                        e.entry = index
                    raise
        finally:
            self.writer = LiveWriter(None)

    # ------------------------------------------------------------ the driver: the tables of .rules applied
    def feed(self, entry: Entry) -> None:
        """Read one entry as it arrived, unknown sender (a trial fed an abort's evidence)."""
        self._receive(entry, None)

    def advance(self) -> None:
        """Do every step that needs nobody else (a trial stepped on)."""
        self._advance()

    def _trial(self) -> "Session":
        """A copy of this session at this position that can be fed an entry or stepped without changing us."""
        twin = copy.copy(self)
        twin._wire(self.state.copy())
        return twin

    def copy(self) -> "Session":
        """This session at this position, on parts of its own, writing where we write: a local game, whose every
        seat is on this machine (no other peer holds what follows), takes back a person's move by going on from
        the copy made before it (``client/takeback.py``)."""
        twin = self._trial()
        writer = copy.copy(self.writer)
        if isinstance(writer, LiveWriter):
            writer.learned = deque(writer.learned)
        twin.state.writer = writer
        return twin

    def _expected_seat(self) -> int | None:
        rule = RULES.get(self.phase)
        return rule.writer(self.state) if rule is not None else None

    # ------------------------------------------------------------ reading an entry

    def _receive(self, entry: Entry, sender: bytes | None) -> None:
        if entry.seq < len(self.chain) and self.chain[entry.seq].raw == entry.raw:
            return  # a resent entry we already hold: harmless
        c = self.claiming
        leaving = self.seats[c.seat] if c is not None and c.replaces else None
        # a replaced peer that came back late learns of its replacement from our entries; but while the replace
        # is under way, the seat's own entry at the replace's very place is the race's: it voids the replace
        if (entry.kind != REFUSE and (entry.author in self.replaced and entry.seq >= self.chain.replaced_at
                                      or entry.author == leaving and entry.seq > self.chain.replaced_at)):
            return
        if (isinstance(self.writer, LiveWriter) and entry.author == self.public and entry.kind not in CHOICE_KINDS
                and entry.seq == len(self.chain) and self.writer.holding(self.state)):
            self.writer.learn(entry)     # our own lost entry, sent back: written as a replay writes it
            return
        self._accept(entry, sender)

    def _accept(self, entry: Entry, sender: bytes | None) -> None:
        """Check an entry's place in the chain, its shape, its author and kind, then let its phase read it."""
        author_seat = self.roster.seat_of(entry.author)
        blame = author_seat
        if self.seats and author_seat is None and entry.author not in self.replaced \
                and not (entry.prev in self.chain.held and self.chain.replacing(entry.author)):
            raise OutOfPlace(f"entry {entry.seq} ({entry.kind}) is signed by {ids.fingerprint(entry.author)}, "
                             f"who holds no seat here", hostile=True)
        if chain.place(self.state, self.claims, entry, blame) == chain.HELD:
            return
        schema = self.state.schemas.get(entry.kind)
        if schema is None:
            raise ProtocolError(f"entry {entry.seq}: unknown message kind {entry.kind!r}", blame)
        try:
            check(schema, entry.body, entry.kind)
        except ProtocolError as e:
            raise ProtocolError(f"entry {entry.seq} by {self.roster.seat_label(entry.author)}: {e}", blame) from None
        if entry.kind == ABORT:
            self.ending.read_abort(entry, blame)
            return
        if entry.kind in (CLAIM, REPLACE):
            self.claims.read_claim(entry, blame)
            return
        rule = RULES.get(self.phase)
        if rule is None:
            raise ProtocolError(f"entry {entry.seq} ({entry.kind}) comes after the end of the game", blame)
        expected = rule.writer(self.state)
        if (expected is not None and entry.author != self.seats[expected]
                and not (rule.also is not None and rule.also(self.state, author_seat, entry.kind))):
            raise ProtocolError(f"entry {entry.seq} ({entry.kind}) is {self.roster.seat_label(self.seats[expected])}'s to "
                                f"write, not {self.roster.seat_label(entry.author)}'s (wrong author)", blame)
        if not rule.accepts(self.state)(entry.kind):
            raise ProtocolError(f"entry {entry.seq}: {rule.refusal(self.state, author_seat, entry.kind)}", blame)
        rule.reader(self, entry, blame)

    # ------------------------------------------------------------ what needs nobody else

    def _advance_safely(self) -> None:
        try:
            self._advance()
        except ProtocolError as e:
            if not self.over:
                self.ending.abort(str(e), e.seat, [])

    def _advance(self) -> None:
        """Do every step that needs nobody else: table outcomes, our table messages, finals, ends."""
        try:
            for _ in range(MAX_LOCAL_STEPS):
                rule = RULES.get(self.phase)
                if self.over or rule is None or rule.step is None or not rule.step(self):
                    return
            raise ProtocolError(f"no one is asked to write after {MAX_LOCAL_STEPS} table steps: the engine loops",
                                None)
        except ReplayEnd:
            return
        except self.state.fairmod.CheatDetected as e:
            raise ProtocolError(str(e), e.seat) from None
        except self.state.fairmod.FairError as e:
            raise ProtocolError(f"the fair table failed: {e}", None) from None


def receive_frame(session: Session, raw: bytes, sender: bytes | None) -> list:
    """What a session says of bytes that came on a link: opened and signature-checked here, once; bytes that
    are not an entry signed by its author prove nothing against anyone (dropped, the link may be closed)."""
    try:
        entry = open_entry(raw)
    except ProtocolError as e:
        return [Dropped(f"bytes that are not an entry signed by its author ({e})", sender, hostile=True)]
    return session.receive(entry, sender=sender)
