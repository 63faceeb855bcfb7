"""Watch a running table in the app: its public board, its moves in words, the table chat.

Reached from the lobby: a table under way that lets spectators watch is
listed (:func:`describe_running`, from the players' zeroconf adverts); Enter
or a click on its line, or ``w`` on it, opens this screen. The app is then a
:class:`protocol.net.watchers.Spectator`: it dials that player, checks every
entry as a player does and sees only what is public, so the board drawn
here (:class:`client.widgets.replay_board.ReplayBoard`, the replay's drawing
of the game) is the public view. The players see us in their banner
("watching: Eve"). We see ourselves and the spectators who spoke in the chat
(the protocol does not tell a spectator who else watches). Escape leaves.
"""

from __future__ import annotations

import asyncio
from typing import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Label, Static

from lanterne.client.i18n import N_, _, ngettext, seat_tag
from lanterne.client.theme import UNDER_WAY
from lanterne.client.widgets.chat import CHAT_BINDING, ChatPane
from lanterne.client.widgets.move_log import public_notation, words_of
from lanterne.client.widgets.peers import PeerList
from lanterne.client.widgets.replay_board import ReplayBoard
from lanterne.engines.core import Game
from lanterne.protocol.net.watchers import Spectator
from lanterne.protocol.net.invite import Declined
from lanterne.protocol.session.phases import Phase
from lanterne.protocol.net.chat import ChatLine
from lanterne.protocol.net.discovery import Advert
from lanterne.protocol.session import Aborted, GameOver, Moved, TableSet, TakebackRefused, TakenBack

MOVES_KEPT = 400


def watchable(advert: Advert) -> bool:
    """A peer playing at a table under way that lets spectators watch (and with no free seat to take)."""
    return advert.running is not None and (advert.table is None or advert.table.free <= 0)


def describe_running(advert: Advert, game_name: str = "") -> Text:
    """The lobby's line for a table under way: its game, seats and moves; Enter watches it."""
    run = advert.running
    line = Text()
    line.append(advert.name or "?", style="bold")
    line.append(f"  {advert.fingerprint}  {advert.address or '?'}:{advert.port}  ", style="dim")
    names = ", ".join(run.names) if run.names else ngettext("{n} seat", "{n} seats", run.seats).format(n=run.seats)
    line.append(ngettext("{game} under way: {names}, {n} move", "{game} under way: {names}, {n} moves", run.moves)
                .format(game=game_name or run.game, names=names, n=run.moves), style=UNDER_WAY)
    line.append("  " + _("(Enter or w: watch)"), style="dim")
    return line


