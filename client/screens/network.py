"""A game screen's network side: the link banner, an early end said as such, leaving by pause or resign.

A game played on the LAN opens the game's own board screen, as a local
game does, and gives it a :class:`NetworkSide` to compose
(``screen.network``): the screen asks it to draw the banner after each
change (every other peer's link, the safety code, the others' last moves)
and the table chat's pane (shown or hidden with F3), to ask the player
whether a stranger may watch (a table whose spectators are asked) and
whether another seat may take back its last move (a table that allows it),
for the words of a game that stopped early (a claim, a replaced seat, a
cheat) instead of the board's own result, and to leave (pause or resign)
instead of the local game's confirmation. The screen needs nothing else
of the network (:class:`lanterne.client.screens.game.NetworkPart`).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from rich.text import Text

from lanterne.client.i18n import N_, _
from lanterne.client.net_controller import ON_GONE_WORDS, NetworkGame, claim_time
from lanterne.client.screens.dialogs import ConfirmScreen, LeaveScreen
from lanterne.client.screens.game import game_screen_for
from lanterne.client.widgets.chat import ChatPane
from lanterne.client.widgets.link_banner import LinkBanner
from lanterne.client.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from lanterne.client.screens.game import GameScreen

RESIGN_WORDS = {"end": N_("the game ends now with the scores so far, signed in every log."),
                "computer": N_("a computer takes your seat at once and the others play on.")}
"""What a resignation does, by the table's on-gone policy (protocol.net.peer.Peer.resign)."""


