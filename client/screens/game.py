"""The game screen for any game, through the engine contract alone.

It shows the scores, the move log, a status line that always says whose
turn it is, the legal moves of the seat on screen (click or Enter to play
one) and a command line for the move notation (``Game.parse_action``). Game
screens with a board widget (Pagode...) subclass it and replace
:meth:`GameScreen.compose_board` and :meth:`GameScreen.refresh_board`.

Hot-seat: when the turn passes from one person at this keyboard to another,
a "pass the keyboard" dialog hides the board; the view on screen is always
the view of one seat (``viewer``), never the full state.

A network game is the same screen composed with a :class:`NetworkPart`
(``client/screens/network.py``): its banner, its early end, its way to leave.
"""

from __future__ import annotations

from time import monotonic
from typing import Callable, Protocol

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Label, OptionList
from textual.widgets.option_list import Option

from lanterne.client.games import client_side
from lanterne.client.i18n import N_, _, ngettext, say_refusal, seat_tag, translate_bindings
from lanterne.client.controller import COMPUTER, HUMAN, REMOTE, Change, GameController
from lanterne.client.seat_clocks import SeatClocks
from lanterne.client.screens.dialogs import ConfirmScreen, GameOverScreen, HandoffScreen
from lanterne.client.screens.moves import MovesScreen, move_words
from lanterne.client.widgets.chat import CHAT_BINDING, ChatInput
from lanterne.client.widgets.clocks import COMPACT_WIDTH, COMPACT_WIDTH_WITH_MOVE_CLOCK, ClockPanel
from lanterne.client.widgets.move_input import MoveInput
from lanterne.client.widgets.move_log import MoveLog, public_notation, said
from lanterne.client.widgets.score_chart import ScoreChart
from lanterne.client.widgets.scoreboard import ScoreBoard
from lanterne.client.widgets.status_line import StatusLine
from lanterne.client.widgets.text_panel import TextPanel
from lanterne.client.turn_bell import TurnBell
from lanterne.client.window_title import title_for
from lanterne.engines.core import Action, RulesError, State

MAX_LISTED = 400

MIN_SIZE = (80, 24)
"""Below this the boards do not fit: the screen says so instead of drawing half a board."""
COMPACT_BELOW = (110, 28)
"""Narrower or lower than this, the side panel (scores, facts, move log) is a toggle (F2), not a column."""


class NetworkPart(Protocol):
    """What a game screen played over the network composes (:class:`client.screens.network.NetworkSide`)."""

    def show(self, screen: "GameScreen") -> None:
        """Draw the network's part (the link banner) after the screen drew the game."""

    def early_end(self) -> str:
        """One line if the game stopped early (a claim, a replaced seat, a cheat), else ""."""

    def leave(self, screen: "GameScreen") -> None:
        """Leave the game (Escape), the network's way: pause or resign."""

    def toggle_chat(self) -> None:
        """Show or hide the table chat (F3)."""

    def offers_rematch(self, screen: "GameScreen") -> bool:
        """Whether the game-over dialog offers a rematch (every seat is asked)."""

    def rematch(self, screen: "GameScreen") -> None:
        """Ask every seat for a rematch; the new table replaces this screen once all agree."""

    def decline_rematch(self, screen: "GameScreen") -> None:
        """The game-over dialog was closed without a rematch: the others hear no."""


def game_screen_for(controller: GameController, network: NetworkPart | None = None) -> "GameScreen":
    """The best screen for the controller's game (with ``network``'s part for a network game)."""
    side = client_side(controller.game.id)
    if side is not None:
        return side.screen(controller, network)
    return GameScreen(controller, network)


class GameChanged(Message):
    def __init__(self, change: Change):
        super().__init__()
        self.change = change


