"""Move notation: what a person types and reads.

Cells are named by column letter and row number, ``a1`` top-left, ``m13``
bottom-right. Players are ``P1``..``P5``.

=====================================  =============================================
``place f6``                           put one's ship on f6 (sacred district, setup)
``straight f3`` / ``turn h4``          move with the die, straight or turning
``arrow f12``                          move with the arrows face
``energy 4 b2``                        spend the 4 energy piece, teleport to b2
``relocate b2``                        surrounded, no energy left: relocate, no stone
``stones own P3``                      a stone into one's ship and one into P3's
``stones own`` / ``stones P3``         one stone only
``stones own P3 take c3 d7``           ... after taking back visible stones c3, d7
``stones none``                        no stone
``build 3 on e5 with c3 d4 e5``        a 3-storey pyramid on e5 from c3 d4 e5
``upgrade 4 on e5 with e2 e3 e4 e5``   the pyramid on e5 becomes 4 storeys
``pass``                               build nothing
``first P2`` / ``roll 4 = 5``          table outcomes: first player; die value 4 (face 5)
=====================================  =============================================

Parsing is case-insensitive; ``with ...`` may be left out when only one
constellation fits, and ``on`` may be left out.
"""

from __future__ import annotations

from typing import Callable

from lanterne.engines.core import NotationError, only_digits

from . import data
from .actions import ACTIONS, Energy, Move, Place, Relocate, Stones
from .board import cell_name, parse_cell
from .rules.movement import MODES
from .state import FIRST, PacalState


def face_name(face: int | None) -> str:
    return "arrows" if face == data.ARROWS else str(face)


def format_action(state: PacalState, action: tuple) -> str:
    kind = action[0]
    if kind == "roll":
        if state.phase == FIRST:
            return f"first P{action[1] + 1}"
        return f"roll {action[1]} = {face_name(data.DIE_FACES[action[1]])}"
    if kind == "place":
        return f"place {cell_name(Place._make(action).cell)}"
    if kind == "move":
        move = Move._make(action)
        return f"{move.mode} {cell_name(move.cell)}"
    if kind == "energy":
        energy = Energy._make(action)
        return f"energy {energy.value} {cell_name(energy.cell)}"
    if kind == "relocate":
        return f"relocate {cell_name(Relocate._make(action).cell)}"
    if kind == "stones":
        _, own, other, take = Stones._make(action)
        words = (["own"] if own else []) + ([f"P{other + 1}"] if other is not None else [])
        text = "stones " + (" ".join(words) if words else "none")
        if take:
            text += " take " + " ".join(cell_name(c) for c in take)
        return text
    if kind in ("build", "upgrade"):
        build = ACTIONS[kind]._make(action)
        return f"{kind} {build.storeys} on {cell_name(build.cell)} with {' '.join(cell_name(c) for c in build.cells)}"
    if kind == "pass":
        return "pass"
    raise NotationError(f"no notation for {action!r}")


def _cell(word: str) -> int:
    c = parse_cell(word)
    if c is None:
        raise NotationError(f"{word!r} is not a cell (a1 to m13)")
    return c


def _player(word: str, players: int) -> int:
    w = word.lower()
    if w.startswith("p") and only_digits(w[1:]) and 1 <= int(w[1:]) <= players:
        return int(w[1:]) - 1
    raise NotationError(f"{word!r} is not a player (P1 to P{players})")


def _int(word: str, what: str) -> int:
    if not only_digits(word):
        raise NotationError(f"{word!r} is not a number of {what}")
    return int(word)


def parse_action(state: PacalState, text: str, legal: Callable[[], list[tuple]] = list) -> tuple:
    """The action ``text`` names; ``legal()`` (the legal actions) resolves a left-out constellation."""
    words = text.strip().lower().replace(",", " ").split()
    if not words:
        raise NotationError("empty move")
    head, rest = words[0], words[1:]

    def need(n: int, form: str) -> None:
        if len(rest) != n:
            raise NotationError(f"say: {form}")

    if head == "first":
        need(1, "first P<n>")
        return ("roll", _player(rest[0], state.players))
    if head == "roll":
        if len(rest) not in (1, 3) or (len(rest) == 3 and rest[1] != "="):
            raise NotationError("say: roll <value 0-5> [= <face>]")
        v = _int(rest[0], "die value")
        if v >= len(data.DIE_FACES):
            raise NotationError(f"a die value is 0 to {len(data.DIE_FACES) - 1}")
        if len(rest) == 3 and rest[2] != face_name(data.DIE_FACES[v]):
            raise NotationError(f"die value {v} is the face {face_name(data.DIE_FACES[v])}, not {rest[2]}")
        return ("roll", v)
    if head == "place":
        need(1, "place <cell>")
        return ("place", _cell(rest[0]))
    if head in MODES:
        need(1, f"{head} <cell>")
        return ("move", head, _cell(rest[0]))
    if head == "energy":
        need(2, "energy <2|4|6> <cell>")
        return ("energy", _int(rest[0], "energy points"), _cell(rest[1]))
    if head == "relocate":
        need(1, "relocate <cell>")
        return ("relocate", _cell(rest[0]))
    if head == "stones":
        return _parse_stones(state, rest)
    if head in ("build", "upgrade"):
        return _parse_build(head, rest, legal)
    if head == "pass":
        need(0, "pass")
        return ("pass",)
    raise NotationError(f"unknown move {words[0]!r} (place, straight, turn, arrow, energy, relocate, "
                        "stones, build, upgrade, pass)")


def _parse_stones(state: PacalState, rest: list[str]) -> tuple:
    own, other, take = False, None, []
    if "take" in rest:
        i = rest.index("take")
        take = [_cell(w) for w in rest[i + 1:]]
        if not take:
            raise NotationError("say which stones to take back: take <cell> ...")
        rest = rest[:i]
    if rest == ["none"]:
        rest = []
    for w in rest:
        if w == "own" and not own:
            own = True
        elif w.startswith("p") and other is None:
            other = _player(w, state.players)
        else:
            raise NotationError("say: stones none | own | P<n> | own P<n> [take <cell> ...]")
    return ("stones", own, other, tuple(sorted(take)))


def _parse_build(head: str, rest: list[str], legal) -> tuple:
    form = f"{head} <storeys> on <cell> with <cell> ..."
    words = [w for w in rest if w not in ("on", "at")]
    if len(words) < 2:
        raise NotationError(f"say: {form}")
    k = _int(words[0], "storeys")
    at = _cell(words[1])
    tail = words[2:]
    if tail and tail[0] in ("with", "using"):
        tail = tail[1:]
        if not tail:
            raise NotationError(f"say: {form}")
    if tail:
        return (head, k, at, tuple(sorted(_cell(w) for w in tail)))
    fits = [a for a in legal() if a[0] == head and a[1] == k and a[2] == at]
    if len(fits) == 1:
        return fits[0]
    if not fits:
        raise NotationError(f"no {head} of {k} storeys on {cell_name(at)} is possible: say: {form}")
    raise NotationError(f"{len(fits)} constellations fit: say which with 'with <cell> ...'")
