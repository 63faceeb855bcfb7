"""The Pandoria game screen: the hex map, your tiles and cards, the market, the players.

Every intent works by mouse and by keyboard (the cursor on the map moves with
the arrows, Enter acts on its hex):

- place a double tile: click a hex (its first half goes there, the preview
  shows the tile), then click a neighbour to place the tile pointing there,
  or click the same hex again to place it as shown; ``r`` rotates, ``t`` picks the
  other tile of your hand, ``c`` switches to a castle, ``p`` passes. A region
  that the tile would close is highlighted, with what it would give.
- a figure: click a hex of the tile just placed (``l`` switches figure and
  leader), or one of your figures to take it back; ``s`` skips.
- a card: click the spell half (top) or building half (bottom) of a card of
  your hand (``x`` / ``b`` on the focused card), then its target if it has
  one (a hex, a market card, a building slot); ``m`` then a building slot
  builds a monument.
- buy: click a market card (or its number 1-4). The Elves: click a figure,
  then where it goes. Building slots and market cards also answer to their
  number keys, and every piece takes Tab and Enter.

The screen never decides a rule: it builds the action and the engine accepts
it or refuses it, and the refusal's reason goes to the status line.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Button

from lanterne.client.controller import GameController
from lanterne.client.game_terms import variant_name
from lanterne.client.i18n import N_, _, ngettext, say_refusal
from lanterne.client.games.pandoria.board import (SPELL_HELP, BoardModel, BuildingSlot, HandCard, MarketCard,
                                                  PandoriaBoard, Piece, TileCard)
from lanterne.client.games.pandoria.widgets import CASTLE, HexMap, Marks, describe_hex
from lanterne.client.screens.game import GameScreen, NetworkPart
from lanterne.client.theme import ALARM, CAUTION
from lanterne.engines.core import Action, RulesError, State
from lanterne.engines.pandoria.view import (DIRECTIONS, KIND, LAKE, MONUMENT, NEIGHBOURS, OFF, STEP, face_text, hex_name,
                                            region_yield)
from lanterne.engines.pandoria.view import data as D

TARGET_FIGURE = ("Muster", "Clone", "Astral Ship", "Enchanted Castle", "Adopt")
NO_TARGET = ("Master Builder", "Conjure", "Construct", "Terrain")

SHORT_HINTS = {
    "place": N_("place a double tile (or a castle)"), "figure": N_("a figure on the new tile, take one back, or skip"),
    "card": N_("a spell, a building, a monument, or skip"), "terrain": N_("place the single tile"),
    "terrain_figure": N_("a figure on the single tile, or skip"), "buy": N_("buy a market card, or skip"),
    "elf": N_("move a figure (Elves), or skip"), "over": N_("the game is over"),
}
HINTS = {
    "place": N_("place a double tile: click a hex, then a neighbour (r rotates, t other tile, c castle, p pass)"),
    "figure": N_("click the new tile for a figure (l: leader), or your figure to take it back; s skips"),
    "card": N_("click a spell (top) or a building (bottom) in your hand; m + a slot: monument; s skips"),
    "terrain": N_("place the single tile: click a free hex next to the tiles"),
    "terrain_figure": N_("click the single tile for a figure (l: leader), or s to skip"),
    "buy": N_("click a market card to buy it, or s to skip"),
    "elf": N_("Elves: click one of your figures, then where it goes (1 or 2 spaces); s skips"),
}
PHASES = (N_("place"), N_("figure"), N_("card"), N_("terrain"), N_("terrain_figure"), N_("buy"), N_("elf"), N_("over"))
"""The engine's phases, as the info panel names them."""


def _hint(hints: dict, phase: str) -> str:
    return _(hints[phase]) if phase in hints else ""


