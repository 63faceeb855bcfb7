"""The engine contract every Lanterne game implements.

An engine is pure rules: no I/O, no clock, no randomness, no keys. Whenever
the rules need chance or hidden information, the *next actor* of the state is
the table (:data:`TABLE`) and the state names the :class:`TableOp` it needs.
A table resolves the operation into an *outcome* (plain data) that the engine
applies like any other action. Two tables exist:

* :class:`OpenTable` here: a seeded RNG and full information (hot-seat, bots,
  tests, benchmarks);
* the fair table in ``protocol/fair``: commit-reveal dice and mental poker.

Cards are *slots*: an index into the game's card registry (:class:`Cards`).
A slot's identity (which card it is) is known or unknown to a state. The full
("god") state knows every identity and records, per slot, which seats have
seen it. :meth:`Game.view` masks the identities a seat may not know; a peer in
a network game only ever holds such a view. The same engine code runs on both.

Actions and events are tuples whose first item names the kind; they contain
only ints, strings, bools, None and tuples, so they round-trip through msgpack
(lists come back; :func:`as_action` turns them into tuples again). Each game
names its action kinds as typed records (``NamedTuple`` classes whose first
field is ``kind``, in the game's ``actions.py``): still tuples on the wire and
in logs, read from untrusted input with :func:`read_action`.

Example, a whole game on the open table::

    >>> from lanterne.engines.registry import get_game
    >>> from lanterne.engines.core import OpenTable, play_out
    >>> from lanterne.engines.bots import RandomBot
    >>> game = get_game("pagode")
    >>> state = game.setup(players=2)
    >>> final, log = play_out(game, state, OpenTable(seed=1), [RandomBot(1), RandomBot(2)])
    >>> game.is_over(final)
    True
"""

from __future__ import annotations

import hashlib
import json
import random
import typing
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol, Sequence, TypeVar

import msgpack

TABLE = -1
"""The next actor when the rules need chance or hidden information."""

NOBODY = None
"""The seat of a public view: it knows only what every seat knows."""

Action = tuple
Event = tuple
Outcome = tuple
A = TypeVar("A", bound=tuple)

SHUFFLE = "shuffle"
DEAL = "deal"
REVEAL = "reveal"
ROLL = "roll"

POSITION_FORMAT = 1


class RulesError(ValueError):
    """Base of the errors an engine raises for bad input; the message is one line."""


class IllegalAction(RulesError):
    """An action the rules do not allow in this state; the message says why."""


class NotationError(RulesError):
    """A move text that does not parse; the message says what was wrong."""


class PositionError(RulesError):
    """A position (saved game) that cannot be loaded; the message says why."""


# --------------------------------------------------------------------------
# Card slots


