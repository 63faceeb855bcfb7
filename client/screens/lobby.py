"""The LAN lobby: who is on this network, their open tables, and yours.

Open a table (game, variant, number of seats, how many of them computer
players this app runs, their level, and what happens to a player gone for
good: after the claim time (1, 2, 5 or 10 minutes) the game ends with the
scores so far, or a computer takes the seat) and wait: each join request opens
the accept/decline dialog with the joiner's name and the safety code, and
the table view here shows every seat, taken or free (computers marked
``[computer]``). Or join a table heard on the LAN (click it) or typed as
HOST:PORT. Once the table is full and set, every person's app opens the
game's own board screen, driven by the network session, with a banner for
the links and the other players' last moves (its network side,
``client/screens/network.py``).

Every table size runs the same way (:class:`client.net_controller.NetworkGame`
on a :class:`protocol.net.peer.Peer`, every peer linked with every other).
Computer seats take 0 to seats-1 places; with no other person the table
fills at once and plays as a signed game on this machine.

Every failure (nobody there, a declined invitation, a cheat) is one line
in the status here or on the game screen; the game's log files stay in the
log folder (``<data folder>/games``), and ``lanterne verify`` checks them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path
from typing import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Label, Select, Static

from lanterne.client.i18n import N_, _, ngettext, say_refusal
from lanterne.client.known_peers import CHANGED, KNOWN, KnownPeersFile
from lanterne.client.levels import level_words
from lanterne.client.local_play import BOT_KINDS
from lanterne.client.net_controller import NetworkGame, claim_time, clock, describe_policy, is_computer
from lanterne.client.screens import online
from lanterne.client.screens.invite import InviteScreen, JoinAddressScreen
from lanterne.client.screens.network import network_screen_for
from lanterne.client.screens.watch import WatchFromLobby, describe_running, watchable
from lanterne.client.theme import ALARM
from lanterne.client.widgets.peers import PeerList, describe
from lanterne.engines.core import Game, RulesError
from lanterne.engines.registry import available_games, get_game
from lanterne.protocol.identity import Identity, fingerprint, home, safety_part
from lanterne.protocol.net.discovery import STALE_AFTER, Advert, Discovery, DiscoveryError, default_interfaces
from lanterne.protocol.net.files import GameFiles, ResumeError
from lanterne.protocol.net.peer import PeerOptions
from lanterne.protocol.session import (UNDO_ASK, UNDO_OFF, WATCH_ASK, WATCH_EVERYONE, WATCH_KNOWN, WATCH_OFF,
                                       default_watch)


# --------------------------------------------------------------------------
# The lobby


class KnownPeerList(PeerList):
    """The peers heard, each marked from the list of known players: a known key, or its key changed (a warning).

    An advert's name and fingerprint are only what somebody on the LAN says (anyone can repeat a public
    fingerprint at another address): a known key is said as heard, "not yet checked", never as proven;
    the join's link proves the key. A known name heard with another key is worth a warning before
    anybody clicks it. One line per key and address, so a copy elsewhere cannot hide the real one.
    """

    def __init__(self, known: KnownPeersFile | None = None, games=None, **kwargs):
        super().__init__(**kwargs)
        self.known = known
        self.games = games
        """Game id -> Game (the lobby's): a table under way is named by its game's name."""
        self.own_tables: set[str] = set()
        """The tables this app is seated at (their ids' first 16 hex digits, as a running table's advert
        says them): a line of one says it is yours to resume, never to watch."""

    def is_own(self, advert: Advert) -> bool:
        return watchable(advert) and advert.running.table in self.own_tables

    def mark(self, advert: Advert) -> Text | None:
        if self.known is None:
            return None
        check = self.known.check_fingerprint(advert.name, advert.fingerprint)
        if check.status == KNOWN:
            return Text("  " + _("a key you met on {since}, not yet checked").format(since=check.since), style="dim")
        if check.status == CHANGED:
            return Text("  " + _("KEY CHANGED since {since}: compare the code again").format(since=check.since),
                        style=f"bold {ALARM}")
        return None

    def refresh_marks(self) -> None:
        """The list of known players changed: mark the lines again."""
        self._redraw()

    def ordered(self) -> list[Advert]:
        """One line per key and address: an app open in its lobby and hosting (or seated at) a table
        advertises twice; the line says the most useful one (a free seat, a full table, seated, in the
        lobby). The same key heard at another address is another line: nobody's advert shadows another's."""
        best: dict[tuple[str, str], Advert] = {}
        for advert in self.adverts.values():
            where = (advert.fingerprint, advert.address or "")
            held = best.get(where)
            if held is None or _rank(advert) < _rank(held):
                best[where] = advert
        tables: dict[str, Advert] = {}     # a table under way: one line, whichever player says it
        for advert in list(best.values()):
            tid = advert.running.table if advert.running is not None and watchable(advert) else ""
            if tid and tables.setdefault(tid, advert) is not advert:
                del best[(advert.fingerprint, advert.address or "")]
        chosen = {id(a) for a in best.values()}
        return [a for a in super().ordered() if id(a) in chosen]

    def line(self, advert: Advert) -> Text:
        """Where the peer is (:func:`describe_peer`), and whether we know its key."""
        mark, line = self.mark(advert), describe_peer(advert, self.games)
        if self.is_own(advert):
            line = Text(line.plain.replace(_("(Enter or w: watch)"), _("(your game: r resumes it)")),
                        style="dim")
        return line + mark if mark is not None else line


def _rank(advert: Advert) -> int:
    if watchable(advert):
        return 1
    if advert.table is not None:
        return 0 if advert.table.free > 0 else 1
    return 3 if advert.lobby else 2


def describe_peer(advert: Advert, games=None) -> Text:
    """One line for a peer: its table as :func:`client.widgets.peers.describe` says it, or where it is:
    in the lobby (an app open, no table: no address to join) or seated at somebody's table."""
    if watchable(advert):
        return describe_running(advert, _game_name(advert.running.game, games))
    if advert.table is not None:
        return describe(advert)
    line = Text()
    line.append(advert.name or "?", style="bold")
    where = advert.address or "?" if advert.lobby else f"{advert.address or '?'}:{advert.port}"
    line.append(f"  {advert.fingerprint}  {where}  ", style="dim")
    if advert.lobby and advert.watching:
        line.append(_("watching {player}'s table").format(player=advert.watching), style="dim")
    else:
        line.append(_("in the lobby") if advert.lobby else _("seated at a table"), style="dim")
    return line



def _game_name(game_id: str, games=None) -> str:
    try:
        return (games or get_game)(game_id).name
    except Exception:  # noqa: BLE001 - a game this app does not have: its id says enough
        return game_id


class LobbyScreen(WatchFromLobby, Screen):
    """Play on the LAN. Everything is optional: by default the saved settings, identity and LAN interfaces."""

    BINDINGS = [
        Binding("escape", "back", N_("Back")),
        Binding("o", "open_table", N_("Open table")),
        Binding("a", "join_address", N_("Join HOST:PORT")),
        Binding("i", "invite_online", N_("Invite over the internet"), show=False),   # (its button says the key)
        Binding("k", "join_code", N_("Join with a code"), show=False),
        Binding("c", "close_table", N_("Close table")),
        Binding("r", "resume", N_("Resume")),
        Binding("w", "watch", N_("Watch"), show=False),   # (the line of a table under way says "Enter or w: watch")
    ]
    DEFAULT_CSS = """
    LobbyScreen.-short .screen-title { display: none; }
    LobbyScreen #lobby-columns { height: 1fr; }
    LobbyScreen #lobby-peers { width: 1fr; padding: 0 1; }
    LobbyScreen #lobby-open { width: 46; padding: 0 1; }   /* "Ouvrir la table [o]  Fermer la table [c]" */
    LobbyScreen .lobby-row { height: 1; }
    LobbyScreen .lobby-label { width: 12; }   /* "Ordinateurs" */
    LobbyScreen .lobby-row Select { width: 1fr; }
    LobbyScreen #lobby-buttons { height: auto; margin: 1 0 0 0; }
    LobbyScreen #lobby-buttons Button { margin: 0 1 0 0; }
    LobbyScreen #join-address { margin: 1 0 0 0; }
    LobbyScreen #lobby-hint { height: auto; margin: 1 0 0 0; }
    LobbyScreen #lobby-status { height: auto; min-height: 2; margin: 0 1; }
    LobbyScreen #lobby-table { height: auto; margin: 1 0 0 0; }
    """
    SHORT_BELOW = 30
    """Rows under which the title line goes (the header says it): 80x24 keeps the form in view."""

    def __init__(self, settings=None, *, identity=None, interfaces: Sequence[str] | None = None,
                 log_dir: Path | str | None = None, discover: bool = True, games: Sequence[Game] | None = None,
                 options: PeerOptions = PeerOptions(), known_peers: Path | str | None = None):
        super().__init__()
        self._known_path = known_peers
        self._known: KnownPeersFile | None = None
        self._settings = settings
        self._identity = identity
        self._interfaces = list(interfaces) if interfaces is not None else None
        self._log_dir = Path(log_dir) if log_dir is not None else None
        self.discover = discover
        self._games = list(games) if games is not None else None
        self.options = options
        self.discovery: Discovery | None = None
        self._told_watching = ""
        """Whose table our lobby advert says we watch ("" : none)."""
        self.pending: NetworkGame | None = None
        self._invite_turn = asyncio.Lock()
        """One join dialog at a time, the oldest request first (asyncio's lock wakes waiters in order)."""
        self.asking: list = []
        """Join requests not decided yet, oldest first (the dialog shows the first)."""
        """The table we opened or asked to join, until its board is shown."""
        self.hosting = False
        self._announced = False
        self.online_servers = None
        """The mailbox and relay of our codes (None: the settings', else the public pair; client/screens/online.py)."""
        self.online_direct = True
        """A code's link may go direct (Dilation offers this machine's addresses); False: through the relay only."""

    # -- what the lobby works with
    @property
    def games(self) -> list[Game]:
        if self._games is None:
            self._games = [g for g in available_games() if _plays_lan(g)]
        return self._games

    def resolve(self, game_id: str) -> Game:
        for g in self.games:
            if g.id == game_id:
                return g

        return get_game(game_id)

    @property
    def display_name(self) -> str:
        settings = self._settings if self._settings is not None else getattr(self.app, "settings", None)
        return (getattr(settings, "display_name", "") or "").strip() or _("Player")

    @property
    def identity(self):
        if self._identity is None:
            self._identity = Identity.load_or_create()
        return self._identity

    @property
    def known(self) -> KnownPeersFile:
        """The players met before (``<data folder>/known_peers.json`` unless given)."""
        if self._known is None:
            self._known = KnownPeersFile(self._known_path)
        return self._known

    @property
    def interfaces(self) -> list[str]:
        if self._interfaces is None:
            self._interfaces = default_interfaces()
        return self._interfaces

    @property
    def log_dir(self) -> Path:
        if self._log_dir is None:
            self._log_dir = home() / "games"
        return self._log_dir

    # -- layout
    def compose(self) -> ComposeResult:
        games = self.games
        yield Header()
        yield Static(_("Play on the LAN or online"), classes="screen-title")
        yield Static("", id="lobby-me", classes="muted")
        with Horizontal(id="lobby-columns"):
            with Vertical(id="lobby-peers"):
                yield Label(_("Pick a free seat"), classes="panel-title")
                yield KnownPeerList(self.known, self.resolve, id="peers")
                yield Button(_("Join by address (HOST:PORT)") + " \\[a]", id="join-address", compact=True)
                yield Button(_("Join with a code") + " \\[k]", id="join-code", compact=True)
            with VerticalScroll(id="lobby-open"):  # a small terminal scrolls to the table listing
                yield Label(_("Open a table"), classes="panel-title")
                first = games[0] if games else None
                with Horizontal(classes="lobby-row"):
                    yield Label(_("Game"), classes="lobby-label")
                    yield Select([(g.name, g.id) for g in games], value=games[0].id if games else Select.BLANK,
                                 allow_blank=not games, compact=True, id="lan-game")
                with Horizontal(classes="lobby-row"):
                    yield Label(_("Variant"), classes="lobby-label")
                    yield Select([(v, v) for v in (first.variants if first else ())],
                                 value=_default_variant(first) if first else Select.BLANK,
                                 allow_blank=first is None, compact=True, id="lan-variant")
                with Horizontal(classes="lobby-row"):
                    yield Label(_("Seats"), classes="lobby-label")
                    yield Select(_seat_options(first) if first else [],
                                 value=_default_seats(first) if first else Select.BLANK,
                                 allow_blank=first is None, compact=True, id="lan-seats")
                with Horizontal(classes="lobby-row"):
                    yield Label(_("Computers"), classes="lobby-label")
                    yield Select(_computer_options(_default_seats(first) if first else 2), value=0,
                                 allow_blank=False, compact=True, id="lan-computers")
                with Horizontal(classes="lobby-row"):
                    yield Label(_("Level"), classes="lobby-label")
                    yield Select([(level_words(k), k) for k in BOT_KINDS], value=DEFAULT_BOT, allow_blank=False, compact=True,
                                 id="lan-bot")
                claim, on_gone = self._last_gone_choice()
                with Horizontal(classes="lobby-row"):
                    yield Label(_("Gone for"), classes="lobby-label")
                    yield Select(_claim_options(self.options.claim_after), value=claim,
                                 allow_blank=False, compact=True, id="lan-claim")
                with Horizontal(classes="lobby-row"):
                    yield Label(_("then"), classes="lobby-label")
                    yield Select([(_("end it, scores so far"), "end"), (_("a computer plays it"), "computer")],
                                 value=on_gone, allow_blank=False, compact=True, id="lan-on-gone")
                with Horizontal(classes="lobby-row"):
                    yield Label(_("A move"), classes="lobby-label")
                    yield Select(_move_clock_options(self._last_move_clock()), value=self._last_move_clock(),
                                 allow_blank=False, compact=True, id="lan-move-clock")
                with Horizontal(classes="lobby-row"):
                    yield Label(_("Spectators"), classes="lobby-label")
                    yield Select([(_(words), mode) for mode, words in SPECTATOR_WORDS.items()],
                                 value=self._spectators_for(first), allow_blank=False, compact=True,
                                 id="lan-spectators")
                with Horizontal(classes="lobby-row"):
                    yield Label(_("Undo"), classes="lobby-label")
                    yield Select([(_(words), mode) for mode, words in UNDO_WORDS.items()],
                                 value=self.options.undo if self.options.undo in UNDO_WORDS else UNDO_OFF,
                                 allow_blank=False, compact=True, id="lan-undo")
                with Horizontal(id="lobby-buttons"):
                    yield Button(_("Open table") + " \\[o]", id="open-table", variant="primary", compact=True)
                    yield Button(_("Close table") + " \\[c]", id="close-table", compact=True, disabled=True)
                yield Button(_("Invite over the internet") + " \\[i]", id="invite-online", compact=True, disabled=True)
                yield Static("", id="lobby-table")
                yield Static("", id="lobby-policy", classes="muted")
                yield Static(_("Computers: players this app runs. Gone for: how long a player may be away "
                               "before the table's rule (then) applies. A move: how long a player may think "
                               "before the others may claim. Spectators: who may watch the table (they see "
                               "what every player sees, never a hand)."), id="lobby-hint", classes="muted")
        yield Static("", id="lobby-unfinished", classes="muted")
        yield Static("", id="lobby-status", classes="status")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = _("Play on the LAN or online")
        try:
            me = self.identity
        except (OSError, ValueError) as e:
            self.say(_("Cannot load your identity: {reason}").format(reason=e), error=True)
            return
        where = ", ".join(self.interfaces) if self.interfaces else _("no LAN interface found")
        self.query_one("#lobby-me", Static).update(
            _("You: {name} (key {key}) on {where}").format(name=self.display_name, key=me.fingerprint, where=where))
        if self.discover and self.interfaces:
            self.run_worker(self._browse(), group="discovery", exit_on_error=False)
        elif not self.interfaces:
            self.say(_("No LAN interface found: others cannot see you; join by address, or check the network."),
                     error=True)
        self.query_one(PeerList).own_fingerprint = me.fingerprint
        self.show_unfinished()
        if self.known.warning:
            self.say(self.known.warning, error=True)

    def on_screen_resume(self) -> None:
        self.show_unfinished()
        if self._told_watching:             # back from watching a table: in the lobby again
            self.tell_watching("")

    def on_resize(self, event) -> None:
        self.set_class(event.size.height < self.SHORT_BELOW, "-short")

    # -- unfinished games (the app was left or crashed mid-game)
    def unfinished(self) -> list[Path]:
        try:
            return GameFiles.unfinished(self.log_dir)
        except OSError:
            return []

    def show_unfinished(self) -> None:
        found = self.unfinished()
        text = ""
        if found:
            newest = _describe_meta(found[0], self.identity.public, self.resolve)
            older = len(found) - 1
            more = " " + ngettext("(and {n} older)", "(and {n} older)", older).format(n=older) if older else ""
            text = _("Unfinished: {game}{more}. Press r to resume it.").format(game=newest, more=more)
        for peers in self.query(KnownPeerList):
            tables = {path.stem[:16] for path in found}
            if tables != peers.own_tables:
                peers.own_tables = tables
                peers.refresh_marks()
        unfinished = self.query_one("#lobby-unfinished", Static)
        unfinished.update(Text(text))
        unfinished.display = bool(text)   # no empty line on a small terminal

    def action_resume(self) -> None:
        if self.pending is not None:
            self.say("You already have a table open or a join under way (close it first: c).", error=True)
            return
        found = self.unfinished()
        if not found:
            self.say(_("No unfinished network game in the log folder."), error=True)
            return
        try:
            controller = NetworkGame.resume(
                self.identity, found[0], interfaces=self.interfaces, discover=self.discover,
                options=self.peer_options(), bot=_chosen(self.query_one("#lan-bot", Select), DEFAULT_BOT))
        except (ResumeError, RulesError, OSError, ValueError) as e:
            self.say(_("Cannot resume: {reason}").format(reason=say_refusal(e).splitlines()[0]), error=True)
            return
        self.hosting = controller.peer.files.meta.get("role") == "host"
        self._follow(controller)
        self.say(_("Resuming {game}: waiting for the others to come back...").format(
            game=_describe_meta(found[0], self.identity.public, self.resolve)))

    async def _browse(self) -> None:
        peers = self.query_one(PeerList)
        try:
            # the lobby's own list drops an app gone silent (killed, cable pulled) within 3 s
            self.discovery = Discovery(self.interfaces, on_add=peers.put, on_update=peers.put,
                                       on_remove=peers.forget, stale_after=STALE_AFTER)
            await self.discovery.browse()
        except (DiscoveryError, OSError) as e:
            self.say(_("Cannot look for players on the LAN: {reason}").format(reason=e), error=True)
            return
        try:   # others see us in their lobby, with or without a table (a table is its own advert)
            await self.discovery.advertise(Advert(self.display_name, self.identity.fingerprint, 0, lobby=True))
        except (DiscoveryError, OSError) as e:
            self.say(_("Others cannot see you in their lobby: {reason}").format(reason=e), error=True)

    def tell_watching(self, player: str) -> None:
        """Others' lobbies say whose table we watch ('' when we came back to the lobby)."""
        self._told_watching = player
        self.advertise_lobby(watching=player)

    def advertise_lobby(self, **fields) -> None:
        """Change what our lobby's advert says (``watching``, a rematch's ``again``), in the background."""
        from lanterne.protocol.net.discovery import DiscoveryError

        discovery = self.discovery

        async def update() -> None:
            try:
                await discovery.update(**fields)
            except (DiscoveryError, OSError):
                pass            # an advert that could not say it: the others' lobbies see the line as it was

        if discovery is not None:
            self.run_worker(update(), group="advert", exit_on_error=False)

    def open_rematch(self, old: NetworkGame, accept) -> NetworkGame | None:
        """A new table like ``old`` (game, variant, seats, computers, options, policy) that seats ``accept``'s keys."""
        try:
            computers = sum(1 for s in old.seats if is_computer(s.name))
            new = NetworkGame.open_table(
                self.identity, self.display_name, old.game, self.log_dir, variant=old.variant,
                players=len(old.seats), computers=computers, bot=_chosen(self.query_one("#lan-bot", Select), DEFAULT_BOT),
                interfaces=self.interfaces, discover=self.discover, accept=accept, options=old.peer.options,
                on_gone=old.on_gone or "end")
        except (RulesError, OSError, ValueError) as e:
            self.say(_("Cannot open the table: {reason}").format(reason=say_refusal(e).splitlines()[0]), error=True)
            return None
        new.known = self.known
        return new

    def join_rematch(self, old: NetworkGame, address: tuple[str, int], host_key: bytes) -> NetworkGame | None:
        """Join the host's new table for a rematch of ``old``, expecting the host's key."""
        from lanterne.protocol.identity import fingerprint

        try:
            new = NetworkGame.join(
                self.identity, self.display_name, self.log_dir, address, interfaces=self.interfaces,
                players=len(old.seats), expect_fingerprint=fingerprint(host_key), game=old.game.id,
                variant=old.variant, discover=self.discover, games=self.resolve, options=self.peer_options(),
                bot=_chosen(self.query_one("#lan-bot", Select), DEFAULT_BOT))
        except (RulesError, OSError, ValueError) as e:
            self.say(_("Cannot join: {reason}").format(reason=say_refusal(e)), error=True)
            return None
        new.host_name = old.seats[0].name if old.seats else ""
        new.known = self.known
        return new

    async def on_unmount(self) -> None:
        pending, self.pending = self.pending, None
        if pending is not None:
            await pending.aclose()
        if self.discovery is not None:
            await self.discovery.close()
            self.discovery = None

    def say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#lobby-status", Static)
        status.update(Text(text))  # names and errors are never markup
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
            seats = self.query_one("#lan-seats", Select)
            seats.set_options(_seat_options(game))
            seats.value = _default_seats(game)
            self.query_one("#lan-spectators", Select).value = self._spectators_for(game)
        elif event.select.id == "lan-seats" and isinstance(event.value, int):
            computers = self.query_one("#lan-computers", Select)
            keep = computers.value
            computers.set_options(_computer_options(event.value))
            computers.value = keep if isinstance(keep, int) and keep < event.value else 0

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"open-table": self.action_open_table, "close-table": self.action_close_table,
                   "join-address": self.action_join_address, "join-code": self.action_join_code,
                   "invite-online": self.action_invite_online}
        if event.button.id in actions:
            actions[event.button.id]()

    # -- hosting
    def action_open_table(self) -> None:
        if self.pending is not None:
            self.say("You already have a table open or a join under way (close it first: c).", error=True)
            return
        if not self.interfaces:
            self.say(_("Cannot open a table: no LAN interface found."), error=True)
            return
        game_id = self.query_one("#lan-game", Select).value
        variant = self.query_one("#lan-variant", Select).value
        seats = self.query_one("#lan-seats", Select).value
        computers = self.query_one("#lan-computers", Select).value
        bot = self.query_one("#lan-bot", Select).value
        if not isinstance(game_id, str) or not isinstance(variant, str) or not isinstance(seats, int):
            self.say(_("Choose a game, a variant and the number of seats first."), error=True)
            return
        computers = computers if isinstance(computers, int) else 0
        bot = bot if isinstance(bot, str) else DEFAULT_BOT
        on_gone = _chosen(self.query_one("#lan-on-gone", Select), DEFAULT_ON_GONE)
        self._remember_gone_choice(on_gone, self.claim_after, self.move_clock)
        self.open_table(game_id, variant, seats, computers, bot, on_gone=on_gone, claim_after=self.claim_after)

    @property
    def settings(self):
        return self._settings if self._settings is not None else getattr(self.app, "settings", None)

    def _last_gone_choice(self) -> tuple[float, str]:
        """The form's claim time and policy: the lobby's own options if set apart, else the last table's."""
        claim = float(self.options.claim_after)
        on_gone = getattr(self.settings, "on_gone", DEFAULT_ON_GONE)
        saved = float(getattr(self.settings, "claim_after", claim) or claim)
        if claim == PeerOptions().claim_after and saved in CLAIM_TIMES:
            claim = saved
        return claim, on_gone if on_gone in ("end", "computer") else DEFAULT_ON_GONE

    def _last_move_clock(self) -> float:
        """The form's move clock: the lobby's own options if they set one, else the last table's (0: none)."""
        if self.options.move_clock is not None:
            return float(self.options.move_clock)
        saved = getattr(self.settings, "move_clock", DEFAULT_MOVE_CLOCK)
        return float(saved) if isinstance(saved, (int, float)) and saved >= 0 else DEFAULT_MOVE_CLOCK

    def _remember_gone_choice(self, on_gone: str, claim_after: float, move_clock: float | None) -> None:
        """Keep the choice for the next table (saved with the app's settings)."""
        settings = self.settings
        if settings is None or not hasattr(settings, "on_gone"):
            return
        chosen = (on_gone, float(claim_after), float(move_clock or 0.0))
        if (settings.on_gone, settings.claim_after, getattr(settings, "move_clock", None)) == chosen:
            return
        settings.on_gone, settings.claim_after, settings.move_clock = chosen
        if settings is getattr(self.app, "settings", None) and hasattr(self.app, "save_settings"):
            self.app.save_settings()   # an unwritable folder: the choice stays for this session

    @property
    def claim_after(self) -> float:
        """Seconds a gone player has before the claim (the form's choice; the options' by default)."""
        return float(_chosen(self.query_one("#lan-claim", Select), self.options.claim_after))

    @property
    def move_clock(self) -> float | None:
        """Seconds a linked player may take for one move (the form's choice); None: no move clock."""
        chosen = float(_chosen(self.query_one("#lan-move-clock", Select), self._last_move_clock()))
        return chosen or None

    def _spectators_for(self, game: Game | None) -> str:
        """The form's spectators for ``game``: the lobby's own options if they say, else the game's default."""
        chosen = self.options.spectators
        if isinstance(chosen, bool):
            return WATCH_EVERYONE if chosen else WATCH_OFF
        return chosen if chosen in SPECTATOR_WORDS else default_watch(game)

    def peer_options(self, claim_after: float | None = None) -> PeerOptions:
        """The lobby's peer options with the claim time, the move clock, the spectators and the undo chosen in the
        form."""
        claim = self.claim_after if claim_after is None else claim_after
        spectators = _chosen(self.query_one("#lan-spectators", Select), self._spectators_for(None))
        undo = _chosen(self.query_one("#lan-undo", Select), UNDO_OFF)
        return dataclasses.replace(self.options, claim_after=claim, move_clock=self.move_clock,
                                   spectators=spectators, undo=undo)

    def open_table(self, game_id: str, variant: str, seats: int = 2, computers: int = 0,
                   bot: str = "greedy", *, on_gone: str = "end", claim_after: float | None = None) -> None:
        """Open a table of ``seats``, ``computers`` of them played by ``bot`` players this app runs.

        ``on_gone`` (``end`` or ``computer``) is the table's signed policy for a player gone
        longer than ``claim_after`` seconds (default: the form's claim time).
        """
        try:
            options = self.peer_options(claim_after)
            game = self.resolve(game_id)
            controller = NetworkGame.open_table(
                self.identity, self.display_name, game, self.log_dir, variant=variant, players=seats,
                computers=computers, bot=bot, interfaces=self.interfaces, discover=self.discover,
                accept=self._ask_host, options=options, on_gone=on_gone)
        except (RulesError, OSError, ValueError) as e:
            self.say(_("Cannot open the table: {reason}").format(reason=say_refusal(e).splitlines()[0]), error=True)
            return
        self.hosting = True
        self._follow(controller)
        robots = (", " + ngettext("{n} computer ({level})", "{n} computers ({level})", computers).format(
            n=computers, level=level_words(bot)) if computers else "")
        policy = f"; {describe_policy(on_gone, options.claim_after)}" + ("; " + _("a move takes at most {time}").format(
            time=claim_time(options.move_clock)) if options.move_clock else "")
        self.say(_("Opening your {game} ({variant}) table of {seats}{computers}{policy}...").format(
            game=game.name, variant=variant, seats=seats, computers=robots, policy=policy))

    async def _ask_host(self, request) -> bool:
        """A join request: the host's person decides, comparing the safety code aloud.

        Requests wait their turn, oldest first, one dialog at a time; a request whose asker
        leaves (gives up, quits) is withdrawn by the peer, and its dialog closes at once.
        """
        if online.came_by_code(self, request):
            return True              # the code was the invitation, and it proved the key
        self.asking.append(request)
        self._show_queue()
        dialog: InviteScreen | None = None
        try:
            if len(self.asking) > 1:
                self.say(_("{player} asks too; after {first}.").format(player=request.peer.name,
                                                                       first=self.asking[0].peer.name))
            async with self._invite_turn:
                answer: asyncio.Future = asyncio.get_running_loop().create_future()
                table = ""
                if self.pending is not None and self.pending.game is not None:
                    table = f"{self.pending.game.name}, {self.pending.variant}, " + ngettext(
                        "{n} seat", "{n} seats", self.pending.players).format(n=self.pending.players)

                def decided(ok: bool | None) -> None:
                    if not answer.done():
                        answer.set_result(bool(ok))

                later = len(self.asking) - 1
                known = self.known.check(request.peer.name, request.peer.key)
                dialog = InviteScreen(request.peer.name, request.peer.fingerprint,
                                      f"{request.address[0]}:{request.address[1]}", request.safety_code, table,
                                      waiting=later, known=known, own_part=safety_part(self.identity.public))
                self.app.push_screen(dialog, decided)
                ok = await answer
                dialog = None
        except asyncio.CancelledError:
            if dialog is not None and dialog.is_current:
                dialog.dismiss(False)
            self.say(_("{player} gave up asking (nothing was answered); your table stays open.").format(
                player=request.peer.name))
            raise
        finally:
            self.asking.remove(request)
            self._show_queue()
        if not ok:
            self.say(_("You declined {player}; your table stays open.").format(player=request.peer.name))
        elif not self.known.remember(request.peer.name, request.peer.key):  # compared (or known): remembered
            self.say(self.known.warning or "", error=True)
        else:
            self.query_one(KnownPeerList).refresh_marks()
        return ok

    def _show_queue(self) -> None:
        """The open join dialog says how many requests wait after it."""
        screen = self.app.screen
        if isinstance(screen, InviteScreen):
            screen.set_waiting(max(len(self.asking) - 1, 0))

    def action_close_table(self) -> None:
        pending = self.pending
        if pending is None:
            return
        self._unfollow()
        if self.hosting:
            pending.forget_if_unjoined()
        self.run_worker(pending.aclose(), group="close", exit_on_error=False)
        self.say(_("Table closed.") if self.hosting else _("Join cancelled."))

    def watch_table(self, advert: Advert) -> None:
        """Watch a table under way, unless this app is seated at it (Enter and w alike)."""
        if self.query_one(KnownPeerList).is_own(advert):
            self.say(_("You are seated at this game: r resumes it."), error=True)
            return
        super().watch_table(advert)

    # -- joining
    def on_peer_list_join_wanted(self, message: PeerList.JoinWanted) -> None:
        advert: Advert = message.advert
        if watchable(advert):
            self.watch_table(advert)
            return
        if advert.table is None:
            self.say((_("{player} is in the lobby, with no open table.") if advert.lobby
                      else _("{player} has no open table.")).format(player=advert.name), error=True)
            return
        if advert.table.free <= 0:
            self.say(_("{player}'s table is full.").format(player=advert.name), error=True)
            return
        self.join((advert.address, advert.port), fingerprint=advert.fingerprint, game=advert.table.game,
                  variant=advert.table.variant, who=advert.name, seats=advert.table.seats)
        check = self.known.check_fingerprint(advert.name, advert.fingerprint)
        if self.pending is not None and check.status == CHANGED:
            self.say(check.text, error=True)

    def action_invite_online(self) -> None:
        online.invite_over_internet(self)

    def action_join_code(self) -> None:
        online.join_with_code(self)

    def action_join_address(self) -> None:
        dialog = JoinAddressScreen()

        def chosen(address: tuple[str, int] | None) -> None:
            if address is None:
                return
            heard = [a for a in self.query_one(PeerList).adverts.values()
                     if (a.address, a.port) == address and a.table is not None]
            self.join(address, seats=heard[0].table.seats if heard else dialog.seats)  # the advert knows best

        self.app.push_screen(dialog, chosen)

    def join(self, address: tuple[str, int], *, fingerprint: str | None = None, game: str = "",
             variant: str = "standard", who: str = "", seats: int = 2) -> None:
        """Ask the host at ``address`` for a free seat at its table of ``seats`` (0: whatever it seats)."""
        if self.pending is not None:
            self.say("You already have a table open or a join under way (close it first: c).", error=True)
            return
        try:
            if not self.interfaces:
                raise RulesError("joining needs a LAN interface to listen on for the other players")
            controller = NetworkGame.join(
                self.identity, self.display_name, self.log_dir, address, interfaces=self.interfaces,
                players=seats, expect_fingerprint=fingerprint, game=game, variant=variant,
                discover=self.discover, games=self.resolve, options=self.peer_options(),
                bot=_chosen(self.query_one("#lan-bot", Select), DEFAULT_BOT), **online.lan_servers(self))
        except (RulesError, OSError, ValueError) as e:
            self.say(_("Cannot join: {reason}").format(reason=say_refusal(e)), error=True)
            return
        self.hosting = False
        controller.host_name = who
        controller.known = self.known
        self._follow(controller)
        self.say(_("Asking {who} at {address} for a seat... (the host checks the safety code with you)").format(
            who=who or _("the host"), address=f"{address[0]}:{address[1]}"))

    # -- until the board shows
    def _follow(self, controller: NetworkGame) -> None:
        self.pending = controller
        controller.known = self.known     # also whom a table of known peers lets watch
        self._announced = False
        self.query_one("#close-table", Button).disabled = False
        self.query_one("#invite-online", Button).disabled = not self.hosting
        controller.subscribe(self._pending_changed)
        controller.start()
        self.run_worker(self._until_ready(controller), group="pending", exit_on_error=False)

    def _unfollow(self) -> None:
        if self.pending is not None:
            self.pending.unsubscribe(self._pending_changed)
        self.pending = None
        self.query_one("#close-table", Button).disabled = True
        self.query_one("#invite-online", Button).disabled = True
        self.show_table(None)

    def _pending_changed(self, change=None) -> None:
        controller = self.pending
        if controller is None or controller.ready.is_set():
            return
        self.show_table(controller)
        if self.hosting and controller.listening is not None and not self._announced:
            self._announced = True
            ip, port = controller.listening
            said = (_("Your table is open at {address}: waiting for a player (they see it in their lobby, or join "
                      "{address}).") if controller.players <= 2 else
                    _("Your table is open at {address}: waiting for the other players (they see it in their lobby, "
                      "or join {address})."))
            self.say(said.format(address=f"{ip}:{port}"))
        if not self.hosting and controller.failure is None:
            # where the request stands now, and the safety code to compare (the table panel may be
            # scrolled out of a small terminal)
            self.say("\n".join(controller.seating_lines()))

    def show_table(self, controller: NetworkGame | None) -> None:
        """The table we host or joined, seat by seat (computers marked), until the board shows."""
        lines = controller.table_lines() if controller is not None else []
        text = (_("Your table:") if self.hosting else _("The table:")) + "\n" + "\n".join(lines) if lines else ""
        self.query_one("#lobby-table", Static).update(Text(text))  # names are not markup: "[computer] ..."
        policy = controller.policy_text() if controller is not None and lines else ""
        self.query_one("#lobby-policy", Static).update(Text(policy[:1].upper() + policy[1:]))

    async def _until_ready(self, controller: NetworkGame) -> None:
        await controller.ready.wait()
        if controller is not self.pending:
            return  # closed meanwhile
        self._unfollow()
        if not controller.board_ready:
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


