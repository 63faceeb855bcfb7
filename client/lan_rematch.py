"""A rematch of a finished LAN table: every seat asked, a new table of the same players and options.

The links of a finished table close once every peer has the end, so the question goes through the
lobby's own advert (``Advert.again``, a hint like every advert: what is proven is the new table's
handshake). A player who wants the rematch says ``again=<table>``, one who does not ``no:<table>``.
When every other person at the table said yes, the host opens a new table (a fresh table id, the same
game, variant, seats, computer seats, claim time, move clock and spectators; the deal fair as ever)
that seats only the keys of the old one, and says ``<table>@<port>`` in its advert; each guest then
joins it, expecting the host's key. A refusal, or a player whose app left the LAN, is said in one line.
Seat numbers follow the order the players join the new table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from lanterne.client.i18n import _
from lanterne.client.net_controller import NetworkGame, is_computer
from lanterne.protocol.identity import fingerprint

if TYPE_CHECKING:
    from lanterne.protocol.net.discovery import Advert

NO = "no:"
AT = "@"


def table_tag(controller: NetworkGame) -> str:
    """The old table, as the adverts name it: the first 16 hex digits of its id."""
    return controller.peer.table_id.hex()[:16]


@dataclass(frozen=True)
class Other:
    """Another person at the old table: how the lobby hears them."""

    name: str
    fingerprint: str
    key: bytes


@dataclass(frozen=True)
class Standing:
    """Where the rematch stands: one line for the player, and what to do now."""

    text: str
    ended: bool = False
    """A refusal or a player gone: no rematch."""
    open_table: bool = False
    """The host: everyone agreed, open the new table."""
    join: tuple[str, int] | None = None
    """A guest: the host's new table is open there."""


class LanRematch:
    """The rematch question of one finished table, read from the adverts the lobby hears."""

    def __init__(self, controller: NetworkGame):
        self.old = controller
        self.tag = table_tag(controller)
        me = controller.peer.me.public
        seats = controller.peer.seats
        self.host_key = seats[0].key if seats else b""
        self.others = [Other(s.name, fingerprint(s.key), s.key) for s in seats
                       if s.key != me and not is_computer(s.name)]
        self.opened = False

    @property
    def hosting(self) -> bool:
        return self.old.peer.is_host

    def yes(self) -> str:
        return self.tag

    def no(self) -> str:
        return NO + self.tag

    def opened_at(self, port: int) -> str:
        return f"{self.tag}{AT}{port}"

    def standing(self, adverts: list["Advert"]) -> Standing:
        """What the other players' lobby adverts say of the rematch now."""
        heard = {a.fingerprint: a for a in adverts if a.lobby}
        waiting = []
        for other in self.others:
            advert = heard.get(other.fingerprint)
            if advert is None:
                return Standing(_("No rematch: {player} left.").format(player=other.name), ended=True)
            answer = advert.again
            if answer == self.no():
                return Standing(_("No rematch: {player} declined.").format(player=other.name), ended=True)
            if not (answer == self.tag or answer.startswith(self.tag + AT)):
                waiting.append(other.name)
        if waiting:
            return Standing(_("Rematch: waiting for {players} to answer...").format(players=", ".join(waiting)))
        if self.hosting:
            return Standing(_("Rematch: everyone agreed; opening the new table..."), open_table=not self.opened)
        host = heard.get(fingerprint(self.host_key))
        if host is not None and host.again.startswith(self.tag + AT):
            port = host.again[len(self.tag + AT):]
            if port.isdigit() and 0 < int(port) < 65536 and host.address:
                return Standing(_("Rematch: joining the new table..."), join=(host.address, int(port)))
        return Standing(_("Rematch: everyone agreed; waiting for the host's new table..."))

    def accepts(self) -> Callable[[object], bool]:
        """The new table's join rule: the old table's people, and nobody else."""
        keys = {o.key for o in self.others}
        return lambda request: request.peer.key in keys     # type: ignore[attr-defined]
