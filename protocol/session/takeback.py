"""A seat takes back its own last moves of the turn under way, on a table whose host allows it, if every other seat
says yes.

The entries the seats signed stay in the chain (others hold them: cutting one is a fork that names its author);
the takeback is entries of its own, appended, that every session, ``lanterne verify`` and the replay read alike:

* The table signs ``undo: "ask"`` (absent, or ``off``: no takeback on this table).
* The seat whose turn it is writes ``takeback {to}``, ``to`` the hash of the entry to go back after. Every entry
  after it must be a move of that seat in the turn under way that made no hidden card public: no other seat's
  entry, no table step (a deal, a draw, a shuffle, a roll, a reveal) and no other kind of entry since, so the
  fair table is as it was and nothing seen is unseen.
* Every other seat answers in seat order ``takeback_reply {takeback: hash, yes}``: its person's answer
  (:meth:`Takebacks.answer`), or its consent's (a computer says yes). A no ends it: the game goes on where it was. After the last yes every session
  goes back to the position before the first move taken back (each its own view, kept before that move) and it
  is that seat's turn again; the chain goes on after the answers.
* One takeback at a time (its phase takes nothing but the answers); the moves must end the chain, so a takeback
  answered (yes or no) cannot be asked again: the seat moves again first, and asks for that move alone.

Any other takeback or answer breaks the protocol: the game ends with an abort naming its author, the reason
saying which seat may write there (the rules' check, :mod:`.rules`) or why the moves stay.
"""

from __future__ import annotations

from lanterne.engines.core import IllegalAction, State, Words
from lanterne.protocol.log import Entry
from lanterne.protocol.wire import ProtocolError

from .events import TakebackAsked, TakebackRefused, TakenBack
from .kinds import MOVE, TAKEBACK, TAKEBACK_REPLY, UNDO_ASK
from .phases import Phase, Trigger
from .state import SessionState, Steps
from .takeback_state import Ask


