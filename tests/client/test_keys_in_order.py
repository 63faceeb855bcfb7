"""Keys typed fast go where the keys before them sent the focus, in order.

In a LAN game a player said "third" in the chat, then typed Escape, ``:``,
a move and Enter at a person's speed: every player read "Ana: :c1 r" and the
move was not played. A terminal sends Escape as ESC, and ESC followed at once
by ``:`` looked like Alt+``:`` to Textual's parser, which dropped both the
Escape and the Alt. Here the bytes of a terminal go through Textual's own
parser and reach the app in one burst, as the driver hands them over.
"""

from __future__ import annotations

from textual._xterm_parser import XTermParser

from lanterne.client.keys import keep_alt, split_alt
from lanterne.client.widgets.chat import ChatInput, ChatPane
from tests.support.lobby import seated, turn_of, two_players
from tests.support.waiting import until


def typed(data: str) -> list:
    """The key events a terminal's bytes become, read in one burst (the end of input flushes a pending ESC)."""
    keep_alt()
    parser = XTermParser(debug=False)
    return list(parser.feed(data)) + list(parser.feed(""))


def test_escape_then_a_named_key_typed_at_once_is_read_as_escape_then_that_key() -> None:
    keys = typed("\x1b:c1\r")
    assert [k.key for k in keys] == ["alt+colon", "c", "1", "enter"]
    assert [k.key for k in split_alt(keys[0])] == ["escape", "colon"]
    assert [k.key for k in split_alt(typed("\x1bq")[0])] == ["escape", "q"]
    assert split_alt(typed("q")[0]) is None


async def test_a_move_typed_right_after_leaving_the_chat_is_played_not_said(tmp_path) -> None:
    async with two_players(tmp_path, (80, 24), (80, 24)) as (pa, pb, ann, bob):
        screens = await seated(pa, pb, ann, bob)
        await until(lambda: turn_of(screens) is not None, pa, pb, what="someone's turn")
        mover, other = turn_of(screens)
        controller = screens[mover].controller
        seat = controller.my_seat
        move = controller.format(seat, controller.legal_actions(seat)[0])
        moves_before = len(controller.log)

        await mover.press("f3")
        await until(lambda: isinstance(mover.app.focused, ChatInput), mover, what="the chat input")
        await mover.press(*"third", "enter")
        await until(lambda: [x.text for x in other.app.screen.query_one(ChatPane).lines] == ["third"], mover, other,
                    what="the first line said")

        for key in typed(f"\x1b:{move}\r"):    # one burst, as a terminal delivers a fast typist's keys
            mover.app.post_message(key)
        await until(lambda: len(controller.log) > moves_before, mover, other, what="the move played")
        assert [x.text for x in mover.app.screen.query_one(ChatPane).lines] == ["third"]
        assert not isinstance(mover.app.focused, ChatInput)


async def test_a_chat_line_that_starts_with_a_colon_is_said_only_on_a_second_enter(tmp_path) -> None:
    async with two_players(tmp_path, (120, 40), (120, 40)) as (pa, pb, ann, bob):
        await seated(pa, pb, ann, bob)
        await pa.press("f3")
        await until(lambda: isinstance(pa.app.focused, ChatInput), pa, what="the chat input")
        pane = pa.app.screen.query_one(ChatPane)
        await pa.press(*":-)", "enter")
        assert pane.errors and "starts with ':'" in pane.errors[-1]
        assert pa.app.focused.value == ":-)", "the line stays, nothing is said"
        await pa.press("enter")
        await until(lambda: [x.text for x in pb.app.screen.query_one(ChatPane).lines] == [":-)"], pa, pb,
                    what="said on the second Enter")
