"""The invitation dialogs: a host accepts or declines a joiner; a joiner types HOST:PORT.

The host sees the joiner's proven name, key fingerprint and the safety code
(the same code shows on both screens): the two players compare it aloud
before the host accepts, so nobody in between can pass for the other. The
code (60 digits: each key's 30) shows as two lines of six groups of 5, one
line per key. What the list of known players says comes above it: a name met
before with this key (comparing again is optional), a name met with another
key (a warning: compare again), a key met under another name, or nobody met.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Select, Static

from lanterne.client.i18n import N_, _, ngettext
from lanterne.client.known_peers import CHANGED, Check
from lanterne.protocol.identity import safety_lines
from lanterne.protocol.net.invite import parse_address

CODE_LABEL = N_("Safety code  ")


def code_block(code: str, own_part: str = "", label: str = "") -> str:
    """A safety code as lines of 6 groups (one key each) after ``label``; the line of ``own_part`` says (you)."""
    pad = " " * len(label)
    out = []
    for i, line in enumerate(safety_lines(code)):
        mine = bool(own_part) and line.replace(" ", "") == own_part
        out.append((label if i == 0 else pad) + line + ("  " + _("(you)") if mine else ""))
    return "\n".join(out)


class InviteScreen(ModalScreen[bool]):
    """Someone asks for the free seat: accept (True) or decline (False)."""

    BINDINGS = [Binding("a", "accept", N_("Accept")), Binding("d,escape", "decline", N_("Decline"))]
    DEFAULT_CSS = """
    InviteScreen #invite-code { text-style: bold; color: $accent; margin: 1 0 0 0; }
    InviteScreen #invite-queue.-empty { display: none; }
    InviteScreen #invite-known.-known, InviteScreen #invite-known.-renamed { color: $success; }
    InviteScreen #invite-known.-changed { color: $text; background: $error; text-style: bold; }
    InviteScreen #invite-compare { margin: 1 0 0 0; }
    """

    def __init__(self, name: str, fingerprint: str, address: str, safety_code: str, table: str = "",
                 waiting: int = 0, known: Check | None = None, own_part: str = ""):
        super().__init__()
        self.own_part = own_part
        """Our key's 30 digits (:func:`protocol.identity.safety_part`): its line of the code is marked (you)."""
        self.known = known
        """What the list of known players says of this name and key (None: no list)."""
        self.joiner = name
        self.fingerprint = fingerprint
        self.address = address
        self.safety_code = safety_code
        self.table = table
        self.waiting = waiting
        """Requests waiting after this one (each gets its own dialog, in the order they came)."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="invite-box"):
            yield Static(_("Join request"), classes="screen-title")
            # names are not markup: "[x] Bob" must show as it is
            yield Static(Text(_("{name} asks to sit at your table ({table}).").format(
                name=self.joiner, table=self.table)
                              if self.table else _("{name} asks to sit at your table.").format(name=self.joiner)),
                         id="invite-who")
            yield Static(_("Key {fingerprint}, from {address}").format(
                fingerprint=self.fingerprint, address=self.address),
                         classes="muted", id="invite-key")
            known = self.known
            if known is not None:
                yield Static(Text(known.text), id="invite-known", classes=f"-{known.status}")
            yield Static(self.code_text(), id="invite-code")
            # one line each at 80x24 (58 columns): the tallest dialog must still fit 21 rows
            if known is not None and not known.compare:
                compare = _("You may compare it again: both screens show the same.")
            elif known is not None and known.status == CHANGED:
                compare = _("Compare it aloud again: accept only if both show it.")
            else:
                compare = _("Compare it aloud: accept only if both screens show it.")
            yield Static(compare, classes="muted", id="invite-compare")
            yield Static(self._queue_text(), classes="muted" + (" -empty" if not self.waiting else ""),
                         id="invite-queue")
            with Horizontal(classes="buttons"):
                yield Button(_("Accept \\[a]"), id="invite-accept", variant="primary")
                yield Button(_("Decline \\[d]"), id="invite-decline", variant="error")

    def code_text(self) -> str:
        """The code as two lines of 6 groups (one key's 30 digits each), under its label; ours marked (you)."""
        return code_block(self.safety_code, self.own_part, _(CODE_LABEL))

    def _queue_text(self) -> str:
        if not self.waiting:
            return ""
        return ngettext("{n} more request waits after this one.", "{n} more requests wait after this one.",
                        self.waiting).format(n=self.waiting)

    def set_waiting(self, waiting: int) -> None:
        """Requests that came (or left) while this dialog is open."""
        self.waiting = waiting
        if self.is_mounted:
            queue = self.query_one("#invite-queue", Static)
            queue.update(self._queue_text())
            queue.set_class(not waiting, "-empty")

    def on_mount(self) -> None:
        self.query_one("#invite-decline").focus()

    def action_accept(self) -> None:
        self.dismiss(True)

    def action_decline(self) -> None:
        self.dismiss(False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "invite-accept")


class JoinAddressScreen(ModalScreen[tuple[str, int] | None]):
    """Join by HOST:PORT, where multicast discovery is blocked. Dismissed with the address, or None.

    The table's size is asked too (:attr:`seats`): a table of 3 or more links
    every peer with every other, and nothing at an address says which it is.
    """

    def __init__(self, seats: int = 2):
        super().__init__()
        self.seats = seats

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="address-box"):
            yield Static(_("Join by address"), classes="screen-title")
            yield Static(_("The host's address and port, as its lobby shows them (e.g. 192.168.1.20:41234)."),
                         classes="muted")
            yield Input("", placeholder=_("HOST:PORT"), id="address-input")
            yield Static(_("Seats at that table (its host's lobby says it)"), classes="muted")
            yield Select([(str(n), n) for n in range(2, 9)], value=self.seats, allow_blank=False, compact=True,
                         id="address-seats")
            yield Static("", id="address-error", classes="status")
            with Horizontal(classes="buttons"):
                yield Button(_("Join"), id="address-join", variant="primary")
                yield Button(_("Cancel"), id="address-cancel")

    def on_mount(self) -> None:
        self.query_one("#address-input").focus()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def _submit(self) -> None:
        text = self.query_one("#address-input", Input).value.strip()
        address = parse_address(text)
        if address is None:
            error = self.query_one("#address-error", Static)
            error.update(_("Not HOST:PORT: {text!r} (a port is 1..65535)").format(text=text) if text
                         else _("Type the host's HOST:PORT"))
            error.set_class(True, "-error")
            return
        seats = self.query_one("#address-seats", Select).value
        self.seats = seats if isinstance(seats, int) else 2
        self.dismiss(address)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "address-join":
            self._submit()
        else:
            self.dismiss(None)
