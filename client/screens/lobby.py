"""The LAN lobby: who is on this network, their open tables, and yours.

Open a table (game, variant; two seats: you and one guest) and wait: a join
request opens the accept/decline dialog with the joiner's name and the
safety code. Or join a table heard on the LAN (click it) or typed as
HOST:PORT. Once the table is set the game's own board screen opens, driven
by the network session (:class:`client.net_controller.NetworkGame`), with a
banner for the link and the other player's last move.

Every failure (nobody there, a declined invitation, a cheat) is one line
in the status here or on the game screen; the game's log files stay in the
log folder (``<data folder>/games``), and ``lanterne verify`` checks them.
"""

from __future__ import annotations

import asyncio
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Label, Select, Static

from client.net_controller import NetworkGame
from client.screens.dialogs import ConfirmScreen
from client.screens.invite import InviteScreen, JoinAddressScreen
from client.widgets.link_banner import LinkBanner
from client.widgets.peers import PeerList
from client.widgets.status_line import StatusLine
from engines.core import Game, RulesError
from protocol.net.discovery import Advert, Discovery
from protocol.net.peer import PeerOptions


# --------------------------------------------------------------------------
# The game screens, for a network game


class NetworkScreenMixin:
    """Adds the link banner (link state, safety code, the other player's last move) to any game screen."""

    _banner: LinkBanner | None = None

    def refresh_game(self) -> None:
        super().refresh_game()  # type: ignore[misc]
        banner = self._banner
        if banner is None:
            banner = self._banner = LinkBanner(id="link-banner")
            self.mount(banner, before=self.query_one(StatusLine))  # type: ignore[attr-defined]
            self.sub_title = f"{self.game.name} — network game"  # type: ignore[attr-defined]
        banner.show(self.controller)  # type: ignore[attr-defined]

    def action_leave(self) -> None:
        controller = self.controller  # type: ignore[attr-defined]
        if controller.is_over():
            self.app.pop_screen()  # type: ignore[attr-defined]
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.app.pop_screen()  # type: ignore[attr-defined]

        self.app.push_screen(ConfirmScreen(  # type: ignore[attr-defined]
            "Leave this network game? Its log is kept; the other player may claim the game later."), answer)


@lru_cache(maxsize=None)
def _network_class(base: type) -> type:
    return type(f"Network{base.__name__}", (NetworkScreenMixin, base), {})


def network_screen_for(controller: NetworkGame):
    """The game's own board screen (as for a local game), with the network banner."""
    from client.screens.game import game_screen_for

    return _network_class(type(game_screen_for(controller)))(controller)


# --------------------------------------------------------------------------
# The lobby