class PandoriaScreen(GameScreen):
    CSS_PATH = "pandoria.tcss"  # every style of this game, next to this module; the colours come from the theme
    MOUSE_HELP = N_(
        "Click a hex for your tile's first half, then a neighbour for the second (or the same hex again); the"
        " wheel turns it. Click the new tile for a figure. Click a hand card's spell (top) or building "
        '(bottom), then its target; a market card to buy it; a building slot to build there.')

    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel / leave")),
        Binding("r", "rotate", N_("Rotate")),
        Binding("t", "next_tile", N_("Tile"), show=False),
        Binding("c", "castle", N_("Castle"), show=False),
        Binding("l", "leader", N_("Leader"), show=False),
        Binding("m", "monument", N_("Monument"), show=False),
        Binding("p", "pass", N_("Pass"), show=False),
        Binding("s", "skip", N_("Skip")),
    ] + [Binding(str(i + 1), f"number({i})", show=False) for i in range(D.BUILDING_SLOTS)]

    COMPACT_WIDTH = 155  # the map and the market side by side take 111 columns, the side panel 42 more

    def __init__(self, controller: GameController, network: NetworkPart | None = None):
        super().__init__(controller, network)
        self.tile_slot: int | None = None
        self.anchor: int | None = None
        self.direction = 0
        self.castle_mode = False
        self.leader = False
        self.card: tuple[int, int, str] | None = None
        """(slot, identity, 'spell' | 'building') of the hand card chosen, waiting for its target."""
        self.monument_mode = False
        self.source: int | None = None
        self.preview_note = ""
        self.preview_refused = False

    # -- layout
    def compose_board(self) -> ComposeResult:
        yield PandoriaBoard(id="pandoria-board")

    def focus_default(self) -> None:
        self.query_one(HexMap).focus()

    def on_mount(self) -> None:
        super().on_mount()
        self.start_cursor()
        variant = getattr(self.controller, "variant", "classic")
        self.sub_title = f"Pandoria ({variant_name(variant)}) — {self.controller.mode}"

    def start_cursor(self) -> None:
        """The cursor starts where a tile can go (or on empty land), never on a taken hex."""
        hexmap = self.query_one(HexMap)
        view = self.view()

        def free(h: int) -> bool:
            return KIND[h] not in (OFF, LAKE) and view.terrain[h] < 0 and view.occupant[h] < 0

        if free(hexmap.cursor):
            return
        anchors = sorted({a[3] for a in self.legal() if a[0] == "tile"})
        empty = [h for h in range(len(view.terrain)) if free(h)]
        target = min(anchors or empty, key=lambda h: abs(h - hexmap.cursor), default=None)
        if target is not None:
            hexmap.move_cursor(target, scroll=False)

    # -- what the seat may do
    @property
    def cursor(self) -> int:
        return self.query_one(HexMap).cursor

    def legal(self) -> list[Action]:
        seat = self.acting_seat
        return self.controller.legal_actions(seat) if seat is not None else []

    def my_tiles(self, view: State) -> list[int]:
        return sorted(view.piles[f"tiles{self.viewer}"]) if self.viewer is not None else []

    def chosen_tile(self, view: State) -> int | None:
        tiles = self.my_tiles(view)
        if self.tile_slot not in tiles:
            self.tile_slot = tiles[0] if tiles else None
        return self.tile_slot

    def tile_positions(self, legal: list[Action]) -> set[tuple[int, int]]:
        return {(a[3], a[4]) for a in legal if a[0] == "tile"}

    def clear_intent(self) -> None:
        self.anchor = self.card = self.source = None
        self.castle_mode = self.monument_mode = False

    def play_listed(self, action: Action) -> None:
        self.act(action)

    def forget_half_move(self) -> None:
        self.clear_intent()

    def act(self, action: Action) -> bool:
        """Play an action; on success forget the half-made intent."""
        if self.play(action):
            self.clear_intent()
            return True
        return False

    # -- drawing
    def refresh_board(self, view: State) -> None:
        board = self.query_one(PandoriaBoard)
        legal = self.legal()
        marks = self.marks(view, legal)
        labels = [s.label for s in self.controller.seats]
        slot_targets: frozenset[int] = frozenset()
        if self.card and self.card[2] == "building":
            slot_targets = frozenset(a[3] for a in legal if a[0] == "build"
                                     and D.card_design(a[2]) == D.card_design(self.card[1]))
        elif self.monument_mode:
            slot_targets = frozenset(a[1] for a in legal if a[0] == "monument")
        board.show(BoardModel(view, self.viewer, labels, marks, self.info(view, legal, labels),
                              self.chosen_tile(view), self.card[0] if self.card else None, slot_targets,
                              self.buttons(view, legal)))

    def changed_hexes(self) -> frozenset[int]:
        """The hexes the other players changed since the seat on screen last played."""
        out: set[int] = set()
        for entry in self.others_since_my_move():
            for e in entry.events:
                kind = e[0] if e else None
                if kind == "tile" and len(e) > 4:
                    out.add(e[3])
                    if 0 <= e[4] < len(STEP[e[3]]) and STEP[e[3]][e[4]] >= 0:
                        out.add(STEP[e[3]][e[4]])
                elif kind in ("figure", "take", "castle") and len(e) > 2:
                    out.add(e[2])
                elif kind == "single" and len(e) > 3:
                    out.add(e[3])
                elif kind == "move" and len(e) > 3:
                    out.update((e[2], e[3]))
        return frozenset(h for h in out if isinstance(h, int) and 0 <= h < len(STEP))

    def marks(self, view: State, legal: list[Action]) -> Marks:
        marks = Marks(seat=self.viewer if self.viewer is not None else 0, source=self.source,
                      last=self.changed_hexes())
        self.preview_note, self.preview_refused = "", False
        if self.acting_seat is None:
            return marks
        phase = view.phase
        targets: set[int] = set()
        trial: Action | None = None
        if phase == "place" and self.castle_mode:
            targets = {a[1] for a in legal if a[0] == "castle"}
            if self.cursor in targets:
                marks.preview = {self.cursor: (CASTLE, 0)}
                trial = ("castle", self.cursor)
        elif phase == "place" and self.anchor is not None:
            slot = self.chosen_tile(view)
            if slot is not None:
                ident = view.cards.ids[slot]
                a, sa, b, sb = D.DOUBLE_TILES[ident - D.TILE_BASE]
                other = STEP[self.anchor][self.direction]
                marks.preview = {self.anchor: (a, sa), other: (b, sb)}
                targets = {STEP[self.anchor][d] for h, d in self.tile_positions(legal) if h == self.anchor}
                trial = ("tile", slot, ident, self.anchor, self.direction)
        elif phase in ("figure", "terrain_figure"):
            targets = {a[1] for a in legal if a[0] in ("figure", "take")}
        elif phase == "terrain":
            targets = {a[1] for a in legal if a[0] == "single"}
            if self.cursor in targets and view.single >= 0 and view.cards.ids[view.single] is not None:
                terrain, symbols = D.SINGLE_TILES[view.cards.ids[view.single] - D.SINGLE_BASE]
                marks.preview = {self.cursor: (terrain, symbols)}
                trial = ("single", self.cursor)
        elif phase == "elf":
            if self.source is None:
                targets = {a[1] for a in legal if a[0] == "move"}
            else:
                targets = {a[2] for a in legal if a[0] == "move" and a[1] == self.source}
        elif phase == "card" and self.card and self.card[2] == "spell":
            spells = self.matching(legal, "spell")
            if D.CARDS[self.card[1]][0] == "Teleport" and self.source is not None:
                targets = {a[4] for a in spells if a[3] == self.source}
            else:
                targets = {a[3] for a in spells if len(a) > 3 and D.CARDS[self.card[1]][0] != "Acquire"}
        marks.targets = frozenset(targets)
        scoring = {h for region in view.closing for h in region}
        if trial is not None:
            scoring |= self.closing_after(view, trial)
        marks.scoring = frozenset(scoring)
        return marks

    def closing_after(self, view: State, action: Action) -> set[int]:
        """The hexes of the regions ``action`` would close; notes what they would give."""
        try:
            after, events = self.game.apply(view, action)
        except RulesError as e:
            self.preview_note = _("does not fit: {reason}").format(reason=say_refusal(e))
            self.preview_refused = True
            return set()
        hexes: set[int] = set()
        notes = []
        labels = [_("P{n}").format(n=s + 1) for s in range(view.players)]
        for event in events:
            if event[0] != "closed":
                continue
            region = list(event[2])
            hexes.update(region)
            terrain = after.terrain[region[0]]
            what = _("points") if terrain == D.CITY else _(D.RESOURCE_NAMES[terrain])
            got = region_yield(after, region)
            gains = ", ".join(f"{labels[s]} +{n}" for s, n in got.items()) or _("nobody next to it")
            notes.append(_("closes {terrain} {hexes}: {what} {gains}").format(
                terrain=_(D.TERRAIN_NAMES[terrain]), hexes=" ".join(hex_name(h) for h in region), what=what,
                gains=gains))
        self.preview_note = _("; ").join(notes)
        return hexes

    def info(self, view: State, legal: list[Action], labels: list[str]) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        seat = self.acting_seat
        turn = labels[view.current] if 0 <= view.current < len(labels) else "?"
        text.append(_("Turn {n}").format(n=view.turn + 1) + f" · {turn} · {_(view.phase)}", style="bold")
        waiting = _("the game is over") if self.controller.is_over() else _("wait for your turn")
        text.append("\n" + (_hint(SHORT_HINTS, view.phase) if seat is not None else waiting), style="dim")
        slot = self.chosen_tile(view)
        if self.castle_mode:
            text.append("\n" + _("Placing a castle (c: back to the tile)"), style="bold")
        elif slot is not None and view.cards.ids[slot] is not None:
            face = face_text(D.DOUBLE_TILES[view.cards.ids[slot] - D.TILE_BASE])
            if self.anchor is not None:
                said = _("Tile {face} at {hex} {direction}").format(face=face, hex=hex_name(self.anchor),
                                                                  direction=DIRECTIONS[self.direction])
            else:
                said = _("Tile {face}").format(face=face)
            text.append("\n" + said)
        else:
            text.append("\n" + (_("No double tile in hand (drawn at turn end)") if view.phase not in ("place", "over")
                                else _("No double tile in hand")))
        if self.card:
            part = D.CARDS[self.card[1]][0 if self.card[2] == "spell" else 1]
            text.append(" · " + _("chosen: {card}").format(card=part), style="bold")
        if self.monument_mode:
            text.append(" · " + _("monument: click a building slot"), style="bold")
        text.append(f"\n{self.preview_note}", style=f"bold {ALARM if self.preview_refused else CAUTION}")
        monuments = (ngettext("{n} monument, top {top}", "{n} monuments, top {top}", len(view.monuments)).format(
            n=len(view.monuments), top=view.monuments[-1]) if view.monuments else _("no monument"))
        text.append("\n" + (_("Leader next (l)") if self.leader else _("Figure next (l)")) + f" · {monuments}",
                    style="dim")
        deck, tiles = len(view.piles['deck']), len(view.piles['tiles'])
        text.append("\n" + ngettext("Deck {n} card", "Deck {n} cards", deck).format(n=deck) + " · "
                    + ngettext("{n} double tile left", "{n} double tiles left", tiles).format(n=tiles), style="dim")
        text.append(f"\n{describe_hex(view, self.cursor, labels)}")
        return text

    def buttons(self, view: State, legal: list[Action]) -> frozenset[str]:
        kinds = {a[0] for a in legal}
        out = {"cancel"} if (self.anchor is not None or self.card or self.castle_mode or self.monument_mode
                             or self.source is not None) else set()
        if "tile" in kinds:
            out |= {"rotate", "tile"} if len(self.my_tiles(view)) > 1 else {"rotate"}
        if "castle" in kinds:
            out.add("castle")
        if "figure" in kinds or view.phase == "card":
            out.add("leader")
        for kind in ("monument", "pass", "skip"):
            if kind in kinds:
                out.add(kind)
        return frozenset(out)

    def redraw(self) -> None:
        self.refresh_board(self.view())

    def status_text(self) -> str:
        text = super().status_text()
        if self.acting_seat is None:
            return text
        return _("{status}: {hint}").format(status=text, hint=_hint(HINTS, self.view().phase))

    def refuse(self, reason: str) -> None:
        self.show_status(_("Refused: {reason}").format(reason=reason), error=True)

    def matching(self, legal: list[Action], kind: str) -> list[Action]:
        """The legal actions of ``kind`` for the chosen card (any copy of its design)."""
        design = D.card_design(self.card[1]) if self.card else -1
        return [a for a in legal if a[0] == kind and D.card_design(a[2]) == design]

    # -- the map
    def on_hex_map_cursor_moved(self, message: HexMap.CursorMoved) -> None:
        h = message.hex
        if self.anchor is not None and h in NEIGHBOURS[self.anchor]:
            d = STEP[self.anchor].index(h)
            if (self.anchor, d) in self.tile_positions(self.legal()):
                self.direction = d
        self.redraw()

    def on_hex_map_turned(self, message: HexMap.Turned) -> None:
        if any(a[0] == "tile" for a in self.legal()):
            self.action_rotate()

    def on_hex_map_clicked(self, message: HexMap.Clicked) -> None:
        self.on_hex(message.hex)

    def on_hex(self, h: int) -> None:
        seat = self.acting_seat
        if seat is None:
            self.play(())  # says whose turn it is
            return
        view = self.view()
        legal = self.legal()
        phase = view.phase
        if phase == "place":
            self.place_on(view, legal, h)
        elif phase in ("figure", "terrain_figure"):
            self.figure_on(view, legal, h, "take" if phase == "figure" else None)
        elif phase == "terrain":
            self.act(("single", h))
        elif phase == "elf":
            self.elf_on(legal, h)
        elif phase == "card" and self.card and self.card[2] == "spell":
            self.spell_on(legal, h)
        else:
            self.refuse(_("nothing to do on {hex} now: {hint}").format(hex=hex_name(h), hint=_hint(HINTS, phase)))
        self.redraw()

    def place_on(self, view: State, legal: list[Action], h: int) -> None:
        if self.castle_mode:
            self.act(("castle", h))
            return
        slot = self.chosen_tile(view)
        if slot is None:
            self.refuse(_("you hold no double tile: place a castle (c) or pass (p)"))
            return
        ident = view.cards.ids[slot]
        positions = self.tile_positions(legal)
        if self.anchor is not None:
            if h == self.anchor:
                self.act(("tile", slot, ident, h, self.direction))
                return
            if h in NEIGHBOURS[self.anchor]:
                d = STEP[self.anchor].index(h)
                if (self.anchor, d) in positions or not any(p[0] == h for p in positions):
                    self.act(("tile", slot, ident, self.anchor, d))
                    return
        dirs = [d for d in range(6) if (h, d) in positions]
        if not dirs:
            self.anchor = None
            self.play(("tile", slot, ident, h, self.direction))  # the engine says why not
            return
        self.anchor = h
        if self.direction not in dirs:
            self.direction = dirs[0]
        self.show_status(_("Tile on {hex} {direction}: click it again (Enter) to place it so, or a neighbour to place "
                           "it pointing there; r rotates").format(hex=hex_name(h), direction=DIRECTIONS[self.direction]))

    def figure_on(self, view: State, legal: list[Action], h: int, take: str | None) -> None:
        choices = [a for a in legal if a[0] == "figure" and a[1] == h]
        if choices:
            self.act(self.with_leader(choices))
        elif take and (take, h) in legal:
            self.act((take, h))
        else:
            self.play(("figure", h, self.leader))

    def with_leader(self, choices: list[Action]) -> Action:
        """The choice with the leader if asked for (l), else the plain figure if there is one."""
        wanted = [a for a in choices if a[-1] is self.leader]
        return (wanted or choices)[0]

    def elf_on(self, legal: list[Action], h: int) -> None:
        if self.source is None or h == self.source:
            if self.source is None and any(a[0] == "move" and a[1] == h for a in legal):
                self.source = h
                self.show_status(_("Moving the figure on {hex}: click where it goes").format(hex=hex_name(h)))
            elif self.source is None:
                self.play(("move", h, h))
            else:
                self.source = None
            return
        self.act(("move", self.source, h))

    def spell_on(self, legal: list[Action], h: int) -> None:
        slot, ident, _part = self.card
        spell = D.CARDS[ident][0]
        matches = self.matching(legal, "spell")
        if spell == "Teleport":
            if self.source is None:
                if any(a[3] == h for a in matches):
                    self.source = h
                    self.show_status(_("Teleport from {hex}: click where the figure goes").format(hex=hex_name(h)))
                else:
                    self.play(("spell", slot, ident, h, h))
                return
            self.act(("spell", slot, ident, self.source, h))
            return
        if spell in TARGET_FIGURE:
            choices = [a for a in matches if a[3] == h]
            if choices:
                self.act(("spell", slot, ident) + self.with_leader(choices)[3:])
            else:
                self.play(("spell", slot, ident, h, self.leader))
            return
        self.refuse(_("{spell} takes no hex").format(spell=spell))

    # -- the hand, the market, the buildings
    def on_hand_card_chosen(self, message: HandCard.Chosen) -> None:
        card = message.card
        if card.slot is None or card.ident is None:
            return
        if self.acting_seat is None:
            self.play(())
            return
        slot, ident = card.slot, card.ident
        view = self.view()
        legal = self.legal()
        self.clear_intent()
        self.card = (slot, ident, message.part)
        if message.part == "spell":
            spell = D.CARDS[ident][0]
            if view.phase != "card" or spell in NO_TARGET or not self.matching(legal, "spell"):
                self.card = None
                self.play(("spell", slot, ident))  # played, or the engine's reason
            elif spell == "Acquire":
                self.show_status(_("Acquire: click the market card you take (or its number)"))
            else:
                self.show_status(_("{spell} ({help}): click its target on the map (◇)").format(
                    spell=spell, help=_(SPELL_HELP[spell])))
        else:
            indexes = [a[3] for a in self.matching(legal, "build")]
            row = view.buildings[self.viewer]
            if len(indexes) == 1 or not indexes:
                self.card = None
                index = indexes[0] if indexes else (row.index(-1) if -1 in row else 0)
                self.play(("build", slot, ident, index))
            else:
                self.show_status(_("{building}: click the building slot (highlighted)").format(building=D.CARDS[ident][1]))
        self.redraw()

    def on_piece_picked(self, message: Piece.Picked) -> None:
        piece = message.piece
        if isinstance(piece, TileCard):
            self.tile_slot = piece.slot
            self.castle_mode = False
        elif isinstance(piece, MarketCard):
            self.market_chosen(piece.slot)
        elif isinstance(piece, BuildingSlot):
            self.slot_chosen(piece.index)
        self.redraw()

    def market_chosen(self, slot: int | None) -> None:
        if slot is None:
            return
        if self.card and self.card[2] == "spell" and D.CARDS[self.card[1]][0] == "Acquire":
            self.act(("spell", self.card[0], self.card[1], slot))
        else:
            self.act(("buy", slot))

    def slot_chosen(self, index: int) -> None:
        if self.card and self.card[2] == "building":
            self.act(("build", self.card[0], self.card[1], index))
        elif self.monument_mode:
            self.act(("monument", index))
        else:
            self.refuse(_("choose a building in your hand first (bottom half of a card), or m for a monument"))

    # -- buttons and keys
    def on_button_pressed(self, event: Button.Pressed) -> None:
        key = (event.button.id or "").removeprefix("btn-")
        handler = getattr(self, f"action_{'next_tile' if key == 'tile' else key}", None)
        if handler is not None:
            handler()

    def action_rotate(self) -> None:
        legal = self.legal()
        if self.anchor is None:
            dirs = [d for h, d in self.tile_positions(legal) if h == self.cursor]
            if not dirs:
                self.refuse(_("no turn of the tile fits at {hex}").format(hex=hex_name(self.cursor)))
                return
            self.anchor = self.cursor
        dirs = sorted(d for h, d in self.tile_positions(legal) if h == self.anchor)
        if dirs:
            self.direction = next((d for d in dirs if d > self.direction), dirs[0])
        self.redraw()

    def action_next_tile(self) -> None:
        tiles = self.my_tiles(self.view())
        if tiles:
            i = tiles.index(self.tile_slot) if self.tile_slot in tiles else -1
            self.tile_slot = tiles[(i + 1) % len(tiles)]
        self.castle_mode = False
        self.redraw()

    def action_castle(self) -> None:
        self.castle_mode = not self.castle_mode
        self.anchor = None
        self.redraw()

    def action_leader(self) -> None:
        self.leader = not self.leader
        self.show_status(_("Figures now placed: the leader") if self.leader else _("Figures now placed: a figure"))
        self.redraw()

    def action_monument(self) -> None:
        self.card = None
        self.monument_mode = not self.monument_mode
        if self.monument_mode and not any(a[0] == "monument" for a in self.legal()):
            self.monument_mode = False
            view = self.view()
            row = view.buildings[self.viewer] if self.viewer is not None else []
            index = next((i for i, b in enumerate(row) if 0 <= b < MONUMENT), 0)
            self.play(("monument", index))  # the engine says why not
        self.redraw()

    def action_number(self, index: int) -> None:
        """1-5: a building slot while building or covering with a monument, else a market card."""
        if (self.card and self.card[2] == "building") or self.monument_mode:
            self.slot_chosen(index)
        else:
            market = sorted(self.view().piles["market"])
            if index >= len(market):
                self.refuse(_("the market has no card {n}").format(n=index + 1))
                return
            self.market_chosen(market[index])
        self.redraw()

    def action_pass(self) -> None:
        self.act(("pass",))

    def action_skip(self) -> None:
        self.act(("skip",))

    def action_cancel(self) -> None:
        if self.anchor is not None or self.card or self.castle_mode or self.monument_mode or self.source is not None:
            self.clear_intent()
            self.show_game_status()
            self.redraw()
            return
        self.action_leave()

    def _handed_over(self, seat: int) -> None:
        self.clear_intent()
        self.tile_slot = None
        super()._handed_over(seat)
