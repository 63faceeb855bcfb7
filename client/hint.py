"""A hint: what the computer (at the normal level) would play here, and why, in words.

The search player tries each move in many games it imagines from what the seat knows (the hidden
cards dealt at random); the move it tried most is its choice. The hint says that move in the
notation and in the engine's words, how many of the imagined games went that way, and the move it
tried next most. It thinks where the game's computers think (another process: the screen never
stalls). Local games only: at a network table a hint would be a player's private adviser.
"""

from __future__ import annotations

import os

from lanterne.client.i18n import _
from lanterne.client.local_play import move_seconds
from lanterne.engines.bots import make_bot

HINT_PLAYER = "ismcts:normal"
"""The computer a hint asks: the level a person reads as *normal*."""


async def hint_text(controller, seat: int, seed: str | None = None) -> tuple[object, str]:
    """The computer's move for ``seat`` here and its reasons in one paragraph: (action, words). ``seed``: the
    search's (a test's; by default one by chance, the search's time capped as a computer's move is)."""
    from lanterne.client.screens.moves import move_words

    game = controller.game
    view = controller.view(seat)
    player = make_bot(HINT_PLAYER, seed or f"hint-{os.urandom(4).hex()}",
                      max_seconds=None if seed else move_seconds(HINT_PLAYER))
    action = await controller.think(player, game, view, seat)
    labels = [s.label for s in controller.seats]

    def named(a) -> str:
        words = move_words(game, view, a, labels, seat)
        notation = controller.format(seat, a)
        return f"{notation} ({words})" if words else notation

    text = _("The computer (normal) would play {move}.").format(move=named(action))
    tries = list(getattr(player, "last_tries", []))
    total = sum(visits for _, visits in tries)
    mine = next((visits for a, visits in tries if a == action), 0)
    if total and mine:
        text += " " + _("Of {total} games it imagined from what you know, {n} went this way.").format(
            total=total, n=mine)
        others = [(a, visits) for a, visits in tries if a != action]
        if others:
            text += " " + _("Next best: {move}, {n} games.").format(move=named(others[0][0]), n=others[0][1])
    elif len(controller.legal_actions(seat)) == 1:
        text += " " + _("It is the only legal move.")
    else:       # (a turn planned ahead whose every line starts with this move: nothing left to weigh)
        text += " " + _("Every turn it planned from what you know starts with this move.")
    return action, text
