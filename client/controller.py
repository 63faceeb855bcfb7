"""Game controllers: what a game screen talks to, whoever runs the table.

A screen never drives an engine directly. It holds a :class:`GameController`
and asks it for the view of the seat on screen, whose turn it is, the move
log, and hands it the actions a person chose. :class:`LocalGame` runs a game
on this machine (hot-seat and computer players, open table), and
``client/net_controller.py``'s ``NetworkGame`` runs a seat of a table on
the network through the same interface, so the screens do not know which
one they hold.

Changes are announced to listeners (plain callables, called on the thread
that owns the controller, the app's event loop). Computer players think
through an injected ``think`` (client/thinking.py: another process, so the
app never stalls; a worker thread by default).
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable, Sequence

from lanterne.client.games import client_side
from lanterne.client.i18n import _, ngettext, seat_tag
from lanterne.client.levels import kind_of, level_words
from lanterne.client.takeback import TakeBack
from lanterne.engines.core import (DEAL, REVEAL, ROLL, SHUFFLE, TABLE, Action, Event, Game,
                          IllegalAction, OpenTable, Player, RulesError, State, TableOp)
from lanterne.protocol.net.computers import Think, think_on_thread
from lanterne.protocol.session.events import Moved, TableResolved, TakenBack

HUMAN = "human"
COMPUTER = "computer"
REMOTE = "remote"


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: a person here, a computer player here, or a peer."""

    index: int
    name: str
    kind: str = HUMAN
    level: str = ""
    """A computer's level in words (*normal*), where this app runs it; '' otherwise."""

    @property
    def label(self) -> str:
        return f"{seat_tag(self.index)} {self.name}"


@dataclass(frozen=True)
class Waiting:
    """What the game waits for now: the answer to 'whose turn is it?'."""

    kind: str  # "human", "computer", "remote", "table" or "over"
    seat: int | None = None


@dataclass(frozen=True)
class LogEntry:
    """One line of the move log: who did what, in public words."""

    number: int
    actor: int
    text: str
    events: tuple[Event, ...] = ()


@dataclass
class Change:
    """What the last update was about (listeners may ignore it)."""

    entry: LogEntry | None = None
    error: str | None = None
    undone: LogEntry | None = None
    """The line a person took back (its position is the one now)."""


Listener = Callable[[Change], None]

def roll_words(op: TableOp, value: int, game_id: str | None = None) -> str:
    """A roll's outcome as a person reads it: a seat is P1..Pn, a die shows its printed face.

    The engines roll 0-based values (the first player: seat 0 is P1; a die: an index into its
    faces, read by the game's ``ClientGame.roll_words``), which no person should have to translate.
    """
    if op.why == "first player":
        return _("P{n} starts").format(n=value + 1)
    side = client_side(game_id) if game_id else None
    words = side.roll_words(op, value) if side is not None and side.roll_words is not None else None
    return words if words is not None else str(value)


def describe_table_op(op: TableOp, outcome: Action | None = None, game_id: str | None = None) -> str:
    """A public sentence for a table operation; never names hidden cards."""
    if op.kind == ROLL:
        why = _(op.why) if op.why else ngettext("{n} faces", "{n} faces", op.faces).format(n=op.faces)
        if outcome is None:
            return _("roll ({why})").format(why=why)
        return _("roll ({why}): {value}").format(why=why, value=roll_words(op, outcome[1], game_id))
    count = len(op.slots)
    cards = ngettext("{n} card", "{n} cards", count).format(n=count)
    if op.kind == SHUFFLE:
        return _("shuffle {pile} ({cards})").format(pile=_(op.pile) if op.pile else _("the pile"), cards=cards)
    if op.kind == DEAL:
        if op.to is None:
            return _("deal {cards} face up").format(cards=cards)
        return _("deal {cards} to P{n}").format(cards=cards, n=op.to + 1)
    if op.kind == REVEAL:
        return _("reveal {cards}").format(cards=cards)
    return op.kind


