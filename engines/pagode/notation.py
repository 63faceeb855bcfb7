"""Pagode's move notation: what a person types and reads.

A card is its colour letter, ``r b g v y``: lower case from the reserve, upper
case from the hand. The letter alone means the lowest-numbered such card not
already named in the move; ``r@17`` names the card in slot 17. Sites are 1..6.

    c3 r            column on site 3, paid with a red reserve card
    c3 R            the same paid from the hand
    c3=y bB         yellow column paid with two blue cards (Rice bowl)
    c3=y            the column of a modified turn (its discards paid it)
    t3 b/g          tile on site 3 paid with a blue card, green column spots
    t3 gG/v         tile paid with two green cards (Buddha), violet spots
    roof3 g/v vV    roof on site 3: green tile with violet summit, summit vV
    roof3 g/v v+bb  the same, one summit column through the Rice bowl
    lantern  dragon  draw  mod  x r  end  end fan

See docs/rules/pagode.md.
"""

from __future__ import annotations

import re

from lanterne.engines.core import DEAL, ROLL, SHUFFLE, Game, NotationError, Words

from .actions import Column, Discard, End, Roof, Tile
from .data import COLOURS, LETTERS, SITES, TILES
from .state import PagodeState

_CARD = re.compile(r"([rbgvyRBGVY])(?:@([0-9]+))?")
_SITE_HEAD = re.compile(r"(c|t|roof)([0-9]+)(?:=([A-Za-z]))?")
WORDS = {"lantern": ("lantern",), "dragon": ("dragon",), "draw": ("draw",), "mod": ("modified",),
         "modified": ("modified",)}
COMMANDS = "c, t, roof, lantern, dragon, draw, mod, x, end"


# ---------------------------------------------------------------------- format


