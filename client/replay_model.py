"""A signed game log as a sequence of positions you can step through (no Textual here).

:func:`load_replay` reads a log file (never writes it) and rebuilds the game
the way every peer saw it: the *public* view after each move and each table
operation. The log is replayed by a watching session (a ``Session`` that
holds no seat and a fair table that authors nothing), so every signature,
link, move and state digest is checked on the way; a log that goes bad stops
the replay at the bad entry and says why, with every position before it
still shown. A log cut in the middle of a game replays up to the cut.

After a finished game every seat has revealed its session seed: replaying
each seat's own session then tells who held which card, so
:meth:`Replay.full_states` can show every hand ("after the audit").

:class:`ReplayCursor` is the stepping model the screen drives: forward,
back, first, last, jump; position 0 is the start, position ``i`` is the
position after step ``i``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import json
from pathlib import Path
import time
from typing import Callable

from lanterne.client.controller import describe_table_op
from lanterne.client.i18n import N_, _, ngettext, say, seat_tag
from lanterne.engines.core import TABLE, Game, RulesError, State, as_action
from lanterne.protocol.log import LogFormatError, open_entry, read_log
from lanterne.protocol import identity as ids
from lanterne.engines.registry import get_game
from lanterne.protocol.session import Aborted, GameOver, Moved, Session, TableResolved, TakenBack
from lanterne.protocol.verify import verify_file
from lanterne.protocol.wire import ProtocolError, printable

WATCHER_KEY = bytes(32)
"""The public key of the watching session: no seat's key (it is not a valid signer)."""


class ReplayError(Exception):
    """A file that cannot be replayed at all; the message is one line."""


@dataclass(frozen=True)
class Step:
    """One line of the replay: a seat's move or a table operation."""

    number: int
    actor: int
    """The seat (0-based), or TABLE."""
    text: str
    entry: int | None = None
    """The log entry of a move (None for table operations)."""
    events: tuple = ()
    """What the step caused, as the engine reports it (``Game.describe_event`` words them)."""
    back: int = 0
    """A takeback every other seat said yes to: the steps it takes back (its position is the one before them)."""


@dataclass
class Replay:
    """A log, replayed. ``states[i]`` is the public view after step ``i`` (``states[0]``: the start)."""

    path: str
    game_name: str = ""
    game: Game | None = None
    variant: str = ""
    names: list[str] = field(default_factory=list)
    fingerprints: list[str] = field(default_factory=list)
    entries: int = 0
    steps: list[Step] = field(default_factory=list)
    states: list[State | None] = field(default_factory=lambda: [None])
    result: str = "incomplete"
    """"over", "aborted" or "incomplete"."""
    ending: str = ""
    """One line: the result, the abort and its reason, or where the log stops."""
    problem: str | None = None
    """Why the replay stopped before the end of the log, one line (None: the whole log replays)."""
    cut: int = 0
    """Bytes after the last complete entry (a file cut off mid-entry)."""
    _raw_entries: list = field(default_factory=list, repr=False)
    _replayed: int = 0
    _seeds: dict = field(default_factory=dict, repr=False)
    _games: Callable[[str], Game] | None = field(default=None, repr=False)
    _full: list[State] | None = field(default=None, repr=False)
    _full_error: str | None = field(default=None, repr=False)
    _scores: list[list[int]] | None = field(default=None, repr=False)

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def labels(self) -> list[str]:
        return [f"{seat_tag(i)} {name}" for i, name in enumerate(self.names)]

    @property
    def has_board(self) -> bool:
        return self.game is not None and self.states[0] is not None

    # -- every hand, after the audit
    @property
    def hands_available(self) -> bool:
        """True when every seat revealed its seed: its own session can be replayed."""
        return (self.has_board and self.result == "over" and self.problem is None and self.players > 0
                and len(self._seeds) == self.players)

    def full_states(self) -> list[State]:
        """The positions with every card any seat held shown (ReplayError if the log does not allow it)."""
        if self._full is not None:
            return self._full
        if self._full_error is not None:
            raise ReplayError(self._full_error)
        if not self.hands_available:
            self._full_error = _("every hand is known only after a finished game whose seats all revealed their seeds")
            raise ReplayError(self._full_error)
        try:
            self._full = _full_states(self)
        except ReplayError as e:
            self._full_error = str(e)
            raise
        return self._full

    def score_series(self) -> list[list[int]]:
        """Each seat's score (as the rulebook prints them) at the start and after every step ([] without
        positions): the score chart."""
        if self._scores is None:
            self._scores = []
            if self.game is not None:
                try:
                    self._scores = [list(self.game.display_scores(s)) for s in self.states if s is not None]
                except Exception:  # noqa: BLE001 - a chart is a courtesy
                    self._scores = []
        return self._scores

    def describe(self, step: Step) -> list[str]:
        """The step's events in the engine's words (public: events never name hidden cards)."""
        if self.game is None:
            return []
        out = []
        for event in step.events:
            try:
                out.append(say(self.game.describe_event(event)))
            except Exception:  # noqa: BLE001 - words for people; never let them break the replay
                out.append(" ".join(map(str, event)))
        return out

    def summary(self) -> str:
        """One line: the game, the players, how far the log goes."""
        players = ", ".join(self.labels) or _("no players yet")
        text = (f"{self.game_name or '?'} ({self.variant or '?'}): {players}; "
                + ngettext("{n} entry", "{n} entries", self.entries).format(n=self.entries) + ", "
                + ngettext("{n} step", "{n} steps", len(self.steps)).format(n=len(self.steps)))
        if self.cut:
            text += "; " + _("the file is cut ({n} bytes after the last complete entry)").format(n=self.cut)
        return text