def scores_over(game: Game, chain: Sequence, events: Sequence) -> list[list[int]] | None:
    """The scores (as the rulebook prints them) at the start and after each move and table operation of a
    resumed game (a takeback's moves left out), from its signed chain and the events its replay gave: the score chart's history before the
    resume (None if the log does not give it: the chart then starts at the resume)."""
    try:
        table = next(e for e in chain if e.kind == "table").body
        state = game.view(game.setup(players=int(table["players"]), variant=str(table.get("variant", "standard")),
                                     **dict(table.get("options", {}))), None)
        out, states = [list(game.display_scores(state))], [state]
        for ev in events:
            if isinstance(ev, TakenBack):       # the moves taken back leave the history, as they leave the log
                del out[-ev.moves:], states[-ev.moves:]
                state = states[-1]
            elif isinstance(ev, (Moved, TableResolved)):
                state = game.apply(state, ev.action if isinstance(ev, Moved) else ev.outcome)[0]
                out.append(list(game.display_scores(state)))
                states.append(state)
    except Exception:  # noqa: BLE001 - a chart is a courtesy: it then starts at the resume
        return None
    return out


class GameController(ABC):
    """The interface a game screen needs, whatever runs the game."""

    game: Game
    seats: tuple[Seat, ...]
    saved = False
    """Whether the game is written to disk as it is played (leaving it then loses nothing)."""
    score_history: list[list[int]] | None = None
    """After a resume: the scores at each step before it (the score chart starts there)."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self.log: list[LogEntry] = []
        self.last_error: str | None = None

    # -- listening
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _notify(self, change: Change) -> None:
        for listener in list(self._listeners):
            listener(change)

    # -- what the screen reads
    @abstractmethod
    def view(self, seat: int | None) -> State:
        """The state as ``seat`` may know it (None: the public view)."""

    @property
    @abstractmethod
    def waiting(self) -> Waiting:
        """Whose turn it is, or what the game waits for."""

    @property
    def local_seats(self) -> list[int]:
        """Seats played by a person at this keyboard."""
        return [s.index for s in self.seats if s.kind == HUMAN]

    @property
    def mode(self) -> str:
        """What kind of game this is, for titles: hot-seat, local game, LAN game."""
        if not self.local_seats and self.seats and all(s.kind == COMPUTER for s in self.seats):
            return "computers playing"
        return "hot-seat" if len(self.local_seats) > 1 else "local game"

    def is_over(self) -> bool:
        return self.waiting.kind == "over"

    def scores(self) -> list[int]:
        return self.game.scores(self.view(None))

    def winners(self) -> list[int]:
        return self.game.winners(self.view(None))

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now, computed on its own view."""
        if self.waiting.seat != seat or self.waiting.kind != HUMAN:
            return []
        return self.game.legal_actions(self.view(seat), seat)

    def parse(self, seat: int, text: str) -> Action:
        """The action a move text names for ``seat``; NotationError if none."""
        return self.game.parse_action(self.view(seat), text.strip(), seat)

    def format(self, seat: int, action: Action) -> str:
        """The move notation of ``action`` for ``seat``; a plain spelling if the engine cannot write it."""
        try:
            return self.game.format_action(self.view(seat), action)
        except (RulesError, ValueError, TypeError, IndexError, KeyError):
            return " ".join(str(x) for x in action)

    def status(self) -> str:
        """One line: whose turn it is and what the app waits for."""
        w = self.waiting
        if w.kind == "over":
            scores = self.scores()
            best = self.winners()
            names = _(" and ").join(self.seats[i].label for i in best)
            tally = ", ".join(f"{self.seats[i].label} {s}" for i, s in enumerate(scores))
            if len(best) > 1:
                return _("Game over: {names} share the win ({tally})").format(names=names, tally=tally)
            return _("Game over: {names} wins ({tally})").format(names=names, tally=tally)
        if w.kind == "table":
            return _("The table is dealing...")
        seat = self.seats[w.seat]
        if w.kind == COMPUTER:
            return _("{player} (computer) is thinking...").format(player=seat.label)
        if w.kind == REMOTE:
            return _("Waiting for {player} on the network...").format(player=seat.label)
        return _("{player} to play").format(player=seat.label)

    has_move_clock = False
    """Whether the table limits the time of a move (a network table that signed a move clock)."""

    def move_clock_left(self) -> float | None:
        """Seconds left on the table's move clock for the seat to move (None: the table has none)."""
        return None

    # -- what the screen does
    @abstractmethod
    def submit(self, seat: int, action: Action) -> LogEntry:
        """Play ``action`` for ``seat``; IllegalAction (one line) if the rules refuse it."""

    async def run(self) -> None:
        """Drive whatever is not a person here (computers, the network) until the end."""

    def close(self) -> None:
        """Stop background work."""


