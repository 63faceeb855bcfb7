"""Building: a column, a tile on a full floor, a roof with its summit."""

from __future__ import annotations

from typing import Any

from lanterne.engines.core import IllegalAction, Words

from ..actions import Roof, read
from ..data import (BUDDHA, COLUMN_LIMIT, FLOOR_COLUMNS, LANTERN, LANTERN_COLUMN_LIMIT, RICE_BOWL, SITES, TILE_POINTS,
                    TILES, VARIANTS)
from ..state import PagodeState
from .paying import check_colour, check_phase, check_site, gain, pay, score, take, take_one, use
from .queries import FLOORS, colour_words, column_limit, floor_of, floors, put


def do_column(s: PagodeState, action: tuple, events: list) -> None:
    try:
        _, site, colour, cards = action  # a Column: read() without building the record (the commonest action)
    except ValueError:
        raise IllegalAction("a column is (column, site, colour, cards)") from None
    if type(site) is not int or not 0 <= site < SITES:
        site = check_site(s, site)  # raises (or takes an int of a subclass)
    if type(colour) is not int or not 0 <= colour < 5:
        colour = check_colour(colour)  # raises (or takes an int of a subclass)
    phase = s.phase
    if phase != "play" and phase != "modified column":
        raise IllegalAction(f"not now: seat {s.current + 1} is in the {phase} phase")
    # colour must be one of column_colours(s, site)
    floor_colour = s.site_colour[site]
    cols = s.site_cols[site]
    floor = len(s.site_tiles[site]) + 1  # floor_of: also the column's points
    if cols >= FLOOR_COLUMNS or floor > FLOORS[s.variant] or (floor_colour is not None
                                                               and floor_colour != colour):
        raise IllegalAction(why_no_column(s, site, colour))
    if phase == "modified column":
        if cards != ():
            raise IllegalAction(Words("the column of a modified turn takes no card (the 4 discards paid it)"))
        s.phase = "modified end"
    else:
        limit = LANTERN_COLUMN_LIMIT if s.used >> LANTERN & 1 else COLUMN_LIMIT
        if s.columns >= limit:
            raise IllegalAction(Words("the limit of {n} columns this turn is reached", n=limit))
        if type(cards) is tuple and len(cards) == 1:
            # _pay with one card, inlined (the common case)
            paid = take_one(s, cards[0], events)
            if paid != colour:
                raise IllegalAction(Words("{what} needs a {colour} card, not {paid}",
                                          what=Words("a {colour} column", colour=colour_words(colour)),
                                          colour=colour_words(colour), paid=colour_words(paid)))
        else:
            pay(s, cards, colour, RICE_BOWL, lambda: Words("a {colour} column", colour=colour_words(colour)),
                      events)
    build_column(s, site, colour, floor, cols + 1, floor_colour, events)


def why_no_column(s: PagodeState, site: int, colour: int) -> str:
    if len(s.site_tiles[site]) == floors(s):
        return Words("site {site} has its roof", site=site + 1)
    if s.site_cols[site] >= FLOOR_COLUMNS:
        return Words("site {site}'s floor is full: it needs a tile", site=site + 1)
    return Words("site {site} takes {colour} columns, not {other}", site=site + 1,
                 colour=colour_words(s.site_colour[site]), other=colour_words(colour))


def build_column(s: PagodeState, site: int, colour: int, floor: int, cols: int, floor_colour: int | None,
                  events: list) -> None:
    """The column on ``floor`` (its points), the ``cols``-th of the floor, whose colour was ``floor_colour``."""
    s.site_cols = put(s.site_cols, site, cols)
    if floor_colour != colour:  # the first column of a floor sets its colour
        s.site_colour = put(s.site_colour, site, colour)
    s.columns += 1
    s.acted = True
    seat = s.current
    events.append(("column", seat, site, colour, floor))
    scores = s.scores
    s.scores = (scores[0] + floor, scores[1]) if seat == 0 else (scores[0], scores[1] + floor)  # _score, inlined
    events.append(("score", seat, floor, "column"))
    if cols == FLOOR_COLUMNS and not (s.tiles_left >> (colour * 5)) & 0b11111:
        events.append(("complete", site, "exhausted"))