class ReplayCursor:
    """Where the viewer is in a replay. Position 0 is the start; ``last`` the final position."""

    def __init__(self, replay: Replay, position: int = 0):
        self.replay = replay
        self.position = 0
        self.jump(position)

    @property
    def last(self) -> int:
        return len(self.replay.steps)

    @property
    def step(self) -> Step | None:
        """The step that led to the position shown (None at the start)."""
        return self.replay.steps[self.position - 1] if self.position else None

    def state(self, all_hands: bool = False) -> State | None:
        if all_hands:
            return self.replay.full_states()[self.position]
        return self.replay.states[self.position]

    def forward(self) -> bool:
        return self._go(self.position + 1)

    def back(self) -> bool:
        return self._go(self.position - 1)

    def first(self) -> bool:
        return self._go(0)

    def end(self) -> bool:
        return self._go(self.last)

    def jump(self, position: int) -> bool:
        """Go to ``position`` (0..last); ValueError (one line) if there is no such step."""
        if not 0 <= position <= self.last:
            raise ValueError(f"no step {position}: this replay has steps 0 to {self.last}")
        return self._go(position)

    def _go(self, position: int) -> bool:
        position = max(0, min(self.last, position))
        moved = position != self.position
        self.position = position
        return moved


# --------------------------------------------------------------------------
# Loading


def load_replay(path: str | Path, games: Callable[[str], Game] | None = None) -> Replay:
    """Read and replay a log file. ReplayError (one line) if it is not a log or holds no entry."""
    try:
        raws, tail = read_log(path)
    except LogFormatError as e:
        raise ReplayError(f"{path}: {e}") from None
    if not raws:
        what = f"{tail} bytes that are not a complete entry (a cut file)" if tail else "no entry"
        raise ReplayError(f"{path}: the log holds {what}")
    return replay_entries(raws, tail, path=str(path), games=games)