class PlayedHere(GameController):
    """A game whose every seat is played on this machine: people at this keyboard and computer players.

    ``players`` gives a computer :class:`~engines.core.Player` per seat, or
    None for a person at this keyboard. What a move does to the position is
    the subclass's (:meth:`_play`): an open table in memory
    (:class:`LocalGame`), or one signed session per seat
    (:class:`~client.local_record.RecordedGame`).
    """

    def __init__(self, game: Game, players: Sequence[Player | None], names: Sequence[str] | None,
                 seed: int | str, variant: str, computer_delay: float, think: Think | None):
        super().__init__()
        self.think: Think = think or think_on_thread
        """How a computer player's choice is computed (client.thinking: in another process)."""
        self.game = game
        self.players = list(players)
        game.check_options(len(self.players), variant)
        names = list(names or [])
        self.seats = tuple(
            Seat(i, names[i] if i < len(names) else (getattr(p, "name", "computer") if p else f"Player {i + 1}"),
                 HUMAN if p is None else COMPUTER, level_words(kind_of(p)) if p is not None else "")
            for i, p in enumerate(self.players))
        self.variant = variant
        self.seed = seed
        self.computer_delay = computer_delay
        self.rematch: Callable[[], "PlayedHere"] | None = None
        """A new deal with the same seats and options (the game-over dialog offers it), when known."""
        self._wake = asyncio.Event()
        self._closed = False
        self.takeback: TakeBack = TakeBack()
        """The positions before a person's last actions of the turn (client/takeback.py: undo)."""

    @abstractmethod
    def _play(self, seat: int, action: Action) -> LogEntry:
        """Play ``action`` for ``seat`` (its turn, checked); IllegalAction if the rules refuse it."""

    @abstractmethod
    def _checkpoint(self) -> object:
        """The position now, as :meth:`_restore` goes back to it (taken before each of a person's actions)."""

    @abstractmethod
    def _restore(self, point: object) -> None:
        """Go back to the position ``point`` (nothing but the person's last action was played since)."""

    def _record(self, actor: int, text: str, events: list[Event]) -> LogEntry:
        entry = LogEntry(len(self.log) + 1, actor, text, tuple(events))
        self.log.append(entry)
        self.takeback.line(actor)
        return entry

    def _record_table(self, op: TableOp, outcome: Action | None, events: list[Event]) -> LogEntry:
        """The line of a table operation resolved (a roll says its value; a deal names no card)."""
        public = outcome if op.kind == ROLL else None
        entry = self._record(TABLE, describe_table_op(op, public, self.game.id), events)
        self.takeback.table(entry.number, op.kind)
        return entry

    def submit(self, seat: int, action: Action) -> LogEntry:
        w = self.waiting
        if w.kind == "over":
            raise IllegalAction("the game is over")
        if w.seat != seat:
            who = "the table" if w.seat is None else self.seats[w.seat].label
            raise IllegalAction(f"it is not {self.seats[seat].label}'s turn ({who} to play)")
        if self.seats[seat].kind != HUMAN:
            raise IllegalAction(f"{self.seats[seat].label} is not played from this keyboard")
        turn, point = self.game.turn(self.view(seat)), self._checkpoint()
        entry = self._play(seat, action)
        if entry is not None:
            self.takeback.played(entry.number, seat, turn, point, len(self.log))
        return entry

    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` cannot take back its last action now, in one line (None: it can)."""
        w = self.waiting
        if w.kind == "over":
            return _("the game is over")
        if w.kind != HUMAN or w.seat != seat:
            return _("it is not your turn")
        return self.takeback.refusal(self.log, seat, self.game.turn(self.view(seat)), lambda i: self.seats[i].label)

    def undo(self, seat: int) -> LogEntry:
        """Take back ``seat``'s last action of its turn; the line taken back (IllegalAction: why not, one line)."""
        why = self.undo_refusal(seat)
        if why is not None:
            raise IllegalAction(why)
        line = self.log[-1]
        self._restore(self.takeback.take(line.number))
        del self.log[line.number - 1:]
        self._notify(Change(undone=line))
        return line

    async def run(self) -> None:
        """Let the computer players play whenever it is their turn, until the game ends."""
        start = getattr(self.think, "start", None)
        if start is not None and any(s.kind == COMPUTER for s in self.seats):
            try:
                start()  # a thinking process gets ready while the person reads the board
            except (OSError, ValueError):
                pass  # the first move tries again, and thinks on a thread if it must
        while not self._closed:
            w = self.waiting
            if w.kind == "over":
                return
            if w.kind != COMPUTER:
                self._wake.clear()
                await self._wake.wait()
                continue
            seat = w.seat
            player = self.players[seat]
            view = self.view(seat)
            try:
                action = await self.think(player, self.game, view, seat)
            except RulesError as e:
                self.last_error = f"{self.seats[seat].label} failed: {e}"
                self._notify(Change(error=self.last_error))
                return
            if self.computer_delay:
                await asyncio.sleep(self.computer_delay)
            if self._closed or self.waiting != w:
                continue
            try:
                self._play(seat, action)
            except IllegalAction as e:
                self.last_error = f"{self.seats[seat].label} tried an illegal move: {e}"
                self._notify(Change(error=self.last_error))
                return

    def play_computer_now(self) -> LogEntry:
        """Let the computer whose turn it is play one action here and now (no worker thread)."""
        w = self.waiting
        if w.kind != COMPUTER:
            raise IllegalAction("it is not a computer player's turn")
        return self._play(w.seat, self.players[w.seat].choose(self.game, self.view(w.seat), w.seat))

    def close(self) -> None:
        self._closed = True
        self._wake.set()
        stop = getattr(self.think, "close", None)
        if stop is not None:  # a thinking process goes with the game
            stop()


class LocalGame(PlayedHere):
    """A game on this machine on the open table: hot-seat people and computer players.

    Table operations are resolved at once on a seeded
    :class:`~engines.core.OpenTable`, so the same seed and the same actions
    give the same game.
    """

    def __init__(self, game: Game, players: Sequence[Player | None], names: Sequence[str] | None = None,
                 seed: int | str = 0, variant: str = "standard", computer_delay: float = 0.0,
                 state: State | None = None, think: Think | None = None):
        super().__init__(game, players, names, seed, variant, computer_delay, think)
        self.table = OpenTable(seed)
        self.state = state if state is not None else game.setup(players=len(self.players), variant=variant)
        self._resolve_table()

    # -- reading
    def view(self, seat: int | None) -> State:
        return self.game.view(self.state, seat)

    @property
    def waiting(self) -> Waiting:
        if self.game.is_over(self.state):
            return Waiting("over")
        actor = self.game.next_actor(self.state)
        if actor == TABLE:
            return Waiting("table")
        return Waiting(self.seats[actor].kind, actor)

    # -- playing
    def _play(self, seat: int, action: Action) -> LogEntry:
        before = self.view(seat)  # the actor's own words: a claimed card is public once played
        new_state, events = self.game.apply(self.state, action)
        try:
            text = self.game.format_action(before, action)
        except RulesError:
            text = " ".join(str(x) for x in action)
        self.state = new_state
        entry = self._record(seat, text, events)
        self._resolve_table()
        self._wake.set()
        self._notify(Change(entry))
        return entry

    def _resolve_table(self) -> None:
        """Play every pending table operation (shuffles, deals, rolls) at once."""
        while not self.game.is_over(self.state) and self.game.next_actor(self.state) == TABLE:
            op = self.game.table_op(self.state)
            outcome = self.table.resolve(self.state, op)
            self.state, events = self.game.apply(self.state, outcome)
            self._record_table(op, outcome, events)

    def _checkpoint(self) -> State:
        return self.state       # (an engine never changes a state it is given: apply makes a new one)

    def _restore(self, point: object) -> None:
        assert isinstance(point, State)
        self.state = point

    def save_position(self) -> str:
        return self.game.save_position(self.state)
