"""The Pacal's Rocket game screen: the city map, the die, the players, choices.

Everything works by mouse and by keyboard. The cells a click may choose are
highlighted: the ship's destinations with this roll, the free cells of the
sacred district at the start, the cells a pyramid may go on. Click one (or
move the cursor with the arrow keys and press Enter). Choices that are no
cell (how many stones, which energy piece, which constellation, pass) are a
numbered list under the map: click one, or press its number. Divine stones
also go by clicking ships: one ship, then a second (or the same again for a
single stone). A build choice
shows the points it scores at once and, highlighted on the map, its
constellation. A click the rules refuse plays nothing; the engine's reason
appears in the status line.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer, Vertical
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from lanterne.client.controller import GameController
from lanterne.client.game_terms import variant_name
from lanterne.client.i18n import N_, _, ngettext
from lanterne.client.games.pacal.widgets import (Marks, PacalMap, PacalPanel, die_text, legend_text, players_text,
                                                 water_text)
from lanterne.client.screens.game import GameScreen, NetworkPart
from lanterne.client.widgets.scrolling import scroll_to_part
from lanterne.engines.core import Action, State
from lanterne.engines.pacal.view import ARROWS, build_choices, cell_name, reachable

PLACE, MOVE, STONES, BUILD = "place", "move", "stones", "build"
"""The phases of PacalState.phase in which the seat on screen decides something."""

REGULAR = ("straight", "turn", "arrow")
STONES_AFTER = {"straight": 2, "arrow": 2, "turn": 1, "energy": 1, "relocate": 0}
WAY_WORDS = (N_("straight"), N_("turn"), N_("arrow"), N_("relocate"))
"""How a ship moves (the engine's words, said with ``_``)."""


def _stones(n: int) -> str:
    return ngettext("{n} stone", "{n} stones", n).format(n=n)
MAX_CHOICES = 300


@dataclass(frozen=True)
class Choice:
    """One line of the numbered list: what it says and what choosing it does."""

    label: str
    action: Action | None = None
    """Played when chosen; None: ``then`` says what happens."""
    then: tuple = ()
    """('energy', value): pick the cell next; ('stones', own, other, short): pick stones to take back."""
    points: int | None = None
    cells: tuple[int, ...] = ()
    at: int | None = None


def visible_stones(view: State, seat: int) -> list[int]:
    """The cells with a stone of ``seat`` that no ship stands on (the rules' "visible" stones)."""
    bits, ships = view.stones[seat], set(view.ships)
    return [c for c in range(len(view.pyramid_owner)) if bits >> c & 1 and c not in ships]


class PacalScreen(GameScreen):
    CSS_PATH = "pacal.tcss"  # every style of this game, next to this module; the colours come from the theme
    MOUSE_HELP = N_(
        'Click a highlighted cell of the city (where your ship may go, or where a pyramid may be built); '
        'click a choice in the list (or press its number) when a click could mean several moves; to take '
        'stones back, click them on the map.')

    BINDINGS = [
        Binding("escape", "escape", N_("Cancel / leave")),
        Binding("m", "focus_map", N_("Map"), show=False),
    ] + [Binding(str(n), f"choose({n - 1})", N_("Choice {n}").format(n=n), show=False) for n in range(1, 10)]

    COMPACT_WIDTH = 140  # the city is 95 columns: beside a side panel it needs 140

    def __init__(self, controller: GameController, network: NetworkPart | None = None):
        super().__init__(controller, network)
        self.teleport: int | None = None
        """The energy piece chosen: the next cell clicked is where the ship goes."""
        self.taking: tuple | None = None
        """(own, other, short): the stones to take back are being picked on the map."""
        self.taken: list[int] = []
        self.ship_pick: int | None = None
        """Stones: the seat whose ship was clicked first (a second click says where the other stone goes)."""
        self.only_cell: int | None = None
        """Build choices shown for this cell only (after a click that fits several)."""
        self.question: list[Choice] | None = None
        """A question a click raised (straight or turning to the same cell)."""
        self.choices: list[Choice] = []
        self.targets: frozenset[int] = frozenset()
        self.notes: dict[int, str] = {}
        self.preview: Choice | None = None
        self._shown: tuple[str, ...] = ()
        self._scrolled_to: frozenset[int] = frozenset()

    # -- layout
    def compose_board(self) -> ComposeResult:
        with Vertical(id="pacal-board"):
            yield PacalPanel(Text(), id="pacal-die")
            with ScrollableContainer(id="pacal-map-scroll"):  # the map scrolls; the die and choices stay
                yield PacalMap(id="pacal-map")
            yield PacalPanel(legend_text(), id="pacal-legend")
            yield Label(_("Choices (click or press the number)"), id="pacal-choices-title")
            yield OptionList(id="pacal-choices")

    def compose_info(self) -> ComposeResult:
        yield Label(_("Players"), classes="panel-title")
        yield PacalPanel(Text(), id="pacal-players")
        yield Label(_("Storeys by the water (river, lake)"), classes="panel-title")
        yield PacalPanel(Text(), id="pacal-water")

    def focus_default(self) -> None:
        self.query_one(PacalMap).focus()

    def on_mount(self) -> None:
        super().on_mount()
        variant = getattr(self.controller, "variant", "standard")
        self.sub_title = f"Pacal's Rocket ({variant_name(variant)}) — {self.controller.mode}"

    # -- what the seat on screen may do now
    @property
    def labels(self) -> list[str]:
        return [s.label for s in self.controller.seats]

    def reset_intent(self) -> None:
        self.teleport = self.taking = self.only_cell = self.question = self.preview = self.ship_pick = None
        self.taken = []

    def plan(self, view: State) -> tuple[list[Choice], frozenset[int]]:
        """The numbered choices and the cells to click now."""
        seat = self.acting_seat
        if seat is None or view.pending is not None:
            return [], frozenset()
        if self.question is not None:
            return self.question, frozenset()
        legal = self.controller.legal_actions(seat)
        if view.phase == PLACE:
            return [], frozenset(a[1] for a in legal)
        if view.phase == MOVE:
            return self.move_plan(view, seat, legal)
        if view.phase == STONES:
            return self.stones_plan(view, seat, legal)
        if view.phase == BUILD:
            return self.build_plan(view, seat)
        return [], frozenset()

    def move_plan(self, view: State, seat: int, legal: list[Action]) -> tuple[list[Choice], frozenset[int]]:
        if self.teleport is not None:
            cells = frozenset(a[2] for a in legal if a[0] == "energy" and a[1] == self.teleport)
            return [Choice(_("cancel the energy piece (Escape)"), then=("cancel",))], cells
        ways = reachable(view, seat)
        regular = frozenset(c for c, w in ways.items() if any(x in REGULAR or x == "relocate" for x in w))
        values = sorted({a[1] for a in legal if a[0] == "energy"})
        forced = not regular
        said = (_("energy piece {n}: the ship is surrounded: teleport to any free cell, then 1 stone") if forced
                else _("energy piece {n}: teleport to any free cell, then 1 stone"))
        choices = [Choice(said.format(n=v), then=("energy", v)) for v in values]
        return choices, regular

    def stones_plan(self, view: State, seat: int, legal: list[Action]) -> tuple[list[Choice], frozenset[int]]:
        if self.taking is not None:
            cells = frozenset(visible_stones(view, seat)) - frozenset(self.taken)
            return [Choice(_("cancel (Escape)"), then=("cancel",))], cells
        plans: dict[tuple, list[Action]] = {}
        for a in legal:
            plans.setdefault((a[1], a[2]), []).append(a)
        choices = []
        for (own, other), acts in plans.items():
            words = ([_("your own ship")] if own else []) + (
                [_("{player}'s ship").format(player=self.labels[other])] if other is not None else [])
            if not words:
                label = _("no stone")
            elif len(words) == 1:
                label = _("a stone into {ship}").format(ship=words[0])
            else:
                label = _("a stone into {ship} and one into {other}").format(ship=words[0], other=words[1])
            short = len(acts[0][3])
            if short and len(acts) > 1:
                choices.append(Choice(_("{choice} (take back {n} of your visible stones first: click them)").format(
                    choice=label, n=short), then=("stones", own, other, short)))
            else:
                take = (" " + _("(taking back {cells})").format(cells=" ".join(cell_name(c) for c in acts[0][3]))
                        if short else "")
                choices.append(Choice(label + take, acts[0]))
        seats = {seat for own, _ in plans if own} | {other for _, other in plans if other is not None}
        return choices, frozenset(view.ships[s] for s in seats)

    def build_plan(self, view: State, seat: int) -> tuple[list[Choice], frozenset[int]]:
        options = build_choices(view, seat)
        targets = frozenset(a[2] for a, _ in options)
        shown = [(a, p) for a, p in options if self.only_cell is None or a[2] == self.only_cell]
        choices = [Choice(_("pass: build nothing"), ("pass",))]
        for a, pts in shown[:MAX_CHOICES]:
            if a[0] == "upgrade":
                said = ngettext("upgrade to {n} storey on {cell} with {cells}", "upgrade to {n} storeys on {cell} with {cells}",
                                a[1])
            else:
                said = ngettext("build {n} storey on {cell} with {cells}", "build {n} storeys on {cell} with {cells}", a[1])
            label = (said.format(n=a[1], cell=cell_name(a[2]), cells=" ".join(cell_name(c) for c in a[3])) + ": "
                     + ngettext("+{n} point", "+{n} points", pts).format(n=pts))
            choices.append(Choice(label, a, points=pts, cells=a[3], at=a[2]))
        return choices, targets

    def target_notes(self, view: State) -> dict[int, str]:
        """On each cell to click: the stones a move there allows, or the best points a build there scores."""
        seat = self.acting_seat
        if view.phase == MOVE and self.teleport is None:
            notes = {}
            for c, ways in reachable(view, seat).items():
                counts = sorted({STONES_AFTER[w] for w in ways if w in REGULAR or w == "relocate"}, reverse=True)
                if c in self.targets and counts:
                    notes[c] = "/".join("·" * n if n else "0" for n in counts)
            return notes
        if view.phase == MOVE:
            return {c: "·" for c in self.targets}
        if view.phase == PLACE:
            return {c: "◇" for c in self.targets}
        if view.phase == STONES and self.taking is not None:
            return {c: _("take") for c in self.targets}
        if view.phase == BUILD:
            best: dict[int, int] = {}
            for a, pts in build_choices(view, seat):
                best[a[2]] = max(best.get(a[2], 0), pts)
            return {c: f"+{p}" for c, p in best.items()}
        return {}

    # -- drawing
    def refresh_game(self) -> None:
        self.update_plan(self.view())  # the status line speaks of the choices and cells of now
        super().refresh_game()

    def update_plan(self, view: State) -> None:
        if self.acting_seat is None:
            self.reset_intent()
        self.choices, self.targets = self.plan(view)
        self.notes = self.target_notes(view) if self.targets else {}

    def refresh_board(self, view: State) -> None:
        self.update_plan(view)
        if self.preview is not None and self.preview not in self.choices:
            self.preview = None
        self.query_one("#pacal-die", PacalPanel).put(die_text(view, self.labels))
        self.query_one("#pacal-players", PacalPanel).put(players_text(view, self.labels))
        self.query_one("#pacal-water", PacalPanel).put(water_text(view))
        self.query_one("#pacal-legend", PacalPanel).put(legend_text())
        self.draw_map(view)
        self.fill_choices()
        if self.targets and self.targets != self._scrolled_to:  # new cells to click: bring them into view
            self._scrolled_to = self.targets
            self.call_after_refresh(self._scroll_to_targets, self.targets, 20)

    def _scroll_to_targets(self, targets: frozenset[int], tries: int) -> None:
        city = self.query_one(PacalMap)
        cells = sorted(targets)
        part = city.cell_region(cells[0])
        if len(cells) < 12:
            part = part.union(city.cell_region(cells[-1]))
        if not scroll_to_part(city, part, center=True) and tries:  # not laid out yet
            self.set_timer(0.05, lambda: self._scroll_to_targets(targets, tries - 1))

    def draw_map(self, view: State | None = None) -> None:
        view = view if view is not None else self.view()
        p = self.preview
        last = frozenset(e[4] if e[0] == "move" else e[2] for entry in self.others_since_my_move()
                         for e in entry.events if e and e[0] in ("move", "stone", "build")
                         and len(e) > (4 if e[0] == "move" else 2) and isinstance(e[4 if e[0] == "move" else 2], int))
        marks = Marks(targets=self.targets, last=last,
                      preview=frozenset(p.cells) if p and p.cells else frozenset(),
                      preview_at=p.at if p else None,
                      preview_note=f"+{p.points}" if p and p.points is not None else "",
                      selected=frozenset(self.taken) | self.picked_ship(), notes=self.notes)
        self.query_one(PacalMap).show(view, marks)

    def picked_ship(self) -> frozenset[int]:
        if self.ship_pick is None:
            return frozenset()
        return frozenset([self.view().ships[self.ship_pick]])

    def fill_choices(self) -> None:
        box = self.query_one("#pacal-choices", OptionList)
        shown = tuple(c.label for c in self.choices) or (self.idle_hint(),)
        if shown == self._shown:  # the same list: no new layout
            return
        self._shown = shown
        box.clear_options()
        if not self.choices:
            box.add_option(Option(Text(self.idle_hint(), style="dim"), disabled=True))
            return
        for n, choice in enumerate(self.choices, 1):
            key = f"{n}" if n < 10 else " "
            line = Text()
            line.append(f"{key} ", style="bold")
            line.append(choice.label)
            box.add_option(Option(line))
        if self.preview in self.choices:
            box.highlighted = self.choices.index(self.preview)

    def idle_hint(self) -> str:
        if self.acting_seat is None:
            return _("(nothing to choose now)")
        view = self.view()
        if view.phase == PLACE:
            return _("(click a highlighted cell of the sacred district for your ship)")
        return _("(click a highlighted cell)")

    def status_text(self) -> str:
        text = super().status_text()
        seat = self.acting_seat
        if seat is None:
            return text
        view = self.view()
        if self.question is not None:
            return _("{status}: two ways to that cell: choose one (1-{n})").format(status=text, n=len(self.question))
        if view.phase == PLACE:
            return _("{status}: put your ship on a free cell of the sacred district (highlighted)").format(status=text)
        if view.phase == MOVE:
            if self.teleport is not None:
                return _("{status}: energy piece {n}: click a free cell for the ship (Escape cancels)").format(
                    status=text, n=self.teleport)
            if not self.targets:
                return _("{status}: the ship is surrounded: choose an energy piece (1-{n})").format(
                    status=text, n=len(self.choices))
            said = _("{status}: move your ship: click a highlighted cell (·· then 2 stones, · 1 stone)").format(
                status=text)
            if self.choices:
                said += _(", or use an energy piece (1-{n})").format(n=len(self.choices))
            return said
        if view.phase == STONES:
            if self.taking is not None:
                return _("{status}: click {n} more of your visible stones to take back").format(
                    status=text, n=self.taking[2] - len(self.taken))
            if self.ship_pick is not None:
                whose = (_("your own ship") if self.ship_pick == seat
                         else _("{player}'s ship").format(player=self.labels[self.ship_pick]))
                return _("{status}: a stone into {ship}: click another ship for the second stone, "
                         "or the same ship again for just this one (Escape cancels)").format(status=text, ship=whose)
            return _("{status}: divine stones: click the ships or choose (1-{n})").format(status=text,
                                                                                          n=len(self.choices))
        if view.phase == BUILD:
            return _("{status}: build: click a highlighted cell or choose (1 = pass)").format(status=text)
        return text

    def refuse(self, reason: str) -> None:
        self.show_status(_("Refused: {reason}").format(reason=reason), error=True)

    # -- what clicks and keys mean
    def on_pacal_map_clicked(self, message: PacalMap.Clicked) -> None:
        self.on_cell(message.cell)

    def on_pacal_map_cursor_moved(self, message: PacalMap.CursorMoved) -> None:
        view = self.view()
        seat = self.acting_seat
        if seat is None or self.question is not None:
            return
        if view.phase == MOVE and self.teleport is None and message.cell in self.targets:
            ways = [w for w in reachable(view, seat).get(message.cell, []) if w in REGULAR or w == "relocate"]
            said = _(" or ").join(_("{way} (then {stones})").format(way=_(w), stones=_stones(STONES_AFTER[w]))
                                  for w in ways)
            self.show_status(_("{cell}: {ways} — click or Enter to go").format(cell=cell_name(message.cell), ways=said))
            return
        if view.phase != BUILD:
            return
        here = [c for c in self.choices if c.at == message.cell]
        if here and self.preview not in here:
            self.preview = max(here, key=lambda c: (c.points or 0, len(c.cells)))
            self.draw_map(view)
            self.show_status(_("{choice} (click or Enter: choose here)").format(choice=self.preview.label))
            self.query_one("#pacal-choices", OptionList).highlighted = self.choices.index(self.preview)

    def on_cell(self, c: int) -> None:
        seat = self.acting_seat
        if seat is None:
            self.play(())  # says whose turn it is
            return
        view = self.view()
        if self.question is not None:
            self.refuse(_("first choose one of the two ways (1-{n}), or Escape").format(n=len(self.question)))
            return
        if view.phase == PLACE:
            self.act(("place", c))
        elif view.phase == MOVE:
            self.move_to(view, seat, c)
        elif view.phase == STONES:
            self.stone_cell(view, seat, c)
        elif view.phase == BUILD:
            self.build_on(view, seat, c)

    def move_to(self, view: State, seat: int, c: int) -> None:
        if self.teleport is not None:
            self.act(("energy", self.teleport, c))
            return
        ways = reachable(view, seat).get(c, [])
        regular = [w for w in ways if w in REGULAR]
        if "relocate" in ways:
            self.act(("relocate", c))
        elif len(regular) == 1:
            self.act(("move", regular[0], c))
        elif regular:
            self.question = [Choice(_("{way} to {cell}, then {stones}").format(way=_(w), cell=cell_name(c),
                                                                               stones=_stones(STONES_AFTER[w])),
                                    ("move", w, c)) for w in regular]
            self.refresh_game()
        elif not self.targets:
            self.refuse(_("the ship is surrounded: choose an energy piece first (1-{n})").format(n=len(self.choices)))
        else:  # the engine says why not
            self.act(("move", "arrow" if view.face == ARROWS else "straight", c))

    def stone_cell(self, view: State, seat: int, c: int) -> None:
        if self.taking is not None:
            if c in self.targets:
                self.taken.append(c)
                own, other, short = self.taking
                if len(self.taken) == short:
                    self.act(("stones", own, other, tuple(sorted(self.taken))))
                else:
                    self.refresh_game()
                return
            self.refuse(_("{cell} holds no visible stone of yours").format(cell=cell_name(c)))
            return
        who = view.ship_at(c)
        if who < 0:
            self.refuse(_("choose where the stones go in the list (1-{n}), or click a ship").format(n=len(self.choices)))
            return
        if view.allowance >= 2 and self.ship_pick is None:
            self.ship_pick = who  # a second ship may follow; the same one again puts just this stone
            self.refresh_game()
            return
        picked = {who} if self.ship_pick in (None, who) else {who, self.ship_pick}
        if len(picked) == 2 and seat not in picked:
            self.ship_pick = None
            self.draw_map(view)
            self.refuse(_("with two stones, one goes into your own ship and one into another player's"))
            return
        own = seat in picked
        other = next((p for p in picked if p != seat), None)
        self.ship_pick = None
        match = next((ch for ch in self.choices if ch.action and ch.action[1:3] == (own, other)
                      or ch.then[:3] == ("stones", own, other)), None)
        if match is None:
            self.act(("stones", own, other, ()))  # the engine says why not
        else:
            self.take_choice(match)

    def build_on(self, view: State, seat: int, c: int) -> None:
        here = [ch for ch in self.choices if ch.at == c]
        if self.only_cell is not None and self.only_cell != c:
            self.only_cell = None
            here = [ch for ch in self.plan(view)[0] if ch.at == c]
        if len(here) == 1:
            self.take_choice(here[0])
        elif here:
            if self.only_cell == c and self.preview in here:
                self.take_choice(self.preview)
                return
            self.only_cell = c
            self.preview = max(here, key=lambda ch: (ch.points or 0, len(ch.cells)))
            self.refresh_game()
            self.show_status(_("{n} pyramids fit on {cell}: choose one (2-{last}), or click again for the highlighted one"
                               ).format(n=len(here), cell=cell_name(c), last=len(here) + 1))
        else:
            self.act(("build", 1, c, (c,)))  # the engine says why not

    def take_choice(self, choice: Choice) -> None:
        if choice.action is not None:
            self.act(choice.action)
            return
        kind = choice.then[0] if choice.then else ""
        if kind == "cancel":
            self.action_escape()
        elif kind == "energy":
            self.teleport = choice.then[1]
            self.refresh_game()
        elif kind == "stones":
            self.taking = choice.then[1:]
            self.taken = []
            self.refresh_game()

    def play_listed(self, action: Action) -> None:
        self.act(action)

    def forget_half_move(self) -> None:
        self.reset_intent()

    def act(self, action: Action) -> bool:
        """Play ``action``; the intent is cleared when it is played, kept when it is refused."""
        if self.play(action):
            self.reset_intent()
            return True
        return False

    def action_choose(self, index: int) -> None:
        if self.acting_seat is None:
            self.play(())
            return
        if not 0 <= index < len(self.choices):
            self.refuse(_("no choice {n} now (1-{last})").format(n=index + 1, last=len(self.choices)) if self.choices
                        else _("no choice {n} now: click a cell on the map").format(n=index + 1))
            return
        self.take_choice(self.choices[index])

    @on(OptionList.OptionSelected, "#pacal-choices")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.choices):
            self.take_choice(self.choices[event.option_index])

    @on(OptionList.OptionHighlighted, "#pacal-choices")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.choices):
            choice = self.choices[event.option_index]
            if choice.at is not None and choice is not self.preview:
                self.preview = choice
                self.draw_map()

    def action_focus_map(self) -> None:
        self.query_one(PacalMap).focus()

    def action_escape(self) -> None:
        if any(x is not None for x in (self.teleport, self.taking, self.only_cell, self.question, self.ship_pick)):
            self.reset_intent()
            self.refresh_game()
            return
        self.action_leave()

    def _handed_over(self, seat: int) -> None:
        self.reset_intent()
        super()._handed_over(seat)
        ship = self.view().ships[seat]
        if ship is not None:  # the keyboard starts from the player's own ship
            self.query_one(PacalMap).move_cursor(ship)


__all__ = ["PacalScreen", "Choice"]