class LobbyScreen(Screen):
    """Play on the LAN. Everything is optional: by default the saved settings, identity and LAN interfaces."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("o", "open_table", "Open table"),
        Binding("a", "join_address", "Join HOST:PORT"),
        Binding("c", "close_table", "Close table"),
        Binding("r", "resume", "Resume"),
    ]
    DEFAULT_CSS = """
    LobbyScreen #lobby-columns { height: 1fr; }
    LobbyScreen #lobby-peers { width: 2fr; padding: 0 1; }
    LobbyScreen #lobby-open { width: 1fr; padding: 0 1; }
    LobbyScreen #lobby-status { height: auto; margin: 0 1; }
    LobbyScreen Button { margin: 1 0 0 0; }
    """

    def __init__(self, settings=None, *, identity=None, interfaces: Sequence[str] | None = None,
                 log_dir: Path | str | None = None, discover: bool = True, games: Sequence[Game] | None = None,
                 options: PeerOptions = PeerOptions()):
        super().__init__()
        self._settings = settings
        self._identity = identity
        self._interfaces = list(interfaces) if interfaces is not None else None
        self._log_dir = Path(log_dir) if log_dir is not None else None
        self.discover = discover
        self._games = list(games) if games is not None else None
        self.options = options
        self.discovery: Discovery | None = None
        self.pending: NetworkGame | None = None
        """The table we opened or asked to join, until its board is shown."""
        self.hosting = False
        self._announced = False

    # -- what the lobby works with
    @property
    def games(self) -> list[Game]:
        if self._games is None:
            from engines.registry import available_games

            self._games = [g for g in available_games() if _plays_two(g)]
        return self._games

    def resolve(self, game_id: str) -> Game:
        for g in self.games:
            if g.id == game_id:
                return g
        from engines.registry import get_game

        return get_game(game_id)

    @property
    def display_name(self) -> str:
        settings = self._settings if self._settings is not None else getattr(self.app, "settings", None)
        return (getattr(settings, "display_name", "") or "Player").strip() or "Player"

    @property
    def identity(self):
        if self._identity is None:
            from protocol.identity import Identity

            self._identity = Identity.load_or_create()
        return self._identity

    @property
    def interfaces(self) -> list[str]:
        if self._interfaces is None:
            from protocol.net.discovery import default_interfaces

            self._interfaces = default_interfaces()
        return self._interfaces

    @property
    def log_dir(self) -> Path:
        if self._log_dir is None:
            from protocol.identity import home

            self._log_dir = home() / "games"
        return self._log_dir

    # -- layout
    def compose(self) -> ComposeResult:
        games = self.games
        yield Header()
        yield Static("Play on the LAN", classes="screen-title")
        yield Static("", id="lobby-me", classes="muted")
        with Horizontal(id="lobby-columns"):
            with Vertical(id="lobby-peers"):
                yield Label("On this network (click a free seat to ask for it)", classes="panel-title")
                yield PeerList(id="peers")
                yield Button("Join by address (HOST:PORT) \\[a]", id="join-address", compact=True)
            with Vertical(id="lobby-open"):
                yield Label("Open a table", classes="panel-title")
                yield Label("Game")
                yield Select([(g.name, g.id) for g in games], value=games[0].id if games else Select.BLANK,
                             allow_blank=not games, compact=True, id="lan-game")
                yield Label("Variant")
                first = games[0] if games else None
                yield Select([(v, v) for v in (first.variants if first else ())],
                             value=_default_variant(first) if first else Select.BLANK,
                             allow_blank=first is None, compact=True, id="lan-variant")
                yield Static("Seats: 2 (you and one guest)", classes="muted")
                yield Button("Open table \\[o]", id="open-table", variant="primary", compact=True)
                yield Button("Close table \\[c]", id="close-table", compact=True, disabled=True)
        yield Static("", id="lobby-unfinished", classes="muted")
        yield Static("", id="lobby-status", classes="status")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Play on the LAN"
        try:
            me = self.identity
        except (OSError, ValueError) as e:
            self.say(f"Cannot load your identity: {e}", error=True)
            return
        where = ", ".join(self.interfaces) if self.interfaces else "no LAN interface found"
        self.query_one("#lobby-me", Static).update(
            f"You: {self.display_name} (key {me.fingerprint}) on {where}")
        if self.discover and self.interfaces:
            self.run_worker(self._browse(), group="discovery", exit_on_error=False)
        elif not self.interfaces:
            self.say("No LAN interface found: others cannot see you; join by address, or check the network.",
                     error=True)
        self.query_one(PeerList).own_fingerprint = me.fingerprint
        self.show_unfinished()

    def on_screen_resume(self) -> None:
        self.show_unfinished()

    # -- unfinished games (the app was left or crashed mid-game)
    def unfinished(self) -> list[Path]:
        from protocol.net.peer import GameFiles

        try:
            return GameFiles.unfinished(self.log_dir)
        except OSError:
            return []

    def show_unfinished(self) -> None:
        found = self.unfinished()
        text = ""
        if found:
            newest = _describe_meta(found[0])
            more = f" (and {len(found) - 1} older)" if len(found) > 1 else ""
            text = f"Unfinished: {newest}{more}. Press r to resume it."
        self.query_one("#lobby-unfinished", Static).update(text)

    def action_resume(self) -> None:
        from protocol.net.peer import ResumeError

        if self.pending is not None:
            self.say("You already have a table open or a join under way (close it first: c).", error=True)
            return
        found = self.unfinished()
        if not found:
            self.say("No unfinished network game in the log folder.", error=True)
            return
        try:
            controller = NetworkGame.resume(self.identity, found[0], interfaces=self.interfaces,
                                            discover=self.discover, options=self.options)
        except (ResumeError, RulesError, OSError, ValueError) as e:
            self.say(f"Cannot resume: {str(e).splitlines()[0]}", error=True)
            return
        self.hosting = controller.peer.role == "host"
        self._follow(controller)
        self.say(f"Resuming {_describe_meta(found[0])}: waiting for the other player to come back...")

    async def _browse(self) -> None:
        from protocol.net.discovery import DiscoveryError

        peers = self.query_one(PeerList)
        try:
            self.discovery = Discovery(self.interfaces, on_add=peers.put, on_update=peers.put,
                                       on_remove=peers.forget)
            await self.discovery.browse()
        except (DiscoveryError, OSError) as e:
            self.say(f"Cannot look for players on the LAN: {e}", error=True)

    async def on_unmount(self) -> None:
        pending, self.pending = self.pending, None
        if pending is not None:
            await pending.aclose()
        if self.discovery is not None:
            await self.discovery.close()
            self.discovery = None

    def say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#lobby-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    @property
    def status_text(self) -> str:
        return str(self.query_one("#lobby-status", Static).render())

    # -- choosing a game
    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "lan-game" and isinstance(event.value, str):
            game = self.resolve(event.value)
            variant = self.query_one("#lan-variant", Select)
            variant.set_options([(v, v) for v in game.variants])
            variant.value = _default_variant(game)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"open-table": self.action_open_table, "close-table": self.action_close_table,
                   "join-address": self.action_join_address}
        if event.button.id in actions:
            actions[event.button.id]()

    # -- hosting
    def action_open_table(self) -> None:
        if self.pending is not None:
            self.say("You already have a table open or a join under way (close it first: c).", error=True)
            return
        if not self.interfaces:
            self.say("Cannot open a table: no LAN interface found.", error=True)
            return
        game_id = self.query_one("#lan-game", Select).value
        variant = self.query_one("#lan-variant", Select).value
        if not isinstance(game_id, str) or not isinstance(variant, str):
            self.say("Choose a game and a variant first.", error=True)
            return
        try:
            game = self.resolve(game_id)
            controller = NetworkGame.open_table(
                self.identity, self.display_name, game, self.log_dir, variant=variant,
                interfaces=self.interfaces, discover=self.discover, accept=self._ask_host, options=self.options)
        except (RulesError, OSError, ValueError) as e:
            self.say(f"Cannot open the table: {e}", error=True)
            return
        self.hosting = True
        self._follow(controller)
        self.say(f"Opening your {game.name} ({variant}) table...")

    async def _ask_host(self, request) -> bool:
        """A join request: the host's person decides, comparing the safety code aloud."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future = loop.create_future()
        table = ""
        if self.pending is not None and self.pending.game is not None:
            table = f"{self.pending.game.name}, {self.pending.peer.session.variant}"

        def decided(ok: bool | None) -> None:
            if not answer.done():
                answer.set_result(bool(ok))

        self.app.push_screen(InviteScreen(request.peer.name, request.peer.fingerprint,
                                          f"{request.address[0]}:{request.address[1]}", request.safety_code,
                                          table), decided)
        ok = await answer
        if not ok:
            self.say(f"You declined {request.peer.name}; your table stays open.")
        return ok

    def action_close_table(self) -> None:
        pending = self.pending
        if pending is None:
            return
        self._unfollow()
        if self.hosting and pending.peer.peer_key is None and not pending.peer.session.over:
            pending.peer.files.update(over=True, closed="nobody joined")  # not an unfinished game to resume
        self.run_worker(pending.aclose(), group="close", exit_on_error=False)
        self.say("Table closed." if self.hosting else "Join cancelled.")

    # -- joining
    def on_peer_list_join_wanted(self, message: PeerList.JoinWanted) -> None:
        advert: Advert = message.advert
        if advert.table is None:
            self.say(f"{advert.name} has no open table.", error=True)
            return
        if advert.table.free <= 0:
            self.say(f"{advert.name}'s table is full.", error=True)
            return
        self.join((advert.address, advert.port), fingerprint=advert.fingerprint, game=advert.table.game,
                  variant=advert.table.variant, who=advert.name)

    def action_join_address(self) -> None:
        def chosen(address: tuple[str, int] | None) -> None:
            if address is not None:
                self.join(address)

        self.app.push_screen(JoinAddressScreen(), chosen)

    def join(self, address: tuple[str, int], *, fingerprint: str | None = None, game: str = "",
             variant: str = "standard", who: str = "") -> None:
        """Ask the host at ``address`` for its free seat."""
        if self.pending is not None:
            self.say("You already have a table open or a join under way (close it first: c).", error=True)
            return
        try:
            controller = NetworkGame.join(
                self.identity, self.display_name, self.log_dir, address, expect_fingerprint=fingerprint,
                game=game, variant=variant, rediscover_on=self.interfaces if self.discover else (),
                games=self.resolve, options=self.options)
        except (RulesError, OSError, ValueError) as e:
            self.say(f"Cannot join: {e}", error=True)
            return
        self.hosting = False
        self._follow(controller)
        self.say(f"Asking {who or 'the host'} at {address[0]}:{address[1]} for a seat... "
                 f"(the host checks the safety code with you)")

    # -- until the board shows
    def _follow(self, controller: NetworkGame) -> None:
        self.pending = controller
        self._announced = False
        self.query_one("#close-table", Button).disabled = False
        controller.subscribe(self._pending_changed)
        controller.start()
        self.run_worker(self._until_ready(controller), group="pending", exit_on_error=False)

    def _unfollow(self) -> None:
        if self.pending is not None:
            self.pending.unsubscribe(self._pending_changed)
        self.pending = None
        self.query_one("#close-table", Button).disabled = True

    def _pending_changed(self, change) -> None:
        controller = self.pending
        if controller is None or controller.ready.is_set():
            return
        if self.hosting and controller.listening is not None and not self._announced:
            self._announced = True
            ip, port = controller.listening
            self.say(f"Your table is open at {ip}:{port}: waiting for a player "
                     f"(they see it in their lobby, or join {ip}:{port}).")

    async def _until_ready(self, controller: NetworkGame) -> None:
        await controller.ready.wait()
        if controller is not self.pending:
            return  # closed meanwhile
        self._unfollow()
        if controller.failure is not None or controller.game is None or controller.peer.session.view is None:
            self.say(controller.failure or controller.status(), error=True)
            await controller.aclose()
            return
        self.say("")
        await self.app.push_screen(network_screen_for(controller))

    def action_back(self) -> None:
        if self.pending is not None:
            self.action_close_table()
            return
        self.app.pop_screen()


def _describe_meta(meta_path: Path) -> str:
    """'pagode with ABCD-1234 (you host)' for an unfinished game's meta file; never raises."""
    import json

    from protocol.identity import fingerprint

    try:
        meta = json.loads(meta_path.read_text())
        other = fingerprint(bytes.fromhex(meta["peer"])) if meta.get("peer") else "nobody yet"
    except (OSError, ValueError, KeyError, TypeError):
        return meta_path.stem
    game = meta.get("game") or "a game"
    role = "you host" if meta.get("role") == "host" else "you joined"
    return f"{game} with {other} ({role}, table {meta_path.stem[:8]})"


def _default_variant(game: Game) -> str:
    return "standard" if "standard" in game.variants else game.variants[0]


def _plays_two(game: Game) -> bool:
    try:
        game.check_options(2, _default_variant(game))
    except RulesError:
        return False
    return True


__all__ = ["LobbyScreen", "NetworkScreenMixin", "network_screen_for"]