class Cards:
    """The registry of card slots: identity per slot, and who has seen it.

    ``ids[slot]`` is the card's identity (an int that the game maps to a face)
    or ``None`` when the holder of this state does not know it. ``seen[slot]``
    is a bit mask of the seats that know it; a slot seen by every seat is
    public. Piles, hands and boards are lists of slots kept by the game.
    """

    __slots__ = ("ids", "seen", "players")

    def __init__(self, ids: list[int | None], seen: list[int], players: int):
        self.ids = ids
        self.seen = seen
        self.players = players

    @classmethod
    def new(cls, identities: Sequence[int], players: int) -> "Cards":
        """A fresh registry where slot i holds ``identities[i]``, face up.

        A new deck is public: everyone knows what is in it. A shuffle
        (``hide``) is what makes identities secret.
        """
        return cls(list(identities), [(1 << players) - 1] * len(identities), players)

    @property
    def everyone(self) -> int:
        return (1 << self.players) - 1

    def copy(self) -> "Cards":
        return Cards(self.ids[:], self.seen[:], self.players)

    def identity(self, slot: int) -> int | None:
        return self.ids[slot]

    def is_public(self, slot: int) -> bool:
        return self.seen[slot] == self.everyone

    def knows(self, seat: int | None, slot: int) -> bool:
        if seat is None:
            return self.is_public(slot)
        return bool(self.seen[slot] >> seat & 1)

    def show(self, slots: Iterable[int], ids: Sequence[int | None], seat: int | None) -> None:
        """Record that ``seat`` (None: every seat) now knows these slots.

        ``ids`` are the identities the table supplied; ``None`` means this
        state's holder was not told (the card went to somebody else).
        A known identity is never replaced by a different one.
        """
        mask = self.everyone if seat is None else 1 << seat
        for slot, ident in zip(slots, ids):
            if ident is not None:
                old = self.ids[slot]
                if old is not None and old != ident:
                    raise IllegalAction(f"slot {slot} is card {old}, not card {ident}")
                self.ids[slot] = ident
            self.seen[slot] |= mask

    def claim(self, slot: int, ident: int, seat: int) -> None:
        """A seat plays a card it holds and says which it is; it becomes public.

        In a view that does not know the slot the claim is recorded as given
        (the protocol proves it); where the identity is known it must match.
        """
        known = self.ids[slot]
        if known is not None and known != ident:
            raise IllegalAction(f"seat {seat + 1} claims card {ident} in slot {slot}, which is card {known}")
        if known is None and ident in self.ids:
            raise IllegalAction(f"card {ident} is already known to be in slot {self.ids.index(ident)}")
        self.ids[slot] = ident
        self.seen[slot] = self.everyone

    def hide(self, slots: Iterable[int], ids: Sequence[int | None]) -> None:
        """A shuffle: these slots get new identities that nobody has seen."""
        for slot, ident in zip(slots, ids):
            self.ids[slot] = ident
            self.seen[slot] = 0

    def masked(self, seat: int | None) -> "Cards":
        """The registry as ``seat`` may see it (None: the public view)."""
        if seat is None:
            full = self.everyone
            ids = [i if s == full else None for i, s in zip(self.ids, self.seen)]
        else:
            bit = 1 << seat
            ids = [i if s & bit else None for i, s in zip(self.ids, self.seen)]
        return Cards(ids, self.seen[:], self.players)

    def remasked(self, mine: "Cards", seat: int | None, slots) -> "Cards":
        """``mine`` (this registry's earlier copy masked for ``seat``) with ``slots`` masked again from this one:
        ``self.masked(seat)`` when only ``slots`` changed since (views remember their registries)."""
        ids, seen = self.ids, self.seen
        shown = mine.ids[:]
        if seat is None:
            everyone = self.everyone
            for slot in slots:
                shown[slot] = ids[slot] if seen[slot] == everyone else None
        else:
            bit = 1 << seat
            for slot in slots:
                shown[slot] = ids[slot] if seen[slot] & bit else None
        return Cards(shown, seen[:], self.players)

    def to_data(self) -> dict:
        return {"ids": list(self.ids), "seen": list(self.seen)}

    @classmethod
    def from_data(cls, data: dict, players: int) -> "Cards":
        ids, seen = data["ids"], data["seen"]
        if len(ids) != len(seen):
            raise PositionError("cards: ids and seen differ in length")
        return cls(list(ids), list(seen), players)


# --------------------------------------------------------------------------
# Table operations