class WatchScreen(Screen):
    """A table watched from this app: public board, moves in words, who watches, chat."""

    BINDINGS = [Binding("escape", "leave", N_("Leave")), CHAT_BINDING]
    AUTO_FOCUS = None
    """Nothing has the cursor at first: Escape leaves, F3 opens the chat (with the cursor in it)."""

    DEFAULT_CSS = """
    WatchScreen #watch-body { height: 1fr; }
    WatchScreen #watch-board { width: 1fr; }
    WatchScreen #watch-side { width: 38; border-left: solid $accent; padding: 0 1; }
    WatchScreen.-narrow #watch-side { width: 26; }
    WatchScreen #watch-moves-scroll { height: 1fr; }
    WatchScreen #watch-moves { height: auto; }
    WatchScreen #watch-status { height: auto; padding: 0 1; background: $panel; }
    """

    def __init__(self, identity, name: str, address: tuple[str, int], *, fingerprint: str | None = None,
                 who: str = "", games: Callable[[str], Game] | None = None):
        super().__init__()

        self.address, self.fingerprint, self.who = address, fingerprint, who
        self.spectator = Spectator(identity, name, games=games, say=self._said, on_events=self._on_events,
                                   on_chat=self._on_chat)
        self.moves: list[str] = []
        self.status = _("Linking to {who} at {address}...").format(who=who or _("the table"),
                                                                  address=f"{address[0]}:{address[1]}")
        self.failure: str | None = None
        self.over = False
        self._watching: asyncio.Task | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="watch-body"):
            yield ReplayBoard(id="watch-board")
            with Vertical(id="watch-side"):
                yield Label(_("Watching"), classes="panel-title")
                yield Static("", id="watch-who")
                yield Label(_("Moves"), classes="panel-title")
                with VerticalScroll(id="watch-moves-scroll", can_focus=False):
                    yield Static("", id="watch-moves")
        yield Static(Text(self.status), id="watch-status")
        yield ChatPane(self._send, id="chat-pane")
        yield Footer()

    NARROW_BELOW = 120
    """Below this width the side panel gives the board 12 more columns (at 80x24 Pagode's sites read whole)."""

    def on_resize(self, event) -> None:
        self.set_class(event.size.width < self.NARROW_BELOW, "-narrow")

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < self.NARROW_BELOW, "-narrow")
        self.sub_title = _("Watching {who}").format(who=self.who) if self.who else _("Watching a table")
        self.query_one(ChatPane).display = self.app.size.width >= 140
        self._draw()
        self._watching = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        try:
            session = await self.spectator.watch(*self.address, expect_fingerprint=self.fingerprint)
            self.over = True
            self._say((_("The game is over (it ended early).") if session.phase != Phase.OVER
                       else _("The game is over (a normal end).")) + " " + _("Escape goes back to the lobby."))
        except asyncio.CancelledError:
            raise
        except Declined as e:
            self.failure = str(e)
            self._say(_("Cannot watch: {reason}").format(reason=e), error=True)
        except Exception as e:  # noqa: BLE001 - whatever stopped the watch is one line, never a traceback
            self.failure = f"{type(e).__name__}: {e}"
            self._say(_("Watching stopped: {reason}").format(
                reason=str(e).splitlines()[0] if str(e) else type(e).__name__)[:200], error=True)

    # -- what the spectator tells us
    def _said(self, line: str) -> None:
        if line.startswith(("move ", "chat: ")):
            return       # shown in the move log / the chat pane
        self._say(line)

    def status_text(self) -> str:
        """What the status line says (the link, whose turn, why watching stopped)."""
        return self.status

    def _say(self, text: str, error: bool = False) -> None:
        self.status = text
        if self.is_mounted:
            status = self.query_one("#watch-status", Static)
            status.update(Text(text))
            status.set_class(error, "-error")

    def _on_events(self, events: list) -> None:
        session = self.spectator.session
        for ev in events:
            if isinstance(ev, Moved):
                labels = [f"{seat_tag(i)} {n}" for i, n in enumerate(session.names)]
                who = labels[ev.seat] if ev.seat < len(labels) else seat_tag(ev.seat)
                words = words_of(session.game, labels, ev.seat, ev.events) if session.game is not None else ""
                notation = public_notation(ev.text)
                self.moves.append(f"{ev.entry + 1}. {who} {words}  ({notation})" if words
                                  else f"{ev.entry + 1}. {who}: {notation}")
            elif isinstance(ev, (TakenBack, TakebackRefused)):
                labels = [f"{seat_tag(i)} {n}" for i, n in enumerate(session.names)]
                who = labels[ev.seat] if ev.seat < len(labels) else seat_tag(ev.seat)
                self.moves.append(ngettext("{player} took back their last move: every seat said yes",
                                           "{player} took back their last {n} moves: every seat said yes",
                                           ev.moves).format(player=who, n=ev.moves)
                                  if isinstance(ev, TakenBack) else
                                  _("{player} asked to take back their last move; a seat said no").format(player=who))
            elif isinstance(ev, TableSet):
                self._say(f"{ev.game} {ev.variant}: {', '.join(ev.names)}")
            elif isinstance(ev, GameOver):
                self.moves.append(_("game over: scores {scores}").format(scores=list(ev.scores)))
            elif isinstance(ev, Aborted):
                self.moves.append(_("game ended: {reason}").format(reason=ev.reason)[:200])
        del self.moves[:-MOVES_KEPT]
        if not self.over and any(isinstance(ev, (Moved, TableSet, TakenBack)) for ev in events):
            turn = self._turn_line()
            if turn:
                self._say(turn)        # entries flow: whatever the link said before is over
        if self.is_mounted:
            self._draw()

    def _on_chat(self, line: ChatLine) -> None:
        if self.is_mounted:
            self.query_one(ChatPane).add(line)
            self._draw_who()

    async def _send(self, text: str) -> None:
        await self.spectator.chat(text)

    # -- drawing
    def _draw(self) -> None:
        session = self.spectator.session
        game, view = session.game, session.view
        self.query_one(ReplayBoard).show(game, view, list(session.names),
                                          empty=_("Waiting for the table's entries..."))
        self.query_one("#watch-moves", Static).update(Text("\n".join(self.moves[-60:]) or _("No move yet.")))
        self.query_one("#watch-moves-scroll", VerticalScroll).scroll_end(animate=False)
        self._draw_who()

    def _draw_who(self) -> None:
        session = self.spectator.session
        others = sorted({line.name for line in self.query_one(ChatPane).lines
                         if line.seat is None and not line.mine})
        text = Text()
        text.append(_("Playing:") + "\n")
        for line, style in self._seat_lines():
            text.append(line + "\n", style=style)
        text.append(_("Watching: you ({name})").format(name=self.spectator.name) + (f", {', '.join(others)}" if others else ""))
        self.query_one("#watch-who", Static).update(text)

    def _seat_lines(self) -> list[tuple[str, str]]:
        """Each seat with its score, the one to move marked: what a spectator looks at most."""
        session = self.spectator.session
        game, view = session.game, session.view
        if not session.names:
            return [("?", "")]
        scores: list = []
        actor = None
        if game is not None and view is not None:
            try:
                scores = list(game.scores(view))
                actor = None if game.is_over(view) else game.next_actor(view)
            except Exception:  # noqa: BLE001 - a view the engine cannot score yet (mid-deal): names only
                scores, actor = [], None
        lines = []
        for i, name in enumerate(session.names):
            mark = "▶ " if actor == i else "  "
            score = f"  {scores[i]}" if i < len(scores) else ""
            lines.append((f"{mark}P{i + 1} {name}{score}", "bold reverse" if actor == i else ""))
        return lines

    def _turn_line(self) -> str:
        """Whose turn it is, for the status line (it replaces a stale link message once entries flow again)."""
        session = self.spectator.session
        game, view = session.game, session.view
        if game is None or view is None or not session.names:
            return ""
        try:
            actor = game.next_actor(view)
        except Exception:  # noqa: BLE001
            return ""
        if isinstance(actor, int) and 0 <= actor < len(session.names):
            return _("Watching: P{n} {name} to play").format(n=actor + 1, name=session.names[actor])
        return _("Watching: the table deals")

    # -- keys
    def action_toggle_chat(self) -> None:
        pane = self.query_one(ChatPane)
        pane.close() if pane.display else pane.open()

    def action_leave(self) -> None:
        if self._watching is not None:
            self._watching.cancel()
        self.app.pop_screen()

    def on_unmount(self) -> None:
        if self._watching is not None:
            self._watching.cancel()     # (its link closes as it ends: the players see us go)


