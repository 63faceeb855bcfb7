"""The live list of Lanterne peers heard on the LAN, and their open tables.

Fed by :class:`protocol.net.discovery.Discovery` callbacks (add, update,
remove); every line says who (name, fingerprint), where, and which table is
open with how many free seats. Everything but the proven key is a hint.
"""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from lanterne.client.i18n import N_, _, ngettext
from lanterne.client.theme import CAUTION, GOOD
from lanterne.engines.registry import game_name
from lanterne.protocol.net.discovery import Advert

EMPTY = N_("(nobody heard on this network yet)")


def describe(advert: Advert) -> Text:
    """One line for a peer: name, fingerprint, address, table."""
    line = Text()
    line.append(advert.name or "?", style="bold")
    line.append(f"  {advert.fingerprint}  {advert.address or '?'}:{advert.port}  ", style="dim")
    if advert.table is None:
        line.append(_("no open table"), style="dim")
    else:
        table = f"{game_name(advert.table.game)} ({advert.table.variant})"
        if advert.table.seats != 2:
            table += ", " + _("table of {n}").format(n=advert.table.seats)
        if advert.table.free > 0:
            free = advert.table.free
            line.append(f"{table}: " + ngettext("{n} free seat", "{n} free seats", free).format(n=free),
                        style=f"bold {GOOD}")
        else:
            line.append(f"{table}: " + _("table full"), style=CAUTION)
    return line


class PeerList(OptionList):
    """Peers on the LAN; choosing one with a free seat asks to join its table."""

    DEFAULT_CSS = "PeerList { height: 1fr; min-height: 4; }"

    class JoinWanted(Message):
        def __init__(self, advert: Advert):
            super().__init__()
            self.advert = advert

    def __init__(self, own_fingerprint: str = "", **kwargs):
        super().__init__(**kwargs)
        self.own_fingerprint = own_fingerprint
        self.adverts: dict[str, Advert] = {}

    def on_mount(self) -> None:
        self._redraw()

    def _key(self, advert: Advert) -> str:
        return advert.instance or f"{advert.fingerprint}@{advert.address}:{advert.port}"

    def put(self, advert: Advert) -> None:
        """A peer was heard, or changed (its table, its address)."""
        if advert.fingerprint == self.own_fingerprint:
            return  # our own advert, heard back
        self.adverts[self._key(advert)] = advert
        self._redraw()

    def forget(self, advert: Advert) -> None:
        """A peer left (or stopped advertising)."""
        if self.adverts.pop(self._key(advert), None) is not None:
            self._redraw()

    def ordered(self) -> list[Advert]:
        return sorted(self.adverts.values(), key=lambda a: (a.table is None or a.table.free <= 0,
                                                            a.name.lower(), a.fingerprint))

    def line(self, advert: Advert) -> Text:
        """The list's line for one peer (a subclass may say more)."""
        return describe(advert)

    def _redraw(self) -> None:
        """Every line again; the highlight stays on the same peer, wherever a newcomer moves its line (a
        person about to press Enter on Bea's table never joins whoever was heard meanwhile)."""
        keep = self.highlighted
        kept = self.get_option_at_index(keep).id if keep is not None and keep < self.option_count else None
        self.clear_options()
        adverts = self.ordered()
        if not adverts:
            self.add_option(Option(Text(_(EMPTY), style="dim"), disabled=True))
            return
        keys = [self._key(a) for a in adverts]
        self.add_options([Option(self.line(a), id=key) for a, key in zip(adverts, keys)])
        if kept in keys:
            self.highlighted = keys.index(kept)
        else:
            self.highlighted = min(keep, len(adverts) - 1) if keep is not None else 0  # Enter joins at once

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        advert = self.adverts.get(event.option.id or "")
        if advert is not None:
            self.post_message(self.JoinWanted(advert))
