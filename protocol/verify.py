"""Check a finished game's log from the bytes alone: what ``lanterne verify`` runs.

1. Every entry: canonical bytes, envelope schema, Ed25519 signature, sequence
   number and previous-hash link.
2. A finished game whose every seat revealed its seed (in its ``end``) is
   checked in ONE pass (:func:`check_every_seat`): the session's code replays
   the log once, the engine running on the union of the seats' views (every
   move re-run, every public digest checked) and the fair table being
   :class:`protocol.fair.reveal.RevealedTable`, which draws every seat's
   secrets from its seed and requires every seat's fair message, proof and
   final reveal to be exactly what they give (each shuffle pass computed
   once: that is also the audit).
3. Otherwise, or when that pass finds anything wrong, every seat that revealed
   its seed (in its ``end`` entry, or in an ``abort``) is replayed on its own:
   its session is rebuilt from the log, its own fair messages re-derived from
   the seed must equal the logged ones, every other entry is checked as live
   (authors in turn, schemas, every move re-run by the engine on that seat's
   view with its state digest, every claim against the keys, every
   commitment and reveal), and the audit recomputes every shuffle, deal and
   claim from all seats' final secrets. The first bad entry any replay names
   is reported, so the one pass never decides how an invalid log is blamed.
4. An aborted game: the abort's evidence is fed to the replayed session of
   its author and must fail there, naming the same culprit.
5. A log that stops before the game ended, every entry of it sound, is
   *unfinished* (``Report.result == "unfinished"``, ``lanterne verify``
   exit 3), not invalid: a game under way or paused says nothing against
   anyone. With no seed revealed yet it is replayed as a watcher (a session
   with no seat, checking every entry on the public view). Bytes after the
   last complete entry still make a log invalid.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Callable, Sequence

import msgpack

from lanterne.engines.core import Game, Words
from lanterne.protocol import identity as ids
from lanterne.protocol.fair import audit_transcript
from lanterne.protocol.fair.reveal import RevealedTable
from lanterne.protocol.log import FIRST_PREV, Entry, LogFormatError, open_entry, read_log
from lanterne.protocol.session import (ABORT, CLAIM_REASON, END, FAIR_DOMAIN, MOVE, NONCE_DOMAIN, REPLACE, TABLE_KIND,
                              Aborted, Drbg, GameOver, GameStarted, OutOfPlace, ReplayMismatch, Trigger,
                              Session)
from lanterne.protocol.session.kinds import schemas
from lanterne.protocol.session.play import Play
from lanterne.protocol.session.seating import Seating
from lanterne.protocol.session.state import SessionState
from lanterne.protocol.wire import ProtocolError, check, printable


@dataclass
class Report:
    """What verify found. ``ok`` False names the first bad entry, its author and why."""

    path: str = ""
    ok: bool = False
    entries: int = 0
    game: str = ""
    variant: str = ""
    game_id: str = ""
    seats: list[dict] = field(default_factory=list)
    result: str = "incomplete"
    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    culprit: int | None = None
    reason: str = ""
    bad_entry: int | None = None
    bad_author: str = ""
    problem: str = ""
    replayed: list[int] = field(default_factory=list)

    @property
    def unfinished(self) -> bool:
        """Every entry sound, but the game did not end (exit 3 of ``lanterne verify``)."""
        return self.result == UNFINISHED

    def __setattr__(self, name: str, value) -> None:
        """Its text may quote the log's authors (a reason, a game's name): kept printable, as it is shown."""
        if isinstance(value, str) and not (isinstance(value, Words) and printable(value) == value):
            value = printable(value)     # (Words kept as made, for a client to say them: every part printable)
        super().__setattr__(name, value)

    def fail(self, entry: int | None, author: str, why: str) -> "Report":
        self.ok, self.bad_entry, self.bad_author, self.problem = False, entry, author, why
        return self

    def to_json(self) -> dict:
        return {k: v for k, v in self.__dict__.items()}


UNFINISHED = "unfinished"


def _stops(report: Report, entries: list[Entry], tail: int, label: dict[bytes, str]) -> Report:
    """A sound log that stops before the game ended: unfinished, unless bytes trail after it."""
    if tail:
        return report.fail(len(entries), "", Words("{n} bytes after the last complete entry (a cut or damaged "
                                                   "file), and the game had not ended", n=tail))
    last = entries[-1]
    report.result = UNFINISHED
    report.problem = Words("the log stops at entry {n} ({kind} by {who}) before the game ended", n=last.seq,
                           kind=last.kind, who=label.get(last.author, ids.fingerprint(last.author)))
    return report


def _lenient(raw: bytes) -> dict:
    """Whatever a damaged entry still says (to name its claimed author), or {}."""
    try:
        value = msgpack.unpackb(raw, raw=False, strict_map_key=False)
    except Exception:
        return {}
    return value if isinstance(value, dict) else {}


def _seat_labels(raws: list[bytes]) -> tuple[list[bytes], dict[bytes, str]]:
    for raw in raws:
        value = _lenient(raw)
        body = value.get("body")
        if value.get("kind") == TABLE_KIND and isinstance(body, dict) and isinstance(body.get("seats"), list):
            seats = [k for k in body["seats"] if isinstance(k, bytes)]
            return seats, {k: _seat_label(i, k) for i, k in enumerate(seats)}
    return [], {}


def _seat_label(index: int, key: bytes) -> str:
    """A seat as the report names it: ``seat 2 (ABCD-...)`` (``Words``: a client says it in its language)."""
    return Words("seat {n} ({fingerprint})", n=index + 1, fingerprint=ids.fingerprint(key))


def _author_of(raw: bytes, label: dict[bytes, str]) -> str:
    author = _lenient(raw).get("author")
    if not isinstance(author, bytes):
        return Words("unknown author")
    return label.get(author, ids.fingerprint(author))

OUTSIDER = bytes(32)
"""The key the one-pass check replays as: no seat's (a small-order key signs nothing)."""


