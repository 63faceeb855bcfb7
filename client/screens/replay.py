"""The replay viewer: open a signed log, see its verdict, step through the game.

``ReplayScreen(path)`` opens a log at once; ``ReplayScreen()`` first asks for
one (a path to type, or the log folder as a tree). The log is read, never
written. It is replayed in a worker thread (a long game takes a second or
two), then verified by ``protocol.verify`` in another; the verdict stays on
screen, and ``v`` runs the verification again.

Keys: left/right one step, home/end the start and the end, ``g`` go to a step
by its number, a click (or Enter) on a step jumps there, ``v`` verify again,
``a`` every hand (after the audit of a finished game), ``b`` board or plain
view, ``o`` open another log, Escape back. Any failure is one line in the
status line, never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DirectoryTree, Footer, Header, Input, Label, OptionList, Static

from lanterne.client.i18n import N_, _, seat_tag
from lanterne.client.replay_model import (Replay, ReplayCursor, ReplayError, load_replay, saved_games, verify_log,
                                           why_not_a_log_file)
from lanterne.client.widgets.replay_board import ReplayBoard
from lanterne.client.widgets.replay_steps import ReplaySteps
from lanterne.client.widgets.score_chart import chart_text
from lanterne.client.widgets.status_line import StatusLine
from lanterne.engines.core import TABLE, Game
from lanterne.protocol.identity import home


def log_folder() -> Path:
    """Where Lanterne keeps game logs: ``games`` in the data folder (``lanterne host/join``)."""
    return home() / "games"


class GoToScreen(ModalScreen[int | None]):
    """Asks for a step number; dismisses with it, or None."""

    DEFAULT_CSS = """
    GoToScreen { align: center middle; }
    GoToScreen > Vertical { width: 50; height: auto; border: round $primary; background: $surface; padding: 1 2; }
    GoToScreen #goto-error { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, last: int):
        super().__init__()
        self.last = last

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(_("Go to step (0 to {last}), then Enter").format(last=self.last))
            yield Input(placeholder=f"0-{self.last}", id="goto-number", compact=True)
            yield Static("", id="goto-error")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        try:
            number = int(text)
        except ValueError:
            self.query_one("#goto-error", Static).update(_("{text!r} is not a step number").format(text=text))
            return
        if not 0 <= number <= self.last:
            self.query_one("#goto-error", Static).update(
                _("no step {number}: the steps are 0 to {last}").format(number=number, last=self.last))
            return
        self.dismiss(number)

    def action_cancel(self) -> None:
        self.dismiss(None)


