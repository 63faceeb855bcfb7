"""The table's rolls, placing the ships, moving a ship, putting divine stones into ships."""

from __future__ import annotations

from lanterne.engines.core import ROLL as ROLL_OP
from lanterne.engines.core import IllegalAction, Words, read_action

from .. import data
from ..actions import Energy, Move, Place, Relocate, Stones
from ..board import CELLS, SACRED_CELLS, cell_name
from ..state import FIRST, MOVE, PLACE, ROLL, STONES, PacalState
from .building import to_build
from .choices import STONES_FOR_MODE, die_op, visible_stones, voluntary_energy_allowed
from .ending import Event, player_words
from .movement import ARROW, MODES, TURN, can_teleport_to, regular_moves


def apply_roll(s: PacalState, action: tuple, events: list[Event]) -> None:
    op = s.pending
    if action[0] != ROLL_OP or len(action) != 2 or not isinstance(action[1], int) or isinstance(action[1], bool):
        raise IllegalAction(f"the table must roll ({op.why}), got {action!r}")
    value = action[1]
    if not 0 <= value < op.faces:
        raise IllegalAction(f"a roll of a {op.faces}-faced die must be 0..{op.faces - 1}")
    s.pending = None
    if s.phase == FIRST:
        s.roller = s.current = value
        s.phase = PLACE
        events.append(("first", value))
        return
    s.face = data.DIE_FACES[value]
    s.phase = MOVE
    events.append(("roll", s.current, s.face))


def cell_arg(x: int) -> int:
    if not 0 <= x < CELLS:
        raise IllegalAction(f"not a cell: {x!r}")
    return x


def place(s: PacalState, action: tuple, events: list[Event]) -> None:
    c = cell_arg(read_action(Place, action).cell)
    if c not in SACRED_CELLS:
        raise IllegalAction(Words("{cell} is not in the sacred district", cell=cell_name(c)))
    if c in s.ships:
        raise IllegalAction(Words("{cell} already has a ship", cell=cell_name(c)))
    seat = s.current
    s.ships[seat] = c
    events.append(("place", seat, c))
    s.current = (seat + 1) % s.players
    if s.current == s.roller:
        s.round = 1
        s.phase = ROLL
        s.pending = die_op()


def move(s: PacalState, action: tuple, events: list[Event]) -> None:
    seat = s.current
    kind = action[0]
    if kind == "move":
        move = read_action(Move, action)
        mode, c = move.mode, cell_arg(move.cell)
        if mode not in MODES:
            raise IllegalAction(f"no move mode {mode!r} (modes: {', '.join(MODES)})")
        if (mode, c) not in regular_moves(s, seat, only=mode):
            raise IllegalAction(why_not_move(s, mode, c))
        allowance = STONES_FOR_MODE[mode]
        how = mode
    elif kind == "energy":
        energy = read_action(Energy, action)
        value, c = energy.value, cell_arg(energy.cell)
        if value not in s.energy[seat]:
            raise IllegalAction(Words("{seat} has no energy piece worth {n}", seat=player_words(seat), n=repr(value)))
        if not voluntary_energy_allowed(s) and regular_moves(s, seat):
            raise IllegalAction(Words("in the first round the ship must leave the sacred district in a straight line"))
        if not can_teleport_to(s, seat, c):
            raise IllegalAction(f"{cell_name(c)} is not a free cell")
        s.energy = s.energy[:]  # copy-on-write (PacalState.copy shares it)
        s.energy[seat] = s.energy[seat][:]
        s.energy[seat].remove(value)
        allowance, how = 1, "energy"
        events.append(("energy", seat, value))
    else:  # relocate
        c = cell_arg(read_action(Relocate, action).cell)
        if regular_moves(s, seat):
            raise IllegalAction(Words("the ship can still move: relocating is only for a surrounded ship"))
        if s.energy[seat]:
            raise IllegalAction(Words("a surrounded ship must use an energy piece while the player has one"))
        if not can_teleport_to(s, seat, c):
            raise IllegalAction(f"{cell_name(c)} is not a free cell")
        allowance, how = 0, "relocate"
    events.append(("move", seat, how, s.ships[seat], c))
    s.ships[seat] = c
    s.allowance = allowance
    s.phase = STONES
    if allowance == 0 or (s.stone_supply[seat] == 0 and not visible_stones(s, seat)):
        to_build(s, events)  # no stone to put: the step is skipped


def why_not_move(s: PacalState, mode: str, c: int) -> str:
    name = cell_name(c)
    if s.face == data.ARROWS and mode != ARROW:
        return Words("the die shows the arrows: move in one direction, as far as you like")
    if s.face != data.ARROWS and mode == ARROW:
        return Words("the die shows {n}, not the arrows", n=s.face)
    if mode == TURN and s.round == 1:
        return Words("in the first round the ship must leave the sacred district in a straight line")
    if s.round == 1 and c in SACRED_CELLS:
        return Words("in the first round the ship must leave the sacred district")
    if mode == ARROW:
        return Words("{cell} is not a free cell in line with the ship", cell=name)
    return Words("the ship cannot end a {mode} move of {n} on {cell}", mode=Words(mode), n=s.face, cell=name)


def stones(s: PacalState, action: tuple, events: list[Event]) -> None:
    seat = s.current
    _kind, own, other, take = read_action(Stones, action)
    if not isinstance(own, bool):
        raise IllegalAction("the own-ship part of a stones action is true or false")
    if other is not None and (not isinstance(other, int) or isinstance(other, bool)
                              or not 0 <= other < s.players or other == seat):
        raise IllegalAction(f"no other ship {other!r} to put a stone into")
    count = own + (other is not None)
    if count > s.allowance:
        raise IllegalAction(Words.plural("this move allows {n} stone, not {put}", "this move allows {n} stones, not {put}",
                                         s.allowance, put=count))
    if other is not None and not own and s.allowance < 2:
        raise IllegalAction(Words("a single stone goes into the player's own ship"))
    if not isinstance(take, tuple) or not all(isinstance(c, int) and not isinstance(c, bool) for c in take):
        raise IllegalAction("the stones taken back are a list of cells")
    short = max(0, count - s.stone_supply[seat])
    if len(take) != short:
        if short == 0:
            raise IllegalAction(Words("stones are taken back from the board only when the player has none left"))
        raise IllegalAction(Words.plural("{seat} must take back {n} visible stone to put {put} in",
                                         "{seat} must take back {n} visible stones to put {put} in", short,
                                         seat=player_words(seat), put=count))
    if take and (len(set(take)) != len(take) or not set(take) <= set(visible_stones(s, seat))):
        raise IllegalAction(Words("the stones taken back must be the player's own visible stones, each once"))
    for c in take:
        s.stones[seat] ^= 1 << c
        s.stone_supply[seat] += 1
        events.append(("take back", seat, c))
    targets = ([s.ships[seat]] if own else []) + ([s.ships[other]] if other is not None else [])
    for c, into in zip(targets, ([seat] if own else []) + ([other] if other is not None else [])):
        s.stone_supply[seat] -= 1
        if s.stones[seat] >> c & 1:  # rulebook: two of a colour on a cell go back to their owner
            s.stones[seat] ^= 1 << c
            s.stone_supply[seat] += 2
            events.append(("stones back", seat, c, 2))
        else:
            s.stones[seat] |= 1 << c
            events.append(("stone", seat, c, into))
    to_build(s, events)
