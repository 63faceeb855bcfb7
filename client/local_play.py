"""Setting up a local game: who plays each seat, which seed, which screen."""

from __future__ import annotations

import logging
import secrets
from pathlib import Path

from lanterne.client.thinking import Thinker
from lanterne.client.local_record import RecordedGame, fresh_secret
from lanterne.engines.bots import make_bot
from lanterne.engines.core import Game
from lanterne.engines.registry import GAMES, get_game
from lanterne.client.controller import LocalGame, PlayedHere
from lanterne.client.i18n import _
from lanterne.client.levels import LEVELS, computer_name

log = logging.getLogger(__name__)

HOT_SEAT = "hot-seat"
VS_COMPUTER = "vs"
WATCH = "watch"
"""Computers at every seat; the person watches (the pause after each move sets the speed)."""


MOVE_SECONDS = 0.9
"""A computer's move in the app takes at most this long (the search stops early; measured runs are uncapped)."""
HARD_MOVE_SECONDS = 3.0
"""But ``ismcts:hard``, the level a player picks for a stronger game, may think this long: its iterations (about 4 x
normal's) take up to 2.5 s of CPU a move in Pandoria, and held to 0.9 s it won only half its games against normal."""


def move_seconds(bot: str) -> float:
    """The app's cap on a move of the computer player named ``bot``."""
    return HARD_MOVE_SECONDS if bot == "ismcts:hard" else MOVE_SECONDS


def playable_games() -> list[Game]:
    """The games that load, in registry order (a half-built engine is skipped, with one line in the log)."""
    out = []
    for key in GAMES:
        try:
            out.append(get_game(key))
        except Exception as e:  # noqa: BLE001 - an engine being written must not stop the app
            log.warning("%s: not offered, its engine does not load (%s: %s)", key, type(e).__name__, e)
    return out


def new_seed() -> str:
    return str(secrets.randbelow(10**6))


def make_local_game(game: Game, mode: str = HOT_SEAT, bot: str = "ismcts:normal", seed: int | str | None = None,
                    variant: str = "standard", players: int = 2, you: str = "You",
                    computer_delay: float = 0.0, save_to: Path | str | None = None) -> PlayedHere:
    """A LocalGame: everyone at this keyboard (hot-seat), or you as P1 against computers.

    With ``save_to`` (a folder: the app passes ``games/local`` of the data folder) the game is a
    :class:`~client.local_record.RecordedGame`: one signed session per seat, written to a log as it
    is played, resumable and verifiable. Without it, an open table in memory (nothing written).
    Raises RulesError (one line) for an unknown bot, variant or player count.
    """
    chosen = None if seed is None or seed == "" else seed
    seed = new_seed() if chosen is None else seed
    game.check_options(players, variant)
    if mode == HOT_SEAT:
        seats = [None] * players
        names = [you if i == 0 else _("Player {n}").format(n=i + 1) for i in range(players)]
    elif mode == VS_COMPUTER:
        make_bot(bot)  # fails early, with the list of bots
        seats = [None] + [make_bot(bot, f"{seed}/bot{i}", max_seconds=move_seconds(bot)) for i in range(1, players)]
        names = [you] + [computer_name(i, players) for i in range(1, players)]
    elif mode == WATCH:
        make_bot(bot)
        seats = [make_bot(bot, f"{seed}/bot{i}", max_seconds=move_seconds(bot)) for i in range(players)]
        names = [computer_name(i, max(players, 3)) for i in range(players)]
    else:
        raise ValueError(f"unknown mode {mode!r}")
    think = None
    if mode in (VS_COMPUTER, WATCH) and bot.startswith("ismcts"):
        think = Thinker()  # a search thinks in its own process: the screen never stalls (random, greedy: instant)
    if save_to is not None:
        bots = [None if p is None else bot for p in seats]
        secret = fresh_secret(chosen, save_to, (game.id, variant, mode, bots, names), names[0], players - 1)
        made: PlayedHere = RecordedGame(game, seats, names, seed=seed, secret=secret, folder=save_to, variant=variant,
                                        computer_delay=computer_delay, think=think, bots=bots)
    else:
        made = LocalGame(game, seats, names=names, seed=seed, variant=variant, computer_delay=computer_delay,
                         think=think)
    made.rematch = lambda: make_local_game(game, mode, bot, None, variant, players, you, computer_delay, save_to)
    return made


BOT_KINDS = tuple(LEVELS)
DEFAULT_BOT = "ismcts:normal"
"""The search player at its default level: the strongest that answers within 1 s (docs/benchmarks.md)."""
