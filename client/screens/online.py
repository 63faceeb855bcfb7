"""Play with a friend anywhere: the lobby's "Invite over the internet" and "Join with a code".

The host opens a table as on the LAN, then asks for a code (:class:`InviteCodeScreen` shows it; a fresh
one follows for each further free seat); the friend types it (:class:`JoinCodeScreen`, the words
completed). The code authenticates both keys, so a guest who came by our code is seated without the
join dialog: the code was the invitation. The codes' wormhole processes live as long as the table
(``NetworkGame.companions``). docs/online.md.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Button, Input, Static

from lanterne.client.i18n import N_, _, say_refusal
from lanterne.client.net_controller import NetworkGame
from lanterne.engines.core import RulesError
from lanterne.protocol.net.online.code import OnlineError
from lanterne.protocol.net.online.control import clean_code
from lanterne.protocol.net.online.rendezvous import Rendezvous
from lanterne.protocol.net.online.servers import PUBLIC_MAILBOX, PUBLIC_RELAY, Servers, ServersError
from lanterne.protocol.net.online.table import Invitations
from lanterne.protocol.net.online.words import complete


EXAMPLE = "7-crossover-clockwork"
"""What a code looks like (the same in every language: the words are magic-wormhole's)."""


class CodeSuggester(Suggester):
    """Completes the word being typed from the code words (the right arrow or Tab takes it)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=False)

    async def get_suggestion(self, value: str) -> str | None:
        return complete(value)


class InviteCodeScreen(ModalScreen[None]):
    """The code to read to a friend, and where the invitation stands."""

    BINDINGS = [Binding("escape", "close", N_("Close"))]

    def __init__(self, code: str = "", mailbox: str = ""):
        super().__init__()
        self.code = code
        self.mailbox = mailbox

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="invite-code-box"):
            yield Static(_("Invite over the internet"), classes="screen-title")
            yield Static(self.code or _("Making a code at {mailbox}...").format(mailbox=self.mailbox),
                         id="invite-code")
            yield Static(_("Read it to your friend: in their lobby they pick Join with a code (k) and type it. "
                           "It works once, for one person; the key it finds is checked by the code."),
                         classes="muted")
            yield Static("", id="invite-code-status", classes="status")
            with Horizontal(classes="buttons"):
                yield Button(_("Close"), id="invite-code-close", variant="primary")

    def show_code(self, code: str) -> None:
        self.code = code
        self.query_one("#invite-code", Static).update(Text(code))
        self.show_status(_("Waiting for your friend..."))

    def show_status(self, text: str, error: bool = False) -> None:
        status = self.query_one("#invite-code-status", Static)
        status.update(Text(text))
        status.set_class(error, "-error")

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)


class JoinCodeScreen(ModalScreen[str | None]):
    """Asks for a friend's code; dismissed with it (canonical), or None."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel")), Binding("tab", "complete", N_("Complete"), show=False)]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="join-code-box"):
            yield Static(_("Join with a code"), classes="screen-title")
            yield Static(_("The code your friend read to you (Tab completes a word)."), classes="muted")
            yield Input("", placeholder=EXAMPLE, id="join-code-input", suggester=CodeSuggester())
            yield Static("", id="join-code-error", classes="status")
            with Horizontal(classes="buttons"):
                yield Button(_("Join"), id="join-code-join", variant="primary")
                yield Button(_("Cancel"), id="join-code-cancel")

    def on_mount(self) -> None:
        self.query_one("#join-code-input").focus()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_complete(self) -> None:
        field = self.query_one("#join-code-input", Input)
        completed = complete(field.value)
        if completed is not None:
            field.value = completed + "-"
            field.cursor_position = len(field.value)

    def _submit(self) -> None:
        text = self.query_one("#join-code-input", Input).value
        try:
            code = clean_code(text.rstrip("- "))
        except ValueError as e:
            error = self.query_one("#join-code-error", Static)
            error.update(Text(str(e) if text.strip() else _("Type the code your friend read to you")))
            error.set_class(True, "-error")
            return
        self.dismiss(code)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "join-code-join":
            self._submit()
        else:
            self.dismiss(None)


# -- what the lobby calls


def servers_of(lobby) -> tuple[Servers, bool]:
    """The mailbox and relay the lobby's codes use (its ``online_servers``, else the settings', else the public
    pair), and whether Dilation may offer this machine's addresses (``online_direct``). ServersError: one line."""
    servers = getattr(lobby, "online_servers", None)
    if servers is None:
        settings = lobby.settings
        servers = Servers(mailbox=getattr(settings, "mailbox", "") or PUBLIC_MAILBOX,
                          relay=getattr(settings, "relay", "") or PUBLIC_RELAY)
    return servers, getattr(lobby, "online_direct", True)


def lan_servers(lobby) -> dict:
    """What a LAN join adds so that, at a mixed table, it links with the guests that came by a code (by their
    pair's code, at the lobby's mailbox): ``servers`` and ``direct``, or nothing if the settings name no usable
    mailbox (the LAN seats still link)."""
    try:
        servers, direct = servers_of(lobby)
    except ServersError:
        return {}
    return {"servers": servers, "direct": direct}


def invitations_of(controller: NetworkGame | None) -> list[Invitations]:
    """The table's invitations so far (a failed one stays: the wormholes of the guests it seated carry them)."""
    return [c for c in controller.companions if isinstance(c, Invitations)] if controller is not None else []


def came_by_code(lobby, request) -> bool:
    """Whether a join request comes from a key our code let in (then the code was the invitation)."""
    return request.kind == "join" and any(request.peer.key in i.guests for i in invitations_of(lobby.pending))


def invite_over_internet(lobby) -> None:
    """The lobby's table gets a code for the next guest (shown in a dialog; again on a second press). With no table
    open yet, the form's table opens first: a person who wants to invite a friend need not know the two steps."""
    if lobby.pending is None:
        lobby.action_open_table()
        if lobby.pending is None:
            return          # (it said why)
    controller = lobby.pending
    if controller is None or not lobby.hosting:
        lobby.say(_("Open a table first (o), then invite a friend over the internet (i)."), error=True)
        return
    under_way = [i for i in invitations_of(controller) if i.open]
    if under_way:
        lobby.app.push_screen(InviteCodeScreen(under_way[0].code or "", mailbox=under_way[0].servers.mailbox))
        return
    try:
        servers, direct = servers_of(lobby)
    except ServersError as e:
        lobby.say(str(e), error=True)
        return
    dialog = InviteCodeScreen(mailbox=servers.mailbox)

    def on_code(code: str) -> None:
        if dialog.is_attached:
            dialog.show_code(code)
        lobby.say(_("Your code for the next player: {code} (i shows it again)").format(code=code))

    def on_error(line: str) -> None:
        if dialog.is_attached:
            dialog.show_status(line, error=True)
        lobby.say(_("{line}; your table stays open on the LAN.").format(line=line), error=True)

    def on_guest(connected) -> None:
        if dialog.is_current:
            dialog.dismiss(None)
        lobby.say(_("{fp} came with your code (its key is checked by the code): seating them...").format(
            fp=connected.fingerprint))

    rendezvous = Rendezvous(controller.peer, servers, direct)      # a restart meets the guests again by it
    invitations = Invitations(controller.peer, servers, on_code=on_code, on_error=on_error, on_guest=on_guest,
                              direct=direct, rendezvous=rendezvous)
    controller.companions += [invitations, rendezvous]
    lobby.app.push_screen(dialog)
    lobby.run_worker(rendezvous.run(), group="online", exit_on_error=False)

    async def invite() -> None:
        try:
            await invitations.first()
        except OnlineError as e:
            on_error(str(e))
            return
        await invitations.run()

    lobby.run_worker(invite(), group="online", exit_on_error=False)


def join_with_code(lobby) -> None:
    """Ask for a friend's code, then join its table over the code's link."""
    if lobby.pending is not None:
        lobby.say(_("You already have a table open or a join under way (close it first: c)."), error=True)
        return

    def chosen(code: str | None) -> None:
        if code is None:
            return
        try:
            servers, direct = servers_of(lobby)
            controller = NetworkGame.join(
                lobby.identity, lobby.display_name, lobby.log_dir, None, interfaces=lobby.interfaces or ["127.0.0.1"],
                games=lobby.resolve, options=lobby.peer_options(), code=code, servers=servers, direct=direct)
        except (RulesError, OSError, ValueError) as e:
            lobby.say(_("Cannot join: {reason}").format(reason=say_refusal(e)), error=True)
            return
        lobby.hosting = False
        controller.known = lobby.known
        lobby._follow(controller)
        lobby.say(_("Taking the code {code}... (the code checks the host's key: no safety code to compare)").format(
            code=code))

    lobby.app.push_screen(JoinCodeScreen(), chosen)