class _EverySeatSeating(Seating):
    """Genesis read knowing every seat's seed: each nonce must be the one its seed gives, and play runs on the
    union of the seats' views with a :class:`~protocol.fair.reveal.RevealedTable`."""

    seeds: dict[bytes, bytes]

    def _check_genesis(self, entry: Entry) -> None:
        if entry.body["nonce"] != hashlib.sha256(NONCE_DOMAIN + self.seeds[entry.author]).digest():
            raise ReplayMismatch(f"entry {entry.seq}: the genesis nonce is not the one the seat's revealed seed "
                                 f"gives", self.s.roster.seat_of(entry.author))

    def _start_play(self) -> None:
        s = self.s
        assert s.game is not None
        s.view = s.game.setup(players=len(s.seats), variant=s.variant, **s.options)
        s.fair = RevealedTable(s.game_id, len(s.seats), [Drbg(self.seeds[k], FAIR_DOMAIN) for k in s.seats])
        s.phases.fire(Trigger.NONCES_IN)
        s.events.append(GameStarted(s.game_id))


class _EverySeatPlay(Play):
    def _text(self, state, action) -> str:
        return ""   # the notation is for people; this replay's events are not shown (a problem is named again)


class _EverySeat(Session):
    """Every seat's session in one replay, once every seat has revealed its seed.

    The engine runs on the union of the seats' views (every dealt card known)
    and checks each move for full legality and each logged public digest
    (the public position is the same on every view by construction); the
    fair table is :class:`protocol.fair.reveal.RevealedTable`, which requires
    every seat's genesis nonce, fair message, proof and final reveal to be
    what its revealed seed gives, recomputing each pass once. Everything
    else (authors in turn, schemas, hellos, table, results) is the session's
    own code.
    """

    seating_type = _EverySeatSeating
    play_type = _EverySeatPlay

    def __init__(self, seeds: dict[bytes, bytes], games: Callable[[str], Game] | None):
        self.seeds = seeds
        super().__init__(None, host=False, seed=bytes(32), games=games, auto_join=False, public=OUTSIDER)

    def _wire(self, state: SessionState) -> None:
        super()._wire(state)
        assert isinstance(self.seating, _EverySeatSeating)
        self.seating.seeds = self.seeds


def check_every_seat(entries: list[Entry], seeds: dict[bytes, bytes],
                     games: Callable[[str], Game] | None = None) -> Session | None:
    """The one-pass check of a finished game's log whose every seat revealed its seed.

    Returns the replayed session if the game ended (every ``end`` in) and
    every check passed; None otherwise (an aborted game, a seat without a
    seed, any problem), in which case the caller replays seat by seat, which
    names the first bad entry exactly as a live peer would.
    """
    session = _EverySeat(seeds, games)
    try:
        session.replay_entries(entries)
    except Exception:  # any problem: the seat-by-seat replay names it
        return None
    if not isinstance(session.result, GameOver) or any(k not in seeds for k in session.seats):
        return None
    return session


