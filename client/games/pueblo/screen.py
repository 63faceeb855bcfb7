"""The Pueblo game screen: the pueblo from above, the chieftain's track, what he sees.

Everything works by mouse and by keyboard:

- placing a stone: the stone in hand follows the pointer (or the arrow-key
  cursor) with its tall cell under it, and is previewed on the board, green
  where it would rest, red where it would not (with the engine's reason
  under the board). The wheel, ``r`` and ``f`` turn it; ``c`` / ``n`` (or a
  click on the chips) choose the coloured or the neutral stone. A click (or
  Enter) places it exactly as previewed;
- moving the chieftain: the 4 spaces he can reach are numbered on the track
  and listed with the penalty each would give, per seat. Click a numbered
  space or a row, or press 1-4 (or arrows and Enter);
- dismantling: the stone on top of the pointed cell is outlined; click or Enter;
- advanced decisions: sacred sites by the same pointer (an L of 3 cells),
  bids and cards from the list of moves (or typed, as everywhere).

An intent the rules refuse is not played: the engine's reason goes to the
status line. Penalties are shown as printed (fewest wins), not negated.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, OptionList
from textual.geometry import Region
from textual.widgets.option_list import Option
from rich.text import Text

from lanterne.client.controller import GameController
from lanterne.client.game_terms import variant_name
from lanterne.client.i18n import N_, _, ngettext, say_refusal
from lanterne.client.games.pueblo.panels import (ChiefPanel, HotText, PenaltyBoard, SideView, StonePanel, chief_text,
                                                 chip, column_text, penalties_text, side_view_text)
from lanterne.client.games.pueblo.widgets import (CELL_H, CELL_W, CHIEF, FAMILY_NAMES, ILLEGAL_STYLE, LEGAL_STYLE,
                                                  ORDER, BoardPicture, Overlay, PuebloBoard, SEAT_INK, box_for,
                                                  family_of, footprint_overlay, next_family, space_name, stone_sketch,
                                                  top_style, turn, wheel)
from lanterne.client.screens.game import GameScreen, NetworkPart
from lanterne.client.theme import Pueblo
from lanterne.client.widgets.scrolling import scroll_to_part
from lanterne.engines.core import Action, RulesError, State
from lanterne.engines.pueblo.view import (BID, COLOURS, MOVE, OVER, PICK, PLACE, REMOVE, SITE, SIZE, TEMPLATE_INDEX,
                                          TEMPLATES, TRACK, chief_options, footprint, side_view)

KIND_NAMES = {"C": N_("coloured"), "N": N_("neutral")}
LISTED_PHASES = (BID, PICK)
"""Phases played from the list of moves (or typed)."""


class Preview:
    """The action the pointer would play now, how it looks on the board, and whether the rules allow it."""

    def __init__(self, action: Action, overlay: dict[int, Overlay], legal: bool, reason: str | None,
                 words: str):
        self.action = action
        self.overlay = overlay
        self.legal = legal
        self.reason = reason
        self.words = words


class PuebloScreen(GameScreen):
    CSS_PATH = "pueblo.tcss"  # every style of this game, next to this module; the colours come from the theme
    MOUSE_HELP = N_(
        'Point at the board: the stone in hand is previewed there (green: it fits, red: the reason it does '
        "not); the wheel turns it; a click places it. In the chieftain's phase click a numbered space of the "
        'track (or press 1-4).')

    BINDINGS = [
        Binding("enter,space", "act", N_("Place / move")),
        Binding("r", "turn(1)", N_("Turn stone")),
        Binding("R", "turn(-1)", N_("Turn back"), show=False),
        Binding("f", "family", N_("Flip")),
        Binding("c", "kind('C')", N_("Coloured")),
        Binding("n", "kind('N')", N_("Neutral")),
        Binding("d", "drop", N_("Set aside"), show=False),
        Binding("up", "cursor(0, 1)", show=False),
        Binding("down", "cursor(0, -1)", show=False),
        Binding("left", "cursor(-1, 0)", show=False),
        Binding("right", "cursor(1, 0)", show=False),
    ] + [Binding(str(n), f"chief({n})", N_("Move {n}").format(n=n), show=False) for n in (1, 2, 3, 4)]


    def __init__(self, controller: GameController, network: NetworkPart | None = None):
        super().__init__(controller, network)
        self.orient = ORDER[0]
        self.cursor = (3, 3)
        self.kind: str | None = None
        self.hot_space: int | None = None
        self.hot_move: int | None = None
        self._view: State | None = None
        self._legal: set[Action] = set()
        self._side_title = ""

    # -- layout
    def compose_board(self) -> ComposeResult:
        with Vertical(id="pueblo-area"):
            with Horizontal(id="pueblo-top"):
                yield PuebloBoard(id="pueblo-board")
                with Vertical(id="pueblo-right"):
                    yield Label(_("Chieftain: move 1-4 (key or click)"), classes="panel-title", id="chief-title")
                    yield ChiefPanel(id="pueblo-chief")
                    yield Label(_("What he sees"), classes="panel-title", id="side-title")
                    yield SideView(id="pueblo-side")
            yield StonePanel(id="pueblo-stone")
            yield OptionList(id="moves")

    def compose_info(self) -> ComposeResult:
        yield PenaltyBoard(id="pueblo-penalties")

    async def on_mount(self) -> None:
        """Penalties (fewest wins) replace the generic negated scores. Runs before GameScreen.on_mount."""
        scores = self.query_one("#scores")
        scores.display = False
        side = self.query_one("#game-side")
        side.query(Label).first().update(_("Penalties (fewest wins)"))
        if not self.query(PenaltyBoard):  # a base screen without compose_info
            await side.mount(PenaltyBoard(id="pueblo-penalties"), after=scores)
        variant = getattr(self.controller, "variant", "standard")
        self.sub_title = f"Pueblo ({variant_name(variant)}) — {self.controller.mode}"

    def score_words(self) -> list[str]:
        return [_("{n} pen.").format(n=-score) for score in self.controller.scores()]

    def focus_default(self) -> None:
        for moves in self.query("#moves").results(OptionList):     # (none: the screen closed before it mounted)
            (moves if moves.display else self.query_one(PuebloBoard)).focus()

    # -- what is shown
    @property
    def phase(self) -> str | None:
        return self._view.phase if self._view is not None else None

    def kinds(self) -> list[str]:
        """The stones the seat on screen may place now (lone stone, begun block), from its legal moves."""
        return sorted({a[1] for a in self._legal if a[0] in ("place", "drop")})

    def refresh_game(self) -> None:
        """Read the new position first: the status line's hint needs the legal moves."""
        self._view = self.view()
        seat = self.acting_seat
        self._legal = set(self.controller.legal_actions(seat)) if seat is not None else set()
        super().refresh_game()

    def refresh_board(self, view: State) -> None:
        self._view = view
        seat = self.acting_seat
        kinds = self.kinds()
        if kinds and self.kind not in kinds:
            self.kind = kinds[0]
        if view.phase != MOVE:
            self.hot_move = None
        moves = self.query_one("#moves", OptionList)
        listed = seat is not None and view.phase in LISTED_PHASES
        moves.display = listed
        self._actions = sorted(self._legal, key=lambda a: (a[0] != "pass", a)) if listed else []
        moves.clear_options()
        if listed:
            moves.add_options([Option(self.controller.format(seat, a)) for a in self._actions])
            moves.highlighted = 0
            if self.app.focused is None or isinstance(self.app.focused, PuebloBoard):
                moves.focus()
        elif self.app.focused is moves:
            self.query_one(PuebloBoard).focus()
        self.redraw()

    def redraw(self) -> None:
        """Draw the pointer-dependent parts: board, stone in hand, chieftain's choices, side view."""
        view = self._view
        if view is None:
            return
        preview = self.preview()
        self._draw_board(view, preview)
        self._draw_stone(view, preview)
        self._draw_chief(view, preview)
        self._draw_side(view)
        self._draw_penalties(view)

    def _options_on_track(self, view: State) -> dict[int, int]:
        if self.acting_seat is None or view.phase != MOVE:
            return {}
        return {opt.space: opt.steps for opt in chief_options(view)}

    def _draw_board(self, view: State, preview: Preview | None) -> None:
        tops = tuple((view.owners[stack[-1]], stack[-1]) if stack else None for stack in view.stacks)
        sites = frozenset(c for site in view.sites for c in site)
        options = self._options_on_track(view)
        hot = self.hot_space
        if hot is None and self.hot_move is not None:
            hot = next((s for s, n in options.items() if n == self.hot_move), None)
        pointing = self.acting_seat is not None and view.phase in (PLACE, SITE, REMOVE)
        overlay = {c: Overlay(_("new"), top_style(*tops[c]) if tops[c] else f"bold {Pueblo.NEW}")
                   for c in self.changed_cells()}  # the stones the others placed since your move
        overlay.update(preview.overlay if preview else {})
        picture = BoardPicture(tuple(view.heights), tops, sites, view.chief, options, hot, overlay,
                               self.cursor[1] * SIZE + self.cursor[0] if pointing else None)
        self.query_one(PuebloBoard).show(picture)

    def changed_cells(self) -> frozenset[int]:
        """The cells of the stones the other players placed since the seat on screen last played."""
        out: set[int] = set()
        for entry in self.others_since_my_move():
            for e in entry.events:
                if e and e[0] == "place" and len(e) > 5:
                    template = TEMPLATE_INDEX.get((e[3], e[4], e[5]))
                    if template is not None:
                        out.update(template.cells)
        return frozenset(out)

    def _draw_stone(self, view: State, preview: Preview | None) -> None:
        seat = self.acting_seat
        text = Text(no_wrap=True, overflow="crop")
        regions: list = []
        shown = seat if seat is not None else (view.seat if view.phase in (PLACE, MOVE, REMOVE) else None)
        if shown is not None:
            text.append(f"{self.controller.seats[shown].label} ", style="bold")
            text.append(_(COLOURS[shown]), style=f"bold {SEAT_INK[shown]}")
            text.append("  " + _("stone: "))
            kinds = self.kinds()
            for k in ("C", "N"):
                left = view.coloured[shown] if k == "C" else view.neutral[shown]
                chip(text, regions, 0, f"{k} {_(KIND_NAMES[k])} ×{left}", k, k == self.kind and seat is not None,
                     k in kinds)
            if any(a[0] == "drop" for a in self._legal):
                chip(text, regions, 0, _("d set it aside: it fits nowhere"), "drop", False, True)
        sketch = stone_sketch(self.orient)
        fam = family_of(self.orient)
        for n, line in enumerate(sketch):
            text.append("\n")
            text.append_text(line)
            if n == 0:
                text.append(" " + _("{family}, turn {n}/4").format(family=_(FAMILY_NAMES[fam]),
                                                                   n=ORDER.index(self.orient) % 4 + 1), style="bold")
            else:
                text.append(" " + _("r / wheel turn · f flip · arrows · Enter or click"), style="dim")
        text.append("\n")
        text.append_text(column_text(view, *self.cursor))
        text.append("\n")
        if preview is not None:
            text.append(preview.words + ": ", style="bold")
            if preview.legal:
                text.append(_("fits"), style=LEGAL_STYLE)
            else:
                text.append(_("refused: {reason}").format(reason=say_refusal(preview.reason)), style=ILLEGAL_STYLE)
        self.query_one(StonePanel).set(text, regions)

    def _draw_chief(self, view: State, preview: Preview | None) -> None:
        active = self.acting_seat is not None and view.phase == MOVE
        state, note = view, ""
        if view.phase == PLACE and preview is not None and preview.legal:
            try:
                state, _outcome = self.game.apply(view, preview.action)
                note = _("penalties after this stone")
            except RulesError:
                state = view
        elif not active:
            note = _("moves after the stone") if view.phase == PLACE else ""
        text, regions = chief_text(view.chief, chief_options(state), self.hot_move if active else None,
                                   active, note)
        self.query_one(ChiefPanel).set(text, regions)

    def side_space(self, view: State) -> int:
        """The space whose view is shown: the one pointed at, the highlighted move, or the chieftain's."""
        if self.hot_space is not None:
            return self.hot_space
        if view.phase == MOVE and self.hot_move is not None:
            return (view.chief + self.hot_move) % TRACK
        return view.chief

    def _draw_side(self, view: State) -> None:
        space = self.side_space(view)
        title = (_("What he sees (his space)") if space == view.chief
                 else _("What he sees from {space}").format(space=space_name(space)))
        label = self.query_one("#side-title", Label)
        if title != self._side_title:  # a new label text means a new layout: only when it changes
            self._side_title = title
            label.update(title)
        self.query_one(SideView).set(side_view_text(view.heights, view.stacks, view.owners, space,
                                                    side_view(view, space), view.players))

    def _draw_penalties(self, view: State) -> None:
        c = self.controller
        over = view.phase == OVER
        w = c.waiting
        reserves = [(view.coloured[p], view.neutral[p], 2 * view.held[p]) for p in range(view.players)]
        text = penalties_text([s.label for s in c.seats], self.game.penalties(view), reserves,
                              w.seat if not over else None, self.game.winners(view) if over else [])
        for board in self.query(PenaltyBoard):
            board.set(text)

    # -- the action under the pointer
    def preview(self) -> Preview | None:
        view = self._view
        if view is None or self.acting_seat is None:
            return None
        if view.phase == PLACE and self.kind is not None:
            x, y = box_for(self.orient, *self.cursor)
            fp = footprint(view, self.orient, x, y)
            action: Action = ("place", self.kind, self.orient, x, y)
            legal = fp.legal and action in self._legal
            reason = fp.reason if not fp.legal else (None if legal else self._reason(action))
            overlay = footprint_overlay(fp.cells, legal)
            words = self.controller.format(self.acting_seat, action)
            if fp.base is not None:
                words += " " + _("on level {n}").format(n=fp.base + 1)
            return Preview(action, overlay, legal, reason, words)
        if view.phase == SITE:
            x, y = box_for(self.orient, *self.cursor)
            cells = tuple(sorted(TEMPLATE_INDEX[self.orient, x, y].cells))
            action = ("site",) + cells
            legal = action in self._legal
            style = LEGAL_STYLE if legal else ILLEGAL_STYLE
            return Preview(action, {c: Overlay(_("site"), style) for c in cells}, legal,
                           None if legal else self._reason(action), self.controller.format(self.acting_seat, action))
        if view.phase == REMOVE:
            c = self.cursor[1] * SIZE + self.cursor[0]
            if not view.heights[c]:
                return None
            stone = view.stones[view.stacks[c][-1]]
            t = TEMPLATE_INDEX[stone[1], stone[2], stone[3]]
            action = ("remove", t.tall)
            legal = action in self._legal
            style = LEGAL_STYLE if legal else ILLEGAL_STYLE
            return Preview(action, {cc: Overlay(_("lift"), style) for cc in t.cells}, legal,
                           None if legal else self._reason(action), self.controller.format(self.acting_seat, action))
        return None

    def _reason(self, action: Action) -> str:
        """The engine's own words for why ``action`` is refused now."""
        try:
            self.game.apply(self._view, action)
        except RulesError as e:
            return say_refusal(e)
        return _("not a legal move now")

    # -- pointer
    def on_pueblo_board_pointed(self, message: PuebloBoard.Pointed) -> None:
        before = (self.hot_space, self.cursor, self.hot_move)
        self.hot_space = message.space
        if message.cell is not None:
            self.cursor = message.cell
        options = self._options_on_track(self._view) if self._view is not None else {}
        if message.space in options:
            self.hot_move = options[message.space]
        if message.click:
            if message.cell is not None:
                self.act_at_cursor()
            elif message.space is not None:
                self.click_space(message.space, options)
        if message.click or (self.hot_space, self.cursor, self.hot_move) != before:
            self.redraw()

    def on_pueblo_board_turned(self, message: PuebloBoard.Turned) -> None:
        self.orient = wheel(self.orient, message.step)
        self.redraw()

    @on(HotText.Clicked, "#pueblo-chief")
    def _chief_clicked(self, message: HotText.Clicked) -> None:
        self.action_chief(message.key)

    @on(HotText.Hovered, "#pueblo-chief")
    def _chief_hovered(self, message: HotText.Hovered) -> None:
        if self.phase == MOVE and message.key != self.hot_move and message.key is not None:
            self.hot_move = message.key
            self.redraw()

    @on(HotText.Clicked, "#pueblo-stone")
    def _stone_clicked(self, message: HotText.Clicked) -> None:
        if message.key == "drop":
            self.action_drop()
        else:
            self.action_kind(message.key)

    def click_space(self, space: int, options: dict[int, int]) -> None:
        if space in options:
            self.action_chief(options[space])
        elif self.phase == MOVE and self.acting_seat is not None:
            reason = _("the chieftain moves 1 to 4 spaces clockwise; {space} is not one of the numbered spaces")
            self.show_status(_("Refused: {reason}").format(reason=reason.format(space=space_name(space))), error=True)

    def act_at_cursor(self) -> None:
        """Play what the pointer previews (a stone, a site, a removal), or say why not."""
        preview = self.preview()
        if preview is not None:
            self.play(preview.action)
            return
        if self.phase == REMOVE:  # an empty cell: the engine says so
            self.play(("remove", self.cursor[1] * SIZE + self.cursor[0]))
            return
        x, y = box_for(self.orient, *self.cursor)  # not the time for a stone: the engine says why
        self.play(("place", self.kind or "C", self.orient, x, y))

    # -- keys
    def action_act(self) -> None:
        if self.phase == MOVE and self.acting_seat is not None:
            if self.hot_move is None:
                self.show_status(_("Choose a move: 1-4, or arrows then Enter"), error=True)
                return
            self.action_chief(self.hot_move)
            return
        self.act_at_cursor()

    def action_chief(self, steps: int) -> None:
        self.play(("move", steps))

    def action_cursor(self, dx: int, dy: int) -> None:
        self.hot_space = None
        if self.phase == MOVE and self.acting_seat is not None:
            step = dx or dy
            self.hot_move = ((self.hot_move or (0 if step > 0 else 5)) + step - 1) % 4 + 1
        else:
            x, y = self.cursor
            self.cursor = (min(max(x + dx, 0), SIZE - 1), min(max(y + dy, 0), SIZE - 1))
            x, y = self.cursor  # the keyboard's cursor stays in view on a small terminal
            scroll_to_part(self.query_one(PuebloBoard),
                           Region((x + 1) * CELL_W - 2, (SIZE - 1 - y) * CELL_H, CELL_W * 3, CELL_H * 2 + 1))
        self.redraw()

    def action_turn(self, step: int) -> None:
        self.orient = turn(self.orient, step)
        self.redraw()

    def action_family(self) -> None:
        self.orient = next_family(self.orient)
        self.redraw()

    def action_kind(self, kind: str) -> None:
        if self.acting_seat is not None and self.phase == PLACE and kind not in self.kinds():
            t = TEMPLATES[0]
            self.show_status(_("Refused: {reason}").format(reason=self._reason(('place', kind, t.orient, t.x, t.y))),
                             error=True)
            return
        self.kind = kind
        self.redraw()

    def action_drop(self) -> None:
        self.play(("drop", self.kind or "C"))

    # -- words
    def status_text(self) -> str:
        if self.controller.is_over():
            return self.result_text()
        text = super().status_text()
        seat = self.acting_seat
        view = self._view if self._view is not None else self.view()
        if seat is None:
            return text
        colour = _(COLOURS[seat])
        if view.phase == PLACE:
            kinds = _(" or ").join(_(KIND_NAMES[k]) for k in self.kinds())
            return _("{status} ({colour}): place a {kinds} stone — point, turn (r, wheel), click").format(
                status=text, colour=colour, kinds=kinds)
        if view.phase == MOVE:
            return _("{status} ({colour}): move the chieftain {chief} 1-4 — click a numbered space or press 1-4").format(
                status=text, colour=colour, chief=CHIEF)
        if view.phase == REMOVE:
            return _("{status} ({colour}): take a stone off — click it (yours or a neutral one)").format(
                status=text, colour=colour)
        if view.phase == SITE:
            return _("{status} ({colour}): place a sacred site (an L of 3 cells) — point, turn, click").format(
                status=text, colour=colour)
        if view.phase in LISTED_PHASES:
            return _("{status} ({colour}): turn-order auction — choose from the list or type (bid 3, pass, card 2)"
                     ).format(status=text, colour=colour)
        return text

    def result_text(self) -> str:
        """The result in penalty points (fewest wins), not the engine's negated scores."""
        view = self.controller.view(None)
        pens = self.game.penalties(view)
        best = self.game.winners(view)
        names = _(" and ").join(self.controller.seats[i].label for i in best)
        said = ngettext("Game over: {names} wins with {n} penalty points (fewest)",
                        "Game over: {names} share the win with {n} penalty points (fewest)", len(best))
        return said.format(names=names, n=pens[best[0]])

    def score_table(self) -> str:
        pens = self.game.penalties(self.controller.view(None))
        return "\n".join(_("{player} ({colour}): {n} penalty points").format(player=s.label, colour=_(COLOURS[s.index]), n=p)
                         for s, p in zip(self.controller.seats, pens))
