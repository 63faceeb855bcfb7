"""The Pandoria screen, played as a person plays it: by clicks and by keys."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rich.console import Console
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Button

from lanterne.client.games import pandoria as pandoria_package
from lanterne.client.local_play import make_local_game
from lanterne.client.screens.dialogs import GameOverScreen, HandoffScreen
from lanterne.client.games.pandoria.screen import PandoriaScreen
from lanterne.client.games.pandoria.widgets import (CASTLE, CELL, PLAYER_COLOURS, SCORING_BG, HexMap, Marks, cell_origin,
                                    describe_hex, hex_at, map_text)
from lanterne.client.games.pandoria.board import (BoardModel, BuildingSlot, HandCard, MarketCard, PandoriaBoard, Panel,
                                           TileCard, card_help, players_text)
from lanterne.client.widgets.status_line import StatusLine
from lanterne.engines.pandoria import GAME
from lanterne.engines.pandoria import data as D
from lanterne.engines.pandoria.board import KIND, NHEX, OFF, STEP, hex_name, parse_hex
from lanterne.engines.pandoria.notation import face_text
from tests.support.apps import make_app

PANDORIA_CSS = Path(pandoria_package.__file__).with_name(PandoriaScreen.CSS_PATH)
"""The game's own stylesheet, for the board drawn alone."""

SIZE = (160, 50)


def local(mode: str = "vs", seed: int = 1, players: int = 2):
    controller = make_local_game(GAME, mode=mode, bot="random", seed=seed, players=players, variant="classic")
    return controller, make_app(lambda: PandoriaScreen(controller))


def status(screen) -> str:
    return str(screen.query_one(StatusLine).render())


def the_screen(app) -> PandoriaScreen:
    return next(s for s in app.screen_stack if isinstance(s, PandoriaScreen))


async def click_hex(pilot, h: int) -> None:
    x, y = cell_origin(h)
    assert await pilot.click(HexMap, offset=(x + 1, y))
    await pilot.pause()


async def hover_hex(pilot, h: int) -> None:
    x, y = cell_origin(h)
    await pilot.hover(HexMap, offset=(x + 2, y + 1))
    await pilot.pause()


async def click_widget(pilot, widget, offset=(2, 0)) -> None:
    assert await pilot.click(widget, offset=offset), f"{widget} not clickable"
    await pilot.pause()


async def set_leader(pilot, screen: PandoriaScreen, leader: bool) -> None:
    if screen.leader != leader:
        await pilot.press("l")


async def click_action(pilot, screen: PandoriaScreen, action: tuple) -> None:
    """Click what a person clicks to play ``action``."""
    kind = action[0]
    if kind == "tile":
        _, slot, _, h, d = action
        if screen.tile_slot != slot:
            await click_widget(pilot, next(w for w in screen.query(TileCard) if w.slot == slot))
        await click_hex(pilot, h)
        await hover_hex(pilot, STEP[h][d])
        await click_hex(pilot, STEP[h][d])
    elif kind == "castle":
        if not screen.castle_mode:
            await pilot.press("c")
        await click_hex(pilot, action[1])
    elif kind in ("pass", "skip"):
        await pilot.press(kind[0])
        await pilot.pause()
    elif kind == "figure":
        await set_leader(pilot, screen, action[2])
        await click_hex(pilot, action[1])
    elif kind in ("take", "single"):
        await click_hex(pilot, action[1])
    elif kind == "move":
        await click_hex(pilot, action[1])
        await click_hex(pilot, action[2])
    elif kind == "buy":
        await click_widget(pilot, next(w for w in screen.query(MarketCard) if w.slot == action[1]))
    elif kind == "monument":
        await pilot.press("m")
        await click_widget(pilot, screen.query_one(f"#building-{action[1]}"))
    elif kind == "build":
        await click_widget(pilot, hand_card(screen, action[1]), offset=(2, 1))
        if screen.card is not None:
            await click_widget(pilot, screen.query_one(f"#building-{action[3]}"))
    elif kind == "spell":
        spell = D.CARDS[action[2]][0]
        if spell in ("Muster", "Clone", "Astral Ship", "Enchanted Castle", "Adopt"):
            await set_leader(pilot, screen, action[4])
        await click_widget(pilot, hand_card(screen, action[1]), offset=(2, 0))
        if spell == "Acquire":
            await click_widget(pilot, next(w for w in screen.query(MarketCard) if w.slot == action[3]))
        elif spell == "Teleport":
            await click_hex(pilot, action[3])
            await click_hex(pilot, action[4])
        elif len(action) > 3:
            await click_hex(pilot, action[3])
    else:
        raise AssertionError(f"no clicks for {action}")