@dataclass(frozen=True)
class TableOp:
    """What the table must do before play goes on.

    * ``shuffle``: the slots of ``pile`` (in pile order, ``slots``) get a new
      secret order. Outcome ``("shuffle", ids)``: the identities now in those
      slots, or ``None`` each where the holder cannot know them.
    * ``deal``: ``slots`` (top of ``pile``) go to ``to`` face down (only that
      seat learns them) or, with ``to=None``, face up to everyone.
      Outcome ``("deal", ids)``.
    * ``reveal``: hidden ``slots`` become known to all. Outcome ``("reveal", ids)``.
    * ``roll``: a die with ``faces`` faces (values 0..faces-1; the game maps
      them to what is printed). Outcome ``("roll", value)``.
    """

    kind: str
    pile: str = ""
    slots: tuple[int, ...] = ()
    to: int | None = None
    faces: int = 0
    why: str = ""

    def __init__(self, kind: str, pile: str = "", slots: tuple[int, ...] = (), to: int | None = None,
                 faces: int = 0, why: str = "") -> None:
        """The fields the dataclass's own ``__init__`` would set, in its order, written into the instance's
        dict: a frozen dataclass sets each through ``object.__setattr__``, 2.5 times slower, and every
        deal of every game builds one of these (the class stays frozen: assigning a field raises)."""
        fields = self.__dict__
        fields["kind"] = kind
        fields["pile"] = pile
        fields["slots"] = slots
        fields["to"] = to
        fields["faces"] = faces
        fields["why"] = why

    @property
    def face_down(self) -> bool:
        return self.kind == DEAL and self.to is not None

    def to_data(self) -> dict:
        return {"kind": self.kind, "pile": self.pile, "slots": list(self.slots),
                "to": self.to, "faces": self.faces, "why": self.why}

    @classmethod
    def from_data(cls, data: dict | None) -> "TableOp | None":
        if data is None:
            return None
        return cls(data["kind"], data["pile"], tuple(data["slots"]), data["to"],
                   data["faces"], data.get("why", ""))


def apply_outcome_to_cards(cards: Cards, op: TableOp, outcome: Outcome) -> None:
    """The card-registry half of applying a table outcome (games call this)."""
    if not outcome or outcome[0] != op.kind:
        raise IllegalAction(f"the table must {op.kind}, got {outcome[0] if outcome else 'nothing'}")
    if op.kind == ROLL:
        if len(outcome) != 2 or not isinstance(outcome[1], int) or not 0 <= outcome[1] < op.faces:
            raise IllegalAction(f"a roll of a {op.faces}-faced die must be 0..{op.faces - 1}")
        return
    ids = outcome[1]
    if len(ids) != len(op.slots):
        raise IllegalAction(f"{op.kind} of {len(op.slots)} cards got {len(ids)} identities")
    if op.kind == SHUFFLE:
        known = [cards.ids[s] for s in op.slots]
        if None not in known and None not in ids and sorted(known) != sorted(ids):
            raise IllegalAction("a shuffle must keep the same cards")
        cards.hide(op.slots, ids)
    elif op.kind == DEAL:
        cards.show(op.slots, ids, op.to)
    elif op.kind == REVEAL:
        cards.show(op.slots, ids, None)
    else:
        raise IllegalAction(f"unknown table operation {op.kind}")


# --------------------------------------------------------------------------
# States and games


class State(ABC):
    """A game state. Games subclass it; ``to_data`` gives the position as plain data.

    States are immutable by convention: :meth:`Game.apply` copies before it
    changes anything, so a state handed out is never changed under its holder.
    """

    cards: Cards
    pending: TableOp | None

    @abstractmethod
    def copy(self) -> "State": ...

    @abstractmethod
    def to_data(self) -> dict: ...