def _fits(shapes: dict, entry: Entry) -> bool:
    """Whether an entry's body passes the schema of its kind (checked before any field of it is read)."""
    try:
        check(shapes[entry.kind], entry.body, entry.kind)
    except ProtocolError:
        return False
    return True


def verify_entries(raws: list[bytes], tail: int = 0, games: Callable[[str], Game] | None = None,
                   path: str = "", one_pass: bool = True) -> Report:
    """Check a log's entries (see the module doc). ``one_pass=False`` replays seat by seat only."""
    report = Report(path=path, entries=len(raws))
    entries: list[Entry] = []
    prev = FIRST_PREV
    _, label = _seat_labels(raws)
    for i, raw in enumerate(raws):
        # A file that is not one chain of sound entries says nothing against the key an entry names:
        # anyone can cut, splice or damage a file. The problem is reported; no seat is named.
        try:
            entry = open_entry(raw)
        except ProtocolError as e:
            return report.fail(i, "", Words("{error} (it names {who} as its author; a damaged or forged entry, "
                                            "nobody is blamed)", error=str(e), who=_author_of(raw, label)))
        if entry.seq != i:
            return report.fail(i, "", Words("sequence number {seq} where {n} belongs (signed by {who}; the file is "
                                            "not one chain, nobody is blamed)", seq=entry.seq, n=i,
                                            who=_author_of(raw, label)))
        if entry.prev != prev:
            return report.fail(i, "", Words("does not link to the previous entry (signed by {who}; the file is not "
                                            "one chain, nobody is blamed)", who=_author_of(raw, label)))
        prev = entry.hash
        entries.append(entry)
    if not entries:
        return report.fail(None, "", Words("the log holds no entry"))
    shapes = schemas()
    table = next((e for e in entries if e.kind == TABLE_KIND), None)
    if table is not None and not _fits(shapes, table):
        table = None     # read nothing of it: the replay below names it (or an earlier bad entry) as it comes
    seats: list[bytes] = list(table.body["seats"]) if table is not None else []
    if table is not None:
        report.game, report.variant = table.body["game"], table.body["variant"]
        names = table.body["names"]
        report.seats = [{"seat": i + 1, "name": printable(names[i]) if i < len(names) else "", "key": k.hex(),
                         "fingerprint": ids.fingerprint(k)} for i, k in enumerate(seats)]
    label = {k: _seat_label(i, k) for i, k in enumerate(seats)}
    computers = []    # keys given a seat by a replace entry: replayed like the table's seats
    for entry in entries:
        if entry.kind != REPLACE or not _fits(shapes, entry):
            continue      # a malformed replace: the replay names it
        body = entry.body
        if body["key"] not in seats:
            computers.append(body["key"])
            label.setdefault(body["key"], Words("seat {n} ({fingerprint}, computer)", n=body["seat"] + 1,
                                                fingerprint=ids.fingerprint(body["key"])))
    seeds: dict[bytes, bytes] = {}
    for entry in entries:
        if entry.kind in (END, ABORT) and _fits(shapes, entry) and "seed" in entry.body:
            seeds.setdefault(entry.author, entry.body["seed"])
    first_error: tuple[int, str, str] | None = None
    final: Session | None = None
    by_key: dict[bytes, Session] = {}
    if not seeds:    # no seat revealed its seed: check what can be checked as a watcher
        try:
            final = Session.replay(entries, OUTSIDER, bytes(32), games=games)
        except ProtocolError as e:
            index = min(getattr(e, "entry", len(entries) - 1), len(entries) - 1)
            author = entries[index].author
            return report.fail(index, "" if isinstance(e, OutOfPlace) else label.get(author, ids.fingerprint(author)),
                               str(e))
        if final.result is None:
            return _stops(report, entries, tail, label)
    if one_pass and seats and all(k in seeds for k in seats):
        final = check_every_seat(entries, seeds, games)
        if final is not None:
            report.replayed = list(range(1, len(seats) + 1))
    for key in (seats + computers) or list(seeds) if final is None and seeds else []:
        if key not in seeds:
            continue
        try:
            session = Session.replay(entries, key, seeds[key], games=games, check_evidence=True)
        except ProtocolError as e:
            index = getattr(e, "entry", len(entries) - 1)
            index = min(index, len(entries) - 1)
            author = entries[index].author
            culprit = e.seat
            who = label.get(author, ids.fingerprint(author))
            if isinstance(e, OutOfPlace):
                who = ""      # out of context: its signer is not blamed (see protocol.session.chain)
            elif culprit is not None and culprit < len(seats) and seats[culprit] != author:
                who = Words("{who}; at fault: seat {n}", who=who, n=culprit + 1)
            if first_error is None or index < first_error[0]:
                first_error = (index, who, str(e))
            continue
        report.replayed.append(session.my_seat + 1 if session.my_seat is not None else 0)
        final = session
        by_key[key] = session
    if first_error is not None:
        return report.fail(*first_error)
    if final is None:     # seeds, but none of a seat's: nothing was replayed
        return report.fail(None, "", Words("no seat of the table revealed its seed: nothing to replay"))
    if len(final.finals) == len(seats) and (len(report.replayed) < len(seats) or final.replaced):
        # With every seat replayed, each seat's fair table has already audited
        # every other seat's secrets against the transcript (consume_final);
        # otherwise run the whole audit over the log here.
        problems = audit_transcript(final.fair.game_id, len(seats), final.steps, final.finals)
        if problems:
            where = next(i for i, e in enumerate(entries) if e.kind == "fair_final")
            return report.fail(where, "", Words("audit: {problem}", problem=str(problems[0])))
    report.game_id = final.game_id.hex()
    for key, seat in final.replaced.items():     # a seat a computer took over: say so
        if seat < len(report.seats):
            report.seats[seat]["computer"] = {"name": final.names[seat], "key": final.seats[seat].hex(),
                                              "fingerprint": ids.fingerprint(final.seats[seat])}
    if isinstance(final.result, Aborted) and entries[-1].kind == ABORT and entries[-1].author in by_key:
        final = by_key[entries[-1].author]    # an accusation is judged by its author's replay (which checked it)
    result = final.result
    if isinstance(result, GameOver):
        report.result, report.scores, report.winners = "over", list(result.scores), [w + 1 for w in result.winners]
    elif isinstance(result, Aborted):
        report.result = "aborted"
        report.culprit = result.culprit + 1 if result.culprit is not None else None
        report.reason = ending(result, final.chain)
        if result.scores is not None:
            report.scores = list(result.scores)
    else:
        return _stops(report, entries, tail, label)
    if tail:
        return report.fail(len(entries), "", f"{tail} bytes after the last complete entry (a cut or damaged file)")
    report.ok = True
    return report


