"""The chat pane never squeezes the board: it takes the side panel's place, or on a small terminal the board's.

At 80x24 F3 used to leave the board 40 columns ("Han" for the hand, buttons cut to "Lant Drago Dra"), and
at 120x40 it crowded in beside the side panel. The footer of an 80-column terminal shows F3 too.
"""

from __future__ import annotations

from lanterne.client.widgets.chat import ChatInput, ChatPane
from tests.support.lobby import seated, two_players
from tests.support.waiting import until


async def test_at_80x24_the_chat_takes_the_boards_place_and_escape_gives_it_back(tmp_path) -> None:
    async with two_players(tmp_path, (80, 24), (120, 40)) as (pa, pb, ann, bob):
        screens = await seated(pa, pb, ann, bob)
        small, big = screens[pa], screens[pb]
        await until(lambda: small.query(ChatPane) and big.query(ChatPane), pa, pb, what="the chat panes")
        footer_keys = [b.binding.key for b in small.active_bindings.values() if b.binding.show]
        assert footer_keys.index("f3") <= 1, "among the first keys of the footer"

        await pa.press("f3")
        await pa.pause()
        pane = small.query_one(ChatPane)
        await until(lambda: pane.display and pane.size.width > 0, pa,       # (a loaded machine: after a pause)
                    what=lambda: (f"the pane laid out (shown {pane.display}, {pane.size}, focus {pa.app.focused!r}, "
                                  f"screen {sorted(small.classes)} at {small.size}, body "
                                  f"{small.query_one('#game-body').display} {small.query_one('#game-body').size})"))
        assert pane.display and isinstance(pa.app.focused, ChatInput)
        assert not small.query_one("#game-main").display, "the board gives its place to the chat"
        assert pane.size.width >= 70, pane.size
        assert small.query_one("#status").display, "the status line stays in view"
        await pa.press("escape")
        await pa.pause()
        assert small.query_one("#game-main").display and not pane.display

        width = big.query_one("#game-main").size.width
        await pb.press("f3")
        await pb.pause()
        assert big.query_one(ChatPane).display and not big.query_one("#game-side").display
        assert big.query_one("#game-main").size.width >= width, "the board keeps its width"
