"""The table chat pane: the lines said at the table, and a line to say one.

Composed by the network game screens (:class:`client.screens.network.NetworkSide`) and by the
watch screen (:mod:`client.screens.watch`). The pane is a column docked on
the right, over the board's edge; F3 (or a click on the footer's *Chat*)
shows it with the cursor in its input, or hides it; Escape in the input
goes back to the board. A line said while the pane is hidden pops up as a
short notification.

Everything said is shown as a :class:`rich.text.Text`, never as markup: the
protocol already removed control characters (:func:`protocol.net.chat.clean`),
and ``[bold]`` in a message is shown as typed. What the protocol refuses
(too long, too many) is one line in the pane, in red.
"""

from __future__ import annotations

import inspect
import time
from typing import Awaitable, Callable

from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Input, Label, Static

from lanterne.client.i18n import N_, _
from lanterne.protocol.net.chat import MAX_CHARS, ChatError, ChatLine, clean

KEPT = 200
"""Lines the pane shows (the companion file keeps every one)."""
CHAT_KEY = "f3"
CHAT_BINDING = Binding(CHAT_KEY, "toggle_chat", N_("Chat"))
"""The game screens' key (and footer entry) that shows or hides the chat pane."""


def chat_text(line: ChatLine) -> Text:
    """One chat line for the screen: when we heard it (never the time its author signed), who (a spectator
    marked), what; no markup anywhere."""
    text = Text()
    text.append(time.strftime("%H:%M ", time.localtime((line.at or line.ts) / 1000)), style="dim")
    style = "bold green" if line.mine else ("bold" if line.seat is not None else "italic")
    text.append(clean(line.who, 60), style=style)
    text.append(": ")
    text.append(line.text)
    return text


class ChatInput(Input):
    """The pane's input: Enter says it; Escape goes back to the board (not the screen's Leave).

    Escape is a priority binding, so the focus has left the input before the next key typed is
    routed: keys typed right after Escape go to the board, in order (:mod:`client.keys`).
    """

    BINDINGS = [Binding("escape", "back_to_board", N_("Board"), show=False, priority=True)]

    def action_back_to_board(self) -> None:
        self.screen.set_focus(None)
        if self.screen.has_class("-compact") and self.screen.has_class("-chat"):
            self.screen.action_toggle_chat()     # the pane took the board's place: give it back


class ChatPane(Vertical):
    """The chat lines and an input; ``send`` says a line (may be async; raises ChatError in one line)."""

    DEFAULT_CSS = """
    ChatPane { dock: right; width: 40; height: 100%; background: $panel; border-left: solid $accent;
               padding: 0 1; }
    ChatPane > #chat-title { text-style: bold; }
    ChatPane > #chat-scroll { height: 1fr; }
    ChatPane #chat-log { width: 1fr; height: auto; }
    ChatPane > #chat-error { height: auto; color: $error; }
    ChatPane > ChatInput { height: 3; }
    """

    class Said(Message):
        """A line was said here (sent, or refused: ``error``)."""

        def __init__(self, text: str, error: str | None = None):
            super().__init__()
            self.text, self.error = text, error

    def __init__(self, send: Callable[[str], object], *, title: str = N_("Table chat"), **kwargs):
        super().__init__(**kwargs)
        self.send = send
        self.title = title
        self.lines: list[ChatLine] = []
        self.errors: list[str] = []
        self._asked: str | None = None
        """A line starting with ':' that Enter was pressed on once: said only when Enter comes again."""

    def compose(self):
        yield Label(Text(_("{title} ({key} hides)").format(title=_(self.title), key=CHAT_KEY.upper())), id="chat-title")
        with VerticalScroll(id="chat-scroll", can_focus=False):
            yield Static("", id="chat-log")
        yield Static("", id="chat-error")
        yield ChatInput(placeholder=_("say something (at most {n} characters)").format(n=MAX_CHARS), max_length=MAX_CHARS * 2,
                        id="chat-input", compact=True)

    def add(self, line: ChatLine, quiet: bool = False) -> None:
        """Show one line said at the table (ours too); ``quiet``: an old line (a resumed game's), no pop-up."""
        self.lines.append(line)
        self._draw_lines()
        if not self.display and not quiet:
            self.app.notify(chat_text(line).plain[:120], title=_("Chat"), timeout=4, markup=False)

    def on_mount(self) -> None:
        self._draw_lines()        # lines added before the pane was composed (a resumed game's history)

    def _draw_lines(self) -> None:
        logs = self.query("#chat-log")
        if logs:
            logs.first(Static).update(self.text)
            self.query_one("#chat-scroll", VerticalScroll).scroll_end(animate=False)

    @property
    def text(self) -> Text:
        """The last lines said (at most ``KEPT``), one a line."""
        return Text("\n").join(chat_text(line) for line in self.lines[-KEPT:])

    def error(self, text: str) -> None:
        self.errors.append(text)
        self.query_one("#chat-error", Static).update(Text(text))

    def open(self) -> None:
        self.display = True
        self.query_one(ChatInput).focus()

    def close(self) -> None:
        self.display = False

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not isinstance(event.input, ChatInput):
            return
        text = event.value
        if text.lstrip().startswith(":") and text != self._asked:
            self._asked = text          # a move typed into the chat by mistake is never said silently
            self.error(_("This line starts with ':', like a move. Enter again says it at the table; "
                         "Escape, then ':', plays a move."))
            return
        self._asked = None
        try:
            sent = self.send(text)
            if inspect.isawaitable(sent):
                await sent
        except ChatError as e:
            self.error(str(e))
            self.post_message(self.Said(text, str(e)))
            return
        event.input.value = ""
        self.query_one("#chat-error", Static).update("")
        self.post_message(self.Said(text))


__all__ = ["CHAT_BINDING", "CHAT_KEY", "ChatInput", "ChatPane", "chat_text"]