def ending(result: Aborted, chain: Sequence[Entry]) -> str:
    """One line on how a game ended early: for a claim, who was claimed against and the signed scores so far.

    e.g. ``ended by claim against seat 3 at move 41 (timeout: seat 3 sent
    nothing for 3 s); scores so far: 12 9 15``.
    """
    if not result.reason.startswith(CLAIM_REASON) or result.culprit is None:
        return result.reason     # another abort: its reason as signed (its scores are in the report)
    moves = sum(1 for e in chain if e.kind == MOVE)
    text = Words("ended by claim against seat {n} at move {moves} ({reason})", n=result.culprit + 1, moves=moves,
                 reason=result.reason)
    if result.agreed:
        text = Words("{text}; agreed by {seats}", text=text,
                     seats=Words.listing(Words("seat {n}", n=s + 1) for s in result.agreed))
    elif result.by is not None:
        text = Words("{text}; unanswered (no other seat to agree)", text=text)
    if result.scores is not None:
        text = Words("{text}; scores so far: {scores}", text=text, scores=" ".join(str(x) for x in result.scores))
    return text


def verify_file(path: str, games: Callable[[str], Game] | None = None) -> Report:
    """Verify a log file. Raises LogFormatError if it is not a Lanterne log at all."""
    raws, tail = read_log(path)
    return verify_entries(raws, tail, games, path=str(path))


__all__ = ["Report", "ending", "verify_entries", "verify_file", "check_every_seat", "LogFormatError"]