def hand_card(screen: PandoriaScreen, slot: int) -> HandCard:
    return next(w for w in screen.query(HandCard) if w.display and w.slot == slot)



def random_turns(controller, seed: int, until) -> None:
    """Play seeded random moves for the people at this keyboard until ``until(view)`` holds."""
    rng = random.Random(seed)
    for _ in range(300):
        seat = controller.waiting.seat
        if until(controller.view(seat)):
            return
        controller.submit(seat, rng.choice(controller.legal_actions(seat)))
    raise AssertionError("never reached")


def to_card_phase(controller, seat: int = 0) -> None:
    """Place the first legal tile and skip the figure: the seat is at its card step."""
    legal = controller.legal_actions(seat)
    controller.submit(seat, next(a for a in legal if a[0] == "tile"))
    controller.submit(seat, ("skip",))
    assert controller.view(seat).phase == "card"


# -- the map geometry


def test_every_hex_is_found_where_it_is_drawn():
    for h in range(NHEX):
        x, y = cell_origin(h)
        for dx in range(CELL - 1):
            for dy in (0, 1):
                assert hex_at(x + dx, y + dy) == (h if KIND[h] != OFF else None)
        assert hex_at(x + CELL - 1, y) is None  # the gap between two hexes


def cell_text(text, h: int) -> tuple[str, str]:
    """The two lines of hex ``h``'s cell in a drawn map."""
    x, y = cell_origin(h)
    lines = text.plain.splitlines()
    return lines[y][x:x + CELL - 1], lines[y + 1][x:x + CELL - 1]


def test_the_map_draws_terrain_lakes_ships_paths_castles_figures_and_the_leader():
    controller, _ = local(mode="hot-seat", seed=1)
    view = controller.view(0)
    drawn = map_text(view, Marks())
    assert cell_text(drawn, parse_hex("f2")) == (" ≈≈ ", "\\__/")  # a lake with its ship
    assert cell_text(drawn, parse_hex("b1"))[0] == "=m= "  # the mountain path
    assert cell_text(drawn, parse_hex("c3"))[0] == " M• "  # the printed mountain, 1 symbol
    assert cell_text(drawn, 0)[0] == " ^^ "  # a0 is off the board
    castle = next(a[1] for a in controller.legal_actions(0) if a[0] == "castle")
    controller.submit(0, ("castle", castle))
    controller.submit(0, ("figure", castle, False))
    view = controller.view(0).copy()
    view.occupant[parse_hex("f2")] = 1  # the leader of seat 1 on the ship (a drawing, not a move)
    drawn = map_text(view, Marks(targets=frozenset({castle})))
    assert cell_text(drawn, castle) == (" ♜1 ", " ●1◇")  # P1's castle, P1's figure, a click acts on it
    assert cell_text(drawn, parse_hex("f2"))[1] == " ★1 "
    style = drawn.get_style_at_offset(Console(), offset_of(drawn, parse_hex("f2"), 1))
    assert style.bgcolor.name == PLAYER_COLOURS[0]


def offset_of(text, h: int, line: int) -> int:
    x, y = cell_origin(h)
    lines = text.plain.split("\n")
    return sum(len(s) + 1 for s in lines[:y + line]) + x + 1


def test_a_preview_and_a_scoring_region_are_drawn():
    controller, _ = local(mode="hot-seat", seed=1)
    view = controller.view(0)
    h = parse_hex("e5")
    drawn = map_text(view, Marks(preview={h: (D.FOREST, 2)}, scoring=frozenset({parse_hex("c3")})))
    assert cell_text(drawn, h) == (" F••", "░░░░")
    style = drawn.get_style_at_offset(Console(), offset_of(drawn, parse_hex("c3"), 0))
    assert style.bgcolor.name == SCORING_BG