def format_action(game: Game, state: PagodeState, action: tuple) -> str:
    if state.pending is not None:
        return _format_outcome(state, action)
    seat = state.current
    kind = action[0] if isinstance(action, tuple) and action else None
    try:
        if kind == "column":
            _, site, colour, cards = Column._make(action)
            head = f"c{site + 1}"
            if not (len(cards) == 1 and cards[0][1] // 11 == colour):
                head += f"={LETTERS[colour]}"
            return f"{head} {_tokens(state, seat, cards, [])}" if cards else head
        if kind == "tile":
            _, site, spots, cards = Tile._make(action)
            return f"t{site + 1} {_tokens(state, seat, cards, [])}/{LETTERS[spots]}"
        if kind == "roof":
            _, site, spots, tile_cards, summit_cards = Roof._make(action)
            used: list[int] = []
            pay = _tokens(state, seat, tile_cards, used)
            summit = _tokens(state, seat, summit_cards[:1], used)
            rest = _tokens(state, seat, summit_cards[1:], used)
            summit += ("+" if len(summit_cards) == 3 else "") + rest
            return f"roof{site + 1} {pay}/{LETTERS[spots]} {summit}"
        if kind == "discard":
            discard = Discard._make(action)
            return f"x {_tokens(state, seat, ((discard.slot, discard.ident),), [])}"
        if kind == "end":
            return "end fan" if End._make(action).fan else "end"
        if kind == "modified":
            return "mod"
        if kind in ("lantern", "dragon", "draw"):
            return kind
    except (ValueError, TypeError, IndexError):
        pass
    return f"?{action!r}"


def _tokens(state: "PagodeState", seat: int, cards: tuple, used: list[int]) -> str:
    out = []
    for slot, ident in cards:
        src = 0 if slot in state.reserves[seat] else 1 if slot in state.hands[seat] else None
        letter = LETTERS[ident // 11]
        if src is None:
            out.append(f"?{letter}@{slot}")
            continue
        if src == 1:
            letter = letter.upper()
        short = _lowest(state, seat, src, ident // 11, used)
        known = state.cards.ids[slot]
        out.append(letter if short == slot and known == ident else f"{letter}@{slot}")
        used.append(slot)
    return "".join(out)


def _lowest(state: "PagodeState", seat: int, src: int, colour: int, used: list[int]) -> int | None:
    place = state.reserves[seat] if src == 0 else state.hands[seat]
    ids = state.cards.ids
    best = None
    for slot in place:
        ident = ids[slot]
        if ident is not None and ident // 11 == colour and slot not in used and (best is None or slot < best):
            best = slot
    return best


def _format_outcome(state: "PagodeState", outcome: tuple) -> str:
    op = state.pending
    if op.kind == ROLL and len(outcome) == 2:
        return f"first player: seat {outcome[1] + 1}"
    if op.kind == SHUFFLE:
        return f"shuffle the {op.pile} pile ({len(op.slots)} cards)"
    if op.kind == DEAL:
        n = len(op.slots)
        if op.to is None:
            names = " ".join(LETTERS[i // 11] for i in outcome[1] if i is not None)
            return f"deal {n} to seat {state.refill[0][0] + 1}'s reserve: {names}"
        return f"deal {n} to seat {op.to + 1}'s hand"
    return f"table: {outcome!r}"


# ---------------------------------------------------------------------- parse


def parse_action(game: Game, state: PagodeState, text: str, seat: int | None = None) -> tuple:
    if not isinstance(text, str) or not text.strip():
        raise NotationError("empty move: type a move such as 'c3 r' or 'end'")
    if seat is None:
        seat = state.current
    words = text.split()
    head = words[0].lower()
    rest = words[1:]
    if head in ("c", "t", "roof") and rest and re.fullmatch(r"[0-9]+(=[A-Za-z])?", rest[0]):
        head, rest = head + rest[0].lower(), rest[1:]
    if head in WORDS:
        _no_more(rest, head)
        return WORDS[head]
    if head == "end":
        if not rest:
            return ("end", False)
        if [w.lower() for w in rest] == ["fan"]:
            return ("end", True)
        raise NotationError(f"'end' takes only 'fan' after it, not {' '.join(rest)!r}")
    if head == "x":
        cards = _cards(state, seat, "".join(rest), [])
        if len(cards) != 1:
            raise NotationError("'x' discards exactly one card, e.g. 'x r' or 'x R'")
        return ("discard",) + cards[0]
    m = _SITE_HEAD.fullmatch(head)
    if not m:
        raise NotationError(f"unknown move {words[0]!r} (moves: {COMMANDS})")
    kind, site_text, colour_text = m.groups()
    site = int(site_text) - 1
    if not 0 <= site < SITES:
        raise NotationError(f"there is no site {site_text} (sites 1-{SITES})")
    if kind == "c":
        colour = _colour(colour_text) if colour_text else None
        if state.phase == "modified column" and colour is None and len("".join(rest)) == 1:
            # the free column of a modified turn: 'c3 y' is read as 'c3=y'
            return ("column", site, _colour("".join(rest)), ())
        cards = _cards(state, seat, "".join(rest), [])
        if not cards:
            if colour is None:
                raise NotationError("a column names its card, e.g. 'c3 r', or its colour in a modified turn, 'c3=r'")
            return ("column", site, colour, ())
        if len(cards) == 1:
            return ("column", site, cards[0][1] // 11 if colour is None else colour, cards)
        if len(cards) == 2:
            if colour is None:
                raise NotationError("a Rice bowl column names its colour, e.g. 'c3=y bb'")
            return ("column", site, colour, cards)
        raise NotationError("a column takes one card, or two with the Rice bowl")
    if colour_text:
        raise NotationError(f"'=' names a column's colour; a {'tile' if kind == 't' else 'roof'} takes '/spots'")
    if kind == "t":
        pay, spots = _slash(rest, "t3 b/g")
        used: list[int] = []
        cards = _cards(state, seat, pay, used)
        return ("tile", site, spots, cards)
    if len(rest) < 2:
        raise NotationError("a roof is 'roof3 <tile cards>/<summit colour> <summit cards>', e.g. 'roof3 g/v vV'")
    pay, spots = _slash(rest[:1], "roof3 g/v vV")
    used = []
    tile_cards = _cards(state, seat, pay, used)
    summit_cards = _cards(state, seat, "".join(rest[1:]), used)
    return ("roof", site, spots, tile_cards, summit_cards)


def _no_more(rest: list[str], word: str) -> None:
    if rest:
        raise NotationError(f"'{word}' takes nothing after it, not {' '.join(rest)!r}")


def _colour(text: str) -> int:
    letter = text.lower()
    if len(letter) != 1 or letter not in LETTERS:
        raise NotationError(f"{text!r} is not a colour (r b g v y)")
    return LETTERS.index(letter)


def _slash(rest: list[str], example: str) -> tuple[str, int]:
    text = "".join(rest)
    if text.count("/") != 1:
        raise NotationError(f"a tile is written <cards>/<spot colour>, e.g. '{example}'")
    pay, spots = text.split("/")
    return pay, _colour(spots)


def _cards(state: "PagodeState", seat: int, text: str, used: list[int]) -> tuple:
    """Card tokens (``r``, ``R``, ``r@17``; '+' and spaces ignored) resolved to (slot, ident)."""
    text = text.replace("+", "")
    out = []
    pos = 0
    while pos < len(text):
        m = _CARD.match(text, pos)
        if not m:
            raise NotationError(f"{text[pos:]!r} is not a card (r b g v y: lower case reserve, upper case hand)")
        pos = m.end()
        letter, slot_text = m.groups()
        colour = LETTERS.index(letter.lower())
        src = 1 if letter.isupper() else 0
        where = "hand" if src else "reserve"
        place = state.hands[seat] if src else state.reserves[seat]
        if slot_text is None:
            slot = _lowest(state, seat, src, colour, used)
            if slot is None:
                more = " more" if any(state.cards.ids[s] is not None and state.cards.ids[s] // 11 == colour
                                      for s in used if s in place) else ""
                raise NotationError(f"no{more} {COLOURS[colour]} card in your {where}")
        else:
            slot = int(slot_text)
            if slot not in place:
                raise NotationError(f"slot {slot} is not in your {where}")
            if slot in used:
                raise NotationError(f"slot {slot} is named twice")
            ident = state.cards.ids[slot]
            if ident is None:
                raise NotationError(f"the card in slot {slot} is unknown here")
            if ident // 11 != colour:
                raise NotationError(f"slot {slot} is {COLOURS[ident // 11]}, not {COLOURS[colour]}")
        used.append(slot)
        out.append((slot, state.cards.ids[slot]))
    return tuple(out)


# ---------------------------------------------------------------------- events


def _seat(seat: int) -> Words:
    return Words("seat {n}", n=seat + 1)


def _colour_words(colour: int) -> Words:
    return Words.term("pagode colour", COLOURS[colour])   # a name of the rules: the client's catalog has each


def describe_event(event: tuple) -> str:
    """The event in words (``Words``: English, and how to say it in another language)."""
    kind = event[0]
    p = _seat
    if kind == "score":
        return Words("{seat} scores {points} ({what})", seat=p(event[1]), points=event[2], what=Words(event[3]))
    if kind == "column":
        return Words("{seat} builds a {colour} column on site {site}, floor {floor}", seat=p(event[1]),
                     colour=_colour_words(event[3]), site=event[2] + 1, floor=event[4])
    if kind in ("tile", "roof"):
        b, f, summit = TILES[event[3]]
        if kind == "roof":
            return Words("{seat} builds a {colour} roof tile on site {site} with a {summit} summit spot",
                         seat=p(event[1]), colour=_colour_words(b), site=event[2] + 1, summit=_colour_words(summit))
        return Words("{seat} builds a {colour} tile on site {site}, {spots} spots", seat=p(event[1]),
                     colour=_colour_words(b), site=event[2] + 1, spots=_colour_words(f))
    if kind == "summit":
        return Words("{seat} builds a {colour} summit on site {site}", seat=p(event[1]), colour=_colour_words(event[3]),
                     site=event[2] + 1)
    if kind == "gain":
        return Words("{seat} gains the {ability} ({uses} uses)", seat=p(event[1]), ability=Words(event[2]),
                     uses=event[3])
    if kind == "use":
        return Words("{seat} uses the {ability} ({left} left)", seat=p(event[1]), ability=Words(event[2]),
                     left=event[3])
    if kind == "discard":
        return Words("{seat} discards a {colour} card", seat=p(event[1]), colour=_colour_words(event[3] // 11))
    if kind == "drew":
        return Words("{seat} draws {n} to the {place}", seat=p(event[1]), n=event[3], place=Words(event[2]))
    if kind == "first":
        return Words("{seat} plays first", seat=p(event[1]))
    if kind == "turn":
        return Words("{seat}'s turn", seat=p(event[1]))
    if kind == "end":
        return Words("{seat} ends the turn", seat=p(event[1]))
    if kind == "modified":
        return Words("{seat} plays a modified turn", seat=p(event[1]))
    if kind == "reshuffle":
        return Words.plural("the discard pile ({n} card) is shuffled into a new draw pile",
                            "the discard pile ({n} cards) is shuffled into a new draw pile", event[1])
    if kind == "complete":
        if event[2] == "roof":
            return Words("the pagoda on site {site} has its roof", site=event[1] + 1)
        return Words("the pagoda on site {site} stops: its tile colour is exhausted", site=event[1] + 1)
    if kind == "no cards":
        return Words("no cards left to draw")
    if kind == "over":
        scores = ", ".join(str(x) for x in event[1])
        return Words("game over: {scores}; winner(s) {winners}", scores=scores,
                     winners=", ".join(str(w + 1) for w in event[2]))
    return " ".join(str(x) for x in event)


__all__ = ["format_action", "parse_action", "describe_event"]
