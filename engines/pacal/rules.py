"""The rules: legal actions and their effects, turn by turn.

A turn is three decisions of the seat to act: move the ship (obligatory),
put 0-2 divine stones into ships, build or upgrade one pyramid (or pass).
A phase with nothing to decide is skipped. Actions:

* ``("place", cell)``: put one's ship into the sacred district at the start;
* ``("move", mode, cell)`` with mode ``straight``, ``turn`` or ``arrow``;
* ``("energy", value, cell)``: spend an energy piece, teleport;
* ``("relocate", cell)``: surrounded and without energy: relocate, no stone;
* ``("stones", own, other, take)``: a stone into one's own ship (bool), one
  into the ship of seat ``other`` (or None), after taking back the visible
  stones at cells ``take`` when the supply is short;
* ``("build", storeys, cell, cells)`` / ``("upgrade", storeys, cell, cells)``:
  a pyramid on ``cell`` from the constellation ``cells`` (sorted);
* ``("pass",)``: build nothing.

Table outcomes: ``("roll", value)`` for the first player and for the die.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

from lanterne.engines.core import ROLL as ROLL_OP
from lanterne.engines.core import TABLE, IllegalAction, TableOp, Words, read_action

from . import data
from .actions import ACTIONS, Energy, Move, Place, Relocate, Stones
from .board import CELLS, SACRED_CELLS, bit_cells, board_for, cell_name
from .constellations import constellations, has_constellation, has_long_constellation, shape_storeys
from .movement import (ARROW, MODES, STRAIGHT, TURN, can_teleport_to, regular_moves,
                                   teleport_cells)
from .scoring import district_storeys, final_scoring, sole_leader
from .state import (BUILD, FIRST, MOVE, OVER, PLACE, ROLL, STONES, PacalState)

STONES_FOR_MODE = {STRAIGHT: 2, ARROW: 2, TURN: 1}
"""Seed: a straight or arrows move lets the player put in two stones, a turning move one."""

Event = tuple


def first_player_op(players: int) -> TableOp:
    return TableOp(ROLL_OP, faces=players, why="first player")


def die_op() -> TableOp:
    return TableOp(ROLL_OP, faces=len(data.DIE_FACES), why="die")


# --------------------------------------------------------------------------
# Who acts and what they may do


def next_actor(state: PacalState) -> int:
    return TABLE if state.pending is not None else state.current


def legal_actions(state: PacalState, seat: int) -> list[tuple]:
    if state.pending is not None or state.phase == OVER or seat != state.current:
        return []
    if state.phase == PLACE:
        taken = set(state.ships)
        return [("place", c) for c in sorted(SACRED_CELLS) if c not in taken]
    if state.phase == MOVE:
        return move_actions(state, seat)
    if state.phase == STONES:
        return stone_actions(state, seat)
    if state.phase == BUILD:
        return build_actions(state, seat) + [("pass",)]
    return []


def voluntary_energy_allowed(state: PacalState) -> bool:
    """House reading: in the first round the ship must leave the sacred district
    in a straight line (rulebook), so an energy piece is spent then only when forced."""
    return state.round > 1


def move_actions(state: PacalState, seat: int) -> list[tuple]:
    regular = regular_moves(state, seat)
    values = sorted(set(state.energy[seat]))
    if regular:
        acts = [("move", m, c) for m, c in regular]
        if values and voluntary_energy_allowed(state):
            cells = teleport_cells(state, seat)
            acts += [("energy", v, c) for v in values for c in cells]
        return acts
    cells = teleport_cells(state, seat)
    if values:  # rulebook: surrounded, the player must use an energy piece
        return [("energy", v, c) for v in values for c in cells]
    return [("relocate", c) for c in cells]  # rulebook: and only without one, anywhere, no stone


def visible_stones(state: PacalState, seat: int) -> list[int]:
    """Cells where ``seat`` has a stone no ship stands on (rulebook: "visibles")."""
    bits = state.stones[seat]
    for at in state.ships:
        if at is not None and bits >> at & 1:
            bits ^= 1 << at
    return bit_cells(bits)


def stone_actions(state: PacalState, seat: int) -> list[tuple]:
    a = state.allowance
    plans: list[tuple[bool, int | None]] = []
    if a >= 1:
        plans.append((True, None))
    if a >= 2:
        for other in range(state.players):
            if other != seat:
                plans += [(False, other), (True, other)]
    acts: list[tuple] = [("stones", False, None, ())]
    supply = state.stone_supply[seat]
    visible = None
    for own, other in plans:
        short = own + (other is not None) - supply
        if short <= 0:
            acts.append(("stones", own, other, ()))
            continue
        if visible is None:
            visible = visible_stones(state, seat)
        for take in combinations(visible, short):
            acts.append(("stones", own, other, take))
    return acts


def pieces_of(state: PacalState, seat: int) -> tuple[set[int], set[int]]:
    """(visible stones, pyramids) of ``seat``."""
    return set(visible_stones(state, seat)), set(bit_cells(state.pyramids[seat]))


def sizes_for(supply: list[int], storeys: int, above: int = 0) -> list[int]:
    """Pyramid sizes a constellation of ``storeys`` may build: that size, or when the
    player has none left, any lower size he still has (rulebook); all higher than ``above``."""
    if supply[storeys - 1] > 0:
        return [storeys] if storeys > above else []
    return [k for k in range(above + 1, storeys) if supply[k - 1] > 0]


def build_actions(state: PacalState, seat: int) -> list[tuple]:
    """Every build and upgrade open to ``seat`` (constellation order, then cell)."""
    return list(iter_builds(state, seat))


def iter_builds(state: PacalState, seat: int) -> Iterator[tuple]:
    stones, pyramids = pieces_of(state, seat)
    if not stones:
        return
    supply = state.pyramid_supply[seat]
    expert = state.expert
    pieces = stones | pyramids
    for storeys, cells in constellations(pieces, stones):
        used = [c for c in cells if c in pyramids]
        if not expert or not used:
            for k in sizes_for(supply, storeys):
                for c in cells:
                    if c in stones:
                        yield ("build", k, c, cells)
        if used and (not expert or len(used) == 1):
            for p in used:
                for k in sizes_for(supply, storeys, above=state.pyramid_size[p]):
                    yield ("upgrade", k, p, cells)


# --------------------------------------------------------------------------
# Applying actions


def apply(state: PacalState, action: tuple) -> tuple[PacalState, list[Event]]:
    if not isinstance(action, tuple) or not action:
        raise IllegalAction(f"not an action: {action!r}")
    s = state.copy()
    events: list[Event] = []
    if state.pending is not None:
        _apply_roll(s, action, events)
        return s, events
    if state.phase == OVER:
        raise IllegalAction("the game is over")
    kind = action[0]
    if not isinstance(kind, str):
        raise IllegalAction(f"not an action: {action!r}")
    handler = _HANDLERS.get((state.phase, kind))
    if handler is None:
        raise IllegalAction(Words("{action} is not a move now: {why}", action=repr(kind), why=_expecting(state)))
    handler(s, action, events)
    return s, events


def _player(seat: int) -> Words:
    """A seat in a refusal, as the engine always named it ("player 2"); a client names it its way."""
    return Words("player {n}", n=seat + 1)


def _expecting(state: PacalState) -> str:
    who = _player(state.current)
    if state.phase == PLACE:
        return Words("{seat} places a ship in the sacred district", seat=who)
    if state.phase == MOVE:
        return Words("{seat} moves the ship", seat=who)
    if state.phase == STONES:
        return Words("{seat} puts divine stones into ships (or none)", seat=who)
    if state.phase == BUILD:
        return Words("{seat} builds, upgrades or passes", seat=who)
    return Words("the table acts")


def _apply_roll(s: PacalState, action: tuple, events: list[Event]) -> None:
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


def _cell_arg(x: int) -> int:
    if not 0 <= x < CELLS:
        raise IllegalAction(f"not a cell: {x!r}")
    return x


def _place(s: PacalState, action: tuple, events: list[Event]) -> None:
    c = _cell_arg(read_action(Place, action).cell)
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


def _move(s: PacalState, action: tuple, events: list[Event]) -> None:
    seat = s.current
    kind = action[0]
    if kind == "move":
        move = read_action(Move, action)
        mode, c = move.mode, _cell_arg(move.cell)
        if mode not in MODES:
            raise IllegalAction(f"no move mode {mode!r} (modes: {', '.join(MODES)})")
        if (mode, c) not in regular_moves(s, seat, only=mode):
            raise IllegalAction(_why_not_move(s, mode, c))
        allowance = STONES_FOR_MODE[mode]
        how = mode
    elif kind == "energy":
        energy = read_action(Energy, action)
        value, c = energy.value, _cell_arg(energy.cell)
        if value not in s.energy[seat]:
            raise IllegalAction(Words("{seat} has no energy piece worth {n}", seat=_player(seat), n=repr(value)))
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
        c = _cell_arg(read_action(Relocate, action).cell)
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
        _to_build(s, events)  # no stone to put: the step is skipped


def _why_not_move(s: PacalState, mode: str, c: int) -> str:
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


def _stones(s: PacalState, action: tuple, events: list[Event]) -> None:
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
                                         seat=_player(seat), put=count))
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
    _to_build(s, events)


def _to_build(s: PacalState, events: list[Event]) -> None:
    s.phase = BUILD
    if not can_build(s, s.current):
        _end_turn(s, events)


def can_build(s: PacalState, seat: int) -> bool:
    """Whether ``seat`` has any build or upgrade (quick answers first)."""
    visible = s.stones[seat]  # visible_stones, as a bitboard
    for at in s.ships:
        if at is not None and visible >> at & 1:
            visible ^= 1 << at
    if not visible:
        return False
    supply = s.pyramid_supply[seat]
    if supply[0] > 0:
        return True  # any single visible stone builds a 1-storey pyramid
    if s.expert:
        return next(iter_builds(s, seat), None) is not None
    # Standard rules: a constellation of n storeys builds (or upgrades) iff some size <= n is
    # left (sizes_for), so the question is whether one of at least the smallest size left exists.
    least = next((k for k in range(2, 6) if supply[k - 1] > 0), None)
    if least is None:
        return False
    if least >= 4 and not data.ROTATED_SQUARES:
        return has_long_constellation(visible | s.pyramids[seat], visible, least)
    stones, pyramids = set(bit_cells(visible)), set(bit_cells(s.pyramids[seat]))  # pieces_of
    return has_constellation(stones | pyramids, stones, least)


def check_build(s: PacalState, action: tuple) -> tuple[int, int, tuple[int, ...], int]:
    """Why a build or upgrade is illegal (IllegalAction), else (storeys, cell, cells, old size)."""
    kind, k, at, cells = read_action(ACTIONS[action[0]], action)
    seat = s.current
    if not isinstance(cells, tuple) or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < CELLS
                                               for c in cells):
        raise IllegalAction("a constellation is a list of cells")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= 5:
        raise IllegalAction(f"pyramids have 1 to 5 storeys, not {k!r}")
    if tuple(sorted(cells)) != cells:
        raise IllegalAction("list the constellation's cells in board order")
    storeys = shape_storeys(cells)
    if storeys is None:
        raise IllegalAction(Words("{cells} is not a constellation", cells=" ".join(cell_name(c) for c in cells)))
    stones, pyramids = pieces_of(s, seat)
    for c in cells:
        if c not in stones and c not in pyramids:
            raise IllegalAction(Words("{cell} holds no visible stone or pyramid of {seat}", cell=cell_name(c),
                                      seat=_player(seat)))
    if not any(c in stones for c in cells):
        raise IllegalAction(Words("a constellation needs at least one divine stone"))
    used = [c for c in cells if c in pyramids]
    if at not in cells:
        raise IllegalAction(f"{cell_name(at) if isinstance(at, int) else at!r} is not a cell of the constellation")
    old = 0
    if kind == "build":
        if at not in stones:
            raise IllegalAction(Words("a new pyramid goes on a cell with a divine stone of the constellation"))
        if s.expert and used:
            raise IllegalAction(Words("expert variant: own pyramids count only to upgrade themselves"))
    else:
        if at not in pyramids:
            raise IllegalAction(Words("{cell} has no pyramid of {seat} to upgrade", cell=cell_name(at), seat=_player(seat)))
        if s.expert and len(used) > 1:
            raise IllegalAction(Words("expert variant: only the upgraded pyramid may stand in for a stone"))
        old = s.pyramid_size[at]
        if k <= old:
            raise IllegalAction(Words("an upgrade must be higher than the {n}-storey pyramid", n=old))
    if k not in sizes_for(s.pyramid_supply[seat], storeys, old):
        if k > storeys:
            raise IllegalAction(Words("this constellation builds {n} storeys, not {k}", n=storeys, k=k))
        if s.pyramid_supply[seat][k - 1] == 0:
            raise IllegalAction(Words("{seat} has no {k}-storey pyramid left", seat=_player(seat), k=k))
        raise IllegalAction(Words("a lower pyramid only when the {n}-storey ones are used up", n=storeys))
    return k, at, cells, old


def _build(s: PacalState, action: tuple, events: list[Event]) -> None:
    k, at, cells, old = check_build(s, action)
    new = action[0] == "build"     # a new pyramid, not an upgrade
    seat = s.current
    board = board_for(s.players)
    district = board.district[at]
    before = district_storeys(s, board, district)
    was_triggered = s.triggered
    s.pyramid_owner, s.pyramid_size = s.pyramid_owner[:], s.pyramid_size[:]  # shared with the state before (PacalState.copy)
    s.pyramid_supply, s.bonus_taken = [p[:] for p in s.pyramid_supply], s.bonus_taken[:]  # shared too
    s.score = s.score[:]
    for c in cells:  # the constellation's stones go back; pyramids standing in stay
        if s.stones[seat] >> c & 1:
            s.stones[seat] ^= 1 << c
            s.stone_supply[seat] += 1
    if new:
        for other in range(s.players):  # rulebook: other colours on the cell go back
            if s.stones[other] >> at & 1:
                s.stones[other] ^= 1 << at
                s.stone_supply[other] += 1
                events.append(("stones back", other, at, 1))
        s.pyramid_owner[at] = seat
        s.pyramids[seat] |= 1 << at
        events.append(("build", seat, k, at))
    else:
        s.pyramid_supply[seat][old - 1] += 1
        events.append(("upgrade", seat, old, k, at))
    s.pyramid_supply[seat][k - 1] -= 1
    s.pyramid_size[at] = k
    after = district_storeys(s, board, district)
    if sole_leader(after) == seat and sole_leader(before) != seat:
        first = max(before) == 0
        _score(s, events, seat, board.value(district),
               f"district {district} {'first pyramid' if first else 'majority taken'}")
    left = sum(s.pyramid_supply[seat])
    if new and left == 0:
        _score(s, events, seat, data.LAST_PYRAMID_BONUS, "last pyramid")
        _game_over(s, events, f"player {seat + 1} built their last pyramid")
        return
    if new and left == 1 and was_triggered and not s.bonus_taken[seat]:
        s.bonus_taken[seat] = True
        _score(s, events, seat, data.SECOND_TO_LAST_BONUS, "second-to-last pyramid after the end was triggered")
    if s.phase == OVER:  # 2 players: the threshold ends the game at once
        _game_over(s, events, f"player {seat + 1} reached {data.END_THRESHOLD[s.players]} points")
        return
    _end_turn(s, events)


def _pass(s: PacalState, action: tuple, events: list[Event]) -> None:
    read_action(ACTIONS["pass"], action)
    _end_turn(s, events)


def _score(s: PacalState, events: list[Event], seat: int, pts: int, what: str) -> None:
    s.score[seat] += pts
    events.append(("score", seat, pts, what))
    if not s.triggered and s.score[seat] >= data.END_THRESHOLD[s.players]:
        s.triggered = True
        events.append(("end triggered", seat, s.score[seat]))
        if s.players == 2 and data.TWO_PLAYER_ENDS_AT_ONCE:
            s.phase = OVER  # _build finishes the game after its own bonuses


def _end_turn(s: PacalState, events: list[Event]) -> None:
    """The next seat's turn; a new round (and roll) after the round's last seat.

    With 3-5 players the round's roll holds for every seat and the die passes to
    the next seat each round (the starter of a round plays last in the next).
    With 2 players each seat rolls for its own turn (rulebook)."""
    s.turn += 1
    seat, n = s.current, s.players
    s.current = (seat + 1) % n
    if n == 2:
        last_of_round = seat != s.roller
    else:
        last_of_round = seat == (s.roller - 1) % n
        if last_of_round:
            s.roller = s.current = (s.roller + 1) % n
    if last_of_round and s.triggered:
        _game_over(s, events, f"the round ended after a player reached {data.END_THRESHOLD[n]} points")
        return
    s.allowance = 0
    if last_of_round:
        s.round += 1
    if n == 2 or last_of_round:
        s.face = None
        s.phase, s.pending = ROLL, die_op()
    else:
        s.phase = MOVE


def _game_over(s: PacalState, events: list[Event], reason: str) -> None:
    if s.end_reason:
        return
    s.phase = OVER
    s.pending = None
    s.end_reason = reason
    s.score = s.score[:]  # copy-on-write: final_scoring adds to it
    events.append(("end", reason))
    events.extend(final_scoring(s, board_for(s.players)))


_HANDLERS = {
    (PLACE, "place"): _place,
    (MOVE, "move"): _move, (MOVE, "energy"): _move, (MOVE, "relocate"): _move,
    (STONES, "stones"): _stones,
    (BUILD, "build"): _build, (BUILD, "upgrade"): _build, (BUILD, "pass"): _pass,
}


# --------------------------------------------------------------------------
# For the screen


def build_points(state: PacalState, action: tuple) -> int:
    """The points a build or upgrade would score at once (district and bonuses)."""
    after, events = apply(state, action)
    pts = 0
    for e in events:
        if e[0] == "end":
            break
        if e[0] == "score" and e[1] == state.current:
            pts += e[2]
    return pts


def build_choices(state: PacalState, seat: int) -> list[tuple[tuple, int]]:
    """Every build or upgrade open to ``seat`` now, with the points it scores at once."""
    if state.phase != BUILD or seat != state.current or state.pending is not None:
        return []
    return [(a, build_points(state, a)) for a in build_actions(state, seat)]


def reachable(state: PacalState, seat: int) -> dict[int, list[str]]:
    """For the screen: every destination of ``seat``'s ship with the ways to get there
    ('straight', 'turn', 'arrow', 'energy', 'relocate'); empty unless it is that seat's move."""
    out: dict[int, list[str]] = {}
    if state.phase != MOVE or state.pending is not None or seat != state.current:
        return out  # not this seat's move now
    for a in move_actions(state, seat):
        way = a[1] if a[0] == "move" else a[0]
        cell = a[-1]
        if way not in out.setdefault(cell, []):
            out[cell].append(way)
    return out