def _describe_meta(meta_path: Path, me: bytes | None = None, games=None) -> str:
    """'pagode with Bob, Cy (you host, table ...)' for an unfinished game's meta file; never raises.

    The others are the seats whose key is not ``me`` (two players may well share a name)."""
    try:
        meta = json.loads(meta_path.read_text())
        if meta.get("seats"):
            mine = me.hex() if me is not None else None
            other = ", ".join(str(s.get("name") or "") or fingerprint(bytes.fromhex(s["key"])) for s in meta["seats"]
                              if (s.get("key") != mine if mine else s.get("name") != meta.get("name")))
        else:
            other = fingerprint(bytes.fromhex(meta["peer"])) if meta.get("peer") else _("nobody yet")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return meta_path.stem
    game = _game_name(str(meta["game"]), games) if meta.get("game") else _("a game")
    said = (_("{game} with {other} (you host, table {table})") if meta.get("role") == "host"
            else _("{game} with {other} (you joined, table {table})"))
    return said.format(game=game, other=other, table=meta_path.stem[:8])


def _chosen(select: Select, default):
    return default if select.value is Select.BLANK else select.value


def _default_variant(game: Game) -> str:
    return "standard" if "standard" in game.variants else game.variants[0]


def _plays_lan(game: Game) -> bool:
    return bool(_seat_options(game))