class LogPickerScreen(ModalScreen[str | None]):
    """Choose a log: type its path, or pick it in the log folder."""

    DEFAULT_CSS = """
    LogPickerScreen { align: center middle; }
    LogPickerScreen > Vertical { width: 90%; height: 80%; border: round $primary; background: $surface;
                                 padding: 0 1; }
    LogPickerScreen #picker-error { color: $error; height: auto; }
    LogPickerScreen DirectoryTree { height: 1fr; }
    LogPickerScreen #picker-games { height: auto; max-height: 12; }
    """
    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, folder: Path | None = None):
        super().__init__()
        self.folder = folder or log_folder()

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(_("Open a game log: type its path and Enter, or choose it below"), classes="panel-title")
            yield Input(value=str(self.folder) + "/", id="picker-path", compact=True)
            yield Static("", id="picker-error")
            self.saved = saved_games(self.folder)
            if self.saved:
                yield Label(_("Your games, LAN and local, newest first (Enter or a click opens one)"),
                            classes="panel-title")
                yield OptionList(*[Text(g.line) for g in self.saved], id="picker-games")
            if self.folder.is_dir():
                yield DirectoryTree(self.folder, id="picker-tree")
            else:
                yield Static(_("No log folder yet ({folder}): every game, LAN or local, is saved there.").format(
                                 folder=self.folder),
                             classes="muted")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted, "#picker-path")
    def _typed(self, event: Input.Submitted) -> None:
        path = Path(event.value.strip()).expanduser()
        if path.is_dir():       # Enter on a folder (the field starts with one): show it, its logs to choose
            self._show_folder(path)
            return
        why = why_not_a_log_file(path)
        if why:
            self.query_one("#picker-error", Static).update(f"{path}: {why}")
            return
        self.dismiss(str(path))

    def _show_folder(self, folder: Path) -> None:
        """The folder's files in the tree below, and the keyboard there (the saved games' list first when
        the folder is the games' own)."""
        trees = self.query(DirectoryTree)
        if trees:
            tree = trees.first()
            tree.path = folder
        else:
            tree = DirectoryTree(folder, id="picker-tree")
            self.query_one(Vertical).mount(tree)
        self.query_one("#picker-error", Static).update(_("{folder}: a folder; choose a log in it below").format(
            folder=folder))
        games = self.query("#picker-games")
        (games.first() if games and folder.resolve() == self.folder.resolve() else tree).focus()

    @on(OptionList.OptionSelected, "#picker-games")
    def _game_chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(str(self.saved[event.option_index].log))

    @on(DirectoryTree.FileSelected)
    def _chosen(self, event: DirectoryTree.FileSelected) -> None:
        self.dismiss(str(event.path))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReplayScreen(Screen):
    """A replay of one log file: board, steps, verdict."""

    DEFAULT_CSS = """
    ReplayScreen #replay-body { height: 1fr; }
    ReplayScreen #replay-main { width: 1fr; }
    ReplayScreen #replay-side { width: 42; border-left: vkey $panel; }
    ReplayScreen #replay-title { height: auto; padding: 0 1; text-style: bold; }
    ReplayScreen #replay-step { height: auto; max-height: 4; padding: 0 1; color: $text-muted; }
    ReplayScreen #replay-verdict { height: auto; padding: 0 1; }
    ReplayScreen #replay-verdict.-ok { color: $success; }
    ReplayScreen #replay-verdict.-bad { color: $error; text-style: bold; }
    ReplayScreen #replay-players { height: auto; padding: 0 1; }
    ReplayScreen #replay-chart { height: auto; padding: 0 1; margin-top: 1; }
    """
    BINDINGS = [
        Binding("left", "step(-1)", N_("Back"), priority=True),
        Binding("right", "step(1)", N_("Forward"), priority=True),
        Binding("home", "first", N_("Start"), priority=True),
        Binding("end", "last", N_("End"), priority=True),
        Binding("g", "goto", N_("Go to")),
        Binding("v", "verify", N_("Verify")),
        Binding("a", "all_hands", N_("All hands")),
        Binding("b", "board", N_("Board/plain")),
        Binding("o", "open", N_("Open")),
        Binding("escape", "leave", N_("Back")),
    ]

    def __init__(self, path: str | Path | None = None, games: Callable[[str], Game] | None = None):
        super().__init__()
        self.path: str | None = str(path) if path is not None else None
        self.games = games
        self.replay: Replay | None = None
        self.cursor: ReplayCursor | None = None
        self.verdict: tuple[bool, str] | None = None
        self.all_hands = False
        self.board = True
        self.error: str | None = None

    # -- layout
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="replay-body"):
            with Vertical(id="replay-main"):
                yield Static("", id="replay-title")
                yield Static("", id="replay-step")
                yield ReplayBoard(id="replay-board")
            with Vertical(id="replay-side"):
                yield Label(_("Verdict"), classes="panel-title")
                yield Static("", id="replay-verdict")
                yield Label(_("Players (▶ to move)"), classes="panel-title")
                yield Static("", id="replay-players")
                yield Static("", id="replay-chart")
                yield Label(_("Steps (click to jump)"), classes="panel-title")
                yield ReplaySteps(id="replay-steps")
        yield StatusLine("", id="replay-status")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = _("Replay")
        if self.path is None:
            self.show_status(_("Choose a log to replay (o opens the picker again)"))
            self.app.push_screen(LogPickerScreen(), self._picked)
        else:
            self.open(self.path)

    def _picked(self, path: str | None) -> None:
        if path is not None:
            self.open(path)
        elif self.replay is None and self.path is None:
            self.app.pop_screen()

    # -- loading
    def open(self, path: str) -> None:
        """Read and replay ``path`` in a worker thread; then verify it."""
        self.path = path
        self.replay, self.cursor, self.verdict, self.all_hands, self.error = None, None, None, False, None
        self.sub_title = _("Replay") + f" — {Path(path).name}"
        self.query_one("#replay-title", Static).update(_("Reading {path} ...").format(path=path))
        self.query_one("#replay-verdict", Static).update("waiting for the replay")
        self.query_one(ReplaySteps).clear_options()
        self.show_status(_("Replaying {path} ...").format(path=path))
        self._load(path)

    @work(thread=True, exclusive=True, group="replay-load", exit_on_error=False)
    def _load(self, path: str) -> None:
        try:
            replay: Replay | None = load_replay(path, games=self.games)
            error = None
        except ReplayError as e:
            replay, error = None, str(e)
        except Exception as e:  # noqa: BLE001 - a replay bug is one line, never a traceback
            replay, error = None, f"{path}: the replay failed: {type(e).__name__}: {str(e)[:200]}"
        self.app.call_from_thread(self._loaded, path, replay, error)
        if replay is not None:
            self.app.call_from_thread(self.action_verify)

    def _loaded(self, path: str, replay: Replay | None, error: str | None) -> None:
        if path != self.path:
            return
        if replay is None:
            self.error = error
            self.query_one("#replay-title", Static).update(Text(_("Cannot replay: {error}").format(error=error), style="bold"))
            self.query_one("#replay-verdict", Static).update(_("not verified: the file is not a replayable log"))
            self.query_one(ReplayBoard).show(None, None, [], empty=_("Press o to open another log."))
            self.show_status(error or "", error=True)
            return
        self.replay = replay
        self.cursor = ReplayCursor(replay)
        self.query_one(ReplaySteps).show_replay(replay)
        self.query_one("#replay-title", Static).update(Text(replay.summary(), style="bold"))
        self.refresh_position()
        if replay.problem:
            self.show_status(_("The replay stops early: {problem}").format(problem=replay.problem), error=True)

    # -- verdict
    def action_verify(self) -> None:
        if self.path is None or self.error is not None:
            self.show_status(_("Nothing to verify: open a log first (o)"), error=True)
            return
        panel = self.query_one("#replay-verdict", Static)
        panel.set_classes("")
        panel.update(_("verifying ... (signatures, chain, every move, the audit)"))
        self._verify(self.path)

    @work(thread=True, exclusive=True, group="replay-verify", exit_on_error=False)
    def _verify(self, path: str) -> None:
        result = verify_log(path, games=self.games)
        self.app.call_from_thread(self._verified, path, result)

    def _verified(self, path: str, result: tuple[bool, str]) -> None:
        if path != self.path:
            return
        self.verdict = result
        ok, line = result
        panel = self.query_one("#replay-verdict", Static)
        panel.set_classes("-ok" if ok else "-bad")
        panel.update(line)

    # -- drawing
    def refresh_position(self) -> None:
        replay, cursor = self.replay, self.cursor
        if replay is None or cursor is None:
            return
        state = None
        if replay.has_board:
            try:
                state = cursor.state(self.all_hands)
            except ReplayError as e:  # every hand was asked for and cannot be rebuilt
                self.all_hands = False
                self.show_status(str(e), error=True)
                state = cursor.state()
        empty = replay.problem or _("No position to show.")
        self.query_one(ReplayBoard).show(replay.game, state, replay.labels, board=self.board, empty=empty)
        self.query_one(ReplaySteps).mark(cursor.position)
        self.query_one("#replay-players", Static).update(players_text(replay, cursor.state()))
        chart = self.query_one("#replay-chart", Static)
        width = (chart.size.width or 40) - 2
        chart.update(chart_text(replay.score_series(), [seat_tag(i) for i in range(replay.players)], width,
                                title=_(getattr(replay.game, "score_name", "score")), at=cursor.position))
        self.query_one("#replay-step", Static).update(self.happened_text())
        self.show_status(self.position_text())

    def happened_text(self) -> Text:
        """What the step on screen did, in the engine's words."""
        step = self.cursor.step
        if step is None:
            return Text(_("The start: before the first table operation."))
        who = _("table") if step.actor == TABLE else self.replay.labels[step.actor]
        text = Text(f"{step.number}. {who}: ", style="bold")
        text.append(step.text)
        words = self.replay.describe(step)
        if words:
            text.append(" — " + _("; ").join(words))
        return text

    def position_text(self) -> str:
        replay, cursor = self.replay, self.cursor
        where = _("Step {n}/{last}").format(n=cursor.position, last=cursor.last)
        step = cursor.step
        if step is None:
            text = where + ": " + _("the start")
        elif step.actor == TABLE:
            text = where + ": " + _("table: {text}").format(text=step.text)
        else:
            text = f"{where}: {replay.labels[step.actor]}: {step.text}"
        if cursor.position == cursor.last:
            text += f" · {replay.ending}" if replay.ending else ""
            text += " · " + _("stopped by: {problem}").format(problem=replay.problem) if replay.problem else ""
        else:
            text += " · " + _("next: {player}").format(player=next_actor(replay, cursor))
        if self.all_hands:
            text += " · " + _("every hand shown (after the audit)")
        return text

    def show_status(self, text: str, error: bool = False) -> None:
        self.query_one(StatusLine).show(text, error)

    # -- keys
    def _ready(self) -> bool:
        if self.cursor is None:
            if self.error is None and self.path is not None:
                self.show_status(_("Still replaying {path} ...").format(path=self.path))
            else:
                self.show_status(self.error or _("No log is open yet: press o to open one"), error=True)
            return False
        return True

    def action_step(self, delta: int) -> None:
        if not self._ready():
            return
        moved = self.cursor.forward() if delta > 0 else self.cursor.back()
        self.refresh_position()
        if not moved:
            self.show_status(_("Already at the end: {ending}").format(ending=self.replay.ending or "") if delta > 0
                             else _("Already at the start"), error=True)

    def action_first(self) -> None:
        if self._ready():
            self.cursor.first()
            self.refresh_position()

    def action_last(self) -> None:
        if self._ready():
            self.cursor.end()
            self.refresh_position()

    def jump(self, position: int) -> None:
        if not self._ready():
            return
        try:
            self.cursor.jump(position)
        except ValueError as e:
            self.show_status(str(e), error=True)
            return
        self.refresh_position()

    def action_goto(self) -> None:
        if self._ready():
            self.app.push_screen(GoToScreen(self.cursor.last), lambda n: self.jump(n) if n is not None else None)

    @on(OptionList.OptionSelected, "#replay-steps")
    def _step_chosen(self, event: OptionList.OptionSelected) -> None:
        self.jump(event.option_index)

    @on(OptionList.OptionHighlighted, "#replay-steps")
    def _step_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Up/down in the focused list step too (the screen's own marking lands where it is already)."""
        if self.cursor is not None and event.option_index != self.cursor.position:
            self.jump(event.option_index)

    def action_all_hands(self) -> None:
        if not self._ready():
            return
        if self.all_hands:
            self.all_hands = False
            self.refresh_position()
            return
        if not self.replay.hands_available:
            self.show_status(_("Every hand is known only after a finished game whose seats all revealed their "
                               "seeds (the audit)"), error=True)
            return
        self.show_status(_("Rebuilding every hand from each seat's own session ..."))
        self._rebuild_hands(self.replay)

    @work(thread=True, exclusive=True, group="replay-hands", exit_on_error=False)
    def _rebuild_hands(self, replay: Replay) -> None:
        try:
            replay.full_states()
            error = None
        except ReplayError as e:
            error = str(e)
        except Exception as e:  # noqa: BLE001
            error = _("the hands cannot be rebuilt: {error}").format(error=f"{type(e).__name__}: {str(e)[:200]}")
        self.app.call_from_thread(self._hands_ready, replay, error)

    def _hands_ready(self, replay: Replay, error: str | None) -> None:
        if replay is not self.replay:
            return
        if error:
            self.show_status(error, error=True)
            return
        self.all_hands = True
        self.refresh_position()

    def action_board(self) -> None:
        self.board = not self.board
        self.refresh_position()

    def action_open(self) -> None:
        folder = Path(self.path).parent if self.path else None
        self.app.push_screen(LogPickerScreen(folder), self._picked)

    def action_leave(self) -> None:
        self.app.pop_screen()


def next_actor(replay: Replay, cursor: ReplayCursor) -> str:
    following = replay.steps[cursor.position]
    return _("the table") if following.actor == TABLE else replay.labels[following.actor]


def players_text(replay: Replay, state=None) -> Text:
    """Each seat: a marker on the seat to move (a star on the winners at the end), score, fingerprint."""
    game = replay.game
    scores: list = []
    actor = None
    winners: set[int] = set()
    if game is not None and state is not None:
        try:
            scores = list(game.display_scores(state))
            if game.is_over(state):
                winners = set(game.winners(state))
            else:
                actor = game.next_actor(state)
        except Exception:  # noqa: BLE001 - the names are still worth showing
            scores = []
    text = Text()
    for i, (label, fp) in enumerate(zip(replay.labels, replay.fingerprints)):
        if i:
            text.append("\n")
        mark = "▶ " if actor == i else ("★ " if i in winners else "  ")
        text.append(f"{mark}{label[:12]:<12}", style="bold reverse" if actor == i else "bold")
        if i < len(scores):
            text.append(f"{scores[i]:>4}")
        text.append(f"  {fp}", style="dim")
    return text
