"""The table chat pane: shown and hidden by F3 or a click, lines said in one app shown in the other."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from lanterne.client.widgets.chat import ChatInput, ChatPane
from lanterne.protocol.net.chat import MAX_CHARS
from tests.support.lobby import lobby_app, seated, unique
from tests.support.waiting import until


def pane_of(pilot) -> ChatPane:
    return pilot.app.screen.query_one(ChatPane)


def log_text(pane: ChatPane) -> str:
    """What the pane's log shows, its wrapped lines joined again."""
    return str(pane.query_one("#chat-log", Static).render()).replace(" ", "")


@pytest.mark.slow
async def test_the_chat_pane_hides_shows_and_sends_between_two_apps(tmp_path):
    ann, bob = unique("Ann"), unique("Bob")
    app_a = lobby_app(ann, tmp_path / "a")
    app_b = lobby_app(bob, tmp_path / "b")
    async with app_a.run_test(size=(120, 40)) as pa, app_b.run_test(size=(120, 40)) as pb:
        await seated(pa, pb, ann, bob)
        await until(lambda: pa.app.screen.query(ChatPane) and pb.app.screen.query(ChatPane), pa, pb,
                    what="the chat panes")
        pane_a, pane_b = pane_of(pa), pane_of(pb)
        assert not pane_a.display and not pane_b.display, "hidden at 120 columns: the board needs them"
        assert any(b.key == "f3" and b.description == "Chat" for b in pa.app.screen.active_bindings.values()
                   for b in [b.binding])

        await pa.press("f3")
        assert pane_a.display and isinstance(pa.app.focused, ChatInput)
        await pa.press(*"hi [bold]Bob[/bold]: ok?")
        assert pa.app.focused.value == "hi [bold]Bob[/bold]: ok?", "':' and '?' are letters here"
        await pa.press("enter")
        await until(lambda: pb.app.screen.controller.chat, pa, pb, what="Bob hears Ann")
        line = pb.app.screen.controller.chat[0]
        assert line.text == "hi [bold]Bob[/bold]: ok?" and line.name == ann and line.seat is not None
        await until(lambda: [x.text for x in pane_b.lines] == ["hi [bold]Bob[/bold]: ok?"], pa, pb,
                    what="in Bob's pane")
        await until(lambda: f"{ann}: hi [bold]Bob[/bold]: ok?".replace(" ", "") in log_text(pane_a), pa, what="our own line too")
        assert pa.app.focused.value == ""

        # too long: refused in one line, in the pane
        pa.app.focused.value = "x" * (MAX_CHARS + 1)
        await pa.press("enter")
        assert pane_a.errors == [f"a chat message is at most {MAX_CHARS} characters; this one has {MAX_CHARS + 1}"]

        await pa.press("escape")       # back to the board, the pane stays
        assert pane_a.display and not isinstance(pa.app.focused, ChatInput)
        assert type(pa.app.screen).__name__ != "LeaveScreen"
        await pa.press("f3")
        assert not pane_a.display

        # Bob by mouse: the footer's Chat entry shows the pane, and hides it again
        from textual.widgets._footer import FooterKey

        def chat_key():    # (the footer is drawn again as the focus moves: look it up each time)
            return [k for k in pb.app.screen.query(FooterKey) if k.key == "f3"][0]

        assert await pb.click(chat_key())
        await pb.pause()
        assert pane_b.display
        await until(lambda: f"{ann}: hi [bold]Bob[/bold]: ok?".replace(" ", "") in log_text(pane_b), pb, what="drawn once shown")
        await pb.press(*"hello Ann", "enter")
        await until(lambda: len(pa.app.screen.controller.chat) == 2, pa, pb, what="Ann hears Bob")
        assert await pb.click(chat_key())
        await pb.pause()
        assert not pane_b.display