class Game(ABC):
    """A game's rules. One instance per game; it holds no per-game data."""

    id: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 2
    variants: tuple[str, ...] = ("standard",)
    higher_is_better: bool = True
    """False where scores are penalties (Pueblo): the fewest wins."""
    hidden: bool = True
    """Whether a seat may know what another does not (a hand of cards, tiles drawn face down); False for a game
    whose every view is the whole state. A table of a hidden game asks before a stranger watches, by default."""

    # -- setting up
    @abstractmethod
    def setup(self, players: int = 2, variant: str = "standard", **options: Any) -> State:
        """The state before the first table operation (shuffles, deals...)."""

    def check_options(self, players: int, variant: str) -> None:
        if not self.min_players <= players <= self.max_players:
            raise RulesError(Words("{game} seats {low} to {high} players, not {players}", game=self.name,
                                   low=self.min_players, high=self.max_players, players=players))
        if variant not in self.variants:
            raise RulesError(Words("{game} has no variant {variant} (variants: {variants})", game=self.name,
                                   variant=repr(variant), variants=", ".join(self.variants)))

    # -- who acts
    @abstractmethod
    def next_actor(self, state: State) -> int:
        """The seat to act, or TABLE when ``table_op(state)`` is pending."""

    def table_op(self, state: State) -> TableOp | None:
        return state.pending

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty unless it is that seat's move).

        On a view this is computed from what the seat may know; for its own
        seat a view offers exactly what the full state offers.
        """

    @abstractmethod
    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        """The state after ``action`` (a seat's action or the table's outcome).

        Raises :class:`IllegalAction` with a one-line reason; the input state
        is never changed.
        """

    def check(self, state: State, action: Action) -> str | None:
        """Why ``action`` is illegal now, or None if it is legal."""
        try:
            self.apply(state, action)
        except IllegalAction as e:       # the reason as raised: Words keep their template for a client
            return e.args[0] if len(e.args) == 1 and isinstance(e.args[0], str) else str(e)
        return None

    # -- the end
    @abstractmethod
    def is_over(self, state: State) -> bool: ...

    @abstractmethod
    def scores(self, state: State) -> list[int]: ...

    def winners(self, state: State) -> list[int]:
        """Seats sharing the best score (games with other tie-breaks override)."""
        s = self.scores(state)
        best = max(s) if self.higher_is_better else min(s)
        return [i for i, v in enumerate(s) if v == best]

    score_name: str = "points"
    """What ``display_scores`` counts ("penalties" in Pueblo)."""

    def display_scores(self, state: State) -> list[int]:
        """The scores as the rulebook prints them (Pueblo: penalties, not their negation)."""
        return self.scores(state)

    def points(self, state: State, seat: int) -> int:
        """The seat's score with higher always better (penalties negated): what bots maximise."""
        value = self.scores(state)[seat]
        return value if self.higher_is_better else -value

    def identities(self, state: State) -> list[int]:
        """Every card identity of the game (known or not): slot i starts as card i by default."""
        return list(range(len(state.cards.ids)))

    def card_kind(self, ident: int) -> int:
        """Which deck a card identity belongs to: a shuffle only ever mixes cards of one kind.

        Games with several decks (Pandoria: cards, tiles, single tiles,
        peoples) say so here, so that whoever deals unseen identities into
        hidden slots (a bot's determinization) keeps each in its own deck.
        """
        return 0

    def turn(self, state: State) -> int:
        """Turns played so far (for reports)."""
        return getattr(state, "turn", 0)

    # -- information
    def view(self, state: State, seat: int | None) -> State:
        """The state as ``seat`` may know it (None: the public view)."""
        v = state.copy()
        v.cards = state.cards.masked(seat)
        return v

    def public_data(self, state: State) -> dict:
        return self.view(state, NOBODY).to_data()

    def digest(self, state: State) -> bytes:
        """SHA-256 of the canonical public position: equal on every honest peer."""
        return hashlib.sha256(canonical_pack(self.public_data(state))).digest()

    # -- text
    @abstractmethod
    def format_action(self, state: State, action: Action) -> str:
        """The move notation of ``action``, taken in ``state`` (before it)."""

    @abstractmethod
    def parse_action(self, state: State, text: str, seat: int | None = None) -> Action:
        """The action that ``text`` names in ``state``; raises NotationError."""

    @abstractmethod
    def load(self, data: dict) -> State:
        """The state of a position (``State.to_data``); raises PositionError."""

    def save_position(self, state: State) -> str:
        """The position as a JSON text (a saved game)."""
        return json.dumps({"game": self.id, "format": POSITION_FORMAT, "state": state.to_data()},
                          sort_keys=True, separators=(",", ":"))

    def load_position(self, text: str) -> State:
        try:
            data = json.loads(text)
        except ValueError as e:
            raise PositionError(f"not a position file: {e.msg} at character {e.pos}") from None
        if not isinstance(data, dict) or data.get("game") != self.id:
            raise PositionError(f"not a {self.name} position")
        if data.get("format") != POSITION_FORMAT:
            raise PositionError(f"unknown position format {data.get('format')!r}")
        try:
            return self.load(data["state"])
        except PositionError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise PositionError(f"corrupt {self.name} position: {type(e).__name__} {e}") from None

    def describe_event(self, event: Event) -> str:
        """A short sentence for an event (the client's move log)."""
        return " ".join(str(x) for x in event)


