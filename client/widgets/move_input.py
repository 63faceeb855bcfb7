"""The move line (``:``): what is typed there is never lost.

Enter hands the text to the screen *and empties the line at once*, in the
order of the keys: a move typed right after Enter (type-ahead, a paste, a
fast typist) lands in an empty line. The old line emptied itself later, when
the screen had played the move, and so erased whatever had been typed in the
meantime. A move the rules refuse comes back into the line (if nothing new
was typed since) so it can be corrected.

Escape in a line holding text empties it (a second Escape is the screen's:
leave); ":" is the screen's key, never a letter of the line (no move
notation has one): it starts a new move, and the letters after it replace
what an abandoned line holds instead of extending it.
"""

from __future__ import annotations

from textual.widgets import Input


class MoveInput(Input):
    def check_consume_key(self, key: str, character: str | None) -> bool:
        """"?" and ":" are no part of any move: they stay the screen's keys (the list of legal moves, the line)."""
        return character not in ("?", ":") and super().check_consume_key(key, character)

    async def _on_key(self, event) -> None:
        # Enter is taken here, in the order the keys came. Left to the bindings, it would travel up to
        # the app and back (a binding is looked up after the key bubbles), and the letters typed
        # right after it would reach this line first: "c1 r" Enter "end" read as "c1 rend".
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            await self.action_submit()
            return
        if event.key == "escape" and self.value:
            event.stop()
            event.prevent_default()
            self.value = ""
            return
        await super()._on_key(event)

    async def action_submit(self) -> None:
        text = self.value
        self.value = ""  # now, before the keys that follow Enter are read
        self.post_message(self.Submitted(self, text, None))

    def give_back(self, text: str) -> None:
        """Put a refused move back to be corrected, unless something new was typed already."""
        if not self.value and text:
            self.value = text
            self.cursor_position = len(text)
