"""Move notation: short English words, hex names and card names.

    tile F1H2 e5 NE     double tile: forest 1 symbol on e5, hill 2 symbols to the NE
    castle e5           a castle
    pass                no tile or castle fits (house rule)
    figure e5 / leader e5 / take e5 / skip
    spell Teleport/Vault d4 e5      spells name the card, then their targets
    spell Muster/Lumberyard leader e5
    spell Acquire/Bank Conjure/SmallTower
    build Clone/Statue 2            card as a building in building slot 2 (1-5)
    monument 2                      a monument over building slot 2
    buy Conjure/SmallTower / single e5 / move e5 f6
    roll 3 / deal 12 ? / shuffle ...    table outcomes (? for an unknown card)

Card names are case-insensitive and may be typed with or without spaces.
"""

from __future__ import annotations

from lanterne.engines.core import NotationError

from . import data as D
from .board import DIRECTIONS, hex_name, parse_hex
from .rules import card_of, tile_face
from .state import PandoriaState
from .actions import Build, Buy, Castle, Figure, Monument, Move, Single, Spell, Take, Tile

_ON_A_HEX = {"castle": Castle, "take": Take, "single": Single}

OUTCOMES = ("roll", "deal", "shuffle", "reveal")


def compact(name: str) -> str:
    return name.replace(" ", "")


def card_text(ident: int) -> str:
    return compact(D.card_name(ident))


def face_text(face: tuple[int, int, int, int]) -> str:
    a, sa, b, sb = face
    return f"{D.TERRAIN_LETTERS[a]}{sa}{D.TERRAIN_LETTERS[b]}{sb}"


def _figure(leader: bool, h: int) -> str:
    return f"{'leader' if leader else 'figure'} {hex_name(h)}"


def format_action(st: PandoriaState, action: tuple) -> str:
    kind = action[0]
    if kind in OUTCOMES:
        if kind == "roll":
            return f"roll {action[1]}"
        return " ".join([kind] + ["?" if i is None else str(i) for i in action[1]])
    if kind in ("pass", "skip"):
        return kind
    if kind == "tile":
        tile = Tile._make(action)
        return f"tile {face_text(tile_face(tile.ident))} {hex_name(tile.hex)} {DIRECTIONS[tile.direction]}"
    if kind in ("castle", "take", "single"):
        return f"{kind} {hex_name(_ON_A_HEX[kind]._make(action).hex)}"
    if kind == "figure":
        figure = Figure._make(action)
        return _figure(figure.leader, figure.hex)
    if kind == "move":
        move = Move._make(action)
        return f"move {hex_name(move.source)} {hex_name(move.to)}"
    if kind == "monument":
        return f"monument {Monument._make(action).index + 1}"
    if kind == "buy":
        return f"buy {card_text(card_of(st, Buy._make(action).slot))}"
    if kind == "build":
        build = Build._make(action)
        return f"build {card_text(build.ident)} {build.index + 1}"
    if kind == "spell":
        head = len(Spell._fields)
        ident, target = Spell._make(action[:head]).ident, action[head:]
        words = ["spell", card_text(ident)]
        spell = D.CARDS[ident][0]
        if spell == "Acquire":
            words.append(card_text(card_of(st, target[0])))
        elif spell == "Teleport":
            words += [hex_name(target[0]), hex_name(target[1])]
        elif target:
            words.append(_figure(target[1], target[0]))
        return " ".join(words)
    raise NotationError(f"no notation for action {kind!r}")


_NAMES = {card_text(i).lower(): i for i in range(len(D.CARDS))}


def _split_card(words: list[str]) -> tuple[int, list[str]]:
    """The card named by the first words (names may contain spaces), and the rest."""
    for n in range(len(words), 0, -1):
        key = "".join(words[:n]).lower()
        if key in _NAMES:
            return D.card_design(_NAMES[key]), words[n:]
    raise NotationError(f"no card named {words[0] if words else '(nothing)'!r}; cards look like Teleport/Vault")


def _find(st: PandoriaState, pile: str, design: int, what: str) -> tuple[int, int]:
    for slot in sorted(st.piles.get(pile, [])):
        ident = st.cards.ids[slot]
        if ident is not None and D.card_design(ident) == design:
            return slot, ident
    raise NotationError(f"no {card_text(design)} {what}")