def replay_entries(raws: list[bytes], tail: int = 0, path: str = "",
                   games: Callable[[str], Game] | None = None) -> Replay:
    """The replay of a log's entries (``tail``: bytes after the last complete one)."""
    replay = Replay(path=path, entries=len(raws), cut=tail, _games=games)
    entries = []
    for i, raw in enumerate(raws):
        try:
            entries.append(open_entry(raw))
        except ProtocolError as e:
            replay.problem = f"entry {i} is damaged: {e}"
            break
    replay._raw_entries = entries
    table = next((e for e in entries if e.kind == "table" and isinstance(e.body, dict)), None)
    if table is None:
        replay.ending = f"the log stops before a table was set ({len(entries)} entries)"
        replay.problem = replay.problem or replay.ending
        return replay
    body = table.body
    replay.game_name, replay.variant = str(body.get("game", "")), str(body.get("variant", ""))
    seats = [k for k in body.get("seats", []) if isinstance(k, bytes)]
    names = [printable(str(n)) for n in body.get("names", [])]  # the authors' words, shown
    replay.names = [names[i] if i < len(names) else f"seat {i + 1}" for i in range(len(seats))]
    replay.fingerprints = [ids.fingerprint(k) for k in seats]
    replay._seeds = {e.author: e.body["seed"] for e in entries if e.kind in ("end", "abort")
                     and e.author in seats and isinstance(e.body, dict) and isinstance(e.body.get("seed"), bytes)}
    try:
        replay.game = (games or _registry)(replay.game_name)
    except Exception as e:  # noqa: BLE001 - RulesError (no such game), or an engine that does not import
        replay.problem = (f"this Lanterne cannot replay {replay.game_name!r}: {str(e)[:200]}; "
                          "the moves are listed as logged")
        _raw_steps(replay, entries, seats)
        return replay
    events = _watch(replay, entries, games)
    _build(replay, events, body)
    return replay


def _registry(game_id: str) -> Game:
    return get_game(game_id)