# --------------------------------------------------------------------------
# Words for people


class Words(str):
    """A sentence in English that keeps how it was made, so a client can say it in its own language.

    ``Words("{seat} plays first", seat=...)`` is the English text (a ``str``: logs, tests and any
    caller that knows nothing of languages read it as before) and keeps ``template`` and ``parts``;
    ``Words.plural("{n} card", "{n} cards", n, ...)`` keeps both forms and the count. A part is
    plain text said as it is (a cell name, a number) or ``Words`` said in turn (a colour, a name
    of the rules). The engines never translate: ``lanterne.client.i18n.say`` does, with the
    template as a message id of the client's catalog (Babel extracts ``Words(...)`` calls)."""

    __slots__ = ("template", "parts", "plural_template", "count", "context")

    def __new__(cls, template: str, **parts: Any) -> "Words":
        return cls._make(template, None, 0, parts)

    @classmethod
    def term(cls, context: str, text: str) -> "Words":
        """A name of the rules said in a given use (``Words.term("pagode colour", "red")``): a language
        whose words agree (French: *une colonne rouge*, *une carte bleue*) chooses its form by it."""
        self = cls._make(text, None, 0, {})
        self.context = context
        return self

    @classmethod
    def plural(cls, singular: str, plural: str, count: int, **parts: Any) -> "Words":
        """The English form for ``count`` (``{n}`` is the count unless given)."""
        parts.setdefault("n", count)
        return cls._make(singular, plural, count, parts)

    @classmethod
    def listing(cls, items: Iterable[Any], separator: str = ", ") -> "Words":
        """Several parts one after the other (each said in its language, the separator as it is)."""
        parts: dict[str, Any] = {f"p{i}": item for i, item in enumerate(items)}
        template = "{sep}".join("{" + key + "}" for key in parts)
        parts["sep"] = cls(separator)
        return cls._make(template, None, 0, parts)

    @classmethod
    def _make(cls, template: str, plural: str | None, count: int, parts: dict) -> "Words":
        form = template if plural is None or count == 1 else plural
        self = super().__new__(cls, form.format(**parts) if parts else form)
        self.template, self.plural_template, self.count, self.parts = template, plural, count, parts
        self.context = None
        return self

    def __reduce__(self):       # pickled as plain text (a thinking process, a copy): the English
        return (str, (str(self),))


# --------------------------------------------------------------------------
# Plain data


def only_digits(text: str) -> bool:
    """``text`` is a number in 0-9, as ``int`` reads it: ``str.isdigit`` also says yes to "²" or "٣",
    which ``int`` refuses, so a typed move or a record heard on the LAN could raise instead of being refused."""
    return text.isascii() and text.isdigit()


def as_action(obj: Any) -> Any:
    """Lists (as msgpack and JSON give them back) turned into tuples, deeply."""
    if isinstance(obj, (list, tuple)):
        return tuple(as_action(x) for x in obj)
    return obj


def read_action(record: type[A], action: Any) -> A:
    """An untrusted action as its typed record, once its shape is checked.

    ``record`` is a ``NamedTuple`` whose first field is ``kind``. The action
    must be a tuple of the record's length whose ``int`` fields hold ints (not
    bools) and ``bool`` fields bools; other fields are the rules' to check.
    Anything else is an :class:`IllegalAction` with a one-line reason
    ("castle takes 1 arguments", "tile: argument 3 must be a number").
    """
    spec = _RECORD_CHECKS.get(record)
    if spec is None:
        hints = typing.get_type_hints(record)
        fields = record._fields        # type: ignore[attr-defined]
        spec = _RECORD_CHECKS[record] = (len(fields), tuple(i for i, f in enumerate(fields) if hints[f] is int),
                                         tuple(i for i, f in enumerate(fields) if hints[f] is bool))
    size, ints, bools = spec
    if not isinstance(action, tuple) or len(action) != size:
        kind = action[0] if isinstance(action, tuple) and action else "an action"
        raise IllegalAction(f"{kind} takes {size - 1} arguments")
    for i in ints:
        if type(action[i]) is not int:
            raise IllegalAction(f"{action[0]}: argument {i} must be a number")
    for i in bools:
        if type(action[i]) is not bool:
            raise IllegalAction(f"{action[0]}: argument {i} must be true or false")
    return tuple.__new__(record, action)    # type: ignore[return-value]


