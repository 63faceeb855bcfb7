"""The first-player roll, the sacred sites, and each round's auction of the turn-order cards."""

from __future__ import annotations

from lanterne.engines.core import IllegalAction, Words

from ..actions import Bid, Card, Pass, Site
from ..board import all_box_fits
from ..data import MAX_BID, MIN_BID
from ..state import BID, DISMANTLE, PICK, PLACE, SITE, PuebloState
from .ending import start_dismantle_turn
from .queries import SITE_SET, cells_mask, free_cards, ints, penalise, read


def do_roll(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    (v,) = ints(action, 1)
    if not 0 <= v < s.players:
        raise IllegalAction(f"the first-player roll must be 0..{s.players - 1}")
    s.pending = None
    s.first = v
    s.order = [(v + i) % s.players for i in range(s.players)]
    s.at = 0
    ev.append(("first", v))
    if s.advanced:
        s.phase = SITE
    else:
        s.phase = PLACE


def do_site(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    site = read(Site, action, "site takes 3 whole numbers")
    cells = tuple(sorted((site.cell_a, site.cell_b, site.cell_c)))
    if cells not in SITE_SET:
        raise IllegalAction(Words("a sacred site covers 3 cells of a 2x2 square (an L)"))
    mask = cells_mask(cells)
    if mask & s.site_mask:
        raise IllegalAction(Words("sacred sites cannot overlap"))
    s.sites = [*s.sites, cells]  # copy-on-write (PuebloState.copy shares the list)
    s.site_mask |= mask
    s.fit = all_box_fits(s.heights, s.site_mask)
    ev.append(("site", seat, cells))
    if len(s.sites) == s.sites_wanted:
        start_auction(s, ev)


def start_auction(s: PuebloState, ev: list) -> None:
    s.auction += 1
    s.card_of = [None] * s.players
    s.opener = s.first  # house rule: the rolled seat plays the "oldest player" in every auction
    ev.append(("auction", s.auction))
    start_card(s, ev)


def start_card(s: PuebloState, ev: list) -> None:
    free = [p for p in range(s.players) if s.card_of[p] is None]
    if len(free) == 1:
        (last,) = free_cards(s)
        s.card_of = s.card_of[:]  # copy-on-write
        s.card_of[free[0]] = last
        ev.append(("card", free[0], last, 0))
        end_auction(s, ev)
        return
    s.phase = BID
    s.bidder = s.opener
    s.high = 0
    s.high_seat = None
    s.passed = 0


def end_auction(s: PuebloState, ev: list) -> None:
    s.order = sorted(range(s.players), key=lambda p: s.card_of[p])
    s.at = 0
    ev.append(("order", tuple(s.order)))
    if s.stage == DISMANTLE:
        start_dismantle_turn(s)
    else:
        s.phase = PLACE


def next_bidder(s: PuebloState) -> None:
    """Clockwise to the next seat still in this card's auction."""
    p = s.bidder
    for _ in range(s.players):
        p = (p + 1) % s.players
        if s.card_of[p] is None and not s.passed >> p & 1:
            s.bidder = p
            return


def after_bid(s: PuebloState) -> None:
    bidding = [p for p in range(s.players) if s.card_of[p] is None and not s.passed >> p & 1]
    if s.high_seat is not None and bidding == [s.high_seat]:
        s.phase = PICK
    elif not bidding:
        s.phase = PICK  # everybody passed: the opener takes a card for free
        s.high_seat = s.opener
        s.high = 0
    else:
        next_bidder(s)


def do_bid(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    n = read(Bid, action, "bid takes 1 whole number").points
    if n < MIN_BID or n > MAX_BID:
        raise IllegalAction(Words("a bid is {low} to {high} penalty points", low=MIN_BID, high=MAX_BID))
    if n <= s.high:
        raise IllegalAction(Words("a bid must beat {n}", n=s.high))
    s.high = n
    s.high_seat = seat
    ev.append(("bid", seat, n))
    after_bid(s)


def do_pass(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    read(Pass, action, "pass takes nothing")
    s.passed |= 1 << seat
    ev.append(("pass", seat))
    after_bid(s)


def do_card(s: PuebloState, action: tuple, seat: int, ev: list) -> None:
    k = read(Card, action, "card takes 1 whole number").number
    if k not in free_cards(s):
        raise IllegalAction(Words("turn-order card {card} is not available (left: {left})", card=k,
                                  left=", ".join(map(str, free_cards(s)))))
    s.card_of = s.card_of[:]  # copy-on-write
    s.card_of[seat] = k
    ev.append(("card", seat, k, s.high))
    if s.high:
        penalise(s, seat, s.high, f"bid for turn-order card {k}", ev)
    p = seat
    for _ in range(s.players):
        p = (p + 1) % s.players
        if s.card_of[p] is None:
            s.opener = p  # the player to the winner's left opens the next card
            break
    start_card(s, ev)