def _watch(replay: Replay, entries: list, games) -> list:
    """The session events of the log, up to its first bad entry (recorded in ``replay.problem``)."""
    upto = len(entries)
    try:
        session = Session.replay(entries, WATCHER_KEY, bytes(32), games=games or _registry,  # seatless: a watcher
                                 keep_events=True)
        replay._replayed = upto
        return session.replayed_events
    except ProtocolError as e:
        bad = getattr(e, "entry", None)
        text = str(e).splitlines()[0] if str(e) else type(e).__name__
        replay.problem = text if bad is None or f"entry {bad}" in text else f"entry {bad}: {text}"
        upto = bad if isinstance(bad, int) else 0
    except (RulesError, ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
        replay.problem = f"the log does not replay: {type(e).__name__}: {str(e)[:200]}"
        upto = 0
    if upto <= 0:
        return []
    try:
        session = Session.replay(entries, WATCHER_KEY, bytes(32), games=games or _registry, keep_events=True,
                                 upto=upto)
    except Exception:  # noqa: BLE001 - the problem is already recorded; show what replays
        return []
    replay._replayed = upto
    return session.replayed_events


def _build(replay: Replay, events: list, table: dict) -> None:
    """Steps and public positions from the watching session's events."""
    game = replay.game
    try:
        start = game.setup(players=len(replay.names), variant=replay.variant, **dict(table.get("options", {})))
    except (RulesError, TypeError, ValueError) as e:
        replay.problem = replay.problem or f"the game cannot be set up: {e}"
        return
    state = game.view(start, None)
    states: list[State | None] = [state]
    steps: list[Step] = []
    for ev in events:
        try:
            if isinstance(ev, (Moved, TableResolved)):
                state = game.apply(state, ev.action if isinstance(ev, Moved) else ev.outcome)[0]
        except Exception as e:  # noqa: BLE001 - the session applied it; an engine that differs here is a line
            replay.problem = _("step {n} does not apply to the public position: {error}").format(
                n=len(steps) + 1, error=str(e)[:200])
            break
        if isinstance(ev, Moved):
            steps.append(Step(len(steps) + 1, ev.seat, ev.text, ev.entry, tuple(ev.events)))
        elif isinstance(ev, TableResolved):
            if ev.op.kind == "roll" and ev.op.why == "first player":
                text = _("first player: {seat}").format(seat=seat_tag(ev.outcome[1]))
            else:
                text = describe_table_op(ev.op, ev.outcome if ev.op.kind == "roll" else None, game.id)
            steps.append(Step(len(steps) + 1, TABLE, text, None, tuple(ev.events)))
        elif isinstance(ev, TakenBack):
            state = states[-ev.moves - 1]
            steps.append(Step(len(steps) + 1, ev.seat, ngettext("takes back {n} move", "takes back {n} moves",
                                                                ev.moves).format(n=ev.moves), back=ev.moves))
        elif isinstance(ev, GameOver):
            replay.result = "over"
            scores = ", ".join(f"{seat_tag(i)} {s}" for i, s in enumerate(game.display_scores(state)))
            winners = _(" and ").join(seat_tag(w) for w in ev.winners)
            ending = _("Game over: {winners} share the win ({scores})") if len(ev.winners) > 1 else \
                _("Game over: {winners} wins ({scores})")
            replay.ending = ending.format(winners=winners, scores=f"{scores} {_(game.score_name)}")
            continue
        elif isinstance(ev, Aborted):
            replay.result = "aborted"
            who = _("{seat} at fault").format(seat=seat_tag(ev.culprit)) if ev.culprit is not None \
                else _("nobody at fault")
            by = seat_tag(ev.by) if ev.by is not None else _("a seat")
            replay.ending = _("Aborted by {by} ({who}): {reason}").format(by=by, who=who, reason=ev.reason)
            continue
        else:
            continue
        states.append(state)
    replay.steps, replay.states = steps, states
    if replay.result == "incomplete":
        replay.ending = _("The log stops before the end of the game")
        if replay.problem is None and replay._replayed < len(replay._raw_entries):
            replay.problem = _("entry {n} could not be replayed").format(n=replay._replayed)


def _raw_steps(replay: Replay, entries: list, seats: list[bytes]) -> None:
    """Without an engine: the moves as logged, with no positions."""
    steps = []
    for e in entries:
        if e.kind == "move" and isinstance(e.body, dict):
            actor = seats.index(e.author) if e.author in seats else TABLE
            action = e.body.get("action", [])
            text = " ".join(map(str, action)) if isinstance(action, list) else str(action)
            steps.append(Step(len(steps) + 1, actor, text, e.seq))
    replay.steps = steps
    replay.states = [None] * (len(steps) + 1)
    replay.ending = _("No positions: the game's engine is missing")


def _full_states(replay: Replay) -> list[State]:
    """Every seat's own session replayed; table outcomes merged: each card as its holder saw it."""
    game = replay.game
    entries = replay._raw_entries[:replay._replayed]
    outcomes_per_seat: list[list[tuple]] = []
    for key, seed in replay._seeds.items():
        try:
            session = Session.replay(entries, key, seed, games=replay._games or _registry, keep_events=True)
        except ProtocolError as e:
            raise ReplayError(f"a seat's own session does not replay: {e}") from None
        except Exception as e:  # noqa: BLE001 - a fair-table error is a line too
            raise ReplayError(f"a seat's own session does not replay: {type(e).__name__}: {str(e)[:200]}") from None
        outcomes_per_seat.append([ev.outcome for ev in session.replayed_events if isinstance(ev, TableResolved)])
    table = next(e for e in replay._raw_entries if e.kind == "table")
    state = game.setup(players=replay.players, variant=replay.variant, **dict(table.body.get("options", {})))
    state = game.view(state, None)
    out = [state]
    table_step = 0
    try:
        for step in replay.steps:
            if step.back:
                state = out[-step.back - 1]
            elif step.actor == TABLE:
                outcome = _merge([seat[table_step] for seat in outcomes_per_seat])
                table_step += 1
                state = game.apply(state, outcome)[0]
            else:
                state = game.apply(state, _action_of(replay, step))[0]
            out.append(state)
    except (RulesError, IndexError, KeyError, TypeError, ValueError) as e:
        raise ReplayError(f"the hands cannot be rebuilt: {type(e).__name__}: {str(e)[:200]}") from None
    if len(out) != len(replay.states) or not all(_same_public(game, a, b) for a, b in zip(out, replay.states)):
        raise ReplayError("the hands cannot be rebuilt: the positions differ from the public replay")
    return out


def _merge(outcomes: list[tuple]) -> tuple:
    """One table outcome from every seat's: each identity from whoever was told it."""
    first = outcomes[0]
    if first[0] == "roll":
        return first
    ids = [next((o[1][i] for o in outcomes if o[1][i] is not None), None) for i in range(len(first[1]))]
    return (first[0], tuple(ids))


def _action_of(replay: Replay, step: Step):
    entry = replay._raw_entries[step.entry]
    return as_action(entry.body["action"])


def _same_public(game: Game, a: State, b: State) -> bool:
    return game.digest(a) == game.digest(b)


@dataclass(frozen=True)
class SavedGame:
    """A game whose files Lanterne wrote (LAN or local), for the Replays list."""

    log: Path
    line: str
    when: float


def why_not_a_log_file(path: str | Path) -> str | None:
    """Why ``path`` cannot be a log, in the language in force; None for a regular file.

    Said before the protocol reads it, whose reasons are English; a device or a
    pipe is named as such (it exists: "no such file" would be wrong); a path the
    system refuses to look at (a name too long) by the system's reason.
    """
    p = Path(path)
    try:
        if p.is_file():
            return None
        if p.is_dir():
            return _("a folder, not a log file")
        return _("not a regular file") if p.exists() else _("no such file")
    except OSError as e:  # a name too long, a folder that may not be searched: the system's words
        return e.strerror or str(e)


def saved_games(folder: str | Path) -> list[SavedGame]:
    """Every game in ``folder`` (LAN games) and ``folder/local`` (local games), newest first, in one line each.

    Read from the games' meta files (``<table>.json`` beside ``<table>.log``); never raises.
    """
    out = []
    for sub, where in ((Path(folder), N_("LAN")), (Path(folder) / "local", N_("local"))):
        try:
            metas = list(sub.glob("*.json"))
        except OSError:
            continue
        for meta_path in metas:
            log = meta_path.with_suffix(".log")
            try:
                meta = json.loads(meta_path.read_text())
                when = log.stat().st_mtime
            except (OSError, ValueError):
                continue
            if not isinstance(meta, dict):
                continue
            try:
                name = _registry(str(meta.get("game"))).name
            except Exception:  # noqa: BLE001 - a listing never fails
                name = str(meta.get("game", "?"))
            seats = meta.get("seats") if isinstance(meta.get("seats"), list) else []
            names = _(" vs ").join(printable(str(s.get("name") or "?")) for s in seats if isinstance(s, dict)) or "?"
            kind = _("hot-seat") if meta.get("mode") == "hot-seat" else _(where)
            moves = meta.get("moves")
            counted = (", " + ngettext("{n} move", "{n} moves", moves).format(n=moves)) if isinstance(moves, int) else ""
            state = _("over") if meta.get("over") else _("unfinished")
            stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(when))
            out.append(SavedGame(log, f"{stamp}  {name} ({kind}): {names}{counted}, {state}", when))
    return sorted(out, key=lambda g: g.when, reverse=True)