_RECORD_CHECKS: dict[type, tuple[int, tuple[int, ...], tuple[int, ...]]] = {}
"""Per record: its length, the indexes of its int fields and of its bool fields."""


_PLAIN_TYPES = frozenset((int, str, bytes, bool, type(None)))
"""What msgpack packs as it is: a list holding only these needs no copy (most of a position's data)."""


def _sorted_maps(obj: Any) -> Any:
    """``obj`` with every map's keys sorted; a list or tuple of plain items is returned as it is (msgpack packs
    both as the same array), and the type test runs in C (``map(type, ...)``): a digest is most of a move."""
    kind = type(obj)
    if kind is list or kind is tuple:
        return obj if _PLAIN_TYPES.issuperset(map(type, obj)) else [_sorted_maps(x) for x in obj]
    if kind is dict:
        return {k: _sorted_maps(obj[k]) for k in sorted(obj)}
    if kind in _PLAIN_TYPES:
        return obj
    if isinstance(obj, dict):
        return {k: _sorted_maps(obj[k]) for k in sorted(obj)}
    if isinstance(obj, (list, tuple)):
        return [_sorted_maps(x) for x in obj]
    if isinstance(obj, float):
        raise TypeError("floats have no canonical encoding here")
    return obj


def canonical_pack(obj: Any) -> bytes:
    """Canonical msgpack: maps with sorted keys, shortest ints, bin for bytes, no floats."""
    return msgpack.packb(_sorted_maps(obj), use_bin_type=True)


# --------------------------------------------------------------------------
# The open table


class Table(Protocol):
    def resolve(self, state: State, op: TableOp) -> Outcome: ...


class OpenTable:
    """Resolves table operations with a seeded RNG on the full state.

    The same seed and the same actions give the same game on every machine:
    the RNG is ``random.Random(seed)``, whose algorithm Python keeps stable.
    """

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(seed)

    def resolve(self, state: State, op: TableOp) -> Outcome:
        if op.kind == ROLL:
            return (ROLL, self.rng.randrange(op.faces))
        ids = [state.cards.ids[s] for s in op.slots]
        if None in ids:
            raise RulesError("the open table needs the full state, not a view")
        if op.kind == SHUFFLE:
            self.rng.shuffle(ids)
        return (op.kind, tuple(ids))


class Player(Protocol):
    """A computer player: picks an action for its seat from its own view."""

    def choose(self, game: Game, view: State, seat: int) -> Action: ...


def play_out(game: Game, state: State, table: Table, players: Sequence[Player],
             max_steps: int = 100_000,
             on_step: Callable[[State, Action, list[Event]], None] | None = None,
             ) -> tuple[State, list[tuple[int, Action]]]:
    """Run a game to its end on ``table`` with a player per seat.

    Each player sees only its seat's view. Returns the final state and the
    record of (actor, action) pairs, table outcomes included.
    """
    record: list[tuple[int, Action]] = []
    for _ in range(max_steps):
        if game.is_over(state):
            return state, record
        actor = game.next_actor(state)
        if actor == TABLE:
            action = table.resolve(state, game.table_op(state))
        else:
            action = players[actor].choose(game, game.view(state, actor), actor)
        state, events = game.apply(state, action)
        record.append((actor, action))
        if on_step is not None:
            on_step(state, action, events)
    raise RulesError(f"{game.name}: no end after {max_steps} steps")