def _hex(word: str) -> int:
    h = parse_hex(word)
    if h is None:
        raise NotationError(f"{word!r} is not a hex of the board (like e5)")
    return h


def _need(words: list[str], n: int, usage: str) -> None:
    if len(words) != n:
        raise NotationError(f"expected {usage}")


def _int_word(word: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise NotationError(f"{word!r} is not a number") from None


def _figure_target(words: list[str]) -> tuple[int, bool]:
    _need(words, 2, "'figure HEX' or 'leader HEX'")
    if words[0] not in ("figure", "leader"):
        raise NotationError(f"expected figure or leader, not {words[0]!r}")
    return _hex(words[1]), words[0] == "leader"


def parse_action(st: PandoriaState, text: str, seat: int | None = None) -> tuple:
    words = text.split()
    if not words:
        raise NotationError("empty move")
    kind = words[0].lower()
    rest = words[1:]
    if seat is None:
        seat = st.current
    if kind in ("pass", "skip"):
        _need(rest, 0, kind)
        return (kind,)
    if kind == "roll":
        _need(rest, 1, "roll N")
        return ("roll", _int_word(rest[0]))
    if kind in ("deal", "shuffle", "reveal"):
        return (kind, tuple(None if w == "?" else _int_word(w) for w in rest))
    if kind == "tile":
        _need(rest, 3, "tile FACE HEX DIRECTION, like tile F1H2 e5 NE")
        face = rest[0].upper()
        for slot in sorted(st.piles.get(f"tiles{seat}", [])):
            ident = st.cards.ids[slot]
            if ident is not None and face_text(tile_face(ident)) == face:
                break
        else:
            raise NotationError(f"no double tile {face} in the hand of seat {seat + 1}")
        if rest[2].upper() not in DIRECTIONS:
            raise NotationError(f"{rest[2]!r} is not a direction ({' '.join(DIRECTIONS)})")
        return ("tile", slot, ident, _hex(rest[1]), DIRECTIONS.index(rest[2].upper()))
    if kind in ("castle", "take", "single"):
        _need(rest, 1, f"{kind} HEX")
        return (kind, _hex(rest[0]))
    if kind in ("figure", "leader"):
        _need(rest, 1, f"{kind} HEX")
        return ("figure", _hex(rest[0]), kind == "leader")
    if kind == "move":
        _need(rest, 2, "move FROM TO")
        return ("move", _hex(rest[0]), _hex(rest[1]))
    if kind == "monument":
        _need(rest, 1, "monument SLOT (1-5)")
        return ("monument", _int_word(rest[0]) - 1)
    if kind == "buy":
        design, more = _split_card(rest)
        _need(more, 0, "buy CARD")
        return ("buy", _find(st, "market", design, "in the market")[0])
    if kind == "build":
        design, more = _split_card(rest)
        _need(more, 1, "build CARD SLOT (1-5)")
        slot, ident = _find(st, f"hand{seat}", design, f"in the hand of seat {seat + 1}")
        return ("build", slot, ident, _int_word(more[0]) - 1)
    if kind == "spell":
        design, more = _split_card(rest)
        slot, ident = _find(st, f"hand{seat}", design, f"in the hand of seat {seat + 1}")
        spell = D.CARDS[ident][0]
        more_low = [w.lower() for w in more]
        if spell in ("Master Builder", "Conjure", "Construct", "Terrain"):
            _need(more, 0, f"spell CARD ({spell} takes no target)")
            return ("spell", slot, ident)
        if spell == "Acquire":
            target, extra = _split_card(more)
            _need(extra, 0, "spell CARD MARKETCARD")
            return ("spell", slot, ident, _find(st, "market", target, "in the market")[0])
        if spell == "Teleport":
            _need(more, 2, "spell CARD FROM TO")
            return ("spell", slot, ident, _hex(more[0]), _hex(more[1]))
        h, leader = _figure_target(more_low)
        return ("spell", slot, ident, h, leader)
    raise NotationError(f"unknown move {kind!r} (tile, castle, pass, figure, leader, take, skip, "
                        "spell, build, monument, buy, single, move)")