def test_what_a_hex_is_said_to_be():
    controller, _ = local(mode="hot-seat", seed=1)
    view = controller.view(0)
    labels = [s.label for s in controller.seats]
    assert describe_hex(view, parse_hex("f2"), labels) == "f2: a lake with a ship"
    assert describe_hex(view, parse_hex("b1"), labels) == "b1: empty land (mountain path)"
    assert describe_hex(view, parse_hex("c3"), labels) == "c3: mountain, 1 symbol"
    state = controller.state
    h = next(a[1] for a in controller.legal_actions(0) if a[0] == "castle")
    controller.submit(0, ("castle", h))
    controller.submit(0, ("figure", h, False))
    assert describe_hex(controller.view(0), h, labels) == f"{hex_name(h)}: a castle of P1 You; a figure of P1 You"
    assert state.terrain[h] == -1  # the controller's state before is never touched


def test_every_card_has_its_effects_in_words():
    for ident in range(len(D.CARDS)):
        spell, building, price = D.CARDS[ident]
        text = card_help(ident)
        assert spell in text and building in text and f"{price} gold" in text


def test_the_players_panel_counts_hidden_hands_and_names_teams():
    team = make_local_game(GAME, mode="hot-seat", seed=2, players=4, variant="team")
    view = team.view(1)
    text = players_text(view, [s.label for s in team.seats], 1).plain
    lines = text.splitlines()
    assert len(lines) == 8
    assert "team 1" in lines[0] and "team 2" in lines[2] and "team 1" in lines[4]
    assert all(view.cards.ids[s] is None for s in view.piles["hand0"])
    assert "hand 4 cards, 1 tile" in lines[0]


# -- placing a double tile


async def test_a_tile_placed_by_mouse_lands_where_the_preview_showed():
    controller, app = local()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = the_screen(app)
        assert controller.waiting.seat == 0 and screen.viewer == 0
        _, slot, ident, h, d = next(a for a in controller.legal_actions(0) if a[0] == "tile" and a[4] == 0)
        other = STEP[h][3]  # not the first rotation offered: the tile turns by a second click
        assert ("tile", slot, ident, h, 3) in controller.legal_actions(0)
        await click_hex(pilot, h)
        assert screen.anchor == h
        assert len(screen.query_one(HexMap).marks.preview) == 2
        await hover_hex(pilot, other)
        preview = dict(screen.query_one(HexMap).marks.preview)
        face = D.DOUBLE_TILES[ident - D.TILE_BASE]
        assert preview == {h: (face[0], face[1]), other: (face[2], face[3])}
        await click_hex(pilot, other)
        state = controller.state
        assert {x: (state.terrain[x], state.symbols[x]) for x in preview} == preview
        assert controller.log[-1].text == f"tile {face_text(face)} {hex_name(h)} W"
        assert state.phase == "figure"