class Takebacks:
    """Asking for a takeback, checking one, answering it, and going back a position."""

    def __init__(self, s: SessionState, steps: Steps):
        self.s = s
        self.steps = steps

    # ------------------------------------------------------------ the checks
    def refusal(self, seat: int, to: bytes) -> tuple[int, str]:
        """(the place of the first move taken back, '') if ``seat`` may take back every entry after the one whose
        hash is ``to``; else (-1, why not, one line)."""
        s = self.s
        if s.terms.undo != UNDO_ASK:
            return -1, Words("this table takes nothing back (its host signed undo {undo})", undo=repr(s.terms.undo))
        chain, points = s.chain, s.undo.points
        at = len(chain) - 1
        while at >= 0 and chain[at].hash != to:
            why = self._stays(chain[at], seat)
            if why:
                return -1, why
            at -= 1
        if at < 0:
            return -1, Words("it names no entry of this game to go back to")
        first = at + 1
        if first == len(chain):
            return -1, Words("it takes back nothing (it names the last entry)")
        assert s.game is not None and s.view is not None
        if s.game.turn(points[first][1]) != s.game.turn(s.view):
            return -1, Words("entry {n} was played in an earlier turn", n=first)
        return first, ""

    def _stays(self, entry: Entry, seat: int) -> str:
        """Why ``entry`` cannot be taken back by ``seat`` ('' : it can)."""
        author = self.s.roster.seat_of(entry.author)
        if entry.kind.startswith("fair_"):
            return Words("the table's step at entry {n} ({kind}) cannot be taken back: what it showed stays seen",
                         n=entry.seq, kind=entry.kind)
        if entry.kind != MOVE:
            return Words("entry {n} ({kind}) is no move: only a run of moves at the chain's end goes back",
                         n=entry.seq, kind=entry.kind)
        if author != seat:
            return Words("entry {n} is seat {seat}'s move: a seat takes back only its own", n=entry.seq,
                         seat=author + 1 if author is not None else "?")
        if "proof" in entry.body:
            return Words("entry {n} made a hidden card public, which cannot be hidden again", n=entry.seq)
        if entry.seq not in self.s.undo.points:
            return Words("the table acted after entry {n}", n=entry.seq)
        return ""

    def why_not(self, moves: int = 1) -> str:
        """Why we cannot ask to take back our last ``moves`` moves now ('': we can), one line."""
        s = self.s
        if s.my_seat is None or s.identity is None:
            return Words("a watcher takes nothing back")
        if s.terms.undo != UNDO_ASK:
            return Words("this table takes nothing back (its host did not allow it)")
        if s.phase == Phase.TAKEBACK:
            return Words("a takeback is being answered")
        if not s.my_turn:
            return Words("it is not your turn")
        if moves < 1 or moves >= len(s.chain):
            return Words("nothing of yours to take back this turn")
        at = len(s.chain) - 1
        while at > 0 and s.chain[at].kind.startswith("fair_"):
            at -= 1
        if s.chain[at].kind != MOVE or s.chain[at].author != s.public:
            return Words("nothing of yours to take back this turn")
        return self.refusal(s.my_seat, s.chain[-moves - 1].hash)[1]

    # ------------------------------------------------------------ asking
    def ask(self, moves: int = 1) -> list:
        """Ask the others to take back our last ``moves`` moves (IllegalAction, one line, if we may not)."""
        why = self.why_not(moves)
        if why:
            raise IllegalAction(why)
        first = len(self.s.chain) - moves
        before = self.s.undo.points[first][1]      # (appending the request empties the kept positions)
        entry = self.s.writer.choose(self.s, TAKEBACK, {"to": self.s.chain[first - 1].hash})
        if entry is not None:
            self._take(entry, first, before)
            self.steps.advance_safely()
        return self.s.flush()

    def on_request(self, entry: Entry, blame: int | None) -> None:
        """A seat's ``takeback`` during play (the rules checked it is the seat whose turn it is)."""
        seat = self.s.roster.seat_of(entry.author)
        assert seat is not None
        first, why = self.refusal(seat, entry.body["to"])
        if why:
            raise ProtocolError(f"entry {entry.seq}: seat {seat + 1}'s takeback: {why}", blame)
        before = self.s.undo.points[first][1]
        self.s.append(entry)
        self._take(entry, first, before)

    def _take(self, entry: Entry, first: int, before: State) -> None:
        """The request is in the chain: the other seats answer; ``before`` is the position to go back to."""
        seat = self.s.roster.seat_of(entry.author)
        assert seat is not None
        order = tuple(i for i in range(len(self.s.seats)) if i != seat)
        moves = entry.seq - first
        self.s.undo.asked = Ask(seat, entry.hash, first, moves, order, before)
        self.s.phases.fire(Trigger.TAKEBACK_ASKED)
        self.s.events.append(TakebackAsked(seat, moves, first))

    # ------------------------------------------------------------ the answers
    def on_answer(self, entry: Entry, blame: int | None) -> None:
        c = self.s.undo.asked
        assert c is not None
        seat = self.s.roster.seat_of(entry.author)
        assert seat is not None
        if entry.body["takeback"] != c.hash:
            raise ProtocolError(f"entry {entry.seq}: seat {seat + 1} answers another takeback than seat {c.seat + 1}'s "
                                f"(entry {c.first + c.moves})", blame)
        self.s.append(entry)
        self._answered(seat, entry.body["yes"])

    def step_answer(self) -> bool:
        """Our answer, when it is ours to give and our consent has one (a computer's yes)."""
        c = self.s.undo.asked
        assert c is not None
        if c.writer != self.s.my_seat or not self.s.writer.may_write(self.s):
            return False
        consent = self.s.undo.consent
        yes = consent(c) if consent is not None else None
        if yes is None:
            return False
        if self.s.writer.choose(self.s, TAKEBACK_REPLY, {"takeback": c.hash, "yes": bool(yes)}) is None:
            return False
        self._answered(c.writer, bool(yes))
        return True

    def answer(self, yes: bool) -> list:
        """Our person's answer to the takeback asked now (IllegalAction, one line, if none waits for ours)."""
        c = self.s.undo.asked
        if c is None or self.s.phase != Phase.TAKEBACK or c.writer != self.s.my_seat:
            raise IllegalAction(Words("no takeback waits for your answer"))
        if self.s.writer.choose(self.s, TAKEBACK_REPLY, {"takeback": c.hash, "yes": yes}) is not None:
            self._answered(c.writer, yes)
            self.steps.advance_safely()
        return self.s.flush()

    def _answered(self, seat: int, yes: bool) -> None:
        c = self.s.undo.asked
        assert c is not None
        if not yes:
            self.s.undo.asked = None
            self.s.phases.fire(Trigger.DENIED)
            self.s.events.append(TakebackRefused(c.seat, seat))
            return
        c = self.s.undo.asked = c.agreed_by(seat)
        if c.answered:
            self.s.undo.asked = None
            self.s.view = c.before
            self.s.phases.fire(Trigger.TAKEN_BACK)
            self.s.events.append(TakenBack(c.seat, c.moves, c.agreed))