def _seat_options(game: Game) -> list[tuple[str, int]]:
    """The table sizes the game takes (every peer linked with every other, whatever the size)."""
    out = []
    for n in range(max(game.min_players, 2), min(game.max_players, 16) + 1):
        try:
            game.check_options(n, _default_variant(game))
        except RulesError:
            continue
        out.append((f"{n}" + (" " + _("(you and one other)") if n == 2 else ""), n))
    return out


def _default_seats(game: Game) -> int:
    return _seat_options(game)[0][1]


CLAIM_TIMES = (60.0, 120.0, 300.0, 600.0)
"""The claim times the form offers (seconds)."""


def _claim_options(default: float) -> list[tuple[str, float]]:
    """1, 2, 5 or 10 minutes, and the lobby's own claim time if it is none of those (tests: seconds)."""
    values = list(CLAIM_TIMES)
    if float(default) not in values:
        values = sorted(values + [float(default)])
    return [(_("{minutes:g} min").format(minutes=v / 60) if v % 60 == 0 else clock(v), v) for v in values]


DEFAULT_ON_GONE = "end"

MOVE_CLOCKS = (120.0, 300.0, 600.0, 1800.0)
"""The move clocks the form offers (seconds), and none."""

SPECTATOR_WORDS = {WATCH_ASK: N_("ask me"), WATCH_KNOWN: N_("players I know"), WATCH_EVERYONE: N_("anyone"),
                   WATCH_OFF: N_("nobody")}