async def test_keyboard_only_turn():
    controller, app = local()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = the_screen(app)
        hexmap = screen.query_one(HexMap)
        assert app.focused is hexmap
        _, slot, ident, h, _ = next(a for a in controller.legal_actions(0) if a[0] == "tile")
        wanted = sorted(d for x, d in screen.tile_positions(controller.legal_actions(0)) if x == h)[-1]
        row, col = divmod(h, D.COLS)
        while hexmap.cursor % D.COLS != col:
            await pilot.press("left" if hexmap.cursor % D.COLS > col else "right")
        while hexmap.cursor // D.COLS != row:
            await pilot.press("up" if hexmap.cursor // D.COLS > row else "down")
        assert hexmap.cursor == h
        await pilot.press("enter")  # the tile's first half here, previewed
        for _ in range(6):
            if screen.direction == wanted:
                break
            await pilot.press("r")
        await pilot.pause()
        assert screen.direction == wanted and h in hexmap.marks.preview
        await pilot.press("enter")  # the same hex again: placed as previewed
        await pilot.pause()
        assert controller.state.terrain[STEP[h][wanted]] >= 0 and controller.view(0).phase == "figure"
        await pilot.press("enter")  # a figure on the hex under the cursor, the tile just placed
        await pilot.pause()
        assert controller.state.occupant[h] == 0
        await pilot.press("s")  # no card this turn
        await pilot.pause()
        mine = [e.text for e in controller.log if e.actor == 0]
        assert mine[:3] == [mine[0], f"figure {hex_name(h)}", "skip"] and mine[0].startswith("tile ")
        assert controller.view(0).phase != "card"


async def test_a_castle_by_key_and_click():
    controller, app = local()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = the_screen(app)
        h = next(a[1] for a in controller.legal_actions(0) if a[0] == "castle")
        await pilot.press("c")
        await hover_hex(pilot, h)
        assert screen.query_one(HexMap).marks.preview == {h: (CASTLE, 0)}
        await click_hex(pilot, h)
        assert controller.state.terrain[h] == CASTLE and controller.state.owner[h] == 0


# -- refusals


async def test_illegal_intents_are_refused_with_the_engine_reason():
    controller, app = local()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = the_screen(app)
        far = parse_hex("c0")
        await click_hex(pilot, far)
        assert "Refused: a double tile does not fit at c0" in status(screen)
        assert screen.query_one(StatusLine).has_class("-error")
        assert screen.anchor is None
        card = next(w for w in screen.query(HandCard) if w.display)
        assert await pilot.click(card, offset=(3, 0))  # a spell before the tile
        await pilot.pause()
        assert "Refused: place a double tile or a castle first, not spell" in status(screen)
        await pilot.click("#building-0")
        assert "Refused: choose a building in your hand first" in status(screen)
        assert len([e for e in controller.log if e.actor == 0]) == 0


async def test_a_building_too_dear_is_refused_with_its_cost():
    controller, app = local()
    to_card_phase(controller)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = the_screen(app)
        view = controller.view(0)
        wood = view.resources[0][D.WOOD]
        dear = next(w for w in screen.query(HandCard)
                    if w.display and D.BUILDING_COST[D.CARDS[w.ident][1]] > wood)
        assert await pilot.click(dear, offset=(3, 1))  # the building half
        await pilot.pause()
        name = D.CARDS[dear.ident][1]
        assert f"Refused: {name} costs {D.BUILDING_COST[name]} wood, seat 1 has {wood}" in status(screen)


# -- cards by click


async def test_a_spell_chosen_by_click():
    controller, app = local()
    to_card_phase(controller)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = the_screen(app)
        conjure = next(w for w in screen.query(HandCard) if w.display and D.CARDS[w.ident][0] == "Conjure")
        slot = conjure.slot
        assert await pilot.click(conjure, offset=(3, 0))  # the spell half
        await pilot.pause()
        assert slot in controller.state.piles["spells0"]
        assert any(e.actor == 0 and e.text.startswith("spell Conjure/") for e in controller.log)


async def test_a_building_chosen_by_click():
    controller, app = local()
    to_card_phase(controller)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = the_screen(app)
        wood = controller.view(0).resources[0][D.WOOD]
        cheap = next(w for w in screen.query(HandCard)
                     if w.display and D.BUILDING_COST[D.CARDS[w.ident][1]] <= wood)
        slot, name = cheap.slot, D.CARDS[cheap.ident][1]
        assert await pilot.click(cheap, offset=(3, 1))
        await pilot.pause()
        assert controller.state.buildings[0][0] == slot
        assert name in str(screen.query_one("#building-0", BuildingSlot).render())


async def test_a_targeted_spell_highlights_its_targets_then_takes_a_click():
    controller, app = local(mode="hot-seat", seed=2)
    random_turns(controller, 2, lambda v: v.phase == "card" and any(
        a[0] == "spell" and D.CARDS[a[2]][0] in ("Muster", "Clone", "Teleport")
        for a in GAME.legal_actions(v, v.current)))
    seat = controller.waiting.seat
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        if isinstance(app.screen, HandoffScreen):
            await pilot.click("#handoff-ready")
            await pilot.pause()
        screen = the_screen(app)
        action = next(a for a in controller.legal_actions(seat)
                      if a[0] == "spell" and D.CARDS[a[2]][0] in ("Muster", "Clone", "Teleport"))
        spell = D.CARDS[action[2]][0]
        card = next(w for w in screen.query(HandCard) if w.display and w.slot == action[1])
        assert await pilot.click(card, offset=(3, 0))
        await pilot.pause()
        targets = screen.query_one(HexMap).marks.targets
        assert action[3] in targets
        await click_hex(pilot, action[3])
        if spell == "Teleport":
            assert screen.source == action[3]
            await click_hex(pilot, action[4])
        assert action[1] in controller.state.piles[f"spells{seat}"]
        played = [e.text for e in controller.log if e.actor == seat][-1]
        assert played == controller.format(seat, action) or spell != "Teleport" and played.startswith(
            f"spell {spell.replace(' ', '')}/")


async def test_buying_from_the_market_by_click():
    controller, app = local(mode="hot-seat", seed=3)
    random_turns(controller, 3, lambda v: v.phase == "buy")
    seat = controller.waiting.seat
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        if isinstance(app.screen, HandoffScreen):
            await pilot.click("#handoff-ready")
            await pilot.pause()
        screen = the_screen(app)
        slot = next(a[1] for a in controller.legal_actions(seat) if a[0] == "buy")
        widget = next(w for w in screen.query(MarketCard) if w.slot == slot)
        assert await pilot.click(widget)
        await pilot.pause()
        assert slot in controller.state.piles[f"hand{seat}"]


# -- the region that will score


async def test_the_region_a_tile_would_close_is_highlighted_before_it_closes():
    controller, app = local(mode="hot-seat", seed=3)

    def closing(view):
        if view.phase != "place":
            return False
        return any(any(e[0] == "closed" for e in GAME.apply(view, a)[1])
                   for a in GAME.legal_actions(view, view.current) if a[0] == "tile")

    random_turns(controller, 3, closing)
    seat = controller.waiting.seat
    view = controller.view(seat)
    action = next(a for a in controller.legal_actions(seat) if a[0] == "tile"
                  and any(e[0] == "closed" for e in GAME.apply(view, a)[1]))
    region = next(set(e[2]) for e in GAME.apply(view, action)[1] if e[0] == "closed")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click("#handoff-ready")
        await pilot.pause()
        screen = the_screen(app)
        screen.tile_slot = action[1]
        await click_hex(pilot, action[3])
        await hover_hex(pilot, STEP[action[3]][action[4]])
        assert screen.direction == action[4]
        assert region <= screen.query_one(HexMap).marks.scoring
        assert "closes" in str(screen.query_one("#pandoria-info", Panel).render())
        await click_hex(pilot, STEP[action[3]][action[4]])
        assert all(controller.state.closed[h] for h in region)
        assert controller.view(seat).phase == "figure"
        assert region <= screen.query_one(HexMap).marks.scoring  # still marked: it scores at the end of the turn


# -- views only


async def test_the_screen_shows_the_seat_view_never_the_opponents_cards():
    controller, app = local(mode="hot-seat", seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        screen = the_screen(app)
        assert not any(w.display for w in screen.query(HandCard))  # nobody's hand behind the dialog
        await pilot.click("#handoff-ready")
        await pilot.pause()
        seat = controller.waiting.seat
        other = 1 - seat
        shown = sorted(w.slot for w in screen.query(HandCard) if w.display)
        assert shown == sorted(controller.state.piles[f"hand{seat}"])
        text = str(screen.query_one("#pandoria-players", Panel).render())
        assert f"hand {len(controller.state.piles[f'hand{other}'])} cards, 1 tile" in text
        secret = {D.CARDS[controller.state.cards.ids[s]][1] for s in controller.state.piles[f"hand{other}"]}
        public = {D.CARDS[controller.state.cards.ids[s]][1]
                  for s in controller.state.piles[f"hand{seat}"] + controller.state.piles["market"]}
        board_text = " ".join(str(w.render()) for w in screen.query("PandoriaBoard *") if hasattr(w, "render"))
        assert secret - public  # the seed gives the opponent a card shown nowhere else
        for name in secret - public:
            assert name not in board_text


async def test_a_hot_seat_turn_by_clicks_hands_the_keyboard_over():
    controller, app = local(mode="hot-seat", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click("#handoff-ready")
        await pilot.pause()
        screen = the_screen(app)
        for button in screen.query(Button):
            button.active_effect_duration = 0
        seat = controller.waiting.seat
        _, _, _, h, d = next(a for a in controller.legal_actions(seat) if a[0] == "tile")
        await click_hex(pilot, h)
        await hover_hex(pilot, STEP[h][d])
        await click_hex(pilot, STEP[h][d])
        await pilot.click("#btn-skip")  # no figure
        await pilot.pause()
        await pilot.click("#btn-skip")  # no card
        await pilot.pause()
        for _ in range(3):  # a buy or the Elves' move may follow
            if isinstance(app.screen, HandoffScreen):
                break
            await pilot.click("#btn-skip")
            await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        assert controller.waiting.seat == 1 - seat


# -- a snapshot at a fixed size


class BoardApp(App):
    """The board area alone, drawn from a fixed position (Pandoria's stylesheet only, not the app's)."""

    CSS_PATH = PANDORIA_CSS

    def __init__(self, model: BoardModel):
        super().__init__()
        self.model = model

    def compose(self) -> ComposeResult:
        yield PandoriaBoard()

    def on_mount(self) -> None:
        self.query_one(PandoriaBoard).show(self.model)


def snapshot_model() -> BoardModel:
    controller, _ = local(mode="hot-seat", seed=3)
    random_turns(controller, 3, lambda v: v.turn >= 6 and v.phase == "place")
    seat = controller.waiting.seat
    view = controller.view(seat)
    _, slot, ident, h, d = next(a for a in controller.legal_actions(seat) if a[0] == "tile")
    face = D.DOUBLE_TILES[ident - D.TILE_BASE]
    marks = Marks(preview={h: face[:2], STEP[h][d]: face[2:]}, seat=seat, scoring=frozenset(view.closing))
    labels = [s.label for s in controller.seats]
    info = Text(f"Tile at {hex_name(h)} {d}", style="bold")
    return BoardModel(view, seat, labels, marks, info, slot, None,
                      frozenset(), frozenset({"rotate", "castle", "cancel"}))


def test_board_snapshot(snap_compare):
    assert snap_compare(BoardApp(snapshot_model()), terminal_size=(120, 40))


# -- more intents, by click and by key


async def enter_as_current(pilot, app, controller) -> tuple[PandoriaScreen, int]:
    await pilot.pause()
    if isinstance(app.screen, HandoffScreen):
        await pilot.click("#handoff-ready")
        await pilot.pause()
    return the_screen(app), controller.waiting.seat


async def test_a_monument_by_keys():
    controller, app = local(mode="hot-seat", seed=3)
    random_turns(controller, 3, lambda v: any(a[0] == "monument" for a in GAME.legal_actions(v, v.current)))
    async with app.run_test(size=SIZE) as pilot:
        screen, seat = await enter_as_current(pilot, app, controller)
        index = next(a[1] for a in controller.legal_actions(seat) if a[0] == "monument")
        points = controller.state.points[seat]
        top = controller.state.monuments[-1]
        await pilot.press("m")
        assert screen.monument_mode and index in {
            w.index for w in screen.query(BuildingSlot) if w.has_class("-target")}
        await pilot.press(str(index + 1))
        await pilot.pause()
        assert controller.state.buildings[seat][index] == 1000 + top
        assert controller.state.points[seat] == points + top
        assert f"{index + 1} Monument {top}" in str(screen.query_one("#pandoria-players", Panel).render())


async def test_the_terrain_spell_single_tile_by_click():
    controller, app = local(mode="hot-seat", seed=3)
    random_turns(controller, 3, lambda v: v.phase == "terrain")
    async with app.run_test(size=SIZE) as pilot:
        screen, seat = await enter_as_current(pilot, app, controller)
        h = next(a[1] for a in controller.legal_actions(seat) if a[0] == "single")
        assert h in screen.query_one(HexMap).marks.targets
        await hover_hex(pilot, h)
        assert h in screen.query_one(HexMap).marks.preview  # the single tile, where it would go
        await click_hex(pilot, h)
        assert controller.state.terrain[h] >= 0 and controller.view(seat).phase == "terrain_figure"


async def test_acquire_then_a_market_card_by_click():
    controller, app = local(mode="hot-seat", seed=1)
    random_turns(controller, 1, lambda v: any(a[0] == "spell" and D.CARDS[a[2]][0] == "Acquire" and len(a) > 3
                                             for a in GAME.legal_actions(v, v.current)))
    async with app.run_test(size=SIZE) as pilot:
        screen, seat = await enter_as_current(pilot, app, controller)
        action = next(a for a in controller.legal_actions(seat)
                      if a[0] == "spell" and D.CARDS[a[2]][0] == "Acquire")
        card = next(w for w in screen.query(HandCard) if w.display and w.slot == action[1])
        assert await pilot.click(card, offset=(3, 0))
        await pilot.pause()
        assert screen.card is not None and action[1] in controller.state.piles[f"hand{seat}"]  # waits for its target
        wanted = action[3]
        widget = next(w for w in screen.query(MarketCard) if w.slot == wanted)
        assert await pilot.click(widget)
        await pilot.pause()
        assert wanted in controller.state.piles[f"hand{seat}"] and action[1] in controller.state.piles[f"spells{seat}"]


async def test_taking_a_figure_back_by_click():
    controller, app = local(mode="hot-seat", seed=1)
    random_turns(controller, 1, lambda v: any(a[0] == "take" for a in GAME.legal_actions(v, v.current)))
    async with app.run_test(size=SIZE) as pilot:
        screen, seat = await enter_as_current(pilot, app, controller)
        h = next(a[1] for a in controller.legal_actions(seat) if a[0] == "take")
        reserve = controller.state.reserve[seat] + controller.state.leader_home[seat]
        await click_hex(pilot, h)
        assert controller.state.occupant[h] == -1
        assert controller.state.reserve[seat] + controller.state.leader_home[seat] == reserve + 1


async def test_the_dwarves_choose_which_of_their_two_tiles_to_place():
    controller, app = local(mode="hot-seat", seed=1, players=4)
    dwarves = controller.state.people.index(D.DWARVES)
    random_turns(controller, 1, lambda v: v.current == dwarves and v.phase == "place")
    async with app.run_test(size=SIZE) as pilot:
        screen, seat = await enter_as_current(pilot, app, controller)
        assert seat == dwarves
        first, second = sorted(controller.state.piles[f"tiles{seat}"])
        assert screen.tile_slot == first
        await pilot.click("#tile-1")
        await pilot.pause()
        assert screen.tile_slot == second
        await pilot.press("t")
        assert screen.tile_slot == first
        await pilot.press("t")
        _, _, _, h, d = next(a for a in controller.legal_actions(seat) if a[0] == "tile")
        await click_hex(pilot, h)
        await click_hex(pilot, h)  # placed with the rotation the preview showed
        assert second in controller.state.piles["board"] and first in controller.state.piles[f"tiles{seat}"]


async def test_the_last_turn_by_clicks_ends_the_game_and_shows_the_result():
    controller, app = local(mode="hot-seat", seed=1)
    random_turns(controller, 1, lambda v: v.ending and v.phase == "place" and v.current == (v.first - 1) % 2)
    async with app.run_test(size=SIZE) as pilot:
        screen, seat = await enter_as_current(pilot, app, controller)
        for button in screen.query(Button):
            button.active_effect_duration = 0
        _, _, _, h, d = next(a for a in controller.legal_actions(seat) if a[0] == "tile")
        await click_hex(pilot, h)
        await click_hex(pilot, STEP[h][d])
        for _ in range(5):  # no figure, no card, no buy, no move
            if controller.is_over():
                break
            assert await pilot.click("#btn-skip")
            await pilot.pause()
        assert controller.is_over()
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert "Game over" in str(app.screen.query_one("#game-over-result").render())


async def test_a_card_by_keys_tab_to_it_then_x_for_its_spell():
    controller, app = local()
    to_card_phase(controller)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = the_screen(app)
        for _ in range(30):
            focused = app.focused
            if isinstance(focused, HandCard) and D.CARDS[focused.ident][0] == "Conjure":
                break
            await pilot.press("tab")
        slot = app.focused.slot
        await pilot.press("x")
        await pilot.pause()
        assert slot in controller.state.piles["spells0"]
        assert screen.query_one(StatusLine).has_class("-error") is False


async def test_a_typed_move_still_works():
    controller, app = local()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        action = next(a for a in controller.legal_actions(0) if a[0] == "tile")
        text = controller.format(0, action)
        await pilot.press("colon")
        await pilot.press(*text)
        await pilot.press("enter")
        await pilot.pause()
        assert [e.text for e in controller.log if e.actor == 0] == [text]
        assert controller.state.terrain[action[3]] >= 0


@pytest.mark.slow
async def test_random_moves_by_clicks_each_land_as_meant():
    """Eight random moves (Teleport and the Elves' move among them), each clicked as a person
    would, each played exactly as meant."""
    controller, app = local(mode="hot-seat", seed=2)
    rng = random.Random(2)
    kinds = set()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = the_screen(app)
        played = 0
        while played < 8:
            if isinstance(app.screen, HandoffScreen):
                await pilot.click("#handoff-ready")
                await pilot.pause()
                continue
            seat = controller.waiting.seat
            action = rng.choice(controller.legal_actions(seat))
            wanted = controller.format(seat, action)
            before = len(controller.log)
            await click_action(pilot, screen, action)
            await pilot.pause()
            mine = [e.text for e in controller.log[before:] if e.actor == seat]
            assert mine[:1] == [wanted], status(screen)
            kinds.add(action[0])
            played += 1
    assert {"tile", "figure", "skip", "spell", "move"} <= kinds


async def test_the_mouse_wheel_turns_the_tile_like_r():
    from textual.events import MouseScrollDown

    controller, app = local()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = the_screen(app)
        hexmap = screen.query_one(HexMap)
        positions = screen.tile_positions(controller.legal_actions(0))
        h = next(x for x, _ in positions if sum(1 for y, _ in positions if y == x) >= 2)
        dirs = sorted(d for x, d in positions if x == h)
        await click_hex(pilot, h)  # the first half here, previewed
        before = screen.direction
        hexmap.post_message(HexMap.Turned())
        await pilot.pause()
        expected = next((d for d in dirs if d > before), dirs[0])
        assert expected != before
        assert screen.direction == expected and h in hexmap.marks.preview
        hexmap._on_mouse_scroll_down(MouseScrollDown(hexmap, 1, 1, 0, 0, 0, False, False, False))
        await pilot.pause()
        assert screen.direction == next((d for d in dirs if d > expected), dirs[0])


# -- a hand of any size (a fifth item was never shown)

def give_cards(controller, seat: int, count: int) -> list[int]:
    """Move ``count`` cards from the deck into ``seat``'s hand, seen by that seat (a test position)."""
    state = controller.state
    state.cards = state.cards.copy()    # a registry is never changed in place (views remember them: engines/pandoria)
    moved = [s for s in state.piles["deck"] if state.cards.ids[s] is not None][:count]
    for slot in moved:
        state.piles["deck"].remove(slot)
        state.piles[f"hand{seat}"].append(slot)
        state.cards.seen[slot] |= 1 << seat
    state.resources[seat] = type(state.resources[seat])((30, 30, 30))  # every building affordable
    return moved


@pytest.mark.parametrize("size", [(80, 24), (160, 50), (500, 60)])
async def test_every_card_of_a_big_hand_is_shown_and_takes_a_click(size):
    controller, app = local()
    to_card_phase(controller)
    give_cards(controller, 0, 13)  # 4 dealt + 13: more than the screen ever had places for
    hand = sorted(controller.state.piles["hand0"])
    assert len(hand) == 17
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = the_screen(app)
        shown = [w for w in screen.query(HandCard) if w.display]
        assert sorted(w.slot for w in shown) == hand
        for slot in hand[::4]:  # the click lands on that very card, wherever it is in the hand
            card = hand_card(screen, slot)
            card.scroll_visible(animate=False, immediate=True)
            await pilot.pause()
            assert await pilot.hover(card, offset=(2, 0))
            assert app.mouse_over is card
        last = hand_card(screen, hand[-1])  # and the last card of the hand is played by a click
        last.scroll_visible(animate=False, immediate=True)
        await pilot.pause()
        before = len(controller.log)
        assert await pilot.click(last, offset=(2, 1))  # its building half: built (slot 1 is the only one)
        await pilot.pause()
        assert hand[-1] not in controller.state.piles["hand0"], status(screen)
        assert controller.log[before].actor == 0 and controller.log[before].text.startswith("build")