class GameScreen(Screen):
    """Any game, playable by its move notation and its list of legal moves."""

    BINDINGS = [
        Binding("escape", "leave", N_("Leave")),
        CHAT_BINDING,      # early: an 80-column footer shows its first keys only, and a network game needs it
        Binding("colon", "command", N_("Type a move"), priority=True),  # priority: taken before the keys after it
        Binding("u", "undo", N_("Undo")),     # early too: in a local game's 80-column footer, a click takes back
        Binding("ctrl+r", "rules", N_("Rules")),
        Binding("f2", "toggle_side", N_("Scores/log")),
        # priority: "?" lists the moves from the board and from the move line alike (help is F1)
        Binding("question_mark", "legal_moves", N_("Legal moves"), priority=True),
        Binding("f4", "hint", N_("Hint")),
    ]

    MOUSE_HELP = "Click a move in the list to play it."
    """How the board is played by mouse, for the help screen (F1)."""

    COMPACT_WIDTH = 0
    """A wide board's screen sets the width below which its side panel becomes a toggle (F2)."""

    def __init__(self, controller: GameController, network: NetworkPart | None = None):
        super().__init__()
        self.controller = controller
        self.network = network
        """A network game's part (banner, early end, leaving); None for a local game."""
        self.game = controller.game
        local = controller.local_seats
        self.hot_seat = len(local) > 1
        self.viewer: int | None = local[0] if len(local) == 1 else None
        self._handoff_open = False
        self._started = False
        self._over_shown = False
        self._bell = TurnBell()
        self._actions: list[Action] = []
        self.clock: Callable[[], float] = monotonic
        """What the seats' clocks read (a test advances its own)."""
        self.clocks = SeatClocks(len(controller.seats), self.clock())
        self.hint_seed: str | None = None
        """The hint's search seed (None: by chance; a test fixes it, and the search then plays all its tries)."""

    # -- layout
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="game-body"):
            with Vertical(id="game-main"):
                yield from self.compose_board()
            with Vertical(id="game-side"):
                yield Label(_("Scores"), classes="panel-title")
                yield ScoreBoard(id="scores")
                yield ClockPanel(id="clocks")
                yield from self.compose_info()
                yield Label(_("Moves"), classes="panel-title")
                yield MoveLog(id="move-log")
        yield TextPanel("", id="too-small")
        with Horizontal(id="compact-row"):
            yield TextPanel("", id="compact-bar")
            yield ClockPanel(compact=True, id="clock-line")
        yield StatusLine("", id="status")
        yield MoveInput(placeholder=_(": type a move (? lists the legal moves)"), compact=True, id="command")
        yield Footer()

    def compose_board(self) -> ComposeResult:
        yield Label(_("Your legal moves (click or Enter to play)"), classes="panel-title", id="moves-title")
        yield OptionList(id="moves")

    def compose_info(self) -> ComposeResult:
        """Game facts under the scores (none for the generic screen)."""
        return iter(())

    def on_mount(self) -> None:
        # Textual calls every on_mount up the class chain, and a board screen's own on_mount calls
        # this one too: without the guard each screen ran two controller loops and listened twice
        # (every change drawn twice; two computer loops raced and played moves on a stale view).
        if self._started:
            return
        self._started = True
        for widget in self.query("*"):        # a board's pieces have keys of their own (a card, a cell)
            translate_bindings(widget)
        self.sub_title = f"{self.game.name} — {self.controller.mode}"
        self.fit_to(self.app.size)
        self.clocks = SeatClocks(len(self.controller.seats), self.clock())
        self.query_one("#clock-line").styles.width = (
            COMPACT_WIDTH_WITH_MOVE_CLOCK if self.controller.has_move_clock else COMPACT_WIDTH)
        self.controller.subscribe(self._on_change)
        self.run_worker(self._drive(), group="controller", exit_on_error=False)
        self.refresh_game()
        self.check_turn()
        self.focus_default()
        self.set_interval(1.0, self.tick_clocks)

    def tick_clocks(self) -> None:
        """The clocks a second on (or after a move): only the two clock panels repaint, never the board."""
        w = self.controller.waiting
        now = self.clock()
        log = self.controller.log
        self.clocks.see(w.seat if w.kind in (HUMAN, COMPUTER, REMOTE) else None, now,
                        (len(log), log[-1].actor if log else None))
        for panel in self.query(ClockPanel):
            panel.show(self.controller, self.clocks, now)

    def focus_default(self) -> None:
        """The move list (none if the screen was closed before it mounted: a game that ended at once)."""
        for moves in self.query("#moves"):
            moves.focus()

    def set_focus(self, widget, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        """A board larger than its window (a map on a small terminal) keeps its scroll when focused:
        Textual would scroll to its top-left corner, away from the cells the board scrolled to."""
        if getattr(widget, "KEEP_SCROLL_ON_FOCUS", False):
            scroll_visible = False
        super().set_focus(widget, scroll_visible=scroll_visible, from_app_focus=from_app_focus)

    def help_text(self) -> str:
        """The help for this game (F1): its keys, read from the screen's own bindings, and its mouse."""
        rows = []
        seen = set()
        for key, bindings in self._bindings.key_to_bindings.items():
            for binding in bindings:
                words = binding.description or binding.action.split("(")[0].replace("_", " ")
                if (key, words) in seen or binding.action.startswith("app.") \
                        or self.check_action(binding.action, ()) is False:
                    continue            # a key this game does not offer (F3 Chat in a local game)
                seen.add((key, words))
                rows.append(f"| {self.app.get_key_display(binding)} | {_(words)} |")
        keys = "\n".join(rows)
        return (_("# {game}: keys and mouse").format(game=self.game.name) + "\n\n"
                + _("**Mouse.** {mouse}").format(mouse=_(self.MOUSE_HELP)) + "\n\n"
                + _("| Key | What |") + f"\n|---|---|\n{keys}\n\n"
                + _("Every move can also be typed after `:` in the move notation (the rules screen, Ctrl+R, "
                    "has it); `?` lists the legal moves."))

    # -- sizes
    @property
    def compact(self) -> bool:
        """True when the side panel is a toggle (F2) rather than a column."""
        return self.has_class("-compact")

    def on_resize(self, event) -> None:
        self.fit_to(event.size)

    def fit_to(self, size) -> None:
        """Choose the layout for the terminal's size: full, compact, or a notice below 80x24."""
        width, height = size.width, size.height
        self.set_class(width < max(COMPACT_BELOW[0], self.COMPACT_WIDTH) or height < COMPACT_BELOW[1], "-compact")
        self.set_class(height < 30, "-short")  # a board may drop its legend, borders
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.set_class(small, "-too-small")
        if small:
            self.query_one("#too-small", TextPanel).set(Text(
                _("This terminal is {width}x{height}; the {game} table needs at least {need}.\nMake the "
                  "window larger (or the font smaller); the game goes on meanwhile.").format(
                    width=width, height=height, game=self.game.name, need=f"{MIN_SIZE[0]}x{MIN_SIZE[1]}"),
                style="bold"))

    def action_toggle_side(self) -> None:
        """Compact layout: show the scores, facts and move log instead of the board, or back."""
        if not self.compact:
            self.notify(_("The scores and the move log are on the right."), timeout=2)
            return
        self.toggle_class("-side")
        self.query_one("#compact-bar", TextPanel).set(self.compact_summary())
        if self.has_class("-side"):  # the latest moves in view: the log is at the panel's foot
            self.query_one(MoveLog).scroll_end(animate=False)
            self.query_one("#game-side").scroll_end(animate=False)
        else:
            self.focus_default()

    def score_words(self) -> list[str]:
        """Each seat's score as the compact line says it."""
        return [str(score) for score in self.controller.scores()]

    def compact_summary(self) -> Text:
        """One line for the compact layout: the scores, and where the side panel went."""
        text = Text(no_wrap=True, overflow="ellipsis")
        waiting = self.controller.waiting
        for seat, score in zip(self.controller.seats, self.score_words()):
            if seat.index:
                text.append(" · ", style="dim")
            style = "bold reverse" if waiting.seat == seat.index else "bold"
            text.append(f"{seat_tag(seat.index)} {seat.name}", style=style)
            text.append(f" {score}")
        text.append("  F2: ", style="dim")
        text.append(_("board") if self.has_class("-side") else _("log"), style="dim")
        others = self.others_since_my_move() or ([self.last_other_move()] if self.last_other_move() else [])
        if others:  # the log is out of sight: what the others did since your move, in words

            shown = None
            for entry in others:
                if entry.actor != shown:
                    shown = entry.actor
                    text.append("  │ ", style="dim")
                    text.append(f"{seat_tag(entry.actor)} ", style="bold")
                else:
                    text.append("; ", style="dim")
                text.append(said(self.controller, entry) or entry.text)
        return text

    def others_since_my_move(self) -> list:
        """The log entries of the other seats since the seat on screen last played (what changed
        on the board meanwhile: a board screen highlights it)."""
        out = []
        for entry in reversed(self.controller.log):
            if entry.actor == self.viewer and self.viewer is not None:
                break
            if entry.actor >= 0:
                out.append(entry)
        return out[::-1]

    def last_other_move(self):
        """The last log entry of a seat other than the one on screen (None: none yet)."""
        for entry in reversed(self.controller.log):
            if entry.actor >= 0 and entry.actor != self.viewer:
                return entry
        return None

    def on_unmount(self) -> None:
        if self.network is not None:
            self.network.decline_rematch(self)
        title = getattr(self.app, "window_title", None)
        if title is not None:
            title.show(self.app, title_for())
        self.controller.unsubscribe(self._on_change)
        self.controller.close()

    async def _drive(self) -> None:
        try:
            await self.controller.run()
        except Exception as e:  # shown in the app, never a traceback
            self.show_status(_("The game stopped: {name}: {e}").format(name=type(e).__name__, e=e), error=True)

    def _on_change(self, change: Change) -> None:
        self.post_message(GameChanged(change))

    def on_game_changed(self, message: GameChanged) -> None:
        self.refresh_game()
        if message.change.error:
            self.show_status(message.change.error, error=True)
        elif message.change.undone is not None:
            line = message.change.undone
            self.show_status(_("Taken back: {move}").format(
                move=said(self.controller, line) or public_notation(line.text)))
        self.check_turn()

    # -- who is on screen
    @property
    def acting_seat(self) -> int | None:
        """The seat that may act from this screen now, if any."""
        w = self.controller.waiting
        if w.kind == HUMAN and w.seat == self.viewer and not self._handoff_open:
            return w.seat
        return None

    def view(self) -> State:
        return self.controller.view(self.viewer)

    def score_chart(self, width: int = 56):
        """Each seat's score over the game, for the game-over dialog (None if this screen keeps no chart)."""
        charts = list(self.query(ScoreChart))
        return charts[0].text(width) if charts and charts[0].points else None

    def check_turn(self) -> None:
        """Hand the keyboard over in hot-seat; show the result at the end; in a network game, ring when the
        turn comes back to you (client/turn_bell.py)."""
        w = self.controller.waiting
        told = getattr(getattr(self.app, "settings", None), "turn_bell", True)
        if self.network is not None and self._bell.passes(w.kind == HUMAN) and told:
            self.app.bell()
        self.show_window_title(told and w.kind == HUMAN and self.controller.local_seats == [w.seat])
        if w.kind == "over":
            if not self._over_shown and self in self.app.screen_stack:    # (a screen left meanwhile shows nothing)
                self._over_shown = True
                ended = self.network.early_end() if self.network is not None else ""
                if ended:  # Text, not str: names such as "[computer] Ann 1" are no markup
                    self.app.push_screen(GameOverScreen(Text(ended), Text(self.score_table()), self.score_chart(),
                                                        rematch=self.offers_rematch), self._after_game_over)
                    return
                if self.hot_seat:
                    self.viewer = None
                    self.refresh_game()
                self.app.push_screen(GameOverScreen(self.result_text(), self.score_table(), self.score_chart(),
                                                    rematch=self.offers_rematch), self._after_game_over)
            return
        if self.hot_seat and w.kind == HUMAN and w.seat != self.viewer and not self._handoff_open:
            self._handoff_open = True
            self.viewer = None
            self.refresh_game()
            seat = self.controller.seats[w.seat]
            self.app.push_screen(HandoffScreen(seat.label),
                                 lambda ready: self._handed_over(w.seat) if ready is not False else self._left())

    def show_window_title(self, your_turn: bool) -> None:
        """The terminal's title names the game, and says when it is your turn (client/window_title.py)."""
        title = getattr(self.app, "window_title", None)
        if title is not None:
            title.show(self.app, title_for(self.game.name, your_turn))

    def _handed_over(self, seat: int) -> None:
        self._handoff_open = False
        self.viewer = seat
        self.refresh_game()
        self.check_turn()
        self.focus_default()

    def _left(self) -> None:
        """Escape on the hand-off, confirmed: leave the game without showing anyone's hand."""
        if self.app.screen is self:
            self.app.pop_screen()

    @property
    def offers_rematch(self) -> bool:
        """A local game made from the setup (not a resumed one) can be dealt again; a network game played from
        the lobby too, once every seat agrees."""
        if self.network is not None:
            return self.network.offers_rematch(self)
        return getattr(self.controller, "rematch", None) is not None

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "home":       # (a network game's screen closed says no to a rematch)
            self.app.pop_screen()
        elif choice == "rematch" and self.network is not None:
            self.network.rematch(self)
        elif choice == "rematch" and self.offers_rematch:
            again = self.controller.rematch()    # type: ignore[attr-defined]
            self.controller.close()
            self.app.switch_screen(game_screen_for(again))

    def result_text(self) -> str:
        """The result, for the game-over dialog."""
        return self.controller.status()

    def score_table(self) -> str:
        return "\n".join(f"{s.label}: {v}" for s, v in zip(self.controller.seats, self.controller.scores()))

    # -- drawing
    def refresh_game(self) -> None:
        self.query_one(ScoreBoard).show(self.controller)
        self.query_one("#compact-bar", TextPanel).set(self.compact_summary())
        self.query_one(MoveLog).show(self.controller)
        self.show_game_status()
        self.refresh_board(self.view())
        self.tick_clocks()
        if self.network is not None:
            self.network.show(self)

    def show_game_status(self) -> None:
        """The status line: a network game that stopped early says so, else :meth:`status_text`."""
        ended = self.network.early_end() if self.network is not None else ""
        self.show_status(ended or self.status_text())

    def status_text(self) -> str:
        """Whose turn it is, for the status line (a board screen adds what to do)."""
        c = self.controller
        w = c.waiting
        text = c.status()
        if w.kind == HUMAN and self.viewer is not None and w.seat != self.viewer:
            text = _("{status} (not you: you are {player})").format(status=text, player=c.seats[self.viewer].label)
        elif w.kind == HUMAN and w.seat == self.viewer and len(c.local_seats) == 1:
            text = _("Your turn, {player}").format(player=c.seats[w.seat].label)
        elif w.kind == COMPUTER and self.viewer is not None:
            text = _("{status} Your seat: {player}").format(status=text, player=c.seats[self.viewer].label)
        return text

    def show_status(self, text: str, error: bool = False) -> None:
        self.query_one(StatusLine).show(text, error)

    def refresh_board(self, view: State) -> None:
        """Redraw the game area from the viewer's view (generic: the legal moves)."""
        seat = self.acting_seat
        moves = self.query_one("#moves", OptionList)
        self._actions = self.controller.legal_actions(seat)[:MAX_LISTED] if seat is not None else []
        moves.clear_options()
        if not self._actions:
            moves.add_option(Option(Text(_("(nothing to play now)"), style="dim"), disabled=True))
            return
        moves.add_options([Option(self.controller.format(seat, a)) for a in self._actions])
        moves.highlighted = 0

    # -- playing
    def play(self, action: Action) -> bool:
        """Submit an action for the seat on screen; the reason in the status line if refused."""
        w = self.controller.waiting
        seat = self.acting_seat
        if seat is None:
            if w.kind == "over":
                reason = _("the game is over")
            elif w.seat is not None and self.viewer is not None and w.seat != self.viewer:
                reason = _("it is {player}'s turn, not yours").format(player=self.controller.seats[w.seat].label)
            else:
                reason = _("wait: {status}").format(status=self.controller.status())
            self.show_status(_("Refused: {reason}").format(reason=reason), error=True)
            return False
        try:
            self.controller.submit(seat, action)
        except RulesError as e:
            self.show_status(_("Refused: {reason}").format(reason=say_refusal(e)), error=True)
            return False
        return True

    @on(OptionList.OptionSelected, "#moves")
    def _move_chosen(self, event: OptionList.OptionSelected) -> None:
        if 0 <= event.option_index < len(self._actions):
            self.play(self._actions[event.option_index])

    @on(Input.Submitted, "#command")
    def _command(self, event: Input.Submitted) -> None:
        """A typed move. The line is already empty (MoveInput); a refused move is given back."""
        text = event.value.strip().lstrip(":").strip()   # ":" opens the command line; typed again, it is no move
        if not text:
            return
        line = self.query_one("#command", MoveInput)
        seat = self.acting_seat
        if text in ("?", "help"):
            self.list_moves(seat)
            return
        if seat is None:
            self.play(())  # explains why nothing can be played now
            line.give_back(event.value)
            return
        try:
            action = self.controller.parse(seat, text)
        except RulesError as e:
            self.show_status(_("Not a move: {reason}").format(reason=e), error=True)
            line.give_back(event.value)
            return
        if not self.play(action):
            line.give_back(event.value)

    def list_moves(self, seat: int | None) -> None:
        """Every legal move of the seat on screen, in a scrollable list; the one chosen is played."""
        if seat is None:
            self.show_status(_("No move to play from this seat now: {status}").format(status=self.controller.status()),
                             error=True)
            return

        actions = self.controller.legal_actions(seat)
        view = self.view()
        labels = [s.label for s in self.controller.seats]
        moves = [(self.controller.format(seat, a), move_words(self.game, view, a, labels, seat)) for a in actions]
        count = len(moves)
        title = ngettext("{player}: {n} legal move", "{player}: {n} legal moves", count).format(
            player=self.controller.seats[seat].label, n=count)

        def chosen(index: int | None) -> None:
            if index is not None and self.acting_seat == seat:
                self.play_listed(actions[index])

        self.app.push_screen(MovesScreen(title, moves), chosen)

    def play_listed(self, action: Action) -> None:
        """A move chosen in the list of legal moves (a board screen also forgets its half-made move)."""
        self.play(action)

    def action_legal_moves(self) -> None:
        self.list_moves(self.acting_seat)

    # -- keys
    def action_command(self) -> None:
        # at once, not after a refresh (Widget.focus): the keys typed right after ":" go to the line
        line = self.query_one("#command", Input)
        if line.has_focus:   # ":" starts a new move here too: what is left in the line is replaced by what comes
            line.select_all()
        self.set_focus(line)

    def action_rules(self) -> None:
        from lanterne.client.screens.rules import RulesScreen  # Textual's Markdown viewer loads when the rules open

        self.app.push_screen(RulesScreen(self.game.id))

    def action_hint(self) -> None:
        """F4: what the computer would play here and why (client/hint.py); Enter in the dialog plays it."""
        seat = self.acting_seat
        think = getattr(self.controller, "think", None)
        if seat is None or think is None:
            self.show_status(_("No hint now: {status}").format(status=self.controller.status()), error=True)
            return
        self.show_status(_("The computer looks for a hint..."))
        self.run_worker(self._hint(seat, self._log_mark()), group="hint", exclusive=True, exit_on_error=False)

    def _log_mark(self) -> tuple:
        """The log's length and last line: another after a hint was asked for means another position (a
        length alone would not tell an undo followed by another action)."""
        log = self.controller.log
        return len(log), tuple(log[-1:])

    async def _hint(self, seat: int, moves: tuple) -> None:
        from lanterne.client.hint import hint_text

        try:
            action, text = await hint_text(self.controller, seat, self.hint_seed)
        except Exception as e:  # noqa: BLE001 - a hint that fails says so in one line
            self.show_status(_("No hint: {error}").format(error=e), error=True)
            return
        if self.acting_seat != seat or self._log_mark() != moves:
            return              # the game moved on meanwhile: the hint is for a position gone
        self.show_game_status()

        def answer(play: bool | None) -> None:
            if play and self.acting_seat == seat and self._log_mark() == moves:
                self.play_listed(action)

        self.app.push_screen(ConfirmScreen(Text(text + "\n\n" + _("Play it?"))), answer)    # Text: no markup

    def action_undo(self) -> None:
        """u: take back the last action of your turn under way (client/takeback.py; at a network table, ask the
        others: client/net_undo.py), or say in one line why not."""
        seat = self.acting_seat
        undo = getattr(self.controller, "undo", None)
        if undo is None:
            return
        if seat is None:
            self.show_status(_("Cannot undo: {reason}").format(reason=_("it is not your turn")), error=True)
            return
        try:
            undo(seat)      # the screen redraws when the change comes (on_game_changed says what was taken back)
        except RulesError as e:
            self.show_status(_("Cannot undo: {reason}").format(reason=say_refusal(e)), error=True)
            return
        self.forget_half_move()

    def forget_half_move(self) -> None:
        """After an undo: a board forgets the move it was putting together (the generic screen has none)."""

    def action_toggle_chat(self) -> None:
        if self.network is not None:
            self.network.toggle_chat()

    def check_action(self, action: str, parameters) -> bool | None:
        """F3 only in a network game; while the chat input has the cursor, ':' and '?' are letters of the
        message, not the board's keys."""
        if action == "toggle_chat" and self.network is None:
            return False
        if action == "hint" and self.network is not None:
            return False        # a network table's players think for themselves
        if action == "undo" and (not hasattr(self.controller, "undo") or self.network is not None
                                 and not getattr(self.controller, "offers_undo", False)):
            return False        # a network table whose host did not allow it takes back nothing (docs/client.md, "Undo")
        if action in ("command", "legal_moves") and isinstance(self.focused, ChatInput):
            return False
        return super().check_action(action, parameters)

    def action_leave(self) -> None:
        if self.network is not None:
            self.network.leave(self)
            return
        if self.controller.is_over():
            self.app.pop_screen()
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.app.pop_screen()

        where = (_("Leave this game? It is saved: the home screen resumes it.") if self.controller.saved
                 else _("Leave this game? It is not saved."))
        self.app.push_screen(ConfirmScreen(where), answer)