"""The lobby's words for who may watch a table (protocol.session.WATCH_MODES)."""

UNDO_WORDS = {UNDO_OFF: N_("never"), UNDO_ASK: N_("if every other player says yes")}
"""The lobby's words for whether a player may take back their last move (protocol.session.UNDO_MODES, signed in
the table: docs/client.md, "Undo")."""

DEFAULT_MOVE_CLOCK = 600.0
"""Ten minutes a move: generous for a table of friends, and a player who never moves can be claimed."""


def _move_clock_options(current: float) -> list[tuple[str, float]]:
    """2, 5, 10 or 30 minutes, none, and the lobby's own move clock if it is none of those (tests: seconds)."""
    values = list(MOVE_CLOCKS)
    if current and float(current) not in values:
        values = sorted(values + [float(current)])
    return [(_("{minutes:g} min").format(minutes=v / 60) if v % 60 == 0 else clock(v), v) for v in values] + [
        (_("no limit"), 0.0)]


def _computer_options(seats: int) -> list[tuple[str, int]]:
    """0 to seats-1 computer seats (all but you: a signed game on this machine)."""
    return [(_("none"), 0)] + [(str(k), k) for k in range(1, seats)]


DEFAULT_BOT = "ismcts:normal" if "ismcts:normal" in BOT_KINDS else "greedy"


__all__ = ["LobbyScreen"]