def tile_checks(s: PagodeState, site: int, spots: Any) -> int:
    if len(s.site_tiles[site]) == floors(s):
        raise IllegalAction(Words("site {site} has its roof", site=site + 1))
    if s.site_cols[site] < FLOOR_COLUMNS:
        raise IllegalAction(Words("site {site}'s floor has {n} columns: a tile needs 4", site=site + 1,
                                  n=s.site_cols[site]))
    background = s.site_colour[site]
    spots = check_colour(spots, "spot colour")
    tile = background * 5 + spots
    if not s.tiles_left >> tile & 1:
        raise IllegalAction(Words("no {colour} tile with {spots} spots is left", colour=colour_words(background),
                                  spots=colour_words(spots)))
    return tile


def place_tile(s: PagodeState, site: int, tile: int, events: list, roof: bool) -> None:
    background, spots, _ = TILES[tile]
    s.tiles_left &= ~(1 << tile)
    s.site_tiles = put(s.site_tiles, site, s.site_tiles[site] + (tile,))
    s.acted = True
    if not roof:
        s.site_cols = put(s.site_cols, site, 0)
        s.site_colour = put(s.site_colour, site, spots)
    events.append(("roof" if roof else "tile", s.current, site, tile))
    score(s, TILE_POINTS, "tile", events)
    gain(s, background, events)
    if not (s.tiles_left >> (background * 5)) & 0b11111:
        # The last tile of its colour: pagodas waiting for one stop here.
        for other in range(SITES):
            if (other != site and s.site_cols[other] == FLOOR_COLUMNS and s.site_colour[other] == background
                    and len(s.site_tiles[other]) < floors(s)):
                events.append(("complete", other, "exhausted"))


def do_tile(s: PagodeState, action: tuple, events: list) -> None:
    try:
        _, site, spots, cards = action  # a Tile, as in _do_column
    except ValueError:
        raise IllegalAction("a tile is (tile, site, spots, cards)") from None
    site = check_site(s, site)
    check_phase(s, "play")
    tile = tile_checks(s, site, spots)
    if len(s.site_tiles[site]) == floors(s) - 1:
        raise IllegalAction(Words("site {site}'s last tile is its roof: build it with its summit", site=site + 1))
    background = TILES[tile][0]
    pay(s, cards, background, BUDDHA, lambda: Words("a {colour} tile", colour=colour_words(background)), events)
    place_tile(s, site, tile, events, roof=False)


def do_roof(s: PagodeState, action: tuple, events: list) -> None:
    _, site, spots, tile_cards, summit_cards = read(
        Roof, action, "a roof is (roof, site, spots, tile cards, summit cards)")
    site = check_site(s, site)
    check_phase(s, "play")
    tile = tile_checks(s, site, spots)
    if len(s.site_tiles[site]) != floors(s) - 1:
        raise IllegalAction(Words("site {site} is not ready for its roof (floor {floor})", site=site + 1,
                                  floor=floor_of(s, site)))
    if s.columns >= column_limit(s):
        raise IllegalAction(Words("the limit of {n} columns this turn is reached (a summit counts as one)",
                                  n=column_limit(s)))
    background, _, summit = TILES[tile]
    pay(s, tile_cards, background, BUDDHA,
              lambda: Words("a {colour} roof tile", colour=colour_words(background)), events)
    place_tile(s, site, tile, events, roof=True)
    if not isinstance(summit_cards, tuple) or len(summit_cards) not in (2, 3):
        raise IllegalAction(Words("a summit takes two cards, or one plus two of one colour with the rice bowl"))
    colours = take(s, summit_cards, events)
    if len(colours) == 2:
        if colours != [summit, summit]:
            raise IllegalAction(Words("the summit is {colour}: it needs {colour} cards", colour=colour_words(summit)))
    else:
        # One column of the summit colour; the other paid by two cards of one colour (Rice bowl).
        if not any(colours[i] == summit and colours[i - 1] == colours[i - 2] for i in range(3)):
            raise IllegalAction(Words("the summit is {colour}: one {colour} card, and two cards of one colour with "
                                      "the rice bowl", colour=colour_words(summit)))
        use(s, RICE_BOWL, events)
    s.columns += 1
    events.append(("summit", s.current, site, summit))
    score(s, VARIANTS[s.variant].summit_points, "summit", events)
    events.append(("complete", site, "roof"))