class NetworkSide:
    """The network part of a game screen: one per screen, over the screen's :class:`NetworkGame`."""

    def __init__(self, controller: NetworkGame):
        self.controller = controller
        self.banner: LinkBanner | None = None
        """Mounted above the status line at the screen's first drawing."""
        self.chat: ChatPane | None = None
        """The table chat, mounted with the banner; shown beside the board only where there is room."""
        self._chat_shown = 0
        self._rematch = None
        """The rematch this player said yes to (:class:`client.lan_rematch.LanRematch`), until it is settled."""
        self._rematch_timer = None
        self._next: NetworkGame | None = None
        """The rematch's new table, once opened or joined."""
        self._declined = False

    CHAT_BESIDE_FROM = 140
    """From this width the chat pane starts shown; narrower, it starts hidden (F3) and new lines pop up."""

    def show(self, screen: GameScreen) -> None:
        """After the screen drew the game: the banner and the chat pane, mounted the first time."""
        if self.banner is None:
            self.controller.ask_watch = lambda name, fp: self.ask_watch(screen, name, fp)
            self.controller.takebacks.ask = lambda question: self.ask(screen, question)
            self.banner = LinkBanner(id="link-banner")
            screen.mount(self.banner, before=screen.query_one(StatusLine))
            screen.sub_title = _("{game} — network game").format(game=screen.game.name)
            self.chat = ChatPane(self.controller.send_chat, id="chat-pane")
            self.chat.display = screen.app.size.width >= self.CHAT_BESIDE_FROM
            screen.query_one("#game-body").mount(self.chat)     # beside the board: the status line stays in view
        self._fit_chat(screen)
        self.controller.takebacks.put_question()       # (a resumed game may be waiting for our answer)
        self.banner.show(self.controller, compact=screen.compact)
        if self.chat is not None:
            for i, line in enumerate(self.controller.chat[self._chat_shown:], start=self._chat_shown):
                self.chat.add(line, quiet=i < self.controller.chat_history)
            self._chat_shown = len(self.controller.chat)

    async def ask_watch(self, screen: GameScreen, name: str, fp: str) -> bool:
        """The player's yes or no to a stranger asking to watch; the question closes if the asker gives up."""
        return await self.ask(screen, _("{name} ({fp}) asks to watch this table: they would see the board, the "
                                        "moves and the chat. Let them watch?").format(name=name, fp=fp))

    async def ask(self, screen: GameScreen, text: str) -> bool:
        """The player's yes or no (keys y and n, or a click), in a dialog that closes if the question is withdrawn
        (a stranger who gives up watching, a takeback another seat refused first)."""
        answer: asyncio.Future = asyncio.get_running_loop().create_future()
        question = ConfirmScreen(Text(text))
        screen.app.push_screen(question, lambda yes: answer.done() or answer.set_result(bool(yes)))
        try:
            return await answer
        except asyncio.CancelledError:
            if question.is_attached:
                question.dismiss(False)
            raise

    def toggle_chat(self) -> None:
        """F3: show the chat pane (the cursor in its input) or hide it."""
        if self.chat is None:
            return
        if self.chat.display:
            self.chat.close()
        else:
            self.chat.open()
        self._fit_chat(self.chat.screen)

    def _fit_chat(self, screen) -> None:
        """Where the open pane goes: beside everything from CHAT_BESIDE_FROM columns; narrower, in the side
        panel's place; on a compact screen, in the board's place (as F2 does), so the board is never squeezed."""
        if self.chat is None:
            return
        screen.set_class(bool(self.chat.display), "-chat")
        screen.set_class(screen.app.size.width >= self.CHAT_BESIDE_FROM, "-roomy")

    def early_end(self) -> str:
        """One line if the game stopped early (a claim, a replaced seat, a cheat), else ""."""
        return self.controller.early_end()

    # -- a rematch (client/lan_rematch.py): asked through the lobby's advert
    def _lobby(self, screen: GameScreen):
        from lanterne.client.screens.lobby import LobbyScreen

        lobbies = [s for s in screen.app.screen_stack if isinstance(s, LobbyScreen) and s.discovery is not None]
        return lobbies[-1] if lobbies else None

    def offers_rematch(self, screen: GameScreen) -> bool:
        """A table played from the lobby, with another person at it, can be played again."""
        from lanterne.client.lan_rematch import LanRematch

        return self._lobby(screen) is not None and bool(LanRematch(self.controller).others)

    def rematch(self, screen: GameScreen) -> None:
        """Say yes to a rematch; once everyone did, the new table replaces this board."""
        from lanterne.client.lan_rematch import LanRematch

        lobby = self._lobby(screen)
        if lobby is None or self._rematch is not None:
            return
        again = self._rematch = LanRematch(self.controller)
        lobby.advertise_lobby(again=again.yes())
        self._rematch_timer = screen.set_interval(0.25, lambda: self._rematch_step(screen, lobby))
        self._rematch_step(screen, lobby)

    def decline_rematch(self, screen: GameScreen) -> None:
        """The game left without a rematch (home, Escape on the finished board, the screen closed): the others'
        question ends at once."""
        from lanterne.client.lan_rematch import LanRematch

        lobby = self._lobby(screen)
        if lobby is not None and self._rematch is None and self._next is None and not self._declined \
                and self.controller.peer.session is not None:
            self._declined = True
            lobby.advertise_lobby(again=LanRematch(self.controller).no())

    def _rematch_step(self, screen: GameScreen, lobby) -> None:
        from lanterne.client.widgets.peers import PeerList

        again = self._rematch
        if again is None or self._next is not None:
            return
        standing = again.standing(list(lobby.query_one(PeerList).adverts.values()))
        screen.show_status(standing.text, error=standing.ended)
        if standing.ended:
            self._rematch_timer.stop()
            lobby.advertise_lobby(again="")
            self._rematch = None
        elif standing.open_table:
            again.opened = True
            self._start_next(screen, lobby, lobby.open_rematch(self.controller, again.accepts()), again)
        elif standing.join is not None:
            self._start_next(screen, lobby, lobby.join_rematch(self.controller, standing.join,
                                                                again.host_key), again)

    def _start_next(self, screen: GameScreen, lobby, new: NetworkGame | None, again) -> None:
        if new is None:
            self._rematch_timer.stop()
            return
        self._next = new
        new.start()

        async def until_ready() -> None:
            while again.hosting and new.listening is None and new.failure is None:
                await asyncio.sleep(0.05)        # the new table's port, for the others' apps to join
            if new.listening is not None:
                lobby.advertise_lobby(again=again.opened_at(new.listening[1]))
            await new.ready.wait()
            self._rematch_timer.stop()
            lobby.advertise_lobby(again="")
            if not new.board_ready:
                screen.show_status(_("No rematch: {reason}").format(reason=new.failure or new.status()), error=True)
                await new.aclose()
                return
            next_screen = network_screen_for(new)
            if screen.is_current:
                await screen.app.switch_screen(next_screen)
            else:
                await screen.app.push_screen(next_screen)

        lobby.run_worker(until_ready(), group="rematch", exit_on_error=False)

    def leave(self, screen: GameScreen) -> None:
        """Escape: over, the screen closes; else pause (come back with r in the lobby) or resign."""
        controller = self.controller
        if controller.is_over():
            screen.app.pop_screen()         # (the screen closed says no to a rematch)
            return

        def answer(choice: str | None) -> None:
            if choice:
                controller.leave(resign=choice == "resign")
                screen.app.pop_screen()

        policy = controller.on_gone or "end"
        pause = (_("Pause: the others see you left on purpose; r in the lobby brings you back (after {time}: {then}).")
                 if controller.players > 2 else
                 _("Pause: the other player sees you left on purpose; r in the lobby brings you back (after {time}: "
                   "{then})."))
        screen.app.push_screen(LeaveScreen(
            _("Leave this network game?") + "\n"
            + pause.format(time=claim_time(controller.claim_after), then=_(ON_GONE_WORDS.get(policy, "")))
            + "\n" + _("Resign: {what}").format(what=_(RESIGN_WORDS.get(policy, "")))), answer)


def network_screen_for(controller: NetworkGame) -> GameScreen:
    """The game's own board screen (as for a local game), with the network side composed in."""
    return game_screen_for(controller, network=NetworkSide(controller))