class WatchFromLobby:
    """Mixed into the lobby: ``w`` (or Enter, a click) on a table under way watches it."""

    def action_watch(self) -> None:
        peers = self.query_one(PeerList)  # type: ignore[attr-defined]
        index = peers.highlighted
        adverts = peers.ordered()
        advert = adverts[index] if index is not None and index < len(adverts) else None
        if advert is None or advert.running is None:
            self.say(_("Pick a table under way in the list to watch it (its line says so)."), error=True)  # type: ignore
            return
        self.watch_table(advert)

    def watch_table(self, advert: Advert) -> None:
        """Open the watch screen on ``advert``'s table (through that player)."""
        try:
            identity = self.identity  # type: ignore[attr-defined]
        except (OSError, ValueError) as e:
            self.say(_("Cannot load your identity: {reason}").format(reason=e), error=True)  # type: ignore[attr-defined]
            return
        self.say(_("Watching {player}'s table...").format(player=advert.name))  # type: ignore[attr-defined]
        tell = getattr(self, "tell_watching", None)      # the others' lobbies say whose table we watch
        if tell is not None:
            tell(advert.name)
        self.app.push_screen(WatchScreen(identity, self.display_name,  # type: ignore[attr-defined]
                                         (advert.address, advert.port), fingerprint=advert.fingerprint,
                                         who=advert.name, games=self.resolve))  # type: ignore[attr-defined]


__all__ = ["WatchFromLobby", "WatchScreen", "describe_running", "watchable"]
