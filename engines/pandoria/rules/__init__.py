"""Pandoria's rules: setup, legal actions and their effects, scoring, the end.

A turn runs through phases (rulebook §6): ``place`` (a double tile or a castle),
``figure`` (place a figure on it or take one back), ``card`` (a spell, a
building or a monument), the scoring of the regions closed this turn, ``buy``
(one market card), the draw of a double tile (a table deal) and, for the
Elves of side B, ``elf`` (move a figure). Chance and hidden cards go through
table operations (engines.core): the state's ``pending`` op and ``after``
label say what the outcome continues with.

By concern, lowest first: ``queries`` (small questions, hex names),
``setup``, ``tiles`` (the place and figure phases), ``scoring`` (scoring,
buying, drawing, the Elves, the end), ``cards`` (the card phase); this
module applies table outcomes, lists legal actions and applies an action.
"""

from __future__ import annotations

from lanterne.engines.core import IllegalAction, Words, apply_outcome_to_cards

from ..board import NHEX
from ..state import PandoriaState
from .cards import after_card, card_actions, do_card, do_terrain, do_terrain_figure, terrain_actions
from .queries import _cards, _pile, seat_figures, single_positions
from .scoring import buy_actions, do_buy, do_elf, draw_step, elf_moves, elf_step
from .setup import _continue_setup, _take_top, place_start_tiles
from .tiles import do_figure, do_place, figure_actions, place_actions, start_turn

# The whole namespace of the rules, importable from here as from one module (``rules.X``).
from lanterne.engines.core import (DEAL, ROLL, SHUFFLE, Cards, TableOp, read_action)  # noqa: F401
from .. import data as D  # noqa: F401
from ..actions import (Build, Buy, Castle, Figure, Monument, Move, Pass, Single, Skip, Spell, Take, Tile)  # noqa: F401
from ..board import (CASTLE, DIRECTIONS, DRY_NEIGHBOURS, EMPTY, KIND, LAKES, LAND, NEIGHBOURS, PRINTED, PRINTED_SPACES,
                     START_HEXES, STEP, covered, frontier, hex_name, is_enclosed, is_open_region,
                     region_if_enclosed)  # noqa: F401
from ..state import changed  # noqa: F401
from .cards import (_discounts, _halfling, _hand_designs, _memo_figures, _memo_spaces, _targets_text, _use,
                    build_indexes, building_cost, cast, monument_cost, slot_names, spell_cost,
                    spell_targets)  # noqa: F401
from .queries import (FREE, MONUMENT, _dirname, _hexname, _market_designs, _on_board, _seat, _seat_list, _seat_row,
                      card_of, classic, double_positions, figure_choices, fits_double, fits_single, has_ability,
                      is_anchor, is_free, is_region_hex, open_spaces, tile_face, touches,
                      visible_buildings)  # noqa: F401
from .scoring import (_ELF_MEMO, _elf_moves, _score, buy_price, end_turn, finish, gain, region_yield,
                      score_step)  # noqa: F401
from .setup import (_ask, _deal, _shuffle, new_state)  # noqa: F401
from .tiles import (_CASTLE_ACTIONS, _cover, _put_figure, _put_figure_reason, _to_reserve, close_regions,
                    must_place)  # noqa: F401


def apply_outcome(st: PandoriaState, outcome: tuple, events: list) -> None:
    op = st.pending
    apply_outcome_to_cards(_cards(st, op.slots), op, outcome)
    st.pending = None
    label = st.after
    st.after = ""
    if label == "first":
        st.first = st.current = outcome[1]
        events.append(("first", outcome[1]))
        st.after = label
        _continue_setup(st, events, op)
    elif label == "start":
        place_start_tiles(st, outcome[1])
        events.append(("start", outcome[1]))
        start_turn(st)
    elif label in ("refill_buy", "refill_card"):
        st.piles["market"] = st.piles["market"] + _take_top(st, "deck", 1)
        if label == "refill_buy":
            draw_step(st, events)
        else:
            after_card(st, events)
    elif label == "single":
        st.single = _take_top(st, "singles", 1)[0]
        st.phase = "terrain"
        if not single_positions(st):
            _pile(st, "discard").append(st.single)
            st.single = -1
            events.append(("discard", st.current))
            after_card(st, events)
    elif label == "draw":
        st.piles[f"tiles{st.current}"] = st.piles[f"tiles{st.current}"] + _take_top(st, "tiles", len(op.slots))
        elf_step(st, events)
    else:
        st.after = label
        _continue_setup(st, events, op)


def legal_actions(st: PandoriaState, seat: int) -> list[tuple]:
    if st.pending is not None or st.phase in ("over", "setup") or seat != st.current:
        return []
    phase = st.phase
    if phase == "place":
        return place_actions(st, seat)
    if phase == "figure":
        out = figure_actions(st, seat, st.placed)
        out += map(_TAKE_ACTIONS.__getitem__, seat_figures(st, seat))
        out.append(("skip",))
        return out
    if phase == "card":
        return card_actions(st, seat)
    if phase == "terrain":
        return terrain_actions(st)
    if phase == "terrain_figure":
        return figure_actions(st, seat, st.placed[-1:]) + [("skip",)]
    if phase == "buy":
        return buy_actions(st, seat)
    if phase == "elf":
        return elf_moves(st, seat) + [("skip",)]
    return []


_TAKE_ACTIONS = tuple(("take", h) for h in range(NHEX))
"""("take", h) per hex, made once (every figure phase lists the seat's figures)."""

HANDLERS = {"place": do_place, "figure": do_figure, "card": do_card, "terrain": do_terrain,
            "terrain_figure": do_terrain_figure, "buy": do_buy, "elf": do_elf}


def apply(st: PandoriaState, action: tuple) -> tuple[PandoriaState, list]:
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        raise IllegalAction("an action is a tuple that starts with its kind")
    if st.phase == "over":
        raise IllegalAction("the game is over")
    new = st.clone()
    events: list = []
    if st.pending is not None:
        try:
            apply_outcome(new, action, events)
        except (TypeError, ValueError, IndexError) as e:
            if isinstance(e, IllegalAction):
                raise
            raise IllegalAction(f"malformed table outcome for {st.pending.kind}") from None
        return new, events
    handler = HANDLERS.get(st.phase)
    if handler is None:
        raise IllegalAction(Words("nothing can be played in phase {phase}", phase=Words(st.phase)))
    handler(new, action, events)
    return new, events