def verdict_line(report) -> str:
    """``protocol.verify``'s report as one line for the screen."""
    if getattr(report, "unfinished", False):     # sound so far: a game under way is no accusation
        return _("Unfinished: {n} entries, every one sound so far; {problem}").format(n=report.entries,
                                                                                     problem=report.problem)
    if not report.ok:
        where = _("entry {n}").format(n=report.bad_entry) if report.bad_entry is not None else _("the log")
        by = " " + _("by {author}").format(author=report.bad_author) if report.bad_author else ""
        return _("NOT VERIFIED: {where}: {problem}").format(where=where + by, problem=report.problem)
    seats = ", ".join(str(s) for s in report.replayed)
    if report.result == "over":
        return _("Verified: {n} entries, every signature, move and card checked (seats {seats} replayed)").format(
            n=report.entries, seats=seats)
    culprit = _("{seat} at fault").format(seat=seat_tag(report.culprit - 1)) if report.culprit else _("nobody blamed")
    return _("Verified: an aborted game ({culprit}): {reason}").format(culprit=culprit, reason=report.reason)


def verify_log(path: str | Path, games: Callable[[str], Game] | None = None) -> tuple[bool, str]:
    """Verify a log file: (ok, one line). Never raises for a bad file."""
    try:
        report = verify_file(str(path), games=games)
    except LogFormatError as e:
        return False, _("NOT VERIFIED: {problem}").format(problem=e)
    except Exception as e:  # noqa: BLE001 - a verifier bug must show as a line, not a traceback
        return False, _("NOT VERIFIED: {problem}").format(
            problem=_("the verifier failed: {error}").format(error=f"{type(e).__name__}: {str(e)[:200]}"))
    return report.ok, verdict_line(report)
